"""Starting the editor: `hulkforge`, `hulkforge edit FILE`, or the hulkforge-editor gui script."""

from __future__ import annotations

import argparse
import gc
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from editor.dialogs import new_mission
from editor.document import MissionDocument
from editor.mainwindow import MainWindow
from editor.platform_check import check_start
from editor.shutdown import quit_on_sigterm
from editor.theme import follow_desktop
from engine.mission import MissionFileError
from engine.resources import sample_mission

PROG = "hulkforge edit"
ICON = Path(__file__).resolve().parent / "resources" / "icon.svg"


def default_mission_path() -> str:
    return str(sample_mission("pitfall"))


def create_main_window(path: str | None = None, with_lab: bool = True, tell: bool = True,
                       refuse_unreadable: bool = False) -> MainWindow:
    """A main window on a file (default: the Pitfall sample); a file that cannot be read opens a blank mission
    and shows the problem (refuse_unreadable: raises MissionFileError instead), one that breaks the format opens
    for repair and says so (tell=False: no dialog, for screenshots). with_lab adds the balance lab window when
    editor.lab is installed."""
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("hulkforge")
    app.setOrganizationName("hulkforge")
    app.setWindowIcon(QIcon(str(ICON)))
    app.setDesktopFileName("hulkforge")  # so desktops match the window to packaging/hulkforge.desktop and its icon
    follow_desktop(app)  # type: ignore[arg-type]
    target = path or default_mission_path()
    error: MissionFileError | None = None
    try:
        doc = MissionDocument.open(target)
    except MissionFileError as exc:
        if refuse_unreadable:
            raise
        doc, error = MissionDocument(new_mission("Untitled mission", 30, 20, 1)), exc
    window = MainWindow(doc)
    doc.setParent(window)
    if with_lab:
        _install_lab(window)
    from editor.play import install_play

    install_play(window)
    if tell and error is not None:
        QTimer.singleShot(0, lambda: QMessageBox.critical(window, "Cannot open mission",
                                                          f"The mission could not be opened:\n\n{error}"))
    elif tell:
        def report() -> None:
            if window.doc is doc:  # not if another document replaced it meanwhile (recovery)
                window.report_repair()
        QTimer.singleShot(0, report)
    return window


def freeze_start_up_objects() -> None:
    """Leave what exists once the window is made (modules, Qt's wrappers, the window: some 80,000 objects that
    live as long as the process) out of every later garbage collection. A full collection otherwise walks them
    all, 30 to 50 ms in the middle of whatever edit happened to trigger it: the longest stall of a brush stroke
    or a fill on the largest map."""
    gc.collect()
    gc.freeze()


def _install_lab(window: MainWindow) -> None:
    """Add the balance lab (editor/lab, written separately) if it is there; the editor works without it."""
    try:
        lab = importlib.import_module("editor.lab")
        lab.install_lab(window)
    except Exception as exc:  # a broken optional dock must not keep the editor from starting
        print(f"hulkforge editor: balance lab not available: {exc}", file=sys.stderr)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hulkforge-editor", description="The hulkforge mission editor.")
    p.add_argument("file", nargs="?", help="mission to open (default: the Pitfall sample)")
    p.add_argument("--screenshot", metavar="PNG", help="save a screenshot of the window and quit")
    p.add_argument("--playtest", choices=("marines", "genestealers", "both"),
                   help="open the mission as a game: the side you play, or both (hot-seat)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Open the editor; returns the exit code of the Qt event loop."""
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    code = check_start(PROG, bool(args.screenshot))
    if code:
        return code
    app = QApplication.instance() or QApplication(sys.argv[:1])
    try:
        # A screenshot of a file that cannot be read would show a blank mission: say why instead, exit 2.
        window = create_main_window(args.file, tell=not args.screenshot, refuse_unreadable=bool(args.screenshot))
    except MissionFileError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    freeze_start_up_objects()
    # Cyclic garbage is collected on the GUI thread only (a timer), never in whichever thread allocates: the
    # validation worker's pool threads, like the lab's QThreads (editor/worker_gc.py), would otherwise destroy
    # Qt objects outside the GUI thread.
    from pyqtgraph.util.garbage_collector import GarbageCollector

    collector = GarbageCollector(interval=1.0)  # noqa: F841 (its timer must live as long as the loop)
    window.show()
    if args.screenshot:
        def shoot() -> None:
            window.grab().save(args.screenshot)
            window.doc.undo_stack.setClean()  # a screenshot run saves nothing, so closing must not ask
            window.close()
            app.quit()
        QTimer.singleShot(800, shoot)
    else:
        QTimer.singleShot(0, window.offer_recovery)
    if args.playtest:
        from editor.play import open_playtest

        QTimer.singleShot(0, lambda: open_playtest(window, args.playtest))
    wake = quit_on_sigterm(app, window)  # noqa: F841 (the timer must live as long as the loop)
    return int(app.exec())


if __name__ == "__main__":
    sys.exit(main())
