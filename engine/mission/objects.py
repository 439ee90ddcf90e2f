"""Which object of a mission document a JSON path points into, what to call it, and where it stands.

Schema errors, read-repair notes and the editor's issue list all speak of objects ("door D3", "section a of
upper", "reinforcement row 2") rather than bare paths, and select them when clicked: this module is the one
place that maps a path to its object. It reads documents defensively: any value may have any type here.
"""

from __future__ import annotations

import re
from typing import Any

from engine.mission.issues import json_path
from engine.mission.kinds import KINDS

Parts = tuple[str | int, ...]
Squares = tuple[tuple[int, int], ...]

# Feature lists at the top of a document -> the name of one item (the Marines' squad lives under "marines").
FEATURE_NAMES: dict[str, str] = {k.key: k.label for k in KINDS if k.key != "squad"}
_PART = re.compile(r"\.([^.\[\]]+)|\[(\d+)\]")
_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def parse_path(path: str) -> Parts:
    """('levels', 0, 'rows', 3) from `$.levels[0].rows[3]` (the inverse of issues.json_path)."""
    if not path.startswith("$"):
        return ()
    return tuple(int(index) if index else key for key, index in _PART.findall(path[1:]))


def object_parts(parts: Parts) -> Parts | None:
    """The path of the object that `parts` lies in (a level, a section, a feature, a Marine, a reinforcement row,
    a victory condition, ...), or None when it points at the mission as a whole or at a whole list."""
    match parts:
        case ("levels", int(i), "sections", str(code), *_):
            return ("levels", i, "sections", code)
        case ("levels", int(i), *_):
            return ("levels", i)
        case (str(kind), int(i), *_) if kind in FEATURE_NAMES:
            return (kind, i)
        case ("marines", "squad", int(i), *_):
            return ("marines", "squad", i)
        case ("genestealers", "reinforcements", int(i), *_):
            return ("genestealers", "reinforcements", i)
        case ("genestealers", "starting" | "limited" | "pool" as part, *_):
            return ("genestealers", part)
        case ("victory", int(i), *_):
            return ("victory", i)
        case ("random_setup", "zones" | "counters" as part, int(i), *_):
            return ("random_setup", part, i)
        case ("meta", *_):
            return ("meta",)
        case ("options", str(name), *_):
            return ("options", name)
    return None


def within(path: str, objects: frozenset[str] | set[str]) -> bool:
    """Whether the path is one of the objects' paths or lies inside one of them."""
    return any(path == o or path.startswith((o + ".", o + "[")) for o in objects)


def lookup(doc: Any, parts: Parts) -> Any:
    """The value at parts, or None when the path does not lead anywhere."""
    node = doc
    for p in parts:
        if isinstance(p, int) and isinstance(node, list) and 0 <= p < len(node):
            node = node[p]
        elif isinstance(p, str) and isinstance(node, dict) and p in node:
            node = node[p]
        else:
            return None
    return node


def _ident(node: Any, key: str = "id") -> str | None:
    value = node.get(key) if isinstance(node, dict) else None
    return value if isinstance(value, str) and _ID.fullmatch(value) else None


def _level_name(doc: Any, i: int) -> str:
    """A level as messages name it: the name the designer gave it, else its id, else its place in the list."""
    node = lookup(doc, ("levels", i))
    name = node.get("name") if isinstance(node, dict) else None
    if isinstance(name, str) and name.strip() and name.isprintable() and len(name) <= 80:
        return f"level {name.strip()!r}"
    ident = _ident(node)
    return f"level {ident!r}" if ident else f"level #{i + 1}"


