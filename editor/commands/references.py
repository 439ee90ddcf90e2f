"""What else names a feature or a level: blips name entry areas, victory conditions name objectives, exits,
levels and sections, random zones name levels. Removing or renaming the thing edits these in the same step."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from editor.commands.base import CompoundCommand
from editor.commands.features import SetRandomSetupCommand
from editor.commands.values import ChangeValueCommand
from editor.document import MissionDocument
from engine.mission.model import Reinforcement, StartingBlips, VictoryCondition


@dataclass
class Gone:
    """Ids that disappear: entry areas, exits, objectives and levels."""

    entry_areas: set[str] = field(default_factory=set)
    exits: set[str] = field(default_factory=set)
    objectives: set[str] = field(default_factory=set)
    levels: set[str] = field(default_factory=set)


def _names_gone(cond: VictoryCondition, gone: Gone) -> bool:
    to = cond.get("to")
    return (cond.get("objective") in gone.objectives
            or (isinstance(to, dict) and (to.get("exit") in gone.exits or to.get("level") in gone.levels))
            or (cond.get("kind") == "section_flamed" and cond.get("level") in gone.levels))


def drop_references(doc: MissionDocument, gone: Gone, parent: CompoundCommand) -> list[str]:
    """Child commands of `parent` that remove every reference to what is gone; returns what they change, in
    words, for the dialog that asks first. Nothing is changed that would leave the file breaking the schema: a
    reinforcement row left with no entry area goes, and the last victory condition stays (and is said so)."""
    m, said = doc.mission, []
    gs = m.genestealers
    start = [a for a in gs.starting.entry_areas if a not in gone.entry_areas]
    if start != gs.starting.entry_areas:
        lost = sorted(set(gs.starting.entry_areas) - set(start))
        blips = gs.starting.blips if start else 0  # blips with nowhere to arrive would be a dangling reference
        kept = blips == gs.starting.blips
        also = "" if kept else f", and the {gs.starting.blips} starting blip(s) arriving only there"
        said.append(f"entry area(s) {', '.join(lost)} from the starting blips{also}")
        ChangeValueCommand(doc, gs, "starting", StartingBlips(blips, start), parent=parent)
    rows: list[Reinforcement] = []
    for i, r in enumerate(gs.reinforcements):
        kept = [a for a in r.entry_areas if a not in gone.entry_areas]
        if not kept and r.entry_areas:
            said.append(f"reinforcement row {i + 1} (it arrives only at {', '.join(r.entry_areas)})")
            continue
        if kept != r.entry_areas:
            said.append(f"entry area(s) {', '.join(sorted(set(r.entry_areas) - set(kept)))} "
                        f"from reinforcement row {i + 1}")
        rows.append(dataclasses.replace(r, entry_areas=kept))
    if rows != gs.reinforcements:
        ChangeValueCommand(doc, gs, "reinforcements", rows, parent=parent)
    victory = [cond for cond in m.victory if not _names_gone(cond, gone)]
    if not victory and m.victory:  # a mission needs a victory condition: keep the first, to edit by hand
        victory = m.victory[:1]
        said.append(f"(not victory condition 1 ({m.victory[0].get('kind')}), though it names what goes: a mission "
                    "needs one; edit it in Victory)")
    said += [f"victory condition {i + 1} ({cond.get('kind')})" for i, cond in enumerate(m.victory)
             if not any(cond is kept for kept in victory)]
    if victory != m.victory:
        ChangeValueCommand(doc, m, "victory", victory, parent=parent)
    rs = m.random_setup
    if rs is not None and any(level in gone.levels for level, _ in rs.zones):
        zones = [z for z in rs.zones if z[0] not in gone.levels]
        said.append(f"{len(rs.zones) - len(zones)} random set-up zone(s)")
        SetRandomSetupCommand(doc, dataclasses.replace(rs, zones=zones) if zones or rs.counters else None,
                              parent=parent)
    return said


def rename_references(doc: MissionDocument, kind: str, old: str, new: str, parent: CompoundCommand) -> None:
    """Child commands of `parent` that make everything naming `old` (an entry area, exit, objective or level
    id) name `new`."""
    m = doc.mission
    gs = m.genestealers

    def swap(ids: list[str]) -> list[str]:
        return [new if a == old else a for a in ids]

    if kind == "entry_areas":
        if old in gs.starting.entry_areas:
            ChangeValueCommand(doc, gs, "starting", StartingBlips(gs.starting.blips, swap(gs.starting.entry_areas)),
                               parent=parent)
        rows = [dataclasses.replace(r, entry_areas=swap(r.entry_areas)) for r in gs.reinforcements]
        if rows != gs.reinforcements:
            ChangeValueCommand(doc, gs, "reinforcements", rows, parent=parent)
        return
    key = {"objectives": "objective", "exits": "exit", "levels": "level"}.get(kind)
    if key is None:
        return
    victory = [_renamed(cond, key, old, new) for cond in m.victory]
    if victory != m.victory:
        ChangeValueCommand(doc, m, "victory", victory, parent=parent)
    rs = m.random_setup
    if kind == "levels" and rs is not None and any(level == old for level, _ in rs.zones):
        zones = [(new if level == old else level, code) for level, code in rs.zones]
        SetRandomSetupCommand(doc, dataclasses.replace(rs, zones=zones), parent=parent)


def _renamed(cond: VictoryCondition, key: str, old: str, new: str) -> VictoryCondition:
    out: dict[str, Any] = dict(cond)
    if key in ("objective", "level") and out.get(key) == old and (key == "objective" or
                                                                   out.get("kind") == "section_flamed"):
        out[key] = new
    to = out.get("to")
    if isinstance(to, dict) and to.get(key) == old and key in ("exit", "level"):
        out["to"] = {**to, key: new}
    return out
