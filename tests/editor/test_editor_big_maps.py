"""Big maps stay responsive: validation off the GUI thread, paints and undos that cost what they change,
terrain and issue marks drawn whole from images and line runs."""

from __future__ import annotations

import random
from concurrent.futures import Future

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter

from editor import palette, validation_worker
from editor.commands import PaintTerrainCommand
from editor.dialogs import new_mission
from editor.document import MissionDocument
from editor.scene.level_scene import LevelScene
from editor.scene.terrain_item import S
from editor.tools.terrain_tools import flood, flood_runs
from engine.mission import validate_mission

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")


def naive_flood(rows: list[str], x: int, y: int) -> set[tuple[int, int]]:
    if not (0 <= y < len(rows) and 0 <= x < len(rows[y])):
        return set()
    target, seen, todo = rows[y][x], {(x, y)}, [(x, y)]
    while todo:
        cx, cy = todo.pop()
        for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
            if (nx, ny) not in seen and 0 <= ny < len(rows) and 0 <= nx < len(rows[ny]) and rows[ny][nx] == target:
                seen.add((nx, ny))
                todo.append((nx, ny))
    return seen


def test_flood_by_row_runs_finds_the_same_area_as_square_by_square() -> None:
    rng = random.Random(7)
    for _ in range(400):
        w, h = rng.randint(1, 12), rng.randint(1, 12)
        rows = ["".join(rng.choice("#.a") for _ in range(rng.randint(max(1, w - 2), w))) for _ in range(h)]
        y = rng.randrange(h)
        x = rng.randrange(len(rows[y]))
        assert flood(rows, x, y) == naive_flood(rows, x, y), (rows, x, y)
    assert flood_runs(["..#", "#.."], 5, 0) == []


def test_paint_keeps_only_the_rows_it_touches_and_undo_puts_them_back(qtbot) -> None:  # type: ignore[no-untyped-def]
    doc = MissionDocument(new_mission("t", 200, 200, 2))
    rows_before = list(doc.level("upper").rows)
    cmd = PaintTerrainCommand(doc, "upper", {(10, 10): ".", (11, 10): ".", (10, 12): "."}, stroke=1)
    assert set(cmd.old_rows) == {10, 12} and set(cmd.new_rows) == {10, 12}
    assert (cmd.region.x(), cmd.region.y(), cmd.region.width(), cmd.region.height()) == (10, 10, 2, 3)
    regions = []
    doc.terrainChanged.connect(lambda level, r: regions.append((r.x(), r.y(), r.width(), r.height())))
    doc.undo_stack.push(cmd)
    # A second part of the same stroke merges; undo restores the first old value of every row.
    doc.undo_stack.push(PaintTerrainCommand(doc, "upper", {(12, 10): "#", (10, 11): "."}, stroke=1))
    assert doc.undo_stack.count() == 1
    assert doc.level("upper").rows[10][10:13] == "..#"
    doc.undo_stack.undo()
    assert doc.level("upper").rows == rows_before
    assert regions[-1] == (10, 10, 3, 3)  # only the stroke's rectangle is repainted
    # Out of the grid: nothing to do, nothing pushed.
    assert not PaintTerrainCommand(doc, "upper", {(-1, 5): ".", (3, 500): "."}).changes_anything()


