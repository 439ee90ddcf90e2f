"""What a tune reports: the path it took, where it ended, and why."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.tune.space import TunedParam

# How a tune ended.
HIT = "hit"  # a point whose 95% interval lies inside target ± tolerance
OUT_OF_REACH = "out_of_reach"  # the range cannot give the target
BUDGET = "budget"  # the games ran out first
CANCELLED = "cancelled"


@dataclass(frozen=True)
class Step:
    """One look at a point: games played there so far, its Marine win rate and Wilson 95% interval."""

    point: tuple[float, ...]
    games: int
    rate: float
    low: float
    high: float
    verdict: str  # "hit", "above", "below", "too high", "too low", "unsure"
    spent: int  # games the tune had played in all after this look


@dataclass
class TuneResult:
    """The outcome of a tune: `status` (HIT, OUT_OF_REACH, BUDGET, CANCELLED), the path and the best point."""

    params: list[TunedParam]
    target: float
    tolerance: float
    status: str
    message: str
    steps: list[Step] = field(default_factory=list)
    best: Step | None = None
    spent: int = 0
    failed: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """True when the target was hit."""
        return self.status == HIT

    def values(self) -> dict[str, Any]:
        """The best point as {parameter: value}."""
        if self.best is None:
            return {}
        return {p.name: p.value(x) for p, x in zip(self.params, self.best.point, strict=True)}

    def label(self, point: tuple[float, ...]) -> str:
        """'name=v, name=v' for a point."""
        return ", ".join(f"{p.name}={p.label(x)}" for p, x in zip(self.params, point, strict=True))

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary (tune --json)."""
        def step(s: Step) -> dict[str, Any]:
            return {"values": {p.name: p.value(x) for p, x in zip(self.params, s.point, strict=True)},
                    "games": s.games, "marine_win_rate": s.rate, "marine_win_ci95": [s.low, s.high],
                    "verdict": s.verdict, "games_spent": s.spent}

        return {
            "status": self.status, "message": self.message, "target": self.target, "tolerance": self.tolerance,
            "params": [{"name": p.name, "range": [p.lo, p.hi], "integer": p.integer,
                        **({"choices": list(p.choices)} if p.choices else {})} for p in self.params],
            "values": self.values(), "best": step(self.best) if self.best else None,
            "path": [step(s) for s in self.steps], "games_spent": self.spent, "failed_games": self.failed,
            "seconds": self.seconds, "cpu_seconds": self.cpu_seconds,
        }
