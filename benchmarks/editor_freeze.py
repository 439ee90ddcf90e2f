"""GUI freezes on a big map: how long the event loop is blocked by a flood fill, a brush stroke or an undo.

A freeze is the time one event (a mouse press, a timer such as the validation delay, a repaint, a validation
result arriving) keeps the GUI thread from returning to the event loop; the designer sees nothing move for that
long. Each action is posted as an event like the user's own, then the loop runs until the document is
validated again, and the longest event in that span is the action's freeze. Times are CPU time of the GUI
thread (time.thread_time), so other jobs on a shared machine do not inflate them; wall time is reported beside.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtWidgets import QApplication

L = Qt.MouseButton.LeftButton
R = Qt.MouseButton.RightButton
NO = Qt.KeyboardModifier.NoModifier
SETTLE_LIMIT_S = 20.0
QUIET_S = 0.3  # the deferred work after an edit (validation delay, section names, section list) is due by then


@dataclass
class Freezes:
    """Per-action longest events (ms of GUI-thread CPU and of wall time)."""

    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)

    def line(self, what: str) -> str:
        c = sorted(self.cpu)
        w = sorted(self.wall)
        return (f"  {what:<34} p50 {statistics.median(c):7.1f}  p95 {c[int(len(c) * 0.95)]:7.1f}  "
                f"max {c[-1]:7.1f} ms   (wall p50 {statistics.median(w):.1f}, max {w[-1]:.1f})  n={len(c)}")


def longest_event(app: QCoreApplication, action: Callable[[], None],
                  settled: Callable[[], bool]) -> tuple[float, float]:
    """Run `action` as a posted event, then turn the event loop until `settled()`; the longest single turn.

    Each turn of QCoreApplication.processEvents handles what is pending (a repaint, a timer, a result), so the
    longest turn bounds the longest time the designer could wait for the window to answer.
    """
    longest_cpu = longest_wall = 0.0

    def turn(fn: Callable[[], None]) -> None:
        nonlocal longest_cpu, longest_wall
        c0, w0 = time.thread_time(), time.perf_counter()
        fn()
        longest_cpu = max(longest_cpu, (time.thread_time() - c0) * 1000)
        longest_wall = max(longest_wall, (time.perf_counter() - w0) * 1000)

    def act_and_paint() -> None:
        action()
        app.processEvents()  # the repaint the action asked for belongs to the action's freeze

    turn(act_and_paint)
    start = time.perf_counter()
    deadline = start + SETTLE_LIMIT_S
    while (not settled() or time.perf_counter() - start < QUIET_S) and time.perf_counter() < deadline:
        turn(app.processEvents)
        time.sleep(0.002)  # let timers come due without spinning the CPU the validation worker needs
    turn(app.processEvents)
    return longest_cpu, longest_wall


def bench_big_map(size: int, fills: int, strokes: int, seed: int) -> dict[str, Freezes]:
    """Fills, strokes and then rapid undos of them all on a size x size two-level map, in a fitted 1920x1080 window."""
    from editor.dialogs import new_mission
    from editor.document import MissionDocument
    from editor.mainwindow import MainWindow

    app = QApplication.instance() or QApplication([])
    doc = MissionDocument(new_mission("bench", size, size, 2))
    window = MainWindow(doc)
    window.autosave_timer.stop()
    window.resize(1920, 1080)
    window.show()
    app.processEvents()
    view = window.views["upper"]
    view.fit()
    scene = view.level_scene
    app.processEvents()
    rng = random.Random(seed)
    out = {"fill": Freezes(), "stroke": Freezes(), "undo": Freezes()}

    def settled() -> bool:
        return doc.validated_revision == doc.revision

    def record(kind: str, action: Callable[[], None]) -> None:
        cpu, wall = longest_event(app, action, settled)
        out[kind].cpu.append(cpu)
        out[kind].wall.append(wall)

    fill = window.tool_named("Flood fill")
    brush = window.tool_named("Brush")
    for i in range(fills):
        # Alternate: the wall around the start room becomes floor (nearly the whole map), then wall again.
        button = L if i % 2 == 0 else R
        window.set_tool(fill)
        record("fill", lambda b=button: fill.press(scene, 10, 10, b, NO))
    window.set_tool(brush)
    for _ in range(strokes):
        x, y = rng.randrange(1, size - 6), rng.randrange(1, size - 2)
        button = L if rng.random() < 0.7 else R

        def stroke(x: int = x, y: int = y, button: Qt.MouseButton = button) -> None:
            brush.press(scene, x, y, button, NO)
            for dx in range(1, 5):
                brush.move(scene, x + dx, y, button, NO)
            brush.release(scene, x + 4, y, button, NO)

        record("stroke", stroke)
    # Rapid undos: each undo is one key press; the next comes before the validation delay runs out, so only the
    # undo itself and its repaint are on the GUI thread (validation settles once, after the last).
    while doc.undo_stack.canUndo():
        cpu, wall = longest_event(app, doc.undo_stack.undo, lambda: True)
        out["undo"].cpu.append(cpu)
        out["undo"].wall.append(wall)
    cpu, wall = longest_event(app, lambda: None, settled)
    out["undo"].cpu.append(cpu)
    out["undo"].wall.append(wall)
    doc.undo_stack.setClean()
    window.close()
    QTimer.singleShot(0, lambda: None)
    app.processEvents()
    return out


def report(size: int, fills: int, strokes: int, seed: int) -> None:
    """Print p50 / p95 / max of the freezes."""
    out = bench_big_map(size, fills, strokes, seed)
    print(f"GUI freezes on a {size}x{size} two-level map, whole map in a 1920x1080 window "
          f"(longest event per action, GUI-thread CPU ms):")
    print(out["fill"].line("flood fill (~whole map)"))
    print(out["stroke"].line("brush stroke (5 squares)"))
    print(out["undo"].line("rapid undo of each of the above"))
