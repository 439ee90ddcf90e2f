"""LabRun: one batch as the lab sees it while it runs — spec, running statistics, kept rows, progress."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from engine.sim import BatchSpec, GameRecord, RunStatus, batch_summary
from engine.sim.session import HUMAN
from engine.stats import BatchStats

# Rows kept for the replay list and the CSV; beyond this only the statistics grow (memory stays bounded).
MAX_KEPT_ROWS = 200_000


def compact(rec: GameRecord) -> GameRecord:
    """The record without its per-square lists (already counted in BatchStats), to keep memory small."""
    return GameRecord(index=rec.index, seed=rec.seed, winner=rec.winner, turns=rec.turns, reason=rec.reason,
                      casualties=dict(rec.casualties), marines_escaped=rec.marines_escaped,
                      marines={k: dict(v) for k, v in rec.marines.items()}, n_actions=rec.n_actions,
                      capped=rec.capped, error=rec.error)


@dataclass
class LabRun:
    """A batch started from the lab: statistics update one game at a time, in completion order."""

    spec: BatchSpec
    label: str = ""
    backend: str = "local"
    workers: int = 1
    stats: BatchStats = field(default_factory=BatchStats)
    rows: list[GameRecord] = field(default_factory=list)
    status: RunStatus | None = None
    started: float = field(default_factory=time.perf_counter)
    finished: float | None = None
    # (games counted, Marine wins so far) after each game, for the convergence chart.
    progress_marine_wins: list[int] = field(default_factory=list)
    error: str | None = None
    value: Any = None  # the swept value, when the run belongs to a sweep
    # Why the games of results opened from a file may not be played again (engine.sim.results.replay_spec: its
    # mission breaks the rules, or its runner is not the rules engine), or None.
    replay_refused: str | None = None

    @property
    def done(self) -> int:
        """Games that came back, failed ones included."""
        return self.stats.games + self.stats.failed

    @property
    def running(self) -> bool:
        """True until finish() is called."""
        return self.finished is None

    def add(self, records: list[GameRecord]) -> None:
        """Count games that just finished."""
        for rec in records:
            self.stats.add(rec)
            if len(self.rows) < MAX_KEPT_ROWS:
                row = compact(rec)
                if HUMAN in self.spec.policies.values():
                    row.actions = rec.actions  # a person's game replays from its actions (no policy made them)
                self.rows.append(row)
            if rec.winner is not None:
                self.progress_marine_wins.append(self.stats.wins["marines"])

    def finish(self, status: RunStatus | None, error: str | None = None) -> None:
        """Mark the run as over (finished, cancelled or failed)."""
        self.status = status
        self.error = error
        self.finished = time.perf_counter()
        self.rows.sort(key=lambda r: r.index)

    def elapsed(self) -> float:
        """Seconds since the batch started (until it finished)."""
        return (self.finished or time.perf_counter()) - self.started

    def eta(self) -> float | None:
        """Seconds left at the rate so far; None before the first game."""
        if self.done == 0:
            return None
        rate = self.done / max(self.elapsed(), 1e-9)
        return float(max(0, self.spec.games - self.done) / rate)

    def state_text(self) -> str:
        """One line for the status bar of the run panel."""
        if self.error:
            return f"failed: {self.error}"
        n, total = self.done, self.spec.games
        rate = n / max(self.elapsed(), 1e-9)
        if self.running:
            eta = self.eta()
            left = f", about {format_seconds(eta)} left" if eta is not None else ""
            return f"{n}/{total} games, {rate:.1f} games/s{left}"
        stopped = self.status.stopped if self.status else None
        how = f" ({stopped})" if stopped else ""
        failed = f", {self.stats.failed} failed" if self.stats.failed else ""
        return f"{n}/{total} games in {self.elapsed():.1f} s{how}{failed}"

    def record(self, index: int) -> GameRecord | None:
        """The kept row of game `index`."""
        for r in self.rows:
            if r.index == index:
                return r
        return None

    def results_document(self) -> dict[str, Any]:
        """The run as a hulkforge-results document (the format `hulkforge simulate --out` writes)."""
        from engine.sim.results import RESULTS_FORMAT, RESULTS_VERSION, square_totals

        summary = batch_summary(
            self.spec,
            self.stats,
            seconds=self.elapsed(),
            games_per_second=self.done / max(self.elapsed(), 1e-9),
            backend=self.backend,
            workers=self.workers,
            stopped=self.status.stopped if self.status else None,
            worker_deaths=self.status.worker_deaths if self.status else 0,
        )
        return {
            "format": RESULTS_FORMAT,
            "version": RESULTS_VERSION,
            "spec": self.spec.to_json(),
            "games": [r.to_json() for r in sorted(self.rows, key=lambda r: r.index)],
            "summary": summary,
            "squares": square_totals(self.stats),
        }


def format_seconds(seconds: float | None) -> str:
    """12.3 -> '12 s', 135 -> '2 min 15 s'."""
    if seconds is None:
        return "?"
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    return f"{s // 60} min {s % 60:02d} s"


def run_from_results(doc: dict[str, Any], label: str = "") -> LabRun:
    """A finished LabRun from a results document (read and schema-checked by engine.sim.results)."""
    from collections import Counter

    from engine.sim.record import SQUARE_FIELDS
    from engine.sim.results import ResultsFileError, replay_spec

    spec = BatchSpec.from_json(dict(doc["spec"]))
    try:
        replay_spec(doc, label or "results")
        refused = None
    except ResultsFileError as exc:
        refused = exc.detail
    summary = doc.get("summary") or {}
    run = LabRun(spec, label=label, backend=str(summary.get("backend", "local")),
                 workers=int(summary.get("workers", 1) or 1))
    run.add([GameRecord.from_json(row) for row in sorted(doc.get("games", []), key=lambda r: r["index"])])
    totals = doc.get("squares") or {}
    for name in SQUARE_FIELDS:
        # Rows saved by the lab are compact (no squares); the file's totals then stand for them.
        if not run.stats.squares[name] and totals.get(name):
            run.stats.squares[name] = Counter({(str(lv), int(x), int(y)): int(n) for lv, x, y, n in totals[name]})
    stopped = summary.get("stopped")
    run.finish(RunStatus(stopped=str(stopped) if stopped else None))
    run.started, run.finished = 0.0, float(summary.get("seconds", 0.0) or 0.0)
    run.replay_refused = refused
    return run
