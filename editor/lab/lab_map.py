"""LabMap: the document's levels drawn by LevelScene, one at a time, for heatmaps and replays."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPainter, QResizeEvent, QShowEvent
from PySide6.QtWidgets import QComboBox, QGraphicsView, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from editor.document import MissionDocument
from editor.scene.level_scene import LevelScene

SceneSource = Callable[[str], LevelScene | None]


class FitView(QGraphicsView):
    """A read-only view that keeps the whole level in sight."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setMinimumSize(200, 150)

    def fit(self) -> None:
        """Zoom so the whole level shows."""
        if self.scene() is not None:
            self.fitInView(self.scene().sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Keep the level fitted."""
        super().resizeEvent(event)
        self.fit()

    def showEvent(self, event: QShowEvent) -> None:
        """Fit once the view has its real size."""
        super().showEvent(event)
        self.fit()


class LabMap(QWidget):
    """Level chooser + view; `scene(level)` is where overlays go (the lab's own scenes of the document)."""

    levelShown = Signal(str)

    def __init__(self, doc: MissionDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self._scenes: dict[str, LevelScene] = {}
        # Other views of the same levels that show the overlays too (the editor's own map tabs).
        self.mirrors: list[SceneSource] = []
        self.level_box = QComboBox()
        self.view = FitView()
        top = QHBoxLayout()
        top.addWidget(QLabel("Level"))
        top.addWidget(self.level_box, 1)
        self.caption = QLabel("")
        top.addWidget(self.caption, 2)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(top)
        lay.addWidget(self.view, 1)
        self.level_box.currentIndexChanged.connect(self._show_current)
        doc.levelsChanged.connect(self.refresh_levels)
        doc.missionReplaced.connect(self.refresh_levels)
        self.refresh_levels()

    def level_ids(self) -> list[str]:
        """Level ids, top level first."""
        return [lv.id for lv in sorted(self.doc.mission.levels, key=lambda lv: lv.depth)]

    def refresh_levels(self) -> None:
        """Follow the document's levels (added, removed, renamed)."""
        ids = self.level_ids()
        for gone in set(self._scenes) - set(ids):
            self._scenes.pop(gone).deleteLater()
        current = self.level_box.currentData()
        self.level_box.blockSignals(True)
        self.level_box.clear()
        for lv in sorted(self.doc.mission.levels, key=lambda lv: lv.depth):
            self.level_box.addItem(f"{lv.name or lv.id} (depth {lv.depth})", lv.id)
        if current in ids:
            self.level_box.setCurrentIndex(ids.index(current))
        self.level_box.blockSignals(False)
        self._show_current()

    def scene(self, level_id: str) -> LevelScene | None:
        """The scene of a level, built on first use."""
        if level_id not in self.level_ids():
            return None
        sc = self._scenes.get(level_id)
        if sc is None:
            sc = self._scenes[level_id] = LevelScene(self.doc, level_id)
        return sc

    def scenes_for(self, level_id: str) -> list[LevelScene]:
        """Every scene showing this level: the lab's own, then the mirrors' (overlays go on all of them)."""
        out: list[LevelScene] = []
        own = self.scene(level_id)
        if own is not None:
            out.append(own)
        for source in self.mirrors:
            try:
                sc = source(level_id)
            except (KeyError, RuntimeError):  # a level tab being rebuilt, or a deleted C++ scene
                continue
            if sc is not None and sc is not own and sc.doc is self.doc:
                out.append(sc)
        return out

    def current_level(self) -> str | None:
        """The level shown, or None when the mission has none."""
        data = self.level_box.currentData()
        return str(data) if data is not None else None

    def show_level(self, level_id: str) -> None:
        """Switch the view to a level."""
        ids = self.level_ids()
        if level_id in ids:
            self.level_box.setCurrentIndex(ids.index(level_id))

    def _show_current(self) -> None:
        lv = self.current_level()
        sc = self.scene(lv) if lv else None
        self.view.setScene(sc)
        self.view.fit()
        if lv:
            self.levelShown.emit(lv)