def object_label(doc: Any, obj: Parts) -> str:
    """'door D3', 'bulkhead BH1', 'section a of upper', 'Marine M2', 'reinforcement row 2', ... for messages."""
    node = lookup(doc, obj)
    match obj:
        case ("levels", int(i), "sections", str(code)):
            return f"section {code} of {_level_name(doc, i)}"
        case ("levels", int(i)):
            return _level_name(doc, i)
        case (str(kind), int(i)) if kind in FEATURE_NAMES:
            name = FEATURE_NAMES[kind]
            if kind == "doors" and isinstance(node, dict) and node.get("kind") == "bulkhead":
                name = "bulkhead"
            letter = node.get("letter") if isinstance(node, dict) else None
            if kind == "pitfalls" and isinstance(letter, str) and re.fullmatch(r"[A-Z]{1,2}", letter):
                return f"pitfall {letter}"
            ident = _ident(node)
            return f"{name} {ident}" if ident and kind not in ("rubble", "pitfalls") else f"{name} #{i + 1}"
        case ("marines", "squad", int(i)):
            ident = _ident(node)
            return f"Marine {ident}" if ident else f"Marine #{i + 1}"
        case ("genestealers", "reinforcements", int(i)):
            return f"reinforcement row {i + 1}"
        case ("genestealers", str(part)):
            return {"starting": "starting blips", "limited": "total force limit", "pool": "blip pool"}.get(part, part)
        case ("victory", int(i)):
            what = _ident(node, "kind")
            return f"victory condition {i + 1}" + (f" ({what})" if what else "")
        case ("random_setup", "zones", int(i)):
            return f"random zone #{i + 1}"
        case ("random_setup", "counters", int(i)):
            return f"random counter #{i + 1}"
        case ("meta",):
            return "mission"
        case ("options", str(name)):
            return f"rule option {name}"
    return json_path(obj)


def relative_path(obj: Parts | None, parts: Parts) -> str:
    """The part of `parts` below the object, written as in a path ('x', 'top.level', 'rows[3]'); '' for itself."""
    rest = parts[len(obj):] if obj is not None else parts
    return json_path(rest)[1:].lstrip(".")


def describe(doc: Any, parts: Parts, message: str) -> str:
    """`message` prefixed with the object it is about and the field: 'door D3: x: -1 is less than ...'."""
    obj = object_parts(parts)
    if obj is None:
        where = relative_path(None, parts)
        return f"{where}: {message}" if where else message
    field = relative_path(obj, parts)
    label = object_label(doc, obj)
    return f"{label}: {field}: {message}" if field else f"{label}: {message}"


def _square_of(node: Any) -> tuple[str | None, Squares]:
    if not isinstance(node, dict):
        return None, ()
    level, x, y = node.get("level"), node.get("x"), node.get("y")
    if not isinstance(level, str):
        return None, ()
    # bool is an int subclass; a square needs real ints.
    return level, (((x, y),) if type(x) is int and type(y) is int else ())


def object_place(doc: Any, parts: Parts) -> tuple[str | None, Squares]:
    """The level and squares of the object `parts` lies in, so an issue about it can be shown on the map."""
    obj = object_parts(parts)
    if obj is None:
        return None, ()
    node = lookup(doc, obj)
    match obj:
        case ("levels", int(i), "sections", str(code)):
            return _ident(lookup(doc, ("levels", i))), _cells(lookup(doc, ("levels", i, "rows")), code)
        case ("levels", int(i)):
            level = _ident(node)
            rows = lookup(doc, ("levels", i, "rows"))
            if len(parts) >= 4 and parts[2] == "rows" and isinstance(parts[3], int) and isinstance(rows, list):
                row = rows[parts[3]] if parts[3] < len(rows) else None
                return level, tuple((x, parts[3]) for x in range(len(row))) if isinstance(row, str) else ()
            return level, ()
        case ("ladders", int(_)):
            end = parts[2] if len(parts) > 2 and parts[2] in ("top", "bottom") else "top"
            return _square_of(lookup(node, (end,)))
        case ("random_setup", "zones", int(_)):
            zone_level, zone_code = _ident(node, "level"), _ident(node, "section")
            for i, lv in enumerate(lookup(doc, ("levels",)) or []):
                if zone_level and zone_code and len(zone_code) == 1 and _ident(lv) == zone_level:
                    return zone_level, _cells(lookup(doc, ("levels", i, "rows")), zone_code)
            return zone_level, ()
    return _square_of(node)


def _cells(rows: Any, code: str) -> Squares:
    if not isinstance(rows, list):
        return ()
    return tuple((x, y) for y, row in enumerate(rows) if isinstance(row, str) for x, c in enumerate(row) if c == code)
