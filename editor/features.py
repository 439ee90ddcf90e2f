"""Where each kind of board feature lives in the mission model, and how to find and move one.

Pure model helpers (no Qt): the commands, tools and scene items share them so they agree on what
"the feature on this square" means.
"""

from __future__ import annotations

import dataclasses
import string
from collections.abc import Callable, Iterator
from typing import Any

from engine.mission.kinds import BY_KEY
from engine.mission.kinds import KINDS as REGISTRY
from engine.mission.kinds import items as feature_list
from engine.mission.model import Mission, Square

# kind -> human name (engine/mission/kinds.py); the kind is also the name of the mission attribute holding the
# list, except "squad" which lives in mission.marines.
KINDS: dict[str, str] = {k.key: k.label for k in REGISTRY}
PITFALL_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

Place = tuple[str, int, int]


def places(kind: str, obj: Any) -> list[Place]:
    """Every (level, x, y) a feature stands on (two for a ladder)."""
    return [(sq.level, sq.x, sq.y) for _role, sq in BY_KEY[kind].ends(obj)]


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


def features_by_square(m: Mission, level: str) -> dict[tuple[int, int], list[tuple[str, Any]]]:
    """Each square of a level with the features standing on it, in features_at's order: features_at for many
    squares in one pass over the mission's features."""
    out: dict[tuple[int, int], list[tuple[str, Any]]] = {}
    for k, obj in iter_features(m):
        for lv, x, y in places(k, obj):
            if lv == level:
                found = out.setdefault((x, y), [])
                if not any(o is obj for _, o in found):  # a ladder with both ends on one square: once
                    found.append((k, obj))
    return out


def features_in(m: Mission, level: str, squares: set[tuple[int, int]]) -> list[tuple[str, Any]]:
    """Features with at least one end inside the given squares of a level."""
    out = []
    for k, obj in iter_features(m):
        if any(lv == level and (x, y) in squares for lv, x, y in places(k, obj)):
            out.append((k, obj))
    return out


def moved(obj: Any, level: str, dx: int, dy: int, new_level: str | None = None,
          only: set[tuple[int, int]] | None = None, kind: str | None = None) -> Any:
    """A copy of the feature shifted by (dx, dy); a feature with several ends (a ladder) moves only the ends on
    `level` inside `only`."""
    target = new_level or level
    k = BY_KEY[kind] if kind is not None else next(k for k in REGISTRY if isinstance(obj, k.model))
    ends = k.ends(obj)
    if len(ends) == 1:
        return dataclasses.replace(obj, level=target, x=obj.x + dx, y=obj.y + dy)
    for n, (_role, sq) in enumerate(ends):
        if sq.level == level and (only is None or (sq.x, sq.y) in only):
            obj = k.move_end(obj, n, Square(target, sq.x + dx, sq.y + dy))
    return obj


def map_ends(kind: str, obj: Any, f: Callable[[Square], Square]) -> Any:
    """A copy of the feature with each square it stands on replaced by f(square) (each end of a ladder or lift)."""
    k = BY_KEY[kind]
    for n, (_role, sq) in enumerate(k.ends(obj)):
        obj = k.move_end(obj, n, f(sq))
    return obj


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
