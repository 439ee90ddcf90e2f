"""`hulkforge sweep MISSION --set NAME=V1,V2,V3`: one batch per value, on shared seeds, as a table."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.sim.cli_support import (
    Progress,
    UsageError,
    add_batch_arguments,
    build_spec,
    dask_options,
    parse_value,
    pct,
    set_help_text,
    split_assignment,
)


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "sweep",
        help="run one batch per value of a rule option or mission parameter",
        description="Sweep one parameter: --set NAME=V1,V2,V3 runs one batch per value, every batch on the same "
        "game seeds, and prints win rates with Wilson 95% intervals and the paired difference to the first "
        "value. Other --set NAME=VALUE (one value) are held fixed. Ctrl-C or SIGTERM stops it and prints the values "
        "played. Exit 0: done; 1: a batch failed; 2: bad input; 130: Ctrl-C; 143: SIGTERM.",
    )
    add_batch_arguments(p, "NAME=V1,V2,... to sweep (exactly one), or NAME=VALUE held fixed; " + set_help_text())
    return p


def split_sweep(items: list[str]) -> tuple[str, list[Any], dict[str, Any]]:
    """(swept name, its values, fixed settings) from the --set items."""
    swept: list[tuple[str, list[Any]]] = []
    fixed: dict[str, Any] = {}
    for text in items:
        name, value = split_assignment(text, "--set")
        if "," in value:
            swept.append((name, [parse_value(v.strip()) for v in value.split(",") if v.strip()]))
        else:
            fixed[name] = parse_value(value)
    if len(swept) > 1:
        raise UsageError(f"sweep one parameter at a time, not {', '.join(n for n, _ in swept)}")
    if not swept:
        if len(fixed) != 1:
            raise UsageError("give the parameter to sweep as --set NAME=V1,V2,...")
        name, value = fixed.popitem()
        return name, [value], fixed
    return swept[0][0], swept[0][1], fixed


def run(args: argparse.Namespace) -> int:
    from engine.commands.playable import report_invalid
    from engine.mission.playable import InvalidMission
    from engine.sim.batch import BatchError, BatchResult, prepare_spec, run_batch
    from engine.sim.local import LocalPool
    from engine.sim.stopping import stop_exit_code, stop_name
    from engine.stats.sweep import compare_on_shared_seeds, sweep_curve

    try:
        name, values, fixed = split_sweep(args.sets)
        specs: list[Any] = []
        for v in values:
            specs.append(prepare_spec(build_spec(args, {**fixed, name: v}, like=specs[0] if specs else None)))
        dask = dask_options(args)
    except UsageError as exc:
        print(f"hulkforge sweep: {exc}", file=sys.stderr)
        return 2
    except InvalidMission as exc:
        return report_invalid("hulkforge sweep", exc)
    progress = Progress(args.games * len(values), "sweep: ")
    results: list[BatchResult] = []
    pool = LocalPool(args.workers) if args.backend == "local" else None
    try:
        for spec in specs:
            r = run_batch(spec, on_result=lambda _rec: progress.update(), backend=args.backend,
                          workers=args.workers, scheduler=args.scheduler, keep_records=False, pool=pool,
                          dask_options=dask)
            results.append(r)
            if r.status.stopped is not None:
                break
    except BatchError as exc:
        progress.close()
        print(f"hulkforge sweep: {exc}", file=sys.stderr)
        return 1
    finally:
        if pool is not None:
            pool.close()
    progress.close()
    done_values = values[: len(results)]
    stats = [r.stats for r in results]
    diffs = [compare_on_shared_seeds(s, stats[0]) for s in stats]
    if args.json:
        curves = {}
        for outcome in ("marines", "genestealers", "draw"):
            c = sweep_curve(done_values, stats, outcome)
            curves[outcome] = {"rate": c.rate.tolist(), "low": c.low.tolist(), "high": c.high.tolist()}
        out = {
            "parameter": name, "values": done_values, "games": args.games, "seed": args.seed,
            "fixed": fixed, "curves": curves,
            "marine_win_diff_vs_first": [{"diff": d, "ci95": [lo, hi]} for d, lo, hi in diffs],
            "results": [r.summary() for r in results],
        }
        print(json.dumps(out, indent=2, sort_keys=True))
    else:
        print(format_table(name, done_values, results, diffs, fixed))
    stopped = results[-1].status.stopped if results else None
    if stopped is not None:
        played = sum(r.stats.games + r.stats.failed for r in results)
        print(f"hulkforge sweep: stopped ({stop_name(stopped)}) at {name}={json.dumps(done_values[-1])}: "
              f"kept {played} finished games over {len(results)} of {len(values)} values (the table above)",
              file=sys.stderr)
    code = stop_exit_code(stopped)
    if code is not None:
        return code
    return 1 if any(r.stats.failed for r in results) else 0


def format_table(
    name: str, values: list[Any], results: list[Any], diffs: list[tuple[float, float, float]],
    fixed: dict[str, Any] | None = None,
) -> str:
    """The sweep as a fixed-width table."""
    first = results[0].summary() if results else {}
    held = "".join(f", {k}={json.dumps(v)}" for k, v in (fixed or {}).items())
    head = (f"sweep {name} on {first.get('mission')}: {first.get('games_requested')} games per value, "
            f"seed {first.get('seed')}, shared seeds{held}")
    width = max([len(name), *(len(json.dumps(v)) for v in values)])
    lines = [head, f"{name:<{width}}  games  Marines win  95% CI            Stealers win  draws   turns"
                   "  Marines vs first (paired 95% CI)"]
    for v, r, (d, lo, hi) in zip(values, results, diffs, strict=True):
        s = r.summary()
        mlo, mhi = s["marine_win_ci95"]
        lines.append(
            f"{json.dumps(v):<{width}}  {s['games']:>5}  {pct(s['marine_win_rate']):>11}  "
            f"[{pct(mlo)}, {pct(mhi)}]  {pct(s['genestealer_win_rate']):>12}  {pct(s['draw_rate'])}  "
            f"{s['mean_turns']:6.2f}  {100 * d:+6.1f} pts [{100 * lo:+.1f}, {100 * hi:+.1f}]"
        )
    return "\n".join(lines)
