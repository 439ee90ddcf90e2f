"""Playing a tune's points: every point on the same game seeds (common random numbers), extended on demand.

A point's games are indices 0..n-1 of one batch seed whatever the point, so two points differ only by the
parameter, not by the dice; asking for more games at a point plays only the indices it lacks.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.sim.batch import iter_batch, prepare_spec
from engine.sim.local import LocalPool, RunStatus
from engine.sim.spec import BatchSpec
from engine.stats.intervals import wilson
from engine.tune.space import TunedParam, split_values

Point = tuple[float, ...]
_CODE = {"marines": 1, "genestealers": 2, "draw": 3}  # as BatchStats.outcomes codes them; 0: failed
_MARINES = _CODE["marines"]


class TuneStopped(Exception):
    """The tune stopped before an answer: `reason` is "budget" or "cancelled"."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class PointData:
    """Games played at one point: outcome per game index (0: failed, 1: Marines, 2: Genestealers, 3: draw)."""

    point: Point
    outcomes: bytearray = field(default_factory=bytearray)

    @property
    def played(self) -> int:
        """Game indices played (failed ones included)."""
        return len(self.outcomes)

    @property
    def games(self) -> int:
        """Games that finished."""
        return sum(1 for c in self.outcomes if c)

    @property
    def wins(self) -> int:
        """Marine wins."""
        return self.outcomes.count(_MARINES)

    @property
    def rate(self) -> float:
        """The Marine win rate (0.5 before any game)."""
        return self.wins / self.games if self.games else 0.5

    def interval(self) -> tuple[float, float]:
        """Wilson 95% interval of the Marine win rate."""
        return wilson(self.wins, self.games)


class Evaluator:
    """Plays points of a tune on a local pool or Dask, keeping every game, within a budget of games."""

    def __init__(
        self,
        base: BatchSpec,
        params: list[TunedParam],
        *,
        budget: int,
        backend: str = "local",
        workers: int | None = None,
        scheduler: str | None = None,
        cancel: threading.Event | None = None,
        on_games: Callable[[int], None] | None = None,
    ) -> None:
        self.base = prepare_spec(base)
        self.params = params
        self.budget = budget
        self.backend = backend
        self.workers = workers
        self.scheduler = scheduler
        self.cancel = cancel
        self.on_games = on_games
        self.spent = 0
        self.failed = 0
        self.points: dict[Point, PointData] = {}
        self._pool: LocalPool | None = None
        self._cluster: Any = None

    def key(self, point: Point) -> Point:
        """The point as the parameters take it (integers rounded), so equal settings share their games."""
        return tuple(p.coord(x) for p, x in zip(self.params, point, strict=True))

    def data(self, point: Point) -> PointData:
        """What is known at a point so far (no game played)."""
        k = self.key(point)
        return self.points.setdefault(k, PointData(k))

    def spec(self, point: Point, games: int) -> BatchSpec:
        """The batch of a point: the base spec with the point's options and mission parameters."""
        options, mparams = split_values(self.params, point)
        return self.base.with_changes(games=games, options={**self.base.options, **options},
                                      mission_params={**self.base.mission_params, **mparams})

    def ensure(self, point: Point, n: int) -> PointData:
        """Play the point up to `n` game indices; raises TuneStopped when the budget or a cancel stops it."""
        d = self.data(point)
        want = max(0, n - d.played)
        left = self.budget - self.spent
        short = want > left
        want = min(want, left)
        if want:
            self._play(d, want)
        if short:
            raise TuneStopped("budget")
        return d

    def _play(self, d: PointData, want: int) -> None:
        start = d.played
        indices = list(range(start, start + want))
        d.outcomes.extend(bytes(want))
        status = RunStatus()
        got: set[int] = set()
        for rec in iter_batch(self.spec(d.point, start + want), backend=self.backend, workers=self.workers,
                              scheduler=self._scheduler(), cancel=self.cancel, status=status,
                              pool=self._local_pool(), indices=indices):
            d.outcomes[rec.index] = _CODE.get(rec.winner or "", 0)
            self.failed += rec.winner is None
            got.add(rec.index)
            if self.on_games is not None:
                self.on_games(1)
        self.spent += len(got)
        if len(got) < want:
            # Cancelled midway: the games after the first missing one are dropped, so a point's games stay
            # indices 0..n-1 (what the shared-seed comparisons assume).
            keep = start + next((j for j, i in enumerate(indices) if i not in got), want)
            del d.outcomes[keep:]
            raise TuneStopped("cancelled" if self.cancel is not None and self.cancel.is_set() else
                              (status.stopped or "cancelled"))

    def _local_pool(self) -> LocalPool | None:
        if self.backend != "local":
            return None
        if self._pool is None:
            self._pool = LocalPool(self.workers)
        return self._pool

    def _scheduler(self) -> str | None:
        """Dask without an address: one local cluster for the whole tune (not one per look)."""
        if self.backend != "dask" or self.scheduler:
            return self.scheduler
        if self._cluster is None:
            from engine.sim.dask_backend import _import_distributed

            distributed = _import_distributed()
            self._cluster = distributed.LocalCluster(n_workers=self.workers or 1, threads_per_worker=1,
                                                     processes=True, dashboard_address=None)
        return str(self._cluster.scheduler_address)

    def close(self) -> None:
        """Stop the worker processes or the local cluster."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None
