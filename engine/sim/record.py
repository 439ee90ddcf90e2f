"""GameRecord: what one simulated game leaves behind, compact enough to keep 100,000 of them in a file."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

# A per-square count as a JSON-friendly row: [level id, x, y, count].
SquareCount = list[Any]
SQUARE_FIELDS: tuple[str, ...] = ("marine_deaths", "genestealer_deaths", "genestealer_traffic")


def square_counts(squares: Iterable[tuple[str, int, int]]) -> list[SquareCount]:
    """Count (level, x, y) occurrences into sorted [level, x, y, n] rows (sorted so records compare equal)."""
    c = Counter(squares)
    return [[lv, x, y, n] for (lv, x, y), n in sorted(c.items())]


@dataclass
class GameRecord:
    """One game: outcome, casualties, per-Marine fates, per-square counts and (optionally) the actions.

    `winner` is "marines", "genestealers" or "draw"; None only when the game failed (`error` says why).
    `marines` maps each Marine id to {"died_turn": int | None, "escaped": bool}.
    """

    index: int
    seed: int
    winner: str | None
    turns: int = 0
    reason: str = ""
    casualties: dict[str, int] = field(default_factory=lambda: {"marines": 0, "genestealers": 0})
    marines_escaped: int = 0
    marines: dict[str, dict[str, Any]] = field(default_factory=dict)
    marine_deaths: list[SquareCount] = field(default_factory=list)
    genestealer_deaths: list[SquareCount] = field(default_factory=list)
    genestealer_traffic: list[SquareCount] = field(default_factory=list)
    n_actions: int = 0
    capped: bool = False
    error: str | None = None
    actions: list[str] | None = None
    # Decisions a person took back while playtesting: {"step", "side", "action"} each (None: none taken back).
    undone: list[dict[str, Any]] | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready row of the results file (see schemas/results.schema.json)."""
        d: dict[str, Any] = {
            "index": self.index,
            "seed": self.seed,
            "winner": self.winner,
            "turns": self.turns,
            "reason": self.reason,
            "casualties": dict(self.casualties),
            "marines_escaped": self.marines_escaped,
            "marines": {k: dict(v) for k, v in self.marines.items()},
            "marine_deaths": [list(r) for r in self.marine_deaths],
            "genestealer_deaths": [list(r) for r in self.genestealer_deaths],
            "genestealer_traffic": [list(r) for r in self.genestealer_traffic],
            "n_actions": self.n_actions,
            "capped": self.capped,
            "error": self.error,
        }
        if self.actions is not None:
            d["actions"] = list(self.actions)
        if self.undone is not None:
            d["undone"] = [dict(u) for u in self.undone]
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameRecord:
        """A record from a results-file row (already schema-checked by the caller when untrusted)."""
        known = {k: v for k, v in d.items() if k in cls.__dataclass_fields__}
        return cls(**known)

    @classmethod
    def failed(cls, index: int, seed: int, error: str) -> GameRecord:
        """A game that produced no result (its worker died, or the rules raised)."""
        return cls(index=index, seed=seed, winner=None, reason="error", error=error)
