"""Batches on the fake game: reproducibility across workers and backends, streaming, cancel, dying workers."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import numpy as np
import pytest

from engine.sim.batch import BatchError, iter_batch, run_batch
from engine.sim.local import LocalPool, RunStatus
from engine.sim.record import GameRecord
from engine.sim.spec import BatchSpec, game_seed, game_seeds


@pytest.fixture(scope="module")
def pool1() -> Iterator[LocalPool]:
    # Pools shared by the tests of this module: starting worker processes is most of the cost.
    with LocalPool(1) as pool:
        yield pool


@pytest.fixture(scope="module")
def pool2() -> Iterator[LocalPool]:
    with LocalPool(2) as pool:
        yield pool


def fake_spec(games: int = 40, seed: int = 11, **runner_args: object) -> BatchSpec:
    return BatchSpec(games=games, seed=seed, runner="fake", runner_args=dict(runner_args))


def rows(records: list[GameRecord]) -> list[dict[str, object]]:
    return [r.to_json() for r in sorted(records, key=lambda r: r.index)]


def test_game_seeds_are_the_spawned_children_of_the_batch_seed() -> None:
    children = np.random.SeedSequence(2024).spawn(6)
    expected = [int(c.generate_state(1, dtype=np.uint64)[0]) & ((1 << 53) - 1) for c in children]
    assert [game_seed(2024, i) for i in range(6)] == expected
    assert game_seeds(2024, 2, 5) == [(i, expected[i]) for i in (2, 3, 4)]
    assert len(set(expected)) == 6


def test_same_seed_same_games_with_one_and_two_workers_and_a_reused_pool(
    pool1: LocalPool, pool2: LocalPool
) -> None:
    spec = fake_spec()
    one = run_batch(spec, pool=pool1)
    two = run_batch(spec, workers=2)  # a pool of its own, started and stopped by run_batch
    assert rows(one.records) == rows(two.records)
    assert [r.index for r in one.records] == list(range(40))
    assert one.stats.summary()["turns_histogram"] == two.stats.summary()["turns_histogram"]
    # Outcomes vary from game to game (the test would be vacuous on a constant game).
    assert len({r.winner for r in one.records}) >= 2
    other_seed = run_batch(fake_spec(seed=12), pool=pool2)
    assert rows(other_seed.records) != rows(one.records)
    again = run_batch(spec, pool=pool2)
    assert rows(again.records) == rows(one.records)
    third = run_batch(fake_spec(seed=12), pool=pool1)
    assert rows(third.records) == rows(other_seed.records)


def test_dask_local_cluster_gives_the_same_games(pool1: LocalPool) -> None:
    pytest.importorskip("distributed")
    from engine.sim.dask_backend import run_dask

    spec = fake_spec(games=24)
    local = run_batch(spec, pool=pool1)
    status = RunStatus()
    dask_records = list(run_dask(spec, list(range(24)), status, workers=2, processes=False))
    assert rows(dask_records) == rows(local.records)
    assert status.worker_deaths == 0


def test_dask_scheduler_address_on_loopback(pool1: LocalPool) -> None:
    distributed = pytest.importorskip("distributed")
    spec = fake_spec(games=10)
    local = run_batch(spec, pool=pool1)
    with distributed.LocalCluster(n_workers=1, processes=False, protocol="tcp://", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        result = run_batch(spec, backend="dask", scheduler=cluster.scheduler_address)
    assert rows(result.records) == rows(local.records)
    assert result.summary()["backend"] == "dask"


def test_dask_without_a_reachable_scheduler_is_a_batch_error() -> None:
    pytest.importorskip("distributed")
    from engine.sim.dask_backend import run_dask

    spec = fake_spec(games=2)
    with pytest.raises(BatchError, match="cannot reach the Dask scheduler"):
        list(run_dask(spec, [0, 1], RunStatus(), scheduler="tcp://127.0.0.1:1", connect_timeout="1s"))


def test_results_stream_while_the_batch_runs_and_subsets_replay_exactly(pool1: LocalPool, pool2: LocalPool) -> None:
    spec = fake_spec(games=30)
    seen: list[int] = []
    result = run_batch(spec, pool=pool2, on_result=lambda r: seen.append(r.index))
    assert sorted(seen) == list(range(30))
    subset = list(iter_batch(spec, pool=pool1, indices=[3, 17]))
    full = {r.index: r.to_json() for r in result.records}
    assert [r.to_json() for r in sorted(subset, key=lambda r: r.index)] == [full[3], full[17]]


def test_cancel_keeps_the_games_that_finished(pool1: LocalPool, pool2: LocalPool) -> None:
    spec = fake_spec(games=400)
    cancel = threading.Event()
    got: list[GameRecord] = []

    def on_result(rec: GameRecord) -> None:
        got.append(rec)
        if len(got) == 5:
            cancel.set()

    result = run_batch(spec, pool=pool2, on_result=on_result, cancel=cancel)
    assert result.status.stopped == "cancelled"
    assert 5 <= result.stats.games < 400
    assert len(result.records) == result.stats.games
    full = {r.index: r.to_json() for r in run_batch(fake_spec(games=400), pool=pool1).records}
    for rec in result.records:  # what was kept is exactly what the full batch has at that index
        assert rec.to_json() == full[rec.index]


def test_a_dying_worker_loses_one_game_and_the_batch_completes(pool1: LocalPool, pool2: LocalPool) -> None:
    spec = fake_spec(games=30, crash_index=7, crash_mode="exit")
    result = run_batch(spec, pool=pool2)
    assert result.status.worker_deaths == 1
    assert result.status.stopped is None
    assert result.stats.games == 29 and result.stats.failed == 1
    failed = [r for r in result.records if r.winner is None]
    assert [r.index for r in failed] == [7]
    assert "exit code 3" in (failed[0].error or "")
    healthy = {r.index: r.to_json() for r in run_batch(fake_spec(games=30), pool=pool1).records}
    for rec in result.records:
        if rec.index != 7:
            assert rec.to_json() == healthy[rec.index]


def test_chunks_shrink_toward_the_end_and_every_game_is_dealt_once(
    pool2: LocalPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A worker that gets a whole chunk just before the queue empties keeps the other idle until it finishes:
    # the last chunks are single games.
    from engine.sim import local

    dealt: list[list[int]] = []
    give = local._Worker.give

    def spy(self: local._Worker, spec_json: dict[str, object], indices: list[int]) -> None:
        dealt.append(list(indices))
        give(self, spec_json, indices)

    monkeypatch.setattr(local._Worker, "give", spy)
    result = run_batch(fake_spec(games=300), pool=pool2)
    assert result.stats.games == 300
    assert sorted(i for chunk in dealt for i in chunk) == list(range(300))
    assert max(len(c) for c in dealt) == local.chunk_size(300, 2)
    assert [len(c) for c in dealt[-3:]] == [1, 1, 1]


def test_workers_dying_again_and_again_stop_the_batch_instead_of_hanging() -> None:
    # A pool with no replacement budget: the first death stops the batch, which returns what it has.
    doomed = fake_spec(games=5, crash_index=0, crash_mode="exit")
    with LocalPool(1) as pool:
        pool.max_replacements = 0
        result = run_batch(doomed, pool=pool)
    assert result.status.stopped is not None and "died" in result.status.stopped
    assert result.stats.failed == 1 and result.stats.games == 0


def test_a_stuck_game_is_stopped_and_reported() -> None:
    with LocalPool(1) as pool:
        # Well above a fake game's few milliseconds, even on a loaded machine (1 s once stopped a healthy game).
        pool.game_timeout = 3.0
        result = run_batch(fake_spec(games=6, crash_index=2, crash_mode="hang"), pool=pool)
    assert result.stats.games == 5 and result.stats.failed == 1
    stuck = next(r for r in result.records if r.winner is None)
    assert stuck.index == 2 and "ran over 3 s" in (stuck.error or "")


def test_an_exception_in_one_game_is_a_failed_record_not_a_lost_batch(pool1: LocalPool) -> None:
    result = run_batch(fake_spec(games=12, crash_index=4, crash_mode="raise"), pool=pool1)
    assert result.stats.failed == 1 and result.stats.games == 11
    bad = next(r for r in result.records if r.index == 4)
    assert bad.winner is None and "crashed on purpose" in (bad.error or "")
    assert result.summary()["failed_games"] == 1


def test_a_mission_that_cannot_be_built_is_a_batch_error() -> None:
    spec = BatchSpec(games=3, seed=1, mission="/nonexistent/mission.json", mission_doc=None)
    with pytest.raises(Exception, match="no such file"):
        run_batch(spec, workers=1)
    broken = BatchSpec(games=3, seed=1, runner="fake", runner_args={"no_such_argument": 1})
    with pytest.raises(BatchError, match="cannot build the game"):
        run_batch(broken, workers=1)  # a pool of its own: a fatal error may leave its workers mid-chunk


def test_unknown_backend_is_refused() -> None:
    with pytest.raises(BatchError, match="unknown backend"):
        run_batch(fake_spec(games=2), backend="carrier-pigeon")


def test_ctrl_c_stops_cleanly_and_keeps_finished_games(pool2: LocalPool) -> None:
    got: list[int] = []

    def on_result(rec: GameRecord) -> None:
        got.append(rec.index)
        if len(got) == 3:
            raise KeyboardInterrupt

    result = run_batch(fake_spec(games=200), pool=pool2, on_result=on_result)
    assert result.status.stopped == "interrupted"
    assert result.stats.games == 3 and len(result.records) == 3


def test_play_game_calls_start_game_and_is_a_pure_function_of_the_seed() -> None:
    import random as _random

    from engine.sim.fake import FakeGame
    from engine.sim.play import play_game

    class Counting:
        name = "counting"

        def __init__(self) -> None:
            self.params: dict[str, float] = {}
            self.starts = 0

        def start_game(self, state: object) -> None:
            self.starts += 1

        def choose(self, state: object, actions: list[str], rng: _random.Random) -> str:
            return actions[rng.randrange(len(actions))]

    p = Counting()
    game = FakeGame()
    a = play_game(game, 99, {"marines": p, "genestealers": p}, keep_actions=True)  # type: ignore[dict-item]
    b = play_game(game, 99, {"marines": p, "genestealers": p}, keep_actions=True)  # type: ignore[dict-item]
    assert p.starts == 2  # once per game, even when one object plays both sides
    assert a.to_json() == b.to_json() and a.actions and len(a.actions) == a.n_actions
