"""The board's feature kinds, each declared once: its model, its document list and codec, the squares it stands
on, its print legend, and how Tiled and Derelict carry it (or why they cannot).

Every layer that handles features keeps one table keyed by these kinds' keys (placement checks, the rules'
feature loading, the print symbols, the Tiled writer and reader, the editor's tools); `tests/engine/
test_feature_kinds.py` holds each table to this list, so a kind added here and forgotten there fails a test
instead of being dropped without a word.

A simple kind (one square, a few properties, no rules verb) is added in 6 files: its dataclass and Mission list
in engine/mission/model.py; its `_flat(...)` line here; its list in schemas/mission.schema.json; where a game
holds it in engine/rules/features.py (HELD, with the rules that give it a meaning); its legend line in
engine/export/colours.py; its tool's row in editor/tools/kind_table.py. Also engine/mission/placement.py for a
placement rule of its own, and a line each in README.md and editor/README.md. The Tiled writer and reader, the
print symbol, the editor's tool, icon, map drawing and fields follow from the declaration; a placement rule that
needs only the kind's items is declared with it (`check`). docs/feature-kinds.md says what a kind on several squares
or with a rules verb takes besides.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields, replace
from typing import Any, get_origin, get_type_hints

from engine.mission.issues import Issue
from engine.mission.model import (
    Chute,
    DeploymentArea,
    Door,
    EntryArea,
    Exit,
    Ladder,
    Lift,
    Marine,
    Mission,
    Objective,
    Pitfall,
    Rubble,
    Square,
    Torpedo,
)

Json = dict[str, Any]
End = tuple[str, Square]  # (role, square): ("", sq) for a one-square feature, ("top", sq) for a ladder's top
Check = Callable[[list[tuple[str, Any]]], Iterator[Issue]]  # a kind's own placement rule, given (path, item) pairs


@dataclass(frozen=True)
class CannotExpress:
    """A format has no way to hold this kind: the exporter says so, naming the feature, instead of dropping it."""

    what: str  # the kind in the plural, as the warning counts them: "disposal chutes"
    reason: str


def _one(obj: Any) -> tuple[End, ...]:
    return (("", Square(obj.level, obj.x, obj.y)),)


def _flat_load(model: type) -> Callable[[Json], Any]:
    return lambda d: model(**d)


def _flat_dump(obj: Any) -> Json:
    return dict(vars(obj))


def _flat_move(obj: Any, end: int, sq: Square) -> Any:
    return replace(obj, level=sq.level, x=sq.x, y=sq.y)


def _sq(d: Json) -> Square:
    return Square(d["level"], d["x"], d["y"])


def _sqd(s: Square) -> Json:
    return {"level": s.level, "x": s.x, "y": s.y}


def _ladder_move(obj: Ladder, end: int, sq: Square) -> Ladder:
    return replace(obj, top=sq) if end == 0 else replace(obj, bottom=sq)


def _lift_load(d: Json) -> Lift:
    return Lift(d["id"], [_sq(e) for e in d["entrances"]])


def _lift_dump(obj: Lift) -> Json:
    return {"id": obj.id, "entrances": [_sqd(e) for e in obj.entrances]}


def _lift_move(obj: Lift, end: int, sq: Square) -> Lift:
    return replace(obj, entrances=[sq if i == end else e for i, e in enumerate(obj.entrances)])


def _area_load(d: Json) -> DeploymentArea:
    return DeploymentArea(d["id"], d["level"], [(x, y) for x, y in d["squares"]])


def _area_dump(obj: DeploymentArea) -> Json:
    return {"id": obj.id, "level": obj.level, "squares": [[x, y] for x, y in obj.squares]}


def _area_move(obj: DeploymentArea, end: int, sq: Square) -> DeploymentArea:
    """Square `end` put on sq; the area's level is the level of the square moved (an area lies on one level)."""
    squares = [(sq.x, sq.y) if i == end else xy for i, xy in enumerate(obj.squares)]
    return replace(obj, level=sq.level, squares=squares)


def _door_legend(d: Door) -> str:
    return f"{'Bulkhead' if d.kind == 'bulkhead' else 'Door'} ({d.state})"


@dataclass(frozen=True)
class Kind:
    """One kind of board feature.

    key: the mission attribute and document list holding them ("squad" lives in `marines`); label: one item's
    name in messages; ident: the field naming one ("id", "letter", or None); ends: the squares it stands on, each
    with its role; legend: the print legend entry of one item; tiled: the Tiled object type; derelict: the
    Derelict token it becomes, or why it cannot; check: its own placement rule, when it has one that needs no
    more than its items (engine/mission/placement.py runs it with the others)."""

    key: str
    label: str
    model: type
    ident: str | None
    ends: Callable[[Any], tuple[End, ...]]
    legend: Callable[[Any], str]
    tiled: str | CannotExpress
    derelict: str | CannotExpress
    load: Callable[[Json], Any]
    dump: Callable[[Any], Json]
    move_end: Callable[[Any, int, Square], Any]  # a copy with end number `end` put on a square
    joins: bool = False  # a model moves between its ends (a ladder, a lift): reachability joins them
    prefix: str = ""  # a new item's id is this and a number (a simple kind's editor tool; a Tiled object with no name)
    check: Check | None = None

    def name_of(self, obj: Any) -> str:
        """'door D3', 'bulkhead BH1', 'pitfall A', 'rubble' for messages."""
        label = "bulkhead" if self.key == "doors" and obj.kind == "bulkhead" else self.label
        ident = getattr(obj, self.ident, None) if self.ident else None
        return f"{label} {ident}" if ident else label


