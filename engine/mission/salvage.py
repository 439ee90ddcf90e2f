"""Reading a mission that breaks the schema, for repair: a well-typed model of whatever can be read.

`load_mission` refuses a document that breaks the schema, which is right for the simulator and the exporters.
A designer, though, must be able to open such a file (one hand-edited, or written by an older editor) and fix
it. `salvage_document` builds the model from any parsed document:

- every value of the type the model declares is kept, valid or not (a side "Q", an id "bad id!", an x of 500,
  a reinforcement with no entry area), so validation reports it, the editor shows it and saving writes it back;
- a value of another type is converted when that loses nothing (False -> "false" for a name, "3" -> 3 for a
  number), otherwise replaced by a placeholder that stays invalid (a coordinate of -1, an empty id), so the
  object remains flagged until the designer fixes it; so is a number past any a mission holds (HOLDABLE);
- what the model cannot hold (an unknown property, a rule option the schema does not accept) is dropped;
- text the strict reader refuses is mended: of a key written twice the last value is kept (as most JSON readers
  do), a control character or lone surrogate becomes U+FFFD.

Each conversion, placeholder and drop is reported as a READ-REPAIR note. List items are never dropped, so
paths into the model are paths into the document. The model is well-typed, so nothing that draws it or checks
placement rules on it can crash; the simulator still only takes missions that pass the schema.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import types
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from engine.mission.io import parse_document, read_limited
from engine.mission.issues import Issue, json_path
from engine.mission.kinds import KINDS
from engine.mission.model import (
    Genestealers,
    Level,
    Marines,
    Meta,
    Mission,
    RandomCounter,
    RandomSetup,
    Section,
)
from engine.mission.objects import Parts, describe

RULE = "READ-REPAIR"
# A placeholder for a number that could not be read: below every minimum of the schema, so it stays flagged.
UNREAD_NUMBER = -1
# No number of a mission may pass 999 (turns, totals: schemas/mission.schema.json); one far past any maximum is no
# typo worth keeping for repair, and the editor's widgets and drawings (32-bit, a grid of the marked squares) could
# not hold it. Values between the schema's maximum and this are kept for validation to flag.
HOLDABLE = 999
_WHOLE = re.compile(r"-?\d{1,9}")

FEATURE_CLASSES: dict[str, type] = {k.key: k.model for k in KINDS if k.key != "squad"}


@dataclass
class Salvage:
    """The model read from a document, and what had to change to read it."""

    mission: Mission
    notes: list[Issue]


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _short(value: Any) -> str:
    text = _json(value)
    return text if len(text) <= 60 else text[:57] + "..."


class _Reader:
    """Builds model objects from JSON values, noting every change it makes."""

    def __init__(self, doc: Any) -> None:
        self.doc = doc
        self.notes: list[Issue] = []

    def note(self, parts: Parts, message: str) -> None:
        self.notes.append(Issue(RULE, json_path(parts), describe(self.doc, parts, message), severity="warning"))

    # --- scalars ---------------------------------------------------------------------------------
    def text(self, value: Any, parts: Parts) -> str:
        if isinstance(value, str):
            return value
        converted = "" if value is None else _json(value)
        self.note(parts, f"{_short(value)} is not text; read as {converted!r}")
        return converted

    def number(self, value: Any, parts: Parts, placeholder: int = UNREAD_NUMBER) -> int:
        if type(value) is int:
            return value if abs(value) <= HOLDABLE else self.beyond(value, parts, placeholder)
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**31:
            read = int(value)
        elif isinstance(value, bool):
            read = int(value)
        elif isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
            read = int(value.strip())
        else:
            self.note(parts, f"{_short(value)} is not a whole number; set to {placeholder} until it is fixed")
            return placeholder
        if abs(read) > HOLDABLE:
            return self.beyond(value, parts, placeholder)
        self.note(parts, f"{_short(value)} is not a whole number; read as {read}")
        return read

    def beyond(self, value: Any, parts: Parts, placeholder: int) -> int:
        self.note(parts, f"{_short(value)} is beyond any number of a mission (at most {HOLDABLE}); set to "
                         f"{placeholder} until it is fixed")
        return placeholder

    def flag(self, value: Any, parts: Parts, default: bool) -> bool:
        if isinstance(value, bool):
            return value
        self.note(parts, f"{_short(value)} is not true or false; set to {_json(default)}")
        return default

    def items(self, value: Any, parts: Parts) -> list[Any]:
        if isinstance(value, list):
            return value
        if value is not None:
            self.note(parts, f"{_short(value)} is not a list; read as an empty list")
        return []

    def mapping(self, value: Any, parts: Parts, quiet: bool = False) -> dict[str, Any]:
        if isinstance(value, dict):
            return value
        if not quiet:
            self.note(parts, f"{_short(value)} is not an object; read as an empty one to fill in")
        return {}

    # --- values by the type the model declares --------------------------------------------------
    def value(self, hint: Any, value: Any, parts: Parts, default: Any) -> Any:
        origin, args = get_origin(hint), get_args(hint)
        if origin in (Union, types.UnionType):
            if value is None and type(None) in args:
                return None
            (inner,) = [a for a in args if a is not type(None)]
            return self.value(inner, value, parts, default)
        if hint is str or origin is Literal:
            return self.text(value, parts)
        if hint is bool:
            return self.flag(value, parts, bool(default) if default is not None else False)
        if hint is int:
            return self.number(value, parts, default if type(default) is int else UNREAD_NUMBER)
        if origin is list:
            (inner,) = args
            return [self.value(inner, v, (*parts, i), None) for i, v in enumerate(self.items(value, parts))]
        if origin is tuple:  # a fixed-length tuple (a square's x, y), written as a JSON list
            items = self.items(value, parts)
            return tuple(self.value(t, items[i] if i < len(items) else None, (*parts, i), None)
                         for i, t in enumerate(args))
        if dataclasses.is_dataclass(hint):
            return self.record(hint, value, parts)
        return value

    def record(self, cls: Any, value: Any, parts: Parts, skip: tuple[str, ...] = ()) -> Any:
        """An instance of the dataclass from a JSON object: known fields read by type, unknown ones dropped."""
        quiet = not isinstance(value, dict)  # said once here, not once per field
        data = self.mapping(value, parts, quiet=value is None)
        hints = _hints(cls)
        kwargs: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name in skip:
                continue
            default = f.default if f.default is not dataclasses.MISSING else None
            if f.name in data:
                kwargs[f.name] = self.value(hints[f.name], data[f.name], (*parts, f.name), default)
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                kwargs[f.name] = self.placeholder(hints[f.name], (*parts, f.name), quiet)
        for key in sorted(set(data) - {f.name for f in dataclasses.fields(cls)} - set(skip), key=str):
            self.note((*parts, key), "not a property of this object; dropped")
        return cls(**kwargs)

    def placeholder(self, hint: Any, parts: Parts, quiet: bool = False) -> Any:
        """The value of a required field that is missing: one that stays invalid, so it stays flagged."""
        origin = get_origin(hint)
        if origin in (Union, types.UnionType):
            return None
        if dataclasses.is_dataclass(hint):
            if not quiet:
                self.note(parts, "missing; read as an empty object")
            return self.record(hint, None, parts)
        if hint is int:
            filler: Any = UNREAD_NUMBER
        elif origin is list:
            filler = []
        elif hint is bool:
            filler = False
        else:
            filler = ""
        if not quiet:
            self.note(parts, f"missing; set to {_json(filler)} until it is filled in")
        return filler


@cache
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls)


def _levels(r: _Reader, value: Any) -> list[Level]:
    out: list[Level] = []
    for i, raw in enumerate(r.items(value, ("levels",))):
        parts: Parts = ("levels", i)
        lv = r.record(Level, raw, parts, skip=("sections",))
        if not lv.id:
            # The editor keys its views by level id: a level needs one, unique, to be shown at all.
            taken = {other.id for other in out} | {v.get("id") for v in value if isinstance(v, dict)}
            n = i + 1
            while f"level{n}" in taken:
                n += 1
            r.note((*parts, "id"), f"no usable level id; named 'level{n}'")
            lv.id = f"level{n}"
        sections = r.mapping(raw.get("sections", {}), (*parts, "sections")) if isinstance(raw, dict) else {}
        lv.sections = {code: r.record(Section, s, (*parts, "sections", code)) for code, s in sections.items()}
        out.append(lv)
    return out


def _zones(r: _Reader, value: Any) -> list[tuple[str, str]]:
    zones = []
    for i, raw in enumerate(r.items(value, ("random_setup", "zones"))):
        parts: Parts = ("random_setup", "zones", i)
        data = r.mapping(raw, parts)
        for key in sorted(set(data) - {"level", "section"}, key=str):
            r.note((*parts, key), "not a property of this object; dropped")
        level = r.text(data["level"], (*parts, "level")) if "level" in data else r.placeholder(str, (*parts, "level"))
        code = (r.text(data["section"], (*parts, "section")) if "section" in data
                else r.placeholder(str, (*parts, "section")))
        zones.append((level, code))
    return zones


def _random_setup(r: _Reader, value: Any) -> RandomSetup | None:
    if value is None:
        return None
    data = r.mapping(value, ("random_setup",))
    for key in sorted(set(data) - {"zones", "counters"}, key=str):
        r.note(("random_setup", key), "not a property of this object; dropped")
    counters = [r.record(RandomCounter, c, ("random_setup", "counters", i))
                for i, c in enumerate(r.items(data.get("counters"), ("random_setup", "counters")))]
    return RandomSetup(zones=_zones(r, data.get("zones")), counters=counters)


def _pool(r: _Reader, value: Any) -> dict[int, int]:
    parts: Parts = ("genestealers", "pool")
    out: dict[int, int] = {}
    for key, count in r.mapping(value, parts).items():
        if key in ("1", "2", "3"):
            out[int(key)] = r.number(count, (*parts, key), 0)
        else:
            r.note((*parts, key), "blips are worth 1, 2 or 3; dropped")
    return out


def _genestealers(r: _Reader, value: Any) -> Genestealers:
    parts: Parts = ("genestealers",)
    data = r.mapping(value, parts)
    gs: Genestealers = r.record(Genestealers, data, parts, skip=("pool",))
    if "pool" in data:
        gs.pool = _pool(r, data["pool"])
    return gs


def _options(r: _Reader, value: Any) -> dict[str, object]:
    """Rule options the schema accepts, each as it is; any other is dropped and the ruleset's default applies."""
    from engine.mission.schema_check import mission_validator

    validator = mission_validator()
    specs = validator.schema["properties"]["options"]["properties"]
    out: dict[str, object] = {}
    for name, option in r.mapping(value, ("options",)).items():
        if name not in specs:
            r.note(("options", name), "not a rule option; dropped")
        elif not validator.evolve(schema=specs[name]).is_valid(option):
            r.note(("options", name), f"{_short(option)} is not a value this option takes; dropped (default applies)")
        else:
            out[name] = option
    return out


