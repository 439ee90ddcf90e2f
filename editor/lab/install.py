"""Putting the lab into the editor: its own window, a Lab menu, a progress line in the editor's status bar,
and following the editor's document.

The lab gets a window of its own rather than a dock: its charts, map and tables need more room than a strip of
the editor can give, and the editor's map stays in full view beside it (heatmaps and replays are mirrored onto
it). While a job runs, the editor's status bar shows its progress, time left and a Cancel button, whether the
lab window is open, hidden or behind another window.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QCloseEvent, QHideEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QWidget,
)

from editor import settings
from editor.document import MissionDocument
from editor.lab.lab_widget import LabWidget


class LabWindow(QMainWindow):
    """The balance lab window; it rebuilds its LabWidget when the editor shows another document."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window, Qt.WindowType.Window)
        self.setObjectName("Balance_lab")
        self.setWindowTitle("Balance lab — hulkforge")
        self.setToolTip("Run simulated batches of this mission: charts, heatmaps, compare, sweep, replay")
        self.window_ = window
        self.lab: LabWidget | None = None
        self.resize(1400, 900)
        self.set_document(window.doc)  # type: ignore[attr-defined]

    def set_document(self, doc: MissionDocument) -> None:
        """A fresh lab on `doc` (results of another mission mean nothing for this one)."""
        if self.lab is not None and self.lab.doc is doc:
            return
        old = self.lab
        if old is not None:
            old.shutdown()
        self.lab = LabWidget(doc)
        scene = getattr(self.window_, "scene", None)
        if callable(scene):
            # The editor's map shows the lab's heatmaps and replays while the lab is open, not after.
            self.lab.lab_map.mirrors.append(lambda level: scene(level) if self.isVisible() else None)
        self.setCentralWidget(self.lab)  # deletes the previous lab widget
        self._retitle()
        doc.fileChanged.connect(self._retitle)
        status = getattr(self.window_, "lab_status", None)
        if isinstance(status, LabStatus):
            status.follow(self.lab)

    def _retitle(self, *_args: object) -> None:
        if self.lab is not None:
            self.setWindowTitle(f"Balance lab — {self.lab.doc.display_name()} — hulkforge")

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self.lab is not None:
            self.lab.heatmaps.apply()  # back on the editor's map

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        scene = getattr(self.window_, "scene", None)
        if self.lab is not None and callable(scene):
            for level in self.lab.lab_map.level_ids():
                sc = scene(level)
                if sc is not None:
                    sc.clear_overlays()

    def open(self) -> None:
        """Show the window in front."""
        self.show()
        self.raise_()
        self.activateWindow()

    def run_now(self) -> None:
        """Show the lab and start the batch of its form (menu Lab > Run batch, F5)."""
        self.open()
        if self.lab is not None:
            self.lab.start_batch()

    def closeEvent(self, event: QCloseEvent) -> None:
        # Closing only hides it: a batch goes on, its progress stays in the editor's status bar.
        settings.settings().setValue("lab/geometry", self.saveGeometry())
        event.accept()


class LabStatus(QWidget):
    """The lab's job in the editor's status bar: what runs, a bar, the time left and Cancel (hidden when idle)."""

    def __init__(self, open_lab: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lab: LabWidget | None = None
        self.text = QPushButton("")
        self.text.setFlat(True)
        self.text.setToolTip("The balance lab's job: click to show the lab")
        self.text.clicked.connect(open_lab)
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(160)
        self.bar.setMaximumHeight(16)
        self.bar.setTextVisible(False)
        self.cancel = QPushButton("Cancel")
        self.cancel.setToolTip("Stop the lab's job (finished games are kept)")
        self.cancel.clicked.connect(lambda: self.lab.cancel() if self.lab is not None else None)
        for w in (self.text, self.cancel):
            w.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 6, 0)
        lay.addWidget(QLabel("Lab:"))
        lay.addWidget(self.text)
        lay.addWidget(self.bar)
        lay.addWidget(self.cancel)
        self.hide()

    def follow(self, lab: LabWidget) -> None:
        self.lab = lab
        lab.progressChanged.connect(self.show_progress)
        lab.jobFinished.connect(lambda _kind: self.hide())
        self.hide()

    def show_progress(self, done: int, total: int, text: str) -> None:
        self.bar.setRange(0, max(1, total))
        self.bar.setValue(done)
        self.text.setText(text)
        self.show()


def install(window: Any) -> LabWindow:
    """Add the lab window (hidden until asked for), its status-bar line and a Lab menu; follow set_document.

    Installing twice (editor.app and a hook in the window both asking) returns the first window.
    """
    existing = getattr(window, "lab_window", None)
    if isinstance(existing, LabWindow):
        return existing
    status = LabStatus(lambda: lab_window.open())
    window.lab_status = status
    window.statusBar().addPermanentWidget(status)
    lab_window = LabWindow(window)
    geometry = settings.settings().value("lab/geometry")
    if geometry is not None:
        lab_window.restoreGeometry(geometry)  # type: ignore[arg-type]
    menu = QMenu("&Lab", window)
    help_menu = getattr(window, "help_menu", None)
    if isinstance(help_menu, QMenu):  # Help stays the last menu
        window.menuBar().insertMenu(help_menu.menuAction(), menu)
    else:
        window.menuBar().addMenu(menu)
    act = menu.addAction("&Balance lab")
    act.setShortcut(QKeySequence("Ctrl+L"))
    act.setToolTip("Show the balance lab: simulate batches of this mission")
    act.triggered.connect(lambda _c=False: lab_window.open())
    run = menu.addAction("&Run batch")
    run.setShortcut(QKeySequence("F5"))
    run.triggered.connect(lambda _c=False: lab_window.run_now())
    cancel = menu.addAction("&Cancel batch")
    cancel.triggered.connect(lambda _c=False: lab_window.lab.cancel() if lab_window.lab else None)
    original = getattr(window, "set_document", None)
    if callable(original):
        def set_document(doc: MissionDocument) -> None:
            """Follow the window to another document."""
            original(doc)
            lab_window.set_document(doc)

        # An instance attribute shadows the method, so New/Open (self.set_document) reach the lab too.
        window.set_document = set_document
    window.lab_window = lab_window
    return lab_window
