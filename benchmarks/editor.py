"""`python -m benchmarks.editor`: brush strokes per millisecond on a big map, the time to open pitfall.json, and the
GUI freezes of a flood fill, a stroke and an undo on a 200x200 map (benchmarks.editor_freeze).

Times are CPU time of this process (time.process_time), so other jobs on a shared machine do not
inflate them. Each stroke goes the whole way: tool press/move/release -> commands on the undo stack -> model -> scene
repaint (offscreen) -> a full synchronous validation, as the designer would see it.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from editor.dialogs import new_mission
from editor.document import MissionDocument
from editor.mainwindow import MainWindow
from engine.resources import sample_mission

HOVER: list[float] = []
VALIDATE: list[float] = []
L = Qt.MouseButton.LeftButton
R = Qt.MouseButton.RightButton
NO = Qt.KeyboardModifier.NoModifier


def bench_strokes(strokes: int, size: int, seed: int) -> tuple[list[float], list[float]]:
    """(total, edit-only) ms per stroke (5 squares, floor or wall) on a size x size two-level map."""
    app = QApplication.instance() or QApplication([])
    doc = MissionDocument(new_mission("bench", size, size, 2))
    window = MainWindow(doc)
    window.autosave_timer.stop()
    window.show()
    app.processEvents()
    tool = window.tool_named("Brush")
    window.set_tool(tool)
    rng = random.Random(seed)
    times, edit_times = [], []
    for i in range(strokes):
        level = "upper" if i % 2 == 0 else "level2"
        scene = window.views[level].level_scene
        x, y = rng.randrange(1, size - 6), rng.randrange(1, size - 2)
        button = L if rng.random() < 0.7 else R
        t0 = time.process_time()
        tool.press(scene, x, y, button, NO)
        for dx in range(1, 5):
            tool.move(scene, x + dx, y, button, NO)
        tool.release(scene, x + 4, y, button, NO)
        edit_times.append((time.process_time() - t0) * 1000)
        t1 = time.process_time()
        doc.validate_now()
        VALIDATE.append((time.process_time() - t1) * 1000)
        app.processEvents()
        times.append((time.process_time() - t0) * 1000)
    pit = window.tool_named("Pitfall")
    scene = window.views["upper"].level_scene
    hover_ms = []
    for _ in range(200):  # distinct squares, so the per-square cache never answers
        x, y = rng.randrange(1, size - 1), rng.randrange(1, size - 1)
        t0 = time.process_time()
        pit.hover(scene, x, y)
        hover_ms.append((time.process_time() - t0) * 1000)
    HOVER.extend(hover_ms)
    doc.undo_stack.setClean()
    window.close()
    return times, edit_times


def bench_open(repeats: int) -> tuple[float, float]:
    """(ms to load and validate pitfall.json into a document, ms to a shown editor window without the lab)."""
    from editor.app import create_main_window

    app = QApplication.instance() or QApplication([])
    path = str(sample_mission("pitfall"))
    doc_ms, win_ms = [], []
    for _ in range(repeats):
        t0 = time.process_time()
        MissionDocument.open(path)
        doc_ms.append((time.process_time() - t0) * 1000)
        t0 = time.process_time()
        w = create_main_window(path, with_lab=False)
        w.show()
        app.processEvents()
        win_ms.append((time.process_time() - t0) * 1000)
        w.close()
    return statistics.median(doc_ms), statistics.median(win_ms)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.editor", description=__doc__)
    p.add_argument("--strokes", type=int, default=1000)
    p.add_argument("--size", type=int, default=60)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--big", type=int, default=200, help="side of the map for the freeze measurements")
    p.add_argument("--fills", type=int, default=10)
    p.add_argument("--big-strokes", type=int, default=100)
    p.add_argument("--only", choices=("all", "strokes", "freezes"), default="all")
    args = p.parse_args(argv)
    if args.only != "strokes":
        from benchmarks.editor_freeze import report

        report(args.big, args.fills, args.big_strokes, args.seed)
        if args.only == "freezes":
            return 0
    times, edit_times = bench_strokes(args.strokes, args.size, args.seed)
    times.sort()
    print(f"{args.strokes} brush strokes on a {args.size}x{args.size} two-level map "
          f"(5 squares each, including validation and repaint):")
    print(f"  median {statistics.median(times):.2f} ms/stroke, mean {statistics.fmean(times):.2f}, "
          f"p95 {times[int(len(times) * 0.95)]:.2f}, max {times[-1]:.2f}")
    print(f"  of which tool + commands + model: median {statistics.median(edit_times):.2f} ms"
          f"; engine validation: median {statistics.median(VALIDATE):.2f} ms; the rest is the repaint")
    print(f"pitfall placement preview (hypothetical validation of the hover square): "
          f"median {statistics.median(HOVER):.2f} ms")
    doc_ms, win_ms = bench_open(5)
    print(f"open pitfall.json: {doc_ms:.1f} ms to load + validate, {win_ms:.1f} ms to a shown window (median of 5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
