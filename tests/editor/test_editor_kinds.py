"""The editor's per-kind tables against the registry of feature kinds (engine/mission/kinds.py): every kind has a
tool with an icon, its fields in the feature panel, and a name in the menus; no table names a kind that is gone;
the lab's replay marks the turbo-lifts."""

from __future__ import annotations

from editor.docks.feature_panel import FIELDS
from editor.features import KINDS
from editor.lab.replay_frames import feature_marks
from editor.tool_icons import GLYPHS
from editor.tools import TOOL_CLASSES
from engine.mission import load_mission
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


def test_the_lab_replay_marks_lift_entrances() -> None:
    state = Game(load_mission(sample_mission("the_shaft"))).new_state(1)
    marks = feature_marks(state)
    assert {lv for lv, ms in marks.items() for m in ms if m.kind == "lift"} == {"bridge", "gallery", "hold"}
