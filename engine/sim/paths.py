"""Every number and choice of a mission as a parameter, addressed by a readable path into its document.

A path follows the mission file: `genestealers.limited.total`, `genestealers.reinforcements[0].per_turn`,
`marines.squad[2].ranged`. A victory condition is named by its kind (`victory.turn_limit.turn`), an entry area
by its id (`entry_areas.NE.on`: true brings blips there, false takes it out of the starting blips and every
reinforcement row). What a path accepts, and its current value, come from the mission schema
(`schemas/mission.schema.json`): the schema is the one description of the fields.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

# The parts of a mission a designer balances; coordinates, ids and the map are not parameters.
_SKIP_FIELDS = frozenset({"x", "y", "level", "facing", "id", "name", "rank", "kind", "entry_areas", "via",
                          "objective", "to", "section", "unit", "result"})
_SEGMENT = re.compile(r"^([A-Za-z0-9_\-]+)((?:\[\d+\])*)$")


@dataclass(frozen=True)
class ParamInfo:
    """One parameter of a mission: its path, kind ("int" or "choice"), current value and what it accepts."""

    name: str
    kind: str
    value: Any
    lo: int | None = None  # "int": the schema's bounds
    hi: int | None = None
    choices: tuple[Any, ...] = ()  # "choice": the values it takes
    nullable: bool = False  # "int" that may also be null (a reinforcement row with no last turn)

    @property
    def numeric(self) -> bool:
        """A whole-number parameter (a root finder and a step up or down make sense)."""
        return self.kind == "int"

    def default_range(self) -> tuple[int, int]:
        """The range a tune searches when none is given: half to twice the mission's value, inside the schema."""
        assert self.lo is not None and self.hi is not None
        v = self.value if isinstance(self.value, int) else self.lo
        return max(self.lo, v // 2 if v > 2 else 0), min(self.hi, max(2 * v, v + 4))

    def step(self) -> int:
        """One step of this parameter for a levers table: a sixth of its value, at least one."""
        return max(1, round(abs(self.value) / 6)) if isinstance(self.value, int) else 1

    def check(self, value: Any) -> Any:
        """`value` if this parameter accepts it (a whole number written as 3.0 is 3); else ValueError."""
        if self.kind == "choice":
            for c in self.choices:
                if value == c and type(value) is type(c):
                    return c
            raise ValueError(f"mission parameter {self.name!r}: {value!r} is not one of "
                             f"{', '.join(_show(c) for c in self.choices)}")
        if value is None and self.nullable:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float) or int(value) != value:
            raise ValueError(f"mission parameter {self.name!r}: {value!r} is not an integer")
        assert self.lo is not None and self.hi is not None
        if not self.lo <= int(value) <= self.hi:
            raise ValueError(f"mission parameter {self.name!r}: {int(value)} is not in {self.lo}..{self.hi}")
        return int(value)

    def describe(self) -> str:
        """Current value and what it accepts, as --list-params prints them."""
        if self.kind == "choice":
            return " | ".join(_show(c) for c in self.choices)
        lo, hi = self.default_range() if isinstance(self.value, int) else (self.lo, self.hi)
        return f"{lo}..{hi} (accepts {self.lo}..{self.hi}{', null' if self.nullable else ''})"


def _show(v: Any) -> str:
    return "null" if v is None else ("true" if v is True else "false" if v is False else str(v))


@cache
def _schema() -> dict[str, Any]:
    from engine.resources import load_schema

    return load_schema("mission.schema.json")


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return _resolve({**_schema()["$defs"][ref.split("/")[-1]], **{k: v for k, v in node.items() if k != "$ref"}})
    return node


def _leaf(name: str, node: dict[str, Any], value: Any) -> ParamInfo | None:
    """The parameter a schema leaf describes, or None when it is not a number or a choice."""
    node = _resolve(node)
    types = node.get("type", [])
    types = types if isinstance(types, list) else [types]
    if value is None and "default" in node:
        value = node["default"]
    if "enum" in node:
        return ParamInfo(name, "choice", value, choices=tuple(node["enum"]))
    if "boolean" in types:
        return ParamInfo(name, "choice", bool(value), choices=(False, True))
    if "integer" in types and "minimum" in node and "maximum" in node:
        return ParamInfo(name, "int", value, int(node["minimum"]), int(node["maximum"]), nullable="null" in types)
    return None


def _walk(prefix: str, node: dict[str, Any], doc: dict[str, Any]) -> list[ParamInfo]:
    out: list[ParamInfo] = []
    for key, sub in _resolve(node).get("properties", {}).items():
        if key in _SKIP_FIELDS:
            continue
        sub = _resolve(sub)
        name = f"{prefix}.{key}"
        value = doc.get(key)
        if sub.get("type") == "object" or (isinstance(sub.get("type"), list) and "object" in sub["type"]):
            if isinstance(value, dict):
                out += _walk(name, sub, value)
        elif sub.get("type") == "array":
            items = _resolve(sub.get("items", {}))
            for i, item in enumerate(value or []):
                if isinstance(item, dict) and "properties" in items:
                    out += _walk(f"{name}[{i}]", items, item)
        else:
            info = _leaf(name, sub, value)
            if info is not None:
                out.append(info)
    return out


