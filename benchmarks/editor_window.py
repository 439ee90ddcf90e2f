"""`python -m benchmarks.editor_window`: what a designer sees on the largest legal mission in a real window.

The largest mission the format allows (8 levels of 200x200, 1,000 doors, built by `largest_mission`) is opened in
the editor's main window; every action is then driven by real input and the window's stalls are measured inside
the editor process.

- The window: with `--real-window` the benchmark runs in an X window (under `xvfb-run` when there is no display:
  it re-runs itself there), and the input is real X input from `xdotool` (mouse moves, button presses, the
  wheel, key presses), which reaches the editor through the X server like a user's. Without it the window is
  offscreen and the same gestures are QTest events posted to the view (the test checks that the benchmark runs
  and reports every action; offscreen figures say nothing of the screen).
- The stalls: a 5 ms timer on the GUI thread records when it fires; a gap between two ticks is a time the event
  loop was held (input not answered, nothing repainted). Each action's window runs from its first input until
  the document is validated again and the loop has been quiet for a moment, so the deferred work the action
  causes (the validation delay, the worker's answer, section names, the issue list) counts against it. Beside
  the longest stall is the GUI thread's own CPU time in it: the rest of the gap it waited (for a core on a busy
  machine, for the X server), which no change to the editor's code removes.
- Open is File > Open's own loading (the file dialog is skipped: it is the same on any map); Save is Ctrl+S.
  "validate-on-paint" is the part of each brush stroke after its last input: the validation result arriving.

Wall-clock figures on a shared machine are noisy: run it twice and compare, or compare before/after in pairs.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

TICK_MS = 5
QUIET_S = 0.35  # settled this long (validated, no job out) before an action's window closes
SETTLE_LIMIT_S = 30.0
ACTIONS = ("brush stroke", "validate-on-paint", "rectangle", "flood fill", "erase", "undo", "redo", "switch level",
           "wheel-zoom notch", "pan", "select/move", "open", "save")
SECTION_CODES = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
ROOM = 11  # squares of floor per room side; one wall between rooms


def largest_mission(levels: int = 8, size: int = 200, doors_wanted: int = 1000) -> Any:
    """The largest mission the format allows (by default): 8 levels of 200x200 filled with 11x11 rooms, 1,000
    doors in the walls between them, one Marine. Smaller ones for a quick check."""
    from editor.dialogs import new_mission
    from engine.mission.model import Door, Section

    mission = new_mission("Largest", size, size, levels)
    doors: list[Door] = []
    per_level = doors_wanted // len(mission.levels)
    period = ROOM + 1
    count = (size - 1) // period  # rooms per side
    for lv in mission.levels:
        rows = [["#"] * size for _ in range(size)]
        lv.sections.clear()
        for j in range(count):
            for i in range(count):
                code = SECTION_CODES[(i + j * count) % len(SECTION_CODES)]
                lv.sections.setdefault(code, Section(f"Room {code}", "room"))
                for y in range(1 + j * period, 1 + j * period + ROOM):
                    rows[y][1 + i * period:1 + i * period + ROOM] = [code] * ROOM
        placed = 0
        for j in range(count):
            for i in range(count - 1):
                if placed == per_level:
                    break
                x, y = (i + 1) * period, 1 + j * period + ROOM // 2
                rows[y][x] = rows[y][x - 1]
                doors.append(Door(f"D{len(doors) + 1}", lv.id, x, y))
                placed += 1
        lv.rows = ["".join(r) for r in rows]
    mission.doors = doors
    return mission


@dataclass
class Stalls:
    """The longest gap (ms) between watchdog ticks in each run of one action."""

    runs: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # the GUI thread's CPU time in each of those gaps

    def add(self, gap: tuple[float, float]) -> None:
        self.runs.append(gap[0])
        self.cpu.append(gap[1])

    def row(self, name: str) -> str:
        if not self.runs:
            return f"  {name:<18} (not run)"
        s = sorted(self.runs)
        p95 = s[min(len(s) - 1, round(0.95 * (len(s) - 1)))]
        return (f"  {name:<18} max {s[-1]:7.1f}   p95 {p95:7.1f}   p50 {statistics.median(s):7.1f} ms   "
                f"(GUI CPU in the longest: {self.cpu[self.runs.index(s[-1])]:6.1f}, max {max(self.cpu):6.1f})   "
                f"n={len(s)}")


class Watchdog:
    """A 5 ms timer on the GUI thread: the times it fired, so a long gap shows a held event loop."""

    def __init__(self) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.ticks: list[tuple[float, float]] = []  # (wall time, GUI-thread CPU time) of each tick
        self.lock = threading.Lock()
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def _tick(self) -> None:
        with self.lock:
            self.ticks.append((time.perf_counter(), time.thread_time()))

    def last_tick(self) -> float:
        with self.lock:
            return self.ticks[-1][0] if self.ticks else 0.0

    def longest_gap(self, t0: float, t1: float) -> tuple[float, float]:
        """Longest gap (ms) between consecutive ticks that overlaps [t0, t1], and the GUI thread's CPU time in it
        (the rest of the gap it waited: for the CPU, on a busy machine, or for the X server)."""
        with self.lock:
            ticks = list(self.ticks)
        best = (0.0, 0.0)
        for (a, ca), (b, cb) in itertools.pairwise(ticks):
            if b >= t0 and a <= t1 and b - a > best[0]:
                best = (b - a, cb - ca)
        return best[0] * 1000, best[1] * 1000


class Gui:
    """Runs callables on the GUI thread from the driver thread and waits for their result."""

    def __init__(self) -> None:
        from PySide6.QtCore import QObject, Qt, Signal

        class Invoker(QObject):
            call = Signal(object)

        self.invoker = Invoker()
        self.invoker.call.connect(self._run, Qt.ConnectionType.QueuedConnection)

    @staticmethod
    def _run(job: list[Any]) -> None:
        fn, done = job[0], job[1]
        try:
            job.append(fn())
        except BaseException as exc:  # handed back to the driver thread
            job.append(exc)
        done.set()

    def __call__(self, fn: Callable[[], Any]) -> Any:
        done = threading.Event()
        job: list[Any] = [fn, done]
        self.invoker.call.emit(job)
        done.wait()
        if isinstance(job[2], BaseException):
            raise job[2]
        return job[2]


class XInput:
    """Real X input through xdotool: the X server delivers it to the editor's window like a user's."""

    name = "xdotool"

    def __init__(self, gui: Gui) -> None:
        self.gui = gui

    def run(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], check=True)

    def drag(self, points: list[tuple[int, int]], button: int, step_s: float = 0.02) -> None:
        x, y = points[0]
        cmd = ["mousemove", str(x), str(y), "sleep", "0.03", "mousedown", str(button)]
        for px, py in points[1:]:
            cmd += ["sleep", str(step_s), "mousemove", str(px), str(py)]
        cmd += ["sleep", str(step_s), "mouseup", str(button)]
        self.run(*cmd)

    def click(self, x: int, y: int, button: int = 1) -> None:
        self.run("mousemove", str(x), str(y), "sleep", "0.03", "click", str(button))

    def wheel(self, x: int, y: int, up: bool) -> None:
        self.run("mousemove", str(x), str(y), "sleep", "0.03", "click", "4" if up else "5")

    def key(self, keys: str) -> None:
        self.run("key", "--clearmodifiers", keys)


class QTestInput:
    """Offscreen: the same gestures as QTest events sent to the view's viewport on the GUI thread."""

    name = "QTest (offscreen)"
    BUTTONS: ClassVar[dict[int, str]] = {1: "LeftButton", 2: "MiddleButton", 3: "RightButton"}

    def __init__(self, gui: Gui, window: Any) -> None:
        self.gui, self.window = gui, window

    def _target(self, x: int, y: int) -> tuple[Any, Any]:
        from PySide6.QtCore import QPoint

        widget = self.window.views[self.window.current_level()].viewport()
        return widget, widget.mapFromGlobal(QPoint(x, y))

    def drag(self, points: list[tuple[int, int]], button: int, step_s: float = 0.02) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest

        b = getattr(Qt.MouseButton, self.BUTTONS[button])
        widget, p = self.gui(lambda: self._target(*points[0]))
        q = p
        self.gui(lambda: QTest.mousePress(widget, b, Qt.KeyboardModifier.NoModifier, p))
        for x, y in points[1:]:
            time.sleep(step_s)
            _, q = self.gui(lambda x=x, y=y: self._target(x, y))
            self.gui(lambda q=q: self._move(widget, q, b))
        time.sleep(step_s)
        self.gui(lambda: QTest.mouseRelease(widget, b, Qt.KeyboardModifier.NoModifier, q))

    @staticmethod
    def _move(widget: Any, pos: Any, button: Any) -> None:
        from PySide6.QtCore import QEvent, QPointF, Qt
        from PySide6.QtGui import QMouseEvent
        from PySide6.QtWidgets import QApplication

        event = QMouseEvent(QEvent.Type.MouseMove, QPointF(pos), QPointF(widget.mapToGlobal(pos)),
                            Qt.MouseButton.NoButton, button, Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(widget, event)

    def click(self, x: int, y: int, button: int = 1) -> None:
        self.drag([(x, y)], button, 0.0)

    def wheel(self, x: int, y: int, up: bool) -> None:
        from PySide6.QtCore import QPoint, QPointF, Qt
        from PySide6.QtGui import QWheelEvent
        from PySide6.QtWidgets import QApplication

        def send() -> None:
            widget, p = self._target(x, y)
            event = QWheelEvent(QPointF(p), QPointF(x, y), QPoint(0, 0), QPoint(0, 120 if up else -120),
                                Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
                                False)
            QApplication.sendEvent(widget, event)

        self.gui(send)

    def key(self, keys: str) -> None:
        from PySide6.QtGui import QKeySequence
        from PySide6.QtTest import QTest

        seq = QKeySequence(keys.replace("ctrl", "Ctrl").replace("shift", "Shift").replace("Next", "PgDown"))
        self.gui(lambda: QTest.keySequence(self.window, seq))


def settled(doc: Any) -> bool:
    return bool(doc.validated_revision == doc.revision and doc._job is None and not doc._timer.isActive())


class Bench:
    """Drives the window from a thread while the GUI thread runs the event loop."""

    def __init__(self, window: Any, path: str, real: bool, repeats: int, size: int = 200,
                 quiet_s: float = QUIET_S) -> None:
        self.window, self.path, self.repeats, self.size, self.quiet_s = window, path, repeats, size, quiet_s
        self.gui = Gui()
        self.watchdog = Watchdog()
        self.input: XInput | QTestInput = XInput(self.gui) if real else QTestInput(self.gui, window)
        self.stalls: dict[str, Stalls] = {name: Stalls() for name in ACTIONS}
        self.error: BaseException | None = None
        self.screenshot: str | None = None
        self.title = "8 levels of 200x200, 1,000 doors"

    # --- helpers (driver thread) --------------------------------------------------------------------------------
    def wait_settled(self) -> None:
        start = time.perf_counter()
        quiet_since: float | None = None
        while time.perf_counter() - start < SETTLE_LIMIT_S:
            if settled(self.window.doc):
                quiet_since = quiet_since or time.perf_counter()
                if time.perf_counter() - quiet_since >= self.quiet_s:
                    break
            else:
                quiet_since = None
            time.sleep(0.01)
        # The loop ticks again: a stall still running when the quiet time ran out has closed, and its end is
        # among the watchdog's ticks.
        mark = time.perf_counter()
        self.gui(lambda: None)
        while self.watchdog.last_tick() < mark and time.perf_counter() - mark < SETTLE_LIMIT_S:
            time.sleep(TICK_MS / 1000)

    def measure(self, name: str, act: Callable[[], None], split: str | None = None) -> None:
        """Run `act` (real input) and record the longest stall from its start until things settle; with `split`,
        what comes after the input (the validation) is recorded under that name instead."""
        self.wait_settled()
        t0 = time.perf_counter()
        act()
        t_in = time.perf_counter() + 0.05  # the last input's own handling
        self.wait_settled()
        t1 = time.perf_counter()
        if split is None:
            self.stalls[name].add(self.watchdog.longest_gap(t0, t1))
        else:
            self.stalls[name].add(self.watchdog.longest_gap(t0, t_in))
            self.stalls[split].add(self.watchdog.longest_gap(t_in, t1))

    def screen_of(self, x: float, y: float) -> tuple[int, int]:
        """Screen position of the centre of square (x, y) on the level shown."""
        from PySide6.QtCore import QPointF

        from editor.scene.terrain_item import S

        def where() -> tuple[int, int]:
            view = self.window.views[self.window.current_level()]
            p = view.viewport().mapToGlobal(view.mapFromScene(QPointF((x + 0.5) * S, (y + 0.5) * S)))
            return p.x(), p.y()

        pos: tuple[int, int] = self.gui(where)
        return pos

    def view_centre(self) -> tuple[int, int]:
        def where() -> tuple[int, int]:
            vp = self.window.views[self.window.current_level()].viewport()
            p = vp.mapToGlobal(vp.rect().center())
            return p.x(), p.y()

        pos: tuple[int, int] = self.gui(where)
        return pos

    def tool(self, name: str) -> None:
        self.gui(lambda: self.window.set_tool(self.window.tool_named(name)))

    def drag_squares(self, squares: list[tuple[float, float]], button: int) -> Callable[[], None]:
        return lambda: self.input.drag([self.screen_of(x, y) for x, y in squares], button)

    # --- the actions ----------------------------------------------------------------------------------------------
    def run(self) -> None:
        try:
            self._run()
        except BaseException as exc:
            self.error = exc
        finally:
            from PySide6.QtWidgets import QApplication

            self.gui(lambda: QApplication.instance().quit())  # type: ignore[union-attr]

    def _run(self) -> None:
        n, size = self.repeats, self.size
        inp = self.input
        self.gui(lambda: self.window.views[self.window.current_level()].fit())
        self.wait_settled()
        # A click on the map gives it the keyboard focus, as the designer's first click would.
        cx, cy = self.view_centre()
        self.tool("Select")
        inp.click(cx, cy)
        self.tool("Brush")
        for i in range(2 * n):
            x, y = 2 + (i * 23) % (size - 12), 2 + (i * 37) % (size - 4)
            self.measure("brush stroke", self.drag_squares([(x + d, y) for d in range(0, 8)], 1 if i % 3 else 3),
                         split="validate-on-paint")
        self.tool("Rectangle")
        for i in range(n):
            x, y = 2 + (i * 41) % (size - 16), 2 + (i * 29) % (size - 9)
            self.measure("rectangle", self.drag_squares([(x, y), (x + 6, y + 3), (x + 12, y + 6)], 1))
        self.tool("Flood fill")
        for i in range(n):
            # The wall grid between the rooms: nearly a whole level turns to floor, then back to wall.
            x, y = self.screen_of(ROOM + 1, size // 2)
            self.measure("flood fill", lambda x=x, y=y, b=1 if i % 2 == 0 else 3: inp.click(x, y, b))
        self.tool("Eraser")
        for i in range(n):
            y = 1 + (i % ((size - 1) // (ROOM + 1))) * (ROOM + 1) + ROOM // 2
            self.measure("erase", self.drag_squares([(x, y) for x in range(2, min(40, size - 2), 2)], 1))
        for _ in range(n):
            self.measure("undo", lambda: inp.key("ctrl+z"))
        for _ in range(n):
            self.measure("redo", lambda: inp.key("ctrl+shift+z"))
        self.tool("Select")
        for i in range(n):
            self.measure("switch level", lambda i=i: inp.key("ctrl+Next" if i % 4 < 2 else "ctrl+Prior"))
        for i in range(n):
            cx, cy = self.view_centre()
            self.measure("wheel-zoom notch", lambda cx=cx, cy=cy, up=i < (n + 1) // 2: inp.wheel(cx + 40, cy + 30, up))
        for i in range(n):
            cx, cy = self.view_centre()
            d = 120 if i % 2 == 0 else -120
            self.measure("pan", lambda cx=cx, cy=cy, d=d: inp.drag(
                [(cx, cy), (cx + d // 3, cy + d // 4), (cx + 2 * d // 3, cy + d // 2), (cx + d, cy + d)], 2))
        self.gui(lambda: self.window.views[self.window.current_level()].fit())
        for i in range(n):
            x, y = 2 + (i * 31) % (size - 24), 2 + (i * 17) % (size - 19)
            self.wait_settled()
            self.measure("select/move", self.drag_squares([(x, y), (x + 10, y + 10), (x + 20, y + 15)], 1))
            self.measure("select/move", self.drag_squares([(x + 5, y + 5), (x + 8, y + 6), (x + 12, y + 8)], 1))
        for _ in range(max(1, n // 2)):
            self.measure("open", lambda: self.gui(lambda: self.window.open_file(self.path, ask=False)))
            self.tool("Select")
            inp.click(*self.view_centre())  # the new views: the keyboard focus back on the map
            self.tool("Brush")
            self.measure("brush stroke", self.drag_squares([(size // 2 + d, size // 2) for d in range(5)], 1),
                         split="validate-on-paint")
            self.measure("save", lambda: inp.key("ctrl+s"))
            if not self.gui(lambda: self.window.doc.undo_stack.isClean()):
                raise RuntimeError("Ctrl+S did not save the mission")
        if self.screenshot:
            self.gui(lambda: self.window.views[self.window.current_level()].fit())
            self.wait_settled()
            # The screen as the X server shows it (offscreen: the window drawn by Qt).
            self.gui(lambda: self.window.screen().grabWindow(0).save(self.screenshot))
            # Close up, centred on square (64, 64), where four tiles of section borders meet (TerrainItem.TILE is
            # 32) inside a room, for seams.
            from editor.scene.terrain_item import S

            def close_up() -> None:
                view = self.window.views[self.window.current_level()]
                view.set_zoom(1.0)
                view.centerOn(64 * S, 64 * S)

            self.gui(close_up)
            self.wait_settled()
            stem, ext = os.path.splitext(self.screenshot)
            self.gui(lambda: self.window.screen().grabWindow(0).save(f"{stem}-zoom{ext or '.png'}"))

    def report(self) -> str:
        lines = [f"Event-loop stalls on a mission of {self.title}, "
                 f"input: {self.input.name}",
                 f"(longest gap between {TICK_MS} ms watchdog ticks, from an action's first input until it settles; "
                 "beside it the GUI thread's own CPU time in that gap)"]
        lines += [self.stalls[name].row(name) for name in ACTIONS]
        return "\n".join(lines)


def bench(real: bool, repeats: int, screenshot: str | None = None, levels: int = 8, size: int = 200,
          doors: int = 1000, quiet_s: float = QUIET_S) -> tuple[str, dict[str, Stalls]]:
    """Open the largest mission (or the one of `levels`, `size`, `doors`) in a 1920x1080 window, drive every
    action, return the report and the stalls."""
    from PySide6.QtWidgets import QApplication

    from editor.app import create_main_window, freeze_start_up_objects
    from engine.mission import save_mission

    app = QApplication.instance() or QApplication([])
    tmp = tempfile.mkdtemp(prefix="hulkforge-window-")
    try:
        path = os.path.join(tmp, "largest.json")
        save_mission(largest_mission(levels, size, doors), path)
        window = create_main_window(None, with_lab=False)
        freeze_start_up_objects()  # as the editor's main() does
        window.autosave_timer.stop()
        window.resize(1920, 1050)
        window.move(0, 0)
        window.show()
        window.open_file(path, ask=False)
        app.processEvents()
        runner = Bench(window, path, real, repeats, size, quiet_s)
        runner.title = f"{levels} levels of {size}x{size}, {doors:,} doors"
        runner.screenshot = screenshot
        driver = threading.Thread(target=runner.run, daemon=True)
        driver.start()
        app.exec()
        driver.join()
        if runner.error is not None:
            raise runner.error
        window.doc.undo_stack.setClean()
        window.close()
        return runner.report(), runner.stalls
    finally:
        gc.unfreeze()  # a caller in the same process (a test) collects its objects as before
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.editor_window", description=__doc__.split("\n\n")[0])
    p.add_argument("--real-window", action="store_true",
                   help="an X window driven by xdotool (under xvfb-run 1920x1080 when there is no DISPLAY); "
                        "without it: offscreen with QTest events")
    p.add_argument("--repeats", type=int, default=6, help="runs of each action (default 6)")
    p.add_argument("--screenshot", metavar="PNG", help="after the run, save a picture of the screen here")
    p.add_argument("--levels", type=int, default=8, help="levels of the mission (default 8, the most allowed)")
    p.add_argument("--size", type=int, default=200, help="squares per side of each level (default 200, the most; "
                   "at least 40)")
    p.add_argument("--doors", type=int, default=1000, help="doors (default 1000, the most allowed)")
    p.add_argument("--settle-ms", type=float, default=QUIET_S * 1000,
                   help=f"quiet time that ends an action (default {QUIET_S * 1000:.0f})")
    args = p.parse_args(argv)
    if args.real_window and not os.environ.get("DISPLAY"):
        if shutil.which("xvfb-run") is None or shutil.which("xdotool") is None:
            print("editor_window: --real-window needs xvfb-run and xdotool", file=sys.stderr)
            return 2
        env = dict(os.environ, QT_QPA_PLATFORM="xcb")
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1920x1080x24", sys.executable, "-m", "benchmarks.editor_window",
               *(argv if argv is not None else sys.argv[1:])]
        return subprocess.call(cmd, env=env)
    if args.real_window:
        os.environ["QT_QPA_PLATFORM"] = "xcb"
    else:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if args.size < 40 or not 1 <= args.levels <= 8 or args.repeats < 1:
        p.error("--size must be at least 40, --levels 1 to 8, --repeats at least 1")
    text, _ = bench(args.real_window, args.repeats, args.screenshot, args.levels, args.size, args.doors,
                    args.settle_ms / 1000)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
