"""The mission model: plain dataclasses mirroring format v1 (see schemas/mission.schema.json)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Facing = Literal["N", "E", "S", "W"]
FACINGS: tuple[Facing, ...] = ("N", "E", "S", "W")
WALL = "#"
UNSECTIONED = "."


@dataclass(frozen=True, order=True)
class Square:
    """A square on one level: x is the column, y the row, both from 0 at the top left."""

    level: str
    x: int
    y: int


@dataclass
class Section:
    name: str = ""
    kind: Literal["room", "corridor"] = "corridor"


@dataclass
class Level:
    """One deck of the hulk; rows of characters: '#' wall, '.' floor without a section, else a section code."""

    id: str
    depth: int
    rows: list[str]
    name: str = ""
    sections: dict[str, Section] = field(default_factory=dict)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return max(map(len, self.rows), default=0)

    def cell(self, x: int, y: int) -> str:
        """The character at (x, y); outside the grid counts as wall."""
        if 0 <= y < len(self.rows) and 0 <= x < len(self.rows[y]):
            return self.rows[y][x]
        return WALL

    def is_floor(self, x: int, y: int) -> bool:
        return self.cell(x, y) != WALL

    def section_of(self, x: int, y: int) -> str | None:
        c = self.cell(x, y)
        return None if c in (WALL, UNSECTIONED) else c


@dataclass
class Door:
    id: str
    level: str
    x: int
    y: int
    kind: Literal["door", "bulkhead"] = "door"
    state: Literal["closed", "open"] = "closed"


@dataclass
class EntryArea:
    id: str
    level: str
    x: int
    y: int
    side: Facing


@dataclass
class Exit:
    id: str
    level: str
    x: int
    y: int
    side: Facing


@dataclass
class Objective:
    id: str
    level: str
    x: int
    y: int
    name: str = ""
    kind: Literal["object", "location"] = "object"


@dataclass
class Pitfall:
    letter: str
    level: str
    x: int
    y: int


@dataclass
class Ladder:
    id: str
    top: Square
    bottom: Square


@dataclass
class Rubble:
    level: str
    x: int
    y: int


@dataclass
class Chute:
    id: str
    level: str
    x: int
    y: int


@dataclass
class Lift:
    """[4e] A turbo-lift: one entrance on each of two or more levels; a model at one rides to another."""

    id: str
    entrances: list[Square]


@dataclass
class DeploymentArea:
    """Squares of one level where the Marine player sets up the Marines listed inside it (docs/RULES.md, 15)."""

    id: str
    level: str
    squares: list[tuple[int, int]]


@dataclass
class Torpedo:
    """[4e] A boarding torpedo: its ramp on square (x, y), the torpedo beyond `side`; the Marines listed on the ramp
    square start aboard and come out over the ramp (docs/RULES.md, 15)."""

    id: str
    level: str
    x: int
    y: int
    side: Facing


@dataclass
class RandomCounter:
    kind: Literal["pitfall", "ladder", "rubble"]
    letter: str | None = None


@dataclass
class RandomSetup:
    zones: list[tuple[str, str]] = field(default_factory=list)  # (level id, section code)
    counters: list[RandomCounter] = field(default_factory=list)


@dataclass
class Marine:
    id: str
    rank: Literal["marine", "sergeant", "archivist"]
    level: str
    x: int
    y: int
    facing: Facing
    name: str = ""
    ranged: Literal["storm_bolter", "assault_cannon", "heavy_flamer", "none"] = "storm_bolter"
    melee: Literal["power_glove", "power_sword", "thunder_hammer", "lightning_claws", "chain_fist", "force_axe"] = (
        "power_glove"
    )
    storm_shield: bool = False


@dataclass
class Marines:
    squad: list[Marine] = field(default_factory=list)
    psi_points: int = 20


@dataclass
class Reinforcement:
    from_turn: int
    per_turn: int
    entry_areas: list[str]
    to_turn: int | None = None
    pool: Literal["limited", "unlimited"] = "limited"
    every: int = 1  # brings blips on every Nth turn of its range, from from_turn


@dataclass
class LimitedPool:
    unit: Literal["stealers", "blips"]
    total: int


@dataclass
class StartingBlips:
    blips: int = 0
    entry_areas: list[str] = field(default_factory=list)


@dataclass
class Genestealers:
    pool: dict[int, int] = field(default_factory=lambda: {1: 9, 2: 4, 3: 9})
    limited: LimitedPool | None = None
    starting: StartingBlips = field(default_factory=StartingBlips)
    reinforcements: list[Reinforcement] = field(default_factory=list)
    model_cap: int = 22
    alpha: bool = False


@dataclass
class Meta:
    title: str
    author: str = ""
    description: str = ""
    source: str = ""


# Victory conditions stay as validated JSON objects: their shapes are a closed set described by the schema
# and the engine reads them by "kind"; a class per kind would add nothing.
VictoryCondition = dict[str, object]


@dataclass
class Mission:
    meta: Meta
    levels: list[Level]
    marines: Marines
    genestealers: Genestealers
    victory: list[VictoryCondition]
    ruleset: Literal["4e", "classic"] = "4e"
    options: dict[str, object] = field(default_factory=dict)
    doors: list[Door] = field(default_factory=list)
    entry_areas: list[EntryArea] = field(default_factory=list)
    exits: list[Exit] = field(default_factory=list)
    objectives: list[Objective] = field(default_factory=list)
    pitfalls: list[Pitfall] = field(default_factory=list)
    ladders: list[Ladder] = field(default_factory=list)
    rubble: list[Rubble] = field(default_factory=list)
    chutes: list[Chute] = field(default_factory=list)
    lifts: list[Lift] = field(default_factory=list)
    deployment_areas: list[DeploymentArea] = field(default_factory=list)
    torpedoes: list[Torpedo] = field(default_factory=list)
    random_setup: RandomSetup | None = None

    def level(self, level_id: str) -> Level | None:
        """The level with this id, or None."""
        for lv in self.levels:
            if lv.id == level_id:
                return lv
        return None

    def level_words(self, level_id: str) -> str:
        """How a message names a level: `level 'Lower deck'` by the name the designer gave it, by its id when it
        has none (or when no level has that id)."""
        lv = self.level(level_id)
        return f"level {((lv.name or lv.id) if lv is not None else level_id)!r}"

    def levels_top_down(self) -> list[Level]:
        return sorted(self.levels, key=lambda lv: lv.depth)

    def level_below(self, level_id: str) -> Level | None:
        """The level directly below (depth + 1), or None."""
        lv = self.level(level_id)
        if lv is None:
            return None
        for other in self.levels:
            if other.depth == lv.depth + 1:
                return other
        return None

    def level_above(self, level_id: str) -> Level | None:
        lv = self.level(level_id)
        if lv is None:
            return None
        for other in self.levels:
            if other.depth == lv.depth - 1:
                return other
        return None

    def pitfall_features(self) -> list[str]:
        """The Pitfall mission's features this mission holds (they make the Pitfall ladder rule its default)."""
        held = (("pitfalls", self.pitfalls), ("rubble", self.rubble), ("chutes", self.chutes),
                ("a random set-up", self.random_setup))
        return [name for name, present in held if present]

    def uses_pitfall_features(self) -> bool:
        return bool(self.pitfall_features())
