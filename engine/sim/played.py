"""A game played outside a batch (`hulkforge play`): resignation, and its one-game results file that `replay` reads.

The file is an ordinary results file of one game whose row keeps its actions, so `replay` plays them back
whoever chose them (a person or a policy). A resigned game's row ends with the resigning side's last decision
unanswered: its reason says who resigned, which is how `replay` knows to stop there.
"""

from __future__ import annotations

import os

from engine.ai.base import SIDES
from engine.sim.batch import batch_summary
from engine.sim.record import GameRecord
from engine.sim.results import ResultsWriter, square_totals
from engine.sim.spec import BatchSpec
from engine.stats.aggregate import BatchStats

RESIGNED = "resigned"


def resignation(side: str) -> str:
    """The reason recorded when `side` resigns."""
    return f"{side} {RESIGNED}"


def resigned_side(reason: str) -> str | None:
    """The side whose resignation `reason` records, or None."""
    side, _, word = reason.partition(" ")
    return side if word == RESIGNED and side in SIDES else None


def resign(record: GameRecord, side: str) -> None:
    """Turn the record of a game stopped at `side`'s decision into that side's resignation."""
    record.winner = SIDES[1] if side == SIDES[0] else SIDES[0]
    record.reason = resignation(side)
    record.capped = False


def write_played_game(path: str | os.PathLike[str], spec: BatchSpec, record: GameRecord) -> None:
    """Write the results file of one played game (atomically)."""
    stats = BatchStats()
    stats.add(record)
    summary = batch_summary(spec, stats, seconds=0.0, games_per_second=0.0, backend="play", workers=1,
                            stopped=None, worker_deaths=0)
    with ResultsWriter(path, spec.to_json()) as writer:
        writer.add(record)
        writer.finish(summary, square_totals(stats))
