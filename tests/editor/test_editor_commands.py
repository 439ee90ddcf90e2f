"""Commands on a bare QUndoStack (no window): every edit undoes to an identical model."""

from __future__ import annotations

import copy

import pytest
from PySide6.QtCore import QRect

from editor.commands import (
    AddFeatureCommand,
    AddLevelCommand,
    ChangeValueCommand,
    PaintTerrainCommand,
    RemoveFeatureCommand,
    RemoveLevelCommand,
    SetRandomSetupCommand,
    SetSectionCommand,
)
from editor.commands.region import copy_region, move_region, paste_region, rotate_map, rotate_region
from editor.document import DELETE, MissionDocument
from engine.mission import load_mission, mission_to_dict
from engine.mission.model import Door, Level, Pitfall, RandomSetup, Rubble, Section

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")


@pytest.fixture
def doc(qapp, pitfall_path):  # type: ignore[no-untyped-def]
    return MissionDocument(load_mission(pitfall_path))


def snapshot(doc: MissionDocument) -> dict:  # type: ignore[type-arg]
    return copy.deepcopy(mission_to_dict(doc.mission))


def undo_all(doc: MissionDocument) -> None:
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()


def test_brush_stroke_merges_into_one_step_and_undoes_exactly(doc: MissionDocument) -> None:
    before = snapshot(doc)
    for x in range(3, 12):
        doc.undo_stack.push(PaintTerrainCommand(doc, "upper", {(x, 6): "."}, stroke=7))
    doc.undo_stack.push(PaintTerrainCommand(doc, "upper", {(3, 6): "#"}, stroke=7))  # repaint: first old value wins
    assert doc.undo_stack.count() == 1
    assert doc.level("upper").rows[6][4:12] == "........"
    doc.undo_stack.undo()
    assert snapshot(doc) == before
    doc.undo_stack.redo()
    assert doc.level("upper").rows[6][3] == "#"


def test_separate_strokes_are_separate_steps(doc: MissionDocument) -> None:
    doc.undo_stack.push(PaintTerrainCommand(doc, "upper", {(3, 6): "."}, stroke=1))
    doc.undo_stack.push(PaintTerrainCommand(doc, "upper", {(4, 6): "."}, stroke=2))
    doc.undo_stack.push(PaintTerrainCommand(doc, "upper", {(5, 6): "."}))
    assert doc.undo_stack.count() == 3


def test_dirty_follows_the_clean_index(doc: MissionDocument, qtbot) -> None:  # type: ignore[no-untyped-def]
    assert not doc.dirty
    with qtbot.waitSignal(doc.dirtyChanged):
        doc.undo_stack.push(AddFeatureCommand(doc, "rubble", Rubble("upper", 14, 10)))
    assert doc.dirty
    doc.undo_stack.undo()
    assert not doc.dirty


@pytest.mark.parametrize(
    ("kind", "obj"),
    [("doors", Door("NEW", "upper", 3, 6)), ("pitfalls", Pitfall("A", "upper", 14, 9)),
     ("rubble", Rubble("upper", 16, 9))],
)
def test_add_then_remove_feature_round_trip(doc: MissionDocument, kind: str, obj: object) -> None:
    before = snapshot(doc)
    doc.undo_stack.push(AddFeatureCommand(doc, kind, obj))
    after_add = snapshot(doc)
    assert after_add != before
    doc.undo_stack.push(RemoveFeatureCommand(doc, kind, obj))
    assert snapshot(doc) == before
    doc.undo_stack.undo()
    assert snapshot(doc) == after_add
    undo_all(doc)
    assert snapshot(doc) == before


def test_remove_keeps_the_index_on_undo(doc: MissionDocument) -> None:
    before = snapshot(doc)
    doc.undo_stack.push(RemoveFeatureCommand(doc, "doors", doc.mission.doors[2]))
    doc.undo_stack.undo()
    assert snapshot(doc) == before


def test_change_value_merges_typing_and_removes_new_keys(doc: MissionDocument) -> None:
    before = snapshot(doc)
    for text in ("P", "Pi", "Pit"):
        doc.undo_stack.push(ChangeValueCommand(doc, doc.mission.meta, "title", text))
    assert doc.undo_stack.count() == 1 and doc.mission.meta.title == "Pit"
    doc.undo_stack.push(ChangeValueCommand(doc, doc.mission.options, "fire_module", True))
    doc.undo_stack.push(ChangeValueCommand(doc, doc.mission.options, "ladder_rule", DELETE))
    assert doc.mission.options == {"fire_module": True}
    undo_all(doc)
    assert snapshot(doc) == before


