"""Putting the lab into the editor's main window: a dock, a menu, and following the window's document."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow

from editor.document import MissionDocument
from editor.lab.lab_widget import LabWidget


class LabDock(QDockWidget):
    """The balance lab dock; it rebuilds its LabWidget when the window shows another document."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__("Balance lab", window)
        self.setObjectName("Balance_lab")
        self.setToolTip("Run simulated batches of this mission: charts, heatmaps, compare, sweep, replay")
        self.window_ = window
        self.lab: LabWidget | None = None
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
            self.lab.lab_map.mirrors.append(scene)
        self.setWidget(self.lab)
        if old is not None:
            old.deleteLater()

    def run_now(self) -> None:
        """Show the lab and start the batch of its form (menu Lab > Run batch, F5)."""
        self.show()
        if self.lab is not None:
            self.lab.start_batch()


def install(window: Any) -> LabDock:
    """Add the lab dock (bottom, hidden until asked for) and a Lab menu; follow window.set_document.

    Installing twice (editor.app and a hook in the window both asking) returns the first dock.
    """
    existing = getattr(window, "lab_dock", None)
    if isinstance(existing, LabDock):
        return existing
    dock = LabDock(window)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    dock.hide()
    menu = window.menuBar().addMenu("&Lab")
    act = dock.toggleViewAction()
    act.setText("&Balance lab")
    act.setShortcut(QKeySequence("Ctrl+L"))
    act.setToolTip("Show the balance lab: simulate batches of this mission")
    menu.addAction(act)
    run = menu.addAction("&Run batch")
    run.setShortcut(QKeySequence("F5"))
    run.triggered.connect(lambda _c=False: dock.run_now())
    cancel = menu.addAction("&Cancel batch")
    cancel.triggered.connect(lambda _c=False: dock.lab.cancel() if dock.lab else None)
    original = getattr(window, "set_document", None)
    if callable(original):
        def set_document(doc: MissionDocument) -> None:
            """Follow the window to another document."""
            original(doc)
            dock.set_document(doc)

        # An instance attribute shadows the method, so New/Open (self.set_document) reach the lab too.
        window.set_document = set_document
    window.lab_dock = dock
    return dock
