"""What a batch is: the mission, rule options, policies and seed that fully determine its results."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from engine.ai.base import SIDES
from engine.sim.seeding import generate_uint64

# JSON consumers outside Python (JavaScript, spreadsheets) keep integers exact only up to 2**53.
_SEED_MASK = (1 << 53) - 1
DEFAULT_MAX_ACTIONS = 20_000
# The most games one batch may ask for: its results file (a few hundred bytes a game) stays within what
# read_results reads back, and its per-game outcome table (one byte a game) stays small. The editor's lab
# allows as many.
MAX_GAMES = 1_000_000


@dataclass
class BatchSpec:
    """A reproducible batch. `mission` is a file path; `mission_doc` (a format-v1 document) wins when set."""

    games: int
    seed: int
    mission: str | None = None
    mission_doc: dict[str, Any] | None = None
    options: dict[str, Any] = field(default_factory=dict)
    mission_params: dict[str, Any] = field(default_factory=dict)
    policies: dict[str, str] = field(default_factory=lambda: {s: "random" for s in SIDES})
    params: dict[str, dict[str, float]] = field(default_factory=dict)
    max_actions: int = DEFAULT_MAX_ACTIONS
    keep_actions: bool = False
    runner: str = "rules"
    runner_args: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 0 <= self.games <= MAX_GAMES:
            raise ValueError(f"games must be between 0 and {MAX_GAMES:,}, not {self.games}")
        if self.seed < 0:
            raise ValueError(f"seed must be >= 0, not {self.seed}")
        if self.mission is None and self.mission_doc is None and self.runner == "rules":
            raise ValueError("a batch needs a mission path or a mission document")

    def game_key(self) -> str:
        """Everything but games/seed: equal keys play the same game, so a worker reuses what it built."""
        d = self.to_json()
        del d["games"], d["seed"]
        return json.dumps(d, sort_keys=True, separators=(",", ":"))

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the results file stores it so a game can be replayed)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BatchSpec:
        """The inverse of to_json; unknown keys are ignored so later versions can add fields."""
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)

    def with_changes(self, **changes: Any) -> BatchSpec:
        """A copy with some fields replaced."""
        d = self.to_json()
        d.update(changes)
        return BatchSpec.from_json(d)


def game_seed(batch_seed: int, index: int) -> int:
    """The seed of game `index`: child `index` of SeedSequence(batch_seed).spawn(n), as a 53-bit int."""
    # SeedSequence(s, spawn_key=(i,)) is exactly the i-th child of SeedSequence(s).spawn(n), computed
    # without building all n children, so any subset of games can be (re)played on its own.
    # Worked out in pure Python (engine.sim.seeding) so that a batch worker need not import NumPy.
    return generate_uint64(batch_seed, (index,)) & _SEED_MASK


def game_seeds(batch_seed: int, start: int, stop: int) -> list[tuple[int, int]]:
    """(index, seed) pairs for games start..stop-1."""
    return [(i, game_seed(batch_seed, i)) for i in range(start, stop)]
