"""The largest mission in a window: the stall benchmark runs and reports every action, and the work an edit
causes is the work of what it changed (section borders per tile, features per square, one refresh a step)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QRect, QRectF

from benchmarks import editor_window
from editor.commands import PaintTerrainCommand
from editor.commands.base import CompoundCommand
from editor.commands.features import AddFeatureCommand
from editor.dialogs import new_mission
from editor.document import BIG_FILE_BYTES, MissionDocument
from editor.scene.grid_arrays import WALL_CODE, boundary_lines, codes_array
from editor.scene.level_scene import LevelScene
from editor.scene.terrain_item import S
from engine.mission import save_mission
from engine.mission.model import Door

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")
ROOT = Path(__file__).resolve().parents[2]


def test_the_window_benchmark_reports_every_action(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Its own process, as it is run: the benchmark runs and quits the application's event loop.
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HULKFORGE_CONFIG_DIR=str(tmp_path))
    run = subprocess.run([sys.executable, "-m", "benchmarks.editor_window", "--levels", "2", "--size", "40",
                          "--doors", "20", "--repeats", "1", "--settle-ms", "50"],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "2 levels of 40x40, 20 doors" in run.stdout
    for action in editor_window.ACTIONS:
        row = next(line for line in run.stdout.splitlines() if line.startswith(f"  {action} "))
        assert "(not run)" not in row and float(row.split("max")[1].split()[0]) > 0, row


def test_the_largest_mission_is_legal_and_as_large_as_the_format_allows() -> None:
    from engine.mission import validate_mission

    mission = editor_window.largest_mission()
    assert len(mission.levels) == 8 and len(mission.doors) == 1000
    assert all(lv.width == lv.height == 200 for lv in mission.levels)
    assert not [i for i in validate_mission(mission) if i.severity == "error"]


def unit_sides(lines: list) -> set[tuple[str, float, float]]:  # type: ignore[type-arg]
    out = set()
    for line in lines:
        if line.x1() == line.x2():
            out |= {("v", line.x1(), y) for y in np.arange(min(line.y1(), line.y2()), max(line.y1(), line.y2()), S)}
        else:
            out |= {("h", x, line.y1()) for x in np.arange(min(line.x1(), line.x2()), max(line.x1(), line.x2()), S)}
    return out


def test_borders_kept_per_tile_follow_every_paint_and_undo(qtbot) -> None:  # type: ignore[no-untyped-def]
    doc = MissionDocument(new_mission("t", 90, 70, 2))
    scene = LevelScene(doc, "upper")
    terrain = scene.terrain
    rng = random.Random(5)
    lv = doc.level("upper")
    for step in range(40):
        if step % 7 == 6:
            doc.undo_stack.undo()
        else:
            x, y = rng.randrange(-2, 90), rng.randrange(-2, 70)
            w, h = rng.randint(1, 40), rng.randint(1, 30)
            ch = rng.choice("#.ab")
            doc.undo_stack.push(PaintTerrainCommand(doc, "upper", {(i, j): ch for i in range(x, x + w)
                                                                   for j in range(y, y + h)}))
        terrain._refresh_cache(lv)
        drawn = unit_sides(terrain.edges_in(0, 0, lv.width, lv.height))
        whole = unit_sides(boundary_lines(codes_array(lv.rows, lv.width), S, skip=WALL_CODE))
        assert drawn == whole, step
        # Each side once: tiles do not draw their shared edges twice.
        length = sum(abs(a.x2() - a.x1()) + abs(a.y2() - a.y1()) for a in terrain.edges_in(0, 0, lv.width, lv.height))
        assert length == len(whole) * S


def test_a_paint_recomputes_only_the_tiles_it_touches(qtbot) -> None:  # type: ignore[no-untyped-def]
    doc = MissionDocument(new_mission("t", 200, 200, 2))
    scene = LevelScene(doc, "upper")
    lv = doc.level("upper")
    scene.terrain._refresh_cache(lv)
    before = dict(scene.terrain._tiles)
    doc.undo_stack.push(PaintTerrainCommand(doc, "upper", {(100, 100): "."}))
    scene.terrain._refresh_cache(lv)
    remade = {key for key, lines in scene.terrain._tiles.items() if lines is not before[key]}
    assert remade == {(96, 96)}


def test_a_feature_edit_repaints_its_squares_not_the_level(qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    doc = MissionDocument(new_mission("t", 200, 200, 2))
    scene = LevelScene(doc, "upper")
    areas: list[QRectF] = []
    monkeypatch.setattr(scene, "update", lambda rect: areas.append(QRectF(rect)))
    scene.features.changed_area()  # the first look draws everything
    door = Door("D1", "upper", 150, 120)
    doc.undo_stack.push(AddFeatureCommand(doc, "doors", door))
    assert areas and all(a.contains(QRectF(150 * S, 120 * S, S, S)) for a in areas)
    assert all(a.width() <= 3 * S and a.height() <= 3 * S for a in areas)
    doc.undo_stack.undo()
    assert areas[-1].contains(QRectF(150 * S, 120 * S, S, S)) and areas[-1].width() <= 3 * S


def test_a_compound_edit_tells_the_views_once(qtbot) -> None:  # type: ignore[no-untyped-def]
    doc = MissionDocument(new_mission("t", 30, 20, 1))
    told = []
    doc.featuresChanged.connect(lambda: told.append(len(doc.mission.doors)))
    compound = CompoundCommand("Add doors")
    doors = [Door(f"D{i}", doc.mission.levels[0].id, 2 + i, 5) for i in range(6)]
    for door in doors:
        AddFeatureCommand(doc, "doors", door, parent=compound)
    doc.undo_stack.push(compound)
    assert told == [6]  # once, with the model complete
    doc.undo_stack.undo()
    assert told == [6, 0]
    doc.undo_stack.redo()
    assert told == [6, 0, 6]


def test_a_big_file_is_read_in_the_worker(qtbot, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from editor import document, validation_worker
    from engine.mission import salvage

    monkeypatch.setattr(validation_worker, "_broken", False)
    monkeypatch.setattr(document, "BIG_FILE_BYTES", BIG_FILE_BYTES // 4)
    path = tmp_path / "big.json"
    save_mission(editor_window.largest_mission(2, 200, 100), path)
    assert path.stat().st_size >= document.BIG_FILE_BYTES

    def not_here(*args: object) -> None:
        raise AssertionError("read on the GUI thread")

    # The worker is another process: these stand-ins only catch a read in this one.
    monkeypatch.setattr(document, "read_for_repair", not_here)
    monkeypatch.setattr(salvage, "read_for_repair", not_here)
    doc = MissionDocument.open(path)
    assert len(doc.mission.doors) == 100 and doc.mission.levels[0].width == 200
    assert doc.validated_revision != doc.revision  # validation goes to the worker too
    qtbot.waitUntil(doc.validated, timeout=60_000)
    assert not [i for i in doc.issues if i.severity == "error"]


def test_a_broken_big_file_names_its_problem_through_the_worker(qtbot, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from editor import validation_worker
    from engine.mission import MissionFileError

    monkeypatch.setattr(validation_worker, "_broken", False)
    path = tmp_path / "big.json"
    path.write_text("{" + " " * BIG_FILE_BYTES + '"a": }', encoding="utf-8")
    assert validation_worker.available()
    with pytest.raises(MissionFileError) as err:
        MissionDocument.open(path)
    assert str(path) in str(err.value)


def test_region_of_a_paint_is_what_the_terrain_is_told(qtbot) -> None:  # type: ignore[no-untyped-def]
    doc = MissionDocument(new_mission("t", 60, 60, 1))
    scene = LevelScene(doc, doc.mission.levels[0].id)
    told: list[QRect] = []
    original = scene.terrain.invalidate
    scene.terrain.invalidate = lambda region=None: (told.append(region), original(region))  # type: ignore[method-assign]
    doc.undo_stack.push(PaintTerrainCommand(doc, doc.mission.levels[0].id, {(10, 12): ".", (14, 13): "."}))
    assert told and told[-1] == QRect(10, 12, 5, 2)


def test_painting_squares_does_not_make_the_scenes_look_again_at_the_features(qtbot) -> None:  # type: ignore[no-untyped-def]
    from editor.scene.feature_item import standing

    doc = MissionDocument(new_mission("t", 60, 60, 1))
    level = doc.mission.levels[0].id
    doc.undo_stack.push(AddFeatureCommand(doc, "doors", Door("D1", level, 5, 5)))
    before = standing(doc)
    doc.undo_stack.push(PaintTerrainCommand(doc, level, {(20, 20): "."}))
    assert standing(doc) is before  # a paint of squares: what stands where is the same
    doc.undo_stack.push(AddFeatureCommand(doc, "doors", Door("D2", level, 7, 5)))
    assert (7, 5) in standing(doc)[level]


def test_an_eraser_stroke_removes_the_features_it_crosses_once_each(qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt

    from editor.mainwindow import MainWindow

    mission = new_mission("t", 60, 60, 1)
    level = mission.levels[0].id
    mission.levels[0].rows = ["#" + "." * 58 + "#" if 0 < y < 59 else "#" * 60 for y in range(60)]
    mission.doors = [Door(f"D{x}", level, x, 10) for x in (5, 9, 30)]
    doc = MissionDocument(mission)
    window = MainWindow(doc)
    qtbot.addWidget(window)
    tool = window.tool_named("Eraser")
    scene = window.views[level].scene()
    left, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    tool.press(scene, 3, 10, left, none)
    for x in range(4, 12):
        tool.move(scene, x, 10, left, none)
    tool.release(scene, 11, 10, left, none)
    assert [d.id for d in doc.mission.doors] == ["D30"]
    assert doc.level(level).rows[10][3:12] == "#" * 9
    doc.undo_stack.undo()
    assert [d.id for d in doc.mission.doors] == ["D5", "D9", "D30"]


def test_a_paint_of_a_whole_big_level_draws_its_borders_over_a_few_turns(qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtWidgets import QStyleOptionGraphicsItem

    from editor.scene.terrain_item import PAINT_TILES

    doc = MissionDocument(editor_window.largest_mission(1, 200, 0))
    scene = LevelScene(doc, doc.mission.levels[0].id)
    lv = doc.mission.levels[0]
    image = QImage(64, 64, QImage.Format.Format_ARGB32)
    option = QStyleOptionGraphicsItem()
    option.exposedRect = QRectF(0, 0, lv.width * S, lv.height * S)
    painter = QPainter(image)
    scene.terrain.paint(painter, option)
    painter.end()
    # The first picture of the 49 tiles' borders holds a few; the paint asks to be done again for the rest.
    assert scene.terrain.unfinished and len(scene.terrain._tiles) == PAINT_TILES
    assert scene.terrain.make_tiles()  # what the next turns make
    drawn = scene.terrain.edges_in(0, 0, lv.width, lv.height, PAINT_TILES)
    assert not scene.terrain.unfinished and len(scene.terrain._tiles) == 49 and drawn
