"""Where each kind of board feature lives in the mission model, and how to find and move one.

Pure model helpers (no Qt): the commands, tools and scene items share them so they agree on what
"the feature on this square" means.
"""

from __future__ import annotations

import dataclasses
import string
from collections.abc import Iterator
from typing import Any

from engine.mission.model import Ladder, Mission, Square
from engine.mission.objects import FEATURE_NAMES

# kind -> human name; the kind is also the name of the mission attribute holding the list,
# except "squad" which lives in mission.marines.
KINDS: dict[str, str] = {**FEATURE_NAMES, "squad": "deployment"}
PITFALL_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

Place = tuple[str, int, int]


def feature_list(m: Mission, kind: str) -> list[Any]:
    """The live list holding features of this kind."""
    if kind == "squad":
        return m.marines.squad
    lst: list[Any] = getattr(m, kind)
    return lst


def places(kind: str, obj: Any) -> list[Place]:
    """Every (level, x, y) a feature stands on (two for a ladder)."""
    if isinstance(obj, Ladder):
        return [(obj.top.level, obj.top.x, obj.top.y), (obj.bottom.level, obj.bottom.x, obj.bottom.y)]
    return [(obj.level, obj.x, obj.y)]


def iter_features(m: Mission) -> Iterator[tuple[str, Any]]:
    """(kind, feature) for every feature of the mission."""
    for kind in KINDS:
        for obj in feature_list(m, kind):
            yield kind, obj


def features_at(m: Mission, level: str, x: int, y: int, kind: str | None = None) -> list[tuple[str, Any]]:
    """Features standing on one square, optionally only of one kind."""
    out = []
    kinds = [kind] if kind else list(KINDS)
    for k in kinds:
        for obj in feature_list(m, k):
            if (level, x, y) in places(k, obj):
                out.append((k, obj))
    return out


def features_in(m: Mission, level: str, squares: set[tuple[int, int]]) -> list[tuple[str, Any]]:
    """Features with at least one end inside the given squares of a level."""
    out = []
    for k, obj in iter_features(m):
        if any(lv == level and (x, y) in squares for lv, x, y in places(k, obj)):
            out.append((k, obj))
    return out


def moved(obj: Any, level: str, dx: int, dy: int, new_level: str | None = None,
          only: set[tuple[int, int]] | None = None) -> Any:
    """A copy of the feature shifted by (dx, dy); a ladder moves only the ends on `level` inside `only`."""
    target = new_level or level
    if isinstance(obj, Ladder):
        def shift(sq: Square) -> Square:
            if sq.level == level and (only is None or (sq.x, sq.y) in only):
                return Square(target, sq.x + dx, sq.y + dy)
            return sq
        return dataclasses.replace(obj, top=shift(obj.top), bottom=shift(obj.bottom))
    return dataclasses.replace(obj, level=target, x=obj.x + dx, y=obj.y + dy)


def next_id(m: Mission, kind: str, prefix: str) -> str:
    """The first free `PREFIXn` id among features of this kind."""
    used = {getattr(o, "id", "") for o in feature_list(m, kind)}
    n = 1
    while f"{prefix}{n}" in used:
        n += 1
    return f"{prefix}{n}"


def next_pitfall_letter(m: Mission) -> str:
    """The first letter not used by a placed pitfall nor by a random pitfall counter."""
    used = {p.letter for p in m.pitfalls}
    if m.random_setup:
        used |= {c.letter for c in m.random_setup.counters if c.kind == "pitfall" and c.letter}
    for letter in PITFALL_LETTERS:
        if letter not in used:
            return letter
    return "Z"


def free_section_code(used: set[str]) -> str:
    """A section code not yet used on a level (lower-case letters first, then digits and capitals)."""
    for c in string.ascii_lowercase + string.digits + string.ascii_uppercase:
        if c not in used:
            return c
    raise ValueError("no free section code left on this level")


def level_name(m: Mission, level_id: str) -> str:
    """The name a designer gave a level (its id when it has none, or when no level has that id)."""
    lv = m.level(level_id)
    return (lv.name or lv.id) if lv is not None else level_id


def describe(kind: str, obj: Any) -> str:
    """A short label for lists and undo text: 'door UD1', 'pitfall A'."""
    name = KINDS.get(kind, kind)
    ident = getattr(obj, "id", None) or getattr(obj, "letter", None)
    return f"{name} {ident}" if ident else name
