"""BatchStats: statistics of a batch, updated one game at a time in memory that does not grow with games."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.sim.record import SQUARE_FIELDS, GameRecord
from engine.stats.distributions import histogram_mean, histogram_median, survival_curve
from engine.stats.intervals import wilson

OUTCOMES: tuple[str, str, str] = ("marines", "genestealers", "draw")
# Outcome per game index, one byte each (0: not played / failed), for paired comparisons on shared seeds.
_CODE = {"marines": 1, "genestealers": 2, "draw": 3}


@dataclass
class MarineFate:
    """Totals over the batch for one Marine id."""

    games: int = 0
    survived: int = 0
    escaped: int = 0
    died_turns: Counter[int] = field(default_factory=Counter)


@dataclass
class BatchStats:
    """Running totals of a batch. `add` is order-independent (integer sums), so any backend agrees exactly."""

    games: int = 0
    failed: int = 0
    capped: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    turns: Counter[int] = field(default_factory=Counter)
    casualties: dict[str, Counter[int]] = field(
        default_factory=lambda: {"marines": Counter(), "genestealers": Counter()}
    )
    escaped: Counter[int] = field(default_factory=Counter)
    marines: dict[str, MarineFate] = field(default_factory=dict)
    squares: dict[str, Counter[tuple[str, int, int]]] = field(
        default_factory=lambda: {f: Counter() for f in SQUARE_FIELDS}
    )
    outcomes: bytearray = field(default_factory=bytearray)
    errors: Counter[str] = field(default_factory=Counter)

    def add(self, rec: GameRecord) -> None:
        """Count one finished game (a failed one only counts as failed)."""
        if rec.index >= len(self.outcomes):
            self.outcomes.extend(bytes(rec.index + 1 - len(self.outcomes)))
        if rec.winner is None:
            self.failed += 1
            self.errors[rec.error or "unknown error"] += 1
            return
        self.games += 1
        self.capped += rec.capped
        self.wins[rec.winner] += 1
        self.outcomes[rec.index] = _CODE.get(rec.winner, 0)
        self.turns[rec.turns] += 1
        for side in ("marines", "genestealers"):
            self.casualties[side][rec.casualties.get(side, 0)] += 1
        self.escaped[rec.marines_escaped] += 1
        for mid, fate in rec.marines.items():
            mf = self.marines.setdefault(mid, MarineFate())
            mf.games += 1
            died = fate.get("died_turn")
            if died is None:
                mf.survived += 1
            else:
                mf.died_turns[int(died)] += 1
            mf.escaped += bool(fate.get("escaped"))
        for f in SQUARE_FIELDS:
            counter = self.squares[f]
            for lv, x, y, n in getattr(rec, f):
                counter[(lv, x, y)] += n

    def rate(self, outcome: str) -> float:
        """Fraction of the played games that ended with `outcome` ("marines", "genestealers" or "draw")."""
        return self.wins[outcome] / self.games if self.games else 0.0

    def interval(self, outcome: str) -> tuple[float, float]:
        """Wilson 95% interval of that rate."""
        return wilson(self.wins[outcome], self.games)

    def won(self, outcome: str) -> list[bool | None]:
        """Per game index: did `outcome` happen (None where the game did not run)."""
        code = _CODE[outcome]
        return [None if c == 0 else c == code for c in self.outcomes]

    def summary(self) -> dict[str, Any]:
        """The numbers a tester reads first, JSON-ready."""
        out: dict[str, Any] = {"games": self.games, "failed_games": self.failed, "capped_games": self.capped}
        for outcome, key in (("marines", "marine"), ("genestealers", "genestealer"), ("draw", "draw")):
            count_key = "draws" if outcome == "draw" else f"{key}_wins"
            out[count_key] = self.wins[outcome]
            out[f"{key}_win_rate" if outcome != "draw" else "draw_rate"] = self.rate(outcome)
            out[f"{key}_win_ci95" if outcome != "draw" else "draw_ci95"] = list(self.interval(outcome))
        out["mean_turns"] = histogram_mean(self.turns)
        out["median_turns"] = histogram_median(self.turns)
        out["turns_histogram"] = {str(k): v for k, v in sorted(self.turns.items())}
        out["mean_casualties"] = {s: histogram_mean(c) for s, c in self.casualties.items()}
        out["mean_marines_escaped"] = histogram_mean(self.escaped)
        out["marine_survival"] = {
            mid: {"games": f.games, "survived": f.survived, "rate": f.survived / f.games if f.games else 0.0,
                  "ci95": list(wilson(f.survived, f.games)), "escaped": f.escaped}
            for mid, f in sorted(self.marines.items())
        }
        turns, alive = self.survival()
        out["marine_survival_curve"] = {"turns": turns.tolist(), "alive": alive.tolist()}
        out["errors"] = dict(self.errors.most_common(10))
        return out

    def survival(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """(turns, fraction of all Marines of all games alive at the end of each turn)."""
        died: Counter[int] = Counter()
        population = 0
        for fate in self.marines.values():
            died.update(fate.died_turns)
            population += fate.games
        return survival_curve(died, population, max(self.turns, default=0))

    def square_rows(self, name: str) -> list[list[Any]]:
        """Totals of one per-square count as sorted [level, x, y, n] rows."""
        return [[lv, x, y, n] for (lv, x, y), n in sorted(self.squares[name].items())]