def test_a_fill_is_one_paint_of_row_runs_and_undoes_exactly(qtbot) -> None:  # type: ignore[no-untyped-def]
    from editor.app import create_main_window

    w = create_main_window(None, with_lab=False)
    w.autosave_timer.stop()
    qtbot.addWidget(w)
    w.set_document(MissionDocument(new_mission("t", 120, 90, 2)))
    before = list(w.doc.level("upper").rows)
    fill = w.tool_named("Flood fill")
    w.set_tool(fill)
    fill.press(w.views["upper"].level_scene, 20, 20, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    after = w.doc.level("upper").rows
    assert sum(row.count(".") for row in after) == sum(row.count("#") for row in before)
    w.doc.undo_stack.undo()
    assert w.doc.level("upper").rows == before
    w.doc.undo_stack.setClean()


class FakeWorker:
    """Stands in for the validation worker: the test decides when (and with what) each job finishes."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Future, object]] = []  # type: ignore[type-arg]
        self.only: object = None  # the mission under test: documents of earlier tests may still fire their timers

    def submit(self, mission):  # type: ignore[no-untyped-def]
        if self.only is not None and mission is not self.only:
            return None  # not the test's document: it validates on its own thread
        job: Future = Future()  # type: ignore[type-arg]
        import copy

        self.jobs.append((job, copy.deepcopy(mission)))
        return job


@pytest.fixture
def fake_worker(monkeypatch: pytest.MonkeyPatch) -> FakeWorker:
    fake = FakeWorker()
    monkeypatch.setattr(validation_worker, "submit", fake.submit)
    monkeypatch.setattr(validation_worker, "_broken", False)
    monkeypatch.setattr(validation_worker, "mark_broken", lambda: setattr(validation_worker, "_broken", True))
    return fake


def big_doc() -> MissionDocument:
    doc = MissionDocument(new_mission("t", 100, 100, 2))  # past the size validated on the GUI thread
    return doc


def test_big_map_validation_goes_to_the_worker_and_a_stale_result_is_dropped(qtbot, fake_worker) -> None:  # type: ignore[no-untyped-def]
    doc = big_doc()
    fake_worker.only = doc.mission
    got = []
    doc.issuesChanged.connect(lambda: got.append(list(doc.issues)))
    doc.undo_stack.push(PaintTerrainCommand(doc, "upper", {(50, 50): "Q"}))  # an undeclared section: a warning
    qtbot.waitUntil(lambda: len(fake_worker.jobs) == 1, timeout=30_000)
    assert not got  # nothing validated on the GUI thread
    first, snapshot = fake_worker.jobs[0]
    doc.undo_stack.push(PaintTerrainCommand(doc, "upper", {(60, 60): "R"}))  # the document moves on
    first.set_result((validate_mission(snapshot), 500.0))  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: len(fake_worker.jobs) == 2, timeout=30_000)  # the stale answer sent the current state again
    assert not got
    second, snapshot2 = fake_worker.jobs[1]
    second.set_result((validate_mission(snapshot2), 500.0))  # type: ignore[arg-type]
    qtbot.waitUntil(lambda: bool(got), timeout=30_000)
    assert doc.validated_revision == doc.revision
    undeclared = {i.message for i in doc.issues if i.rule == "SECTION-UNDECLARED"}
    assert any("'Q'" in m for m in undeclared) and any("'R'" in m for m in undeclared)


def test_a_dead_worker_falls_back_to_validating_on_the_gui_thread(qtbot, fake_worker) -> None:  # type: ignore[no-untyped-def]
    doc = big_doc()
    fake_worker.only = doc.mission
    doc.undo_stack.push(PaintTerrainCommand(doc, "upper", {(50, 50): "Q"}))
    qtbot.waitUntil(lambda: len(fake_worker.jobs) == 1)
    fake_worker.jobs[0][0].set_exception(RuntimeError("worker killed"))
    qtbot.waitUntil(lambda: doc.validated_revision == doc.revision)
    assert any(i.rule == "SECTION-UNDECLARED" for i in doc.issues)
    assert not validation_worker.available()


def test_the_real_worker_process_validates(qtbot, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(validation_worker, "_broken", False)
    doc = big_doc()
    doc.sync_validation_ms = 0.0
    doc.undo_stack.push(PaintTerrainCommand(doc, "upper", {(50, 50): "Q"}))
    qtbot.waitUntil(lambda: doc.validated_revision == doc.revision, timeout=60_000)
    assert any(i.rule == "SECTION-UNDECLARED" for i in doc.issues)
    assert validation_worker.available()


def render(scene: LevelScene, rect: QRectF, scale: float = 1.0) -> QImage:
    image = QImage(int(rect.width() * scale), int(rect.height() * scale), QImage.Format.Format_ARGB32)
    image.fill(0)
    p = QPainter(image)
    scene.render(p, QRectF(0, 0, image.width(), image.height()), rect)
    p.end()
    return image


def pixel(image: QImage, rect: QRectF, scale: float, x: float, y: float) -> QColor:
    """Colour at the centre of square (x, y) of a render of `rect`."""
    pt = QPointF(((x + 0.5) * S - rect.x()) * scale, ((y + 0.5) * S - rect.y()) * scale)
    return image.pixelColor(int(pt.x()), int(pt.y()))


def test_terrain_paints_walls_floor_and_section_tints_from_its_image(qtbot) -> None:  # type: ignore[no-untyped-def]
    doc = MissionDocument(new_mission("t", 12, 8, 2))
    doc.undo_stack.push(PaintTerrainCommand(doc, "upper", {(8, 5): ".", (9, 5): "."}))
    scene = LevelScene(doc, "upper")
    scene.names.setVisible(False)
    rect = QRectF(0, 0, 12 * S, 8 * S)
    image = render(scene, rect)
    assert pixel(image, rect, 1, 0, 0) == QColor(palette.WALL)
    assert pixel(image, rect, 1, 8, 5) == QColor(palette.FLOOR)
    tint = pixel(image, rect, 1, 2, 2)  # section 'a' of the new mission's start room
    assert tint not in (QColor(palette.WALL), QColor(palette.FLOOR))
    doc.undo_stack.undo()
    image = render(scene, rect)
    assert pixel(image, rect, 1, 8, 5) == QColor(palette.WALL)
    # A heavy section border runs along the room's edge, between its floor and the wall.
    edge_x = 1 * S  # the room starts at column 1
    assert image.pixelColor(int(edge_x), int(2.5 * S)) == QColor(palette.SECTION_EDGE)


def test_issue_marks_cover_every_square_of_a_big_issue(qtbot) -> None:  # type: ignore[no-untyped-def]
    doc = MissionDocument(new_mission("t", 40, 30, 2))
    cells = {(x, y): "." for x in range(2, 38) for y in range(12, 28)}  # 576 floor squares of no section
    doc.undo_stack.push(PaintTerrainCommand(doc, "upper", cells))
    doc.validate_now()
    issue = next(i for i in doc.issues if i.rule == "SECTION-UNASSIGNED")
    assert len(issue.squares) == len(cells)  # all of them, not the first 50
    scene = LevelScene(doc, "upper")
    assert len(scene.issue_marks.marks) >= len(cells)
    rect = QRectF(0, 0, 40 * S, 30 * S)
    scene.issue_marks.set_marks({}, set())
    unmarked = render(scene, rect)
    scene.refresh_issues()
    marked = render(scene, rect)
    # The last square of the area (far past the 50th) is tinted amber.
    before, after = pixel(unmarked, rect, 1, 37, 27), pixel(marked, rect, 1, 37, 27)
    assert before != after and after.red() > after.blue()
