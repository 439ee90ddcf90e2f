"""Memory and time of the largest mission: validation, and one batch worker playing a few games.

    python tools/largest_mission.py /tmp/largest.json [--hall]
    python tools/measure_memory.py /tmp/largest.json [--games 3] [--top 15]

Each figure comes from a fresh process: `validate` is validate_document on the file (CPU seconds, peak
resident memory); `worker` plays the games of a batch's chunk exactly as a worker process does (the cached
runner: Board, AI tables, policies; then the games one after the other) and reports the peak resident memory
after building and after the games, and with --top the largest live allocations (tracemalloc) at the end.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def validate(path: str) -> dict[str, float]:
    from engine.mission import read_document, validate_document

    doc = read_document(path)
    start = time.process_time()
    issues = validate_document(doc)
    return {"cpu_s": round(time.process_time() - start, 2), "peak_mb": round(_maxrss_mb(), 1),
            "errors": sum(i.severity == "error" for i in issues)}


def worker(path: str, games: int, top: int) -> dict[str, object]:
    import tracemalloc

    from engine.mission import read_document
    from engine.sim.runner import iter_chunk, tune_gc_for_games
    from engine.sim.spec import BatchSpec

    if top:
        tracemalloc.start(4)
    tune_gc_for_games()
    spec = BatchSpec(games=games, seed=1, mission=path, mission_doc=read_document(path),
                     policies={"marines": "heuristic-marines", "genestealers": "heuristic-genestealers"})
    start = time.process_time()
    rows = iter_chunk(spec.to_json(), list(range(games)))
    first = next(rows)  # the runner is built on the first game
    after_first = _maxrss_mb()
    rest = list(rows)
    out: dict[str, object] = {
        "cpu_s": round(time.process_time() - start, 1), "peak_after_first_game_mb": round(after_first, 1),
        "peak_mb": round(_maxrss_mb(), 1), "turns": [r["turns"] for r in [first, *rest]],
        "errors": [r["error"] for r in [first, *rest] if r["error"]],
    }
    if top:
        snap = tracemalloc.take_snapshot()
        stats = snap.statistics("lineno")[:top]
        out["top"] = [f"{s.size / 2**20:7.1f} MB {s.count:>9} {s.traceback[0].filename.split('/hulkforge/')[-1]}:"
                      f"{s.traceback[0].lineno}" for s in stats]
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mission")
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--top", type=int, default=0, help="list the largest live allocations (slower: tracemalloc)")
    p.add_argument("--part", choices=("validate", "worker"), help=argparse.SUPPRESS)
    args = p.parse_args()
    sys.path.insert(0, str(ROOT))
    if args.part == "validate":
        print(json.dumps(validate(args.mission)))
        return 0
    if args.part == "worker":
        print(json.dumps(worker(args.mission, args.games, args.top)))
        return 0
    for part in ("validate", "worker"):
        done = subprocess.run([sys.executable, __file__, args.mission, "--part", part, "--games", str(args.games),
                               "--top", str(args.top)], capture_output=True, text=True, check=True)
        result = json.loads(done.stdout)
        tops = result.pop("top", [])
        print(f"{part}: {json.dumps(result)}")
        for line in tops:
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