def _flat(key: str, label: str, model: type, ident: str | None, legend: str | Callable[[Any], str],
          tiled: str | CannotExpress, derelict: str | CannotExpress, prefix: str = "",
          check: Check | None = None) -> Kind:
    return Kind(key, label, model, ident, _one, legend if callable(legend) else _named(legend),
                tiled, derelict, _flat_load(model), _flat_dump, _flat_move, prefix=prefix, check=check)


def _named(name: str) -> Callable[[Any], str]:
    return lambda _obj: name


def _no_derelict(what: str) -> CannotExpress:
    return CannotExpress(what, f"Derelict has no {what}")


KINDS: tuple[Kind, ...] = (
    _flat("doors", "door", Door, "id", _door_legend, "door", "door"),
    _flat("entry_areas", "entry area", EntryArea, "id", "Entry area", "entry_area", "lurk", "E"),
    _flat("exits", "exit", Exit, "id", "Exit", "exit", _no_derelict("exits"), "X"),
    _flat("objectives", "objective", Objective, "id", "Objective", "objective", "objective", "O"),
    _flat("pitfalls", "pitfall", Pitfall, "letter", "Pitfall", "pitfall", _no_derelict("pitfalls")),
    Kind("ladders", "ladder", Ladder, "id", lambda o: (("top", o.top), ("bottom", o.bottom)), lambda _o: "Ladder",
         "ladder", _no_derelict("ladders"), lambda d: Ladder(d["id"], _sq(d["top"]), _sq(d["bottom"])),
         lambda o: {"id": o.id, "top": _sqd(o.top), "bottom": _sqd(o.bottom)}, _ladder_move, joins=True),
    _flat("rubble", "rubble", Rubble, None, "Rubble", "rubble", _no_derelict("rubble counters")),
    _flat("chutes", "chute", Chute, "id", "Disposal chute", "chute", _no_derelict("disposal chutes"), "C"),
    Kind("lifts", "turbo-lift", Lift, "id", lambda o: tuple(("", e) for e in o.entrances),
         lambda _o: "Turbo-lift entrance", "lift", _no_derelict("turbo-lifts"), _lift_load, _lift_dump, _lift_move,
         joins=True),
    Kind("deployment_areas", "deployment area", DeploymentArea, "id",
         lambda o: tuple(("", Square(o.level, x, y)) for x, y in o.squares), lambda _o: "Deployment area",
         "deployment_area", _no_derelict("deployment areas"), _area_load, _area_dump, _area_move),
    _flat("torpedoes", "boarding torpedo", Torpedo, "id", "Boarding torpedo", "torpedo",
          _no_derelict("boarding torpedoes"), "BT"),
    Kind("squad", "deployment", Marine, "id", _one, lambda _o: "Deployment", "marine", "marine",
         _flat_load(Marine), _flat_dump, _flat_move),
)
BY_KEY: dict[str, Kind] = {k.key: k for k in KINDS}


def items(m: Mission, kind: Kind | str) -> list[Any]:
    """The live list holding a mission's features of this kind."""
    key = kind if isinstance(kind, str) else kind.key
    if key == "squad":
        return m.marines.squad
    held: list[Any] = getattr(m, key)
    return held


def properties(kind: Kind) -> tuple[str, ...]:
    """A kind's properties: its model's fields but the ident and the squares it stands on (level, x, y, a Square,
    a list of them). A simple kind's Tiled custom properties and the editor's fields of a kind are these."""
    hints = get_type_hints(kind.model)

    def on_squares(name: str) -> bool:
        return name in ("level", "x", "y") or hints[name] is Square or get_origin(hints[name]) is list

    return tuple(f.name for f in fields(kind.model) if f.name != kind.ident and not on_squares(f.name))


def path_of(kind: Kind, i: int) -> str:
    """The JSON path of item i of a kind: `$.doors[3]`, `$.marines.squad[0]`."""
    return f"$.marines.squad[{i}]" if kind.key == "squad" else f"$.{kind.key}[{i}]"


def end_path(kind: Kind, i: int, role: str, n: int, count: int) -> str:
    """The JSON path of one end (n of count): the item's for a one-square feature, `.top` for a ladder's top,
    `.entrances[1]` for a lift's, `.squares[4]` for an area's."""
    base = path_of(kind, i)
    if role:
        return f"{base}.{role}"
    if count == 1:
        return base
    return f"{base}.{'entrances' if kind.key == 'lifts' else 'squares'}[{n}]"