def _victory(r: _Reader, value: Any) -> list[dict[str, object]]:
    out = []
    for i, cond in enumerate(r.items(value, ("victory",))):
        # Victory conditions stay JSON objects (see the model); only a non-object, or a number beyond what a
        # mission holds, has to change.
        kept = dict(r.mapping(cond, ("victory", i)))
        for key, v in kept.items():
            if type(v) is int and abs(v) > HOLDABLE:
                kept[key] = r.beyond(v, ("victory", i, key), UNREAD_NUMBER)
        out.append(kept)
    return out


def salvage_document(doc: dict[str, Any]) -> Salvage:
    """The model of a parsed document (see parse_document), whether or not it passes the schema."""
    r = _Reader(doc)
    known = {"format", "version", "meta", "ruleset", "options", "levels", "marines", "genestealers", "victory",
             "random_setup", *FEATURE_CLASSES}
    for key in sorted(set(doc) - known, key=str):
        r.note((key,), "not a property of a mission; dropped")
    features = {kind: [r.record(cls, item, (kind, i)) for i, item in enumerate(r.items(doc.get(kind), (kind,)))]
                for kind, cls in FEATURE_CLASSES.items()}
    mission = Mission(
        meta=r.record(Meta, doc.get("meta", {}), ("meta",)),
        levels=_levels(r, doc.get("levels")),
        marines=r.record(Marines, doc.get("marines", {}), ("marines",)),
        genestealers=_genestealers(r, doc.get("genestealers", {})),
        victory=_victory(r, doc.get("victory")),
        ruleset=r.text(doc["ruleset"], ("ruleset",)) if "ruleset" in doc else "4e",  # type: ignore[arg-type]
        options=_options(r, doc.get("options", {})),
        random_setup=_random_setup(r, doc.get("random_setup")),
        **features,
    )
    return Salvage(mission, r.notes)


def read_for_repair(path: str | os.PathLike[str]) -> Salvage:
    """Read a mission file for the editor: refuses only what cannot be read at all (MissionFileError: not JSON,
    too large, not a hulkforge mission of a known version); anything else comes back as a model to repair."""
    repairs: list[tuple[str, str]] = []
    found = salvage_document(parse_document(read_limited(path), str(path), repairs=repairs))
    found.notes[:0] = [Issue(RULE, where, message, severity="warning") for where, message in repairs]
    return found
