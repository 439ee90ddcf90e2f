"""The editor's per-kind tables against the registry of feature kinds (engine/mission/kinds.py): every kind has a
tool with an icon, its fields in the feature panel, and a name in the menus; no table names a kind that is gone;
the lab's replay marks the turbo-lifts."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from editor.docks.feature_panel import FIELDS
from editor.features import KINDS
from editor.lab.replay_frames import feature_marks
from editor.scene.feature_item import DRAWN_HERE
from editor.tool_icons import GLYPHS
from editor.tools import TOOL_CLASSES
from editor.tools.kind_table import KindToolRow
from editor.tools.place_tools import NEXT_FACING, auto_side, kind_tool
from engine.mission import load_mission
from engine.mission.kinds import BY_KEY, CannotExpress, _flat
from engine.mission.kinds import KINDS as REGISTRY
from engine.resources import sample_mission
from engine.rules.game import Game

KEYS = sorted(k.key for k in REGISTRY)


def test_every_kind_has_a_tool_with_an_icon() -> None:
    placing = {cls.kind for cls in TOOL_CLASSES if cls.kind}
    assert sorted(placing) == KEYS
    for cls in TOOL_CLASSES:
        if cls.kind:
            assert cls.name in GLYPHS, cls.name


def test_every_kind_has_its_fields_and_name() -> None:
    assert sorted(FIELDS) == KEYS
    assert sorted(KINDS) == KEYS


def test_the_map_draws_only_kinds_that_exist() -> None:
    """The kinds the map draws its own way are kinds of the registry (any other is drawn from its legend colour)."""
    assert DRAWN_HERE <= set(KEYS)


def test_the_lab_replay_marks_lift_entrances() -> None:
    state = Game(load_mission(sample_mission("the_shaft"))).new_state(1)
    marks = feature_marks(state)
    assert {lv for lv, ms in marks.items() for m in ms if m.kind == "lift"} == {"bridge", "gallery", "hold"}


@dataclass
class Beacon:
    id: str
    level: str
    x: int
    y: int
    side: str
    strength: str = "low"


@pytest.mark.usefixtures("config_dir", "no_modal")
def test_a_simple_kind_tool_builds_its_feature_from_the_declaration(window, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A kind declared only in a test: its tool, from one table row, numbers it with the kind's prefix, turns it
    to the nearest wall, and a click on one turns it."""
    beacons = _flat("beacons", "beacon", Beacon, "id", "Exit", "beacon", CannotExpress("beacons", "none"), "BC")
    monkeypatch.setitem(BY_KEY, "beacons", beacons)
    monkeypatch.setattr(window.doc.mission, "beacons", [Beacon("BC1", "upper", 1, 1, "N")], raising=False)
    tool = kind_tool(KindToolRow("beacons", "Beacon", "", "", "disc", "Exit"))(window.tool_named("Exit").ctx)
    level = window.doc.level("upper")
    x, y = next((x, y) for y, row in enumerate(level.rows) for x, c in enumerate(row) if c != "#")
    made = tool.make("upper", x, y)
    side = auto_side(level, x, y)
    assert made == Beacon("BC2", "upper", x, y, side, "low")
    assert tool.edit(made) == Beacon("BC2", "upper", x, y, NEXT_FACING[side], "low")