def _victory_branch(kind: str) -> dict[str, Any] | None:
    for branch in _schema()["properties"]["victory"]["items"]["oneOf"]:
        if branch["properties"]["kind"].get("const") == kind:
            b: dict[str, Any] = branch
            return b
    return None


def mission_parameters(doc: dict[str, Any]) -> list[ParamInfo]:
    """Every parameter of a mission document (one that passed the schema), in file order."""
    props = _schema()["properties"]
    squad = doc.get("marines", {}).get("squad", [])
    out = [ParamInfo("marines.count", "int", len(squad), 1, max(1, len(squad)))]
    out += _walk("marines", props["marines"], doc.get("marines", {}))
    out += _walk("genestealers", props["genestealers"], doc.get("genestealers", {}))
    # A reinforcement row's `every` is written only when it is not 1; listed always (its default).
    rows = doc.get("genestealers", {}).get("reinforcements", [])
    for e in doc.get("entry_areas", []):
        used = any(e["id"] in r.get("entry_areas", []) for r in rows) or e["id"] in doc.get(
            "genestealers", {}).get("starting", {}).get("entry_areas", [])
        out.append(ParamInfo(f"entry_areas.{e['id']}.on", "choice", used, choices=(False, True)))
    seen: set[str] = set()
    for i, v in enumerate(doc.get("victory", [])):
        kind = v.get("kind", "")
        branch = _victory_branch(kind)
        if branch is None:
            continue
        # The first condition of a kind is named by the kind; a second one of the same kind by its index.
        head = f"victory.{kind}" if kind not in seen else f"victory[{i}]"
        seen.add(kind)
        out += _walk(head, branch, v)
    return out


def find_parameter(doc: dict[str, Any], name: str) -> ParamInfo:
    """The parameter `name` of a mission document; ValueError naming the closest paths when there is none."""
    params = mission_parameters(doc)
    for p in params:
        if p.name == name:
            return p
    alias = _victory_alias(doc, name)
    if alias is not None:
        for p in params:
            if p.name == alias:
                return p
    head = name.rsplit(".", 1)[0]
    near = [p.name for p in params if p.name.startswith(head)] or [p.name for p in params][:8]
    raise ValueError(f"unknown mission parameter {name!r} (e.g. {', '.join(near[:8])}; "
                     f"hulkforge tune --list-params MISSION lists them all)")


def _victory_alias(doc: dict[str, Any], name: str) -> str | None:
    """`victory[2].turn` as the listing names it (`victory.turn_limit.turn`)."""
    m = re.match(r"^victory\[(\d+)\]\.(.+)$", name)
    if not m:
        return None
    i = int(m.group(1))
    vs = doc.get("victory", [])
    if i >= len(vs):
        return None
    kind = vs[i].get("kind", "")
    first = next(j for j, v in enumerate(vs) if v.get("kind") == kind)
    return f"victory.{kind}.{m.group(2)}" if first == i else None


def set_parameter(doc: dict[str, Any], name: str, value: Any) -> None:
    """Write a parameter's value into a mission document in place (checked against what it accepts)."""
    info = find_parameter(doc, name)
    value = info.check(value)
    if info.name.startswith("entry_areas."):
        _set_entry(doc, info.name.split(".")[1], bool(value))
        return
    if info.name == "marines.count":  # the first N Marines of the squad, in file order
        doc["marines"]["squad"] = doc["marines"]["squad"][:value]
        return
    parts = info.name.split(".")
    target: Any = doc
    if parts[0] == "victory":
        kind = parts[1]
        target = next(v for v in doc["victory"] if v.get("kind") == kind)
        parts = parts[2:]
    elif parts[0].startswith("victory["):
        target = doc["victory"][int(parts[0][8:-1])]
        parts = parts[1:]
    for seg in parts[:-1]:
        m = _SEGMENT.match(seg)
        assert m is not None
        target = target.setdefault(m.group(1), {})
        for idx in re.findall(r"\[(\d+)\]", m.group(2)):
            target = target[int(idx)]
    target[parts[-1]] = value


def _set_entry(doc: dict[str, Any], eid: str, on: bool) -> None:
    """Turn an entry area on (every reinforcement row brings blips there) or off (no blips there at all)."""
    gs = doc["genestealers"]
    if on:
        for r in gs.get("reinforcements", []):
            if eid not in r["entry_areas"]:
                r["entry_areas"].append(eid)
        return
    start = gs.get("starting", {})
    if eid in start.get("entry_areas", []):
        start["entry_areas"] = [e for e in start["entry_areas"] if e != eid]
    for r in gs.get("reinforcements", []):
        r["entry_areas"] = [e for e in r["entry_areas"] if e != eid]
    if any(not r["entry_areas"] for r in gs.get("reinforcements", [])) or (
            start.get("blips") and not start.get("entry_areas")):
        raise ValueError(f"mission parameter 'entry_areas.{eid}.on': false leaves blips with no entry area")


def is_path(name: str) -> bool:
    """True when `name` reads as a path into the mission document (not a rule option's bare name)."""
    return name.split(".")[0].split("[")[0] in ("marines", "genestealers", "victory", "entry_areas") and (
        "." in name or "[" in name)
