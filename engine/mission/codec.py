"""Converting between format-v1 JSON objects and the mission model, and the diff-friendly text form."""

from __future__ import annotations

import json
from typing import Any

from engine.mission.kinds import KINDS, items
from engine.mission.model import (
    Genestealers,
    Level,
    LimitedPool,
    Marine,
    Marines,
    Meta,
    Mission,
    RandomCounter,
    RandomSetup,
    Reinforcement,
    Section,
    StartingBlips,
)

FORMAT = "hulkforge-mission"
VERSION = 1
# The feature lists every document has carried since format 1, written even when empty; a kind added later is
# written only when the mission holds one, so a mission without it saves exactly as before.
ALWAYS_WRITTEN = ("doors", "entry_areas", "exits", "objectives", "pitfalls", "ladders", "rubble", "chutes")


def mission_from_dict(d: dict[str, Any]) -> Mission:
    """Build the model from a document that has passed the schema (see validation.validate_document)."""
    gs = d["genestealers"]
    lim = gs.get("limited")
    start = gs.get("starting", {})
    rs = d.get("random_setup")
    mar = d["marines"]
    return Mission(
        meta=Meta(**d["meta"]),
        ruleset=d.get("ruleset", "4e"),
        options=dict(d.get("options", {})),
        levels=[
            Level(
                id=lv["id"],
                depth=lv["depth"],
                rows=list(lv["rows"]),
                name=lv.get("name", ""),
                sections={k: Section(**v) for k, v in lv.get("sections", {}).items()},
            )
            for lv in d["levels"]
        ],
        **{k.key: [k.load(x) for x in d.get(k.key, [])] for k in KINDS if k.key != "squad"},
        random_setup=None
        if rs is None
        else RandomSetup(
            zones=[(z["level"], z["section"]) for z in rs["zones"]],
            counters=[RandomCounter(**c) for c in rs["counters"]],
        ),
        marines=Marines(squad=[Marine(**m) for m in mar["squad"]], psi_points=mar.get("psi_points", 20)),
        genestealers=Genestealers(
            pool={int(k): v for k, v in gs.get("pool", {"1": 9, "2": 4, "3": 9}).items()},
            limited=None if lim is None else LimitedPool(**lim),
            starting=StartingBlips(start.get("blips", 0), list(start.get("entry_areas", []))),
            reinforcements=[
                Reinforcement(**{**r, "entry_areas": list(r["entry_areas"])}) for r in gs["reinforcements"]
            ],
            model_cap=gs.get("model_cap", 22),
            alpha=gs.get("alpha", False),
        ),
        victory=[dict(v) for v in d["victory"]],
    )


def mission_to_dict(m: Mission) -> dict[str, Any]:
    """The format-v1 document for a mission, keys in a fixed order."""
    gs = m.genestealers
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "meta": {k: v for k, v in vars(m.meta).items() if k == "title" or v},
        "ruleset": m.ruleset,
        "options": dict(sorted(m.options.items())),
        "levels": [
            {
                "id": lv.id,
                "name": lv.name,
                "depth": lv.depth,
                "rows": list(lv.rows),
                "sections": {k: {"name": s.name, "kind": s.kind} for k, s in sorted(lv.sections.items())},
            }
            for lv in m.levels
        ],
        **{
            k.key: [k.dump(x) for x in items(m, k)]
            for k in KINDS
            if k.key != "squad" and (k.key in ALWAYS_WRITTEN or items(m, k))
        },
    }
    if m.random_setup is not None:
        out["random_setup"] = {
            "zones": [{"level": lv, "section": s} for lv, s in m.random_setup.zones],
            "counters": [
                # An empty letter is written too (the schema refuses it): dropped, the file would reopen different.
                {"kind": c.kind, **({"letter": c.letter} if c.letter is not None else {})}
                for c in m.random_setup.counters
            ],
        }
    out["marines"] = {"squad": [vars(x).copy() for x in m.marines.squad], "psi_points": m.marines.psi_points}
    out["genestealers"] = {
        "pool": {str(k): v for k, v in sorted(gs.pool.items())},
        "limited": None if gs.limited is None else vars(gs.limited).copy(),
        "starting": {"blips": gs.starting.blips, "entry_areas": list(gs.starting.entry_areas)},
        "reinforcements": [
            {
                "from_turn": r.from_turn,
                "to_turn": r.to_turn,
                "per_turn": r.per_turn,
                "entry_areas": list(r.entry_areas),
                "pool": r.pool,
                **({"every": r.every} if r.every != 1 else {}),
            }
            for r in gs.reinforcements
        ],
        "model_cap": gs.model_cap,
        "alpha": gs.alpha,
    }
    out["victory"] = [dict(v) for v in m.victory]
    return out


def _is_leaf(v: Any) -> bool:
    if isinstance(v, dict):
        # An object of scalars (or of short scalar lists) fits on one line; one holding objects does not.
        return all(not isinstance(x, dict) and (not isinstance(x, list) or _is_leaf(x)) for x in v.values())
    if isinstance(v, list):
        return all(not isinstance(x, (dict, list)) for x in v) and len(json.dumps(v)) <= 100
    return True


def dumps(doc: dict[str, Any]) -> str:
    """JSON text for a document: one line per feature, one line per terrain row, so diffs stay readable."""

    def emit(v: Any, indent: int) -> str:
        pad = "  " * (indent + 1)
        if isinstance(v, dict) and v and not (indent >= 2 and _is_leaf(v)):
            items = [f"{pad}{json.dumps(k)}: {emit(x, indent + 1)}" for k, x in v.items()]
            return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
        if isinstance(v, list) and v and not _is_leaf(v):
            items = [f"{pad}{emit(x, indent + 1)}" for x in v]
            return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
        if isinstance(v, list) and v and any(isinstance(x, str) and len(x) > 8 for x in v):
            # Terrain rows: one per line so the map reads as a picture in a text editor.
            items = [f"{pad}{json.dumps(x, ensure_ascii=False)}" for x in v]
            return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
        return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))

    return emit(doc, 0) + "\n"


def mission_dumps(m: Mission) -> str:
    return dumps(mission_to_dict(m))