def test_remove_level_takes_its_features_and_undo_brings_all_back(doc: MissionDocument) -> None:
    before = snapshot(doc)
    doc.undo_stack.push(RemoveLevelCommand(doc, doc.level("lower")))
    assert [lv.id for lv in doc.mission.levels] == ["upper"]
    assert all(d.level == "upper" for d in doc.mission.doors)
    doc.undo_stack.undo()
    assert snapshot(doc) == before


def test_add_level_and_section(doc: MissionDocument) -> None:
    before = snapshot(doc)
    doc.undo_stack.push(AddLevelCommand(doc, Level("deep", 2, ["#" * 30] * 20, "Deep")))
    doc.undo_stack.push(SetSectionCommand(doc, "deep", "a", Section("Vault", "room")))
    assert doc.level("deep").sections["a"].name == "Vault"
    undo_all(doc)
    assert snapshot(doc) == before


def test_random_setup_replaced_and_restored(doc: MissionDocument) -> None:
    before = snapshot(doc)
    doc.undo_stack.push(SetRandomSetupCommand(doc, RandomSetup(zones=[("upper", "b")])))
    assert doc.mission.random_setup is not None and doc.mission.random_setup.zones == [("upper", "b")]
    doc.undo_stack.undo()
    assert snapshot(doc) == before


def test_rotate_map_four_times_is_identity_and_undoes(doc: MissionDocument) -> None:
    before = snapshot(doc)
    doc.undo_stack.push(rotate_map(doc))
    turned = doc.mission
    assert turned.levels[0].width == 20 and turned.levels[0].height == 30
    door = doc.mission.doors[0]  # UD1 was at 12,10 on a 20-row map: (h-1-y, x) = (9, 12)
    assert (door.x, door.y) == (9, 12)
    for _ in range(3):
        doc.undo_stack.push(rotate_map(doc))
    assert snapshot(doc) == before
    undo_all(doc)
    assert snapshot(doc) == before


def test_paste_region_across_levels_then_undo(doc: MissionDocument) -> None:
    before = snapshot(doc)
    rect = QRect(11, 9, 3, 3)  # around door UD1 at 12,10
    cells, feats = copy_region(doc, "upper", rect)
    assert any(k == "doors" for k, _ in feats)
    doc.undo_stack.push(paste_region(doc, "lower", 1, 12, cells, feats))
    assert doc.level("lower").rows[13][2] == cells[(1, 1)]
    pasted = [d for d in doc.mission.doors if d.level == "lower" and (d.x, d.y) == (2, 13)]
    assert pasted and pasted[0].id not in {"UD1"} and len({d.id for d in doc.mission.doors}) == len(doc.mission.doors)
    doc.undo_stack.undo()
    assert snapshot(doc) == before


def test_move_and_rotate_region(doc: MissionDocument) -> None:
    before = snapshot(doc)
    doc.undo_stack.push(move_region(doc, "upper", QRect(11, 9, 3, 3), 0, 1))
    door = next(d for d in doc.mission.doors if d.id == "UD1")
    assert (door.x, door.y) == (12, 11)
    assert doc.level("upper").rows[9][11:14] == "###"
    doc.undo_stack.push(rotate_region(doc, "upper", QRect(1, 1, 5, 2)))
    undo_all(doc)
    assert snapshot(doc) == before


def test_validation_runs_synchronously_on_demand(doc: MissionDocument) -> None:
    assert doc.validate_now() == []
    doc.undo_stack.push(AddFeatureCommand(doc, "pitfalls", Pitfall("A", "upper", 15, 11)))
    doc.undo_stack.push(AddFeatureCommand(doc, "rubble", Rubble("upper", 16, 11)))
    rules = {i.rule for i in doc.validate_now()}
    assert "PIT-ADJACENT" in rules


def test_refcount_guard_survives_many_void_qt_calls(qapp) -> None:  # type: ignore[no-untyped-def]
    """shiboken6 6.12 on Python 3.11 leaks a None decrement per void call; `import editor` must absorb it."""
    import sys

    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    for _ in range(30_000):  # without the guard CPython 3.11 aborts well before this ("deallocating None")
        painter.drawRect(QRectF(0, 0, 2, 2))
    painter.end()
    assert sys.getrefcount(None) > 1000
