"""How the local pool starts its workers: forked from a fork server that imported the engine once, else spawned."""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import engine.sim.local as local
from engine.ai.base import SIDES
from engine.resources import mission_path
from engine.sim.batch import run_batch
from engine.sim.local import LocalPool
from engine.sim.spec import BatchSpec

ROOT = Path(__file__).resolve().parents[2]
FORKSERVER = "forkserver" in multiprocessing.get_all_start_methods()


def test_the_pool_forks_its_workers_from_a_server_where_it_can_else_spawns(monkeypatch: pytest.MonkeyPatch) -> None:
    assert local.start_method() == ("forkserver" if FORKSERVER else "spawn")
    # The frozen bundle's workers are the executable started again (packaging/entry.py): always spawned.
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert local.start_method() == "spawn"


@pytest.mark.skipif(not FORKSERVER, reason="no fork server on this platform")
def test_forked_and_spawned_workers_play_the_same_games() -> None:
    # Real games, not the fake runner: what the server imported and froze (the players' registry, their tables)
    # must not change a single decision.
    spec = BatchSpec(games=6, seed=3, mission=mission_path("pitfall"),
                     policies={side: f"heuristic-{side}" for side in SIDES}, options={"turn_cap": 4})
    played = {}
    for method in ("forkserver", "spawn"):
        with LocalPool(2, method=method) as pool:
            played[method] = [r.to_json() for r in run_batch(spec, pool=pool).records]
    assert played["forkserver"] == played["spawn"]
    assert len({r["n_actions"] for r in played["spawn"]}) > 1  # six different games, not one game six times


def test_the_server_preloads_the_rules_the_players_and_the_runner() -> None:
    code = textwrap.dedent("""
        import sys
        import engine.sim.preload
        from engine.ai.base import _loaded
        print(all(m in sys.modules for m in ("engine.rules.game", "engine.sim.runner", "engine.ai.marines",
                                             "engine.ai.genestealers")), _loaded, "PySide6" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True", "False"]


@pytest.mark.skipif(not FORKSERVER, reason="no fork server on this platform")
def test_the_workers_cpu_time_counts_once_the_fork_server_is_stopped() -> None:
    # benchmarks.sim reads the batch's CPU time from RUSAGE_CHILDREN: the forked workers are the server's children,
    # so their time reaches this process only when the server ends. (In a process of its own: stopping the server
    # under the other tests' pools would leave them unable to tell whether their workers are alive.)
    code = textwrap.dedent("""
        import resource
        from engine.sim.batch import run_batch
        from engine.sim.local import stop_fork_server
        from engine.sim.spec import BatchSpec

        def children():
            r = resource.getrusage(resource.RUSAGE_CHILDREN)
            return r.ru_utime + r.ru_stime

        if __name__ == "__main__":
            before = children()
            result = run_batch(BatchSpec(games=4, seed=1, runner="fake"), workers=2)
            after_batch = children()
            stop_fork_server()
            print(result.stats.games, after_batch - before, children() - before)
    """)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    games, after_batch, after_stop = out.stdout.split()
    assert games == "4"
    assert float(after_stop) > float(after_batch)
