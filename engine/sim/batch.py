"""Run a batch: seeds per game index, a backend, streaming results, cancel, and the BatchResult."""

from __future__ import annotations

import platform
import threading
import time
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.sim.local import BatchError, LocalPool, RunStatus, default_workers
from engine.sim.record import GameRecord
from engine.sim.spec import BatchSpec
from engine.sim.stopping import stop_reason
from engine.stats.aggregate import BatchStats

BACKENDS = ("local", "dask")

__all__ = ["BACKENDS", "BatchError", "BatchResult", "iter_batch", "prepare_spec", "run_batch", "versions"]


def versions() -> dict[str, str]:
    """Versions that matter for reproducing a batch."""
    import numpy

    from engine import __version__

    out = {"hulkforge": __version__, "python": platform.python_version(), "numpy": numpy.__version__}
    try:
        from engine import rules

        out["rules"] = str(getattr(rules, "RULES_VERSION", __version__))
    except ImportError:  # pragma: no cover - the rules package always ships
        pass
    return out


def prepare_spec(spec: BatchSpec) -> BatchSpec:
    """Embed the mission document, so workers anywhere (and later replays) see exactly this mission."""
    if spec.runner != "rules" or spec.mission_doc is not None or spec.mission is None:
        return spec
    from engine.mission import read_document

    return spec.with_changes(mission_doc=read_document(spec.mission))


def iter_batch(
    spec: BatchSpec,
    *,
    backend: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    cancel: threading.Event | None = None,
    status: RunStatus | None = None,
    pool: LocalPool | None = None,
    indices: Collection[int] | None = None,
    dask_options: dict[str, Any] | None = None,
) -> Iterator[GameRecord]:
    """Yield one GameRecord per game as games finish (completion order; each carries its index).

    indices: the games to play (default all, as a `range`: read lazily, so memory does not grow with games).
    dask_options: more arguments of engine.sim.dask_backend.run_dask (worker_wait, security).
    """
    status = status if status is not None else RunStatus()
    wanted = indices if indices is not None else range(spec.games)
    if not wanted:
        return
    if backend == "local":
        own = pool is None
        p = pool if pool is not None else LocalPool(workers)
        try:
            yield from p.run(spec, wanted, status, cancel)
        finally:
            if own:
                p.close()
    elif backend == "dask":
        from engine.sim.dask_backend import run_dask

        yield from run_dask(spec, wanted, status, cancel, scheduler=scheduler, workers=workers,
                            **(dask_options or {}))
    else:
        raise BatchError(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")


@dataclass
class BatchResult:
    """A finished (or stopped) batch: its statistics, and the records by index when they were kept."""

    spec: BatchSpec
    stats: BatchStats
    status: RunStatus
    seconds: float
    backend: str
    workers: int
    records: list[GameRecord] = field(default_factory=list)

    @property
    def games_per_second(self) -> float:
        done = self.stats.games + self.stats.failed
        return done / self.seconds if self.seconds > 0 else 0.0

    def summary(self) -> dict[str, Any]:
        """Summary of the results file and of `simulate --json`."""
        return batch_summary(
            self.spec,
            self.stats,
            seconds=self.seconds,
            games_per_second=self.games_per_second,
            backend=self.backend,
            workers=self.workers,
            stopped=self.status.stopped,
            worker_deaths=self.status.worker_deaths,
        )


def batch_summary(
    spec: BatchSpec,
    stats: BatchStats,
    *,
    seconds: float,
    games_per_second: float,
    backend: str,
    workers: int,
    stopped: str | None,
    worker_deaths: int,
) -> dict[str, Any]:
    """The summary block of a results file (schemas/results.schema.json): what ran, how it went, how to redo it."""
    return {
        "games_requested": spec.games,
        "seed": spec.seed,
        **stats.summary(),
        "games_per_second": games_per_second,
        "seconds": seconds,
        "backend": backend,
        "workers": workers,
        "stopped": stopped,
        "worker_deaths": worker_deaths,
        "mission": spec.mission,
        "policies": dict(spec.policies),
        "params": {k: dict(v) for k, v in spec.params.items()},
        "options": dict(spec.options),
        "mission_params": dict(spec.mission_params),
        "versions": versions(),
    }


def run_batch(
    spec: BatchSpec,
    *,
    on_result: Callable[[GameRecord], None] | None = None,
    cancel: threading.Event | None = None,
    backend: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    keep_records: bool = True,
    pool: LocalPool | None = None,
    dask_options: dict[str, Any] | None = None,
    indices: Collection[int] | None = None,
) -> BatchResult:
    """Run a whole batch (or the games `indices` of it), calling `on_result` (in this thread) for each game as it
    finishes.

    Cancelling (setting `cancel`), Ctrl-C or SIGTERM (engine.sim.stopping) stops it early and keeps every game
    that finished; `status.stopped` says which.
    """
    spec = prepare_spec(spec)
    stats = BatchStats()
    status = RunStatus()
    records: list[GameRecord] = []
    start = time.perf_counter()
    try:
        for rec in iter_batch(spec, backend=backend, workers=workers, scheduler=scheduler, cancel=cancel,
                              status=status, pool=pool, indices=indices, dask_options=dask_options):
            stats.add(rec)
            if keep_records:
                records.append(rec)
            if on_result is not None:
                on_result(rec)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM as Terminated
        status.stopped = stop_reason(exc)
    records.sort(key=lambda r: r.index)
    # The workers that really played: fewer than asked when the batch is small, none when the cluster had none.
    # (A local worker that died and was replaced counts once: the replacement takes its place.)
    n_workers = len(status.workers_seen)
    if backend == "local":
        n_workers = min(n_workers, pool.workers if pool is not None else (workers or default_workers()))
    return BatchResult(spec, stats, status, time.perf_counter() - start, backend, n_workers, records)
