"""MapView: shows one LevelScene; zoom, pan, and mouse events handed to the current tool as squares."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QResizeEvent, QShowEvent, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QWidget

from editor.scene.level_scene import LevelScene
from editor.scene.terrain_item import S
from editor.tools.base import Tool

MIN_ZOOM, MAX_ZOOM = 0.1, 8.0


class MapView(QGraphicsView):
    """Zoom with the wheel or Ctrl+=/Ctrl+-, pan with the middle button or Space+drag."""

    squareHovered = Signal(str, int, int)  # level, x, y
    zoomChanged = Signal(float)

    def __init__(self, scene: LevelScene, tool: Callable[[], Tool | None], parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.level_scene = scene
        self._tool = tool
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setMouseTracking(True)
        # Zoom keeps a chosen point still itself (zoom_at): the anchors of scale() are lost by set_zoom's reset.
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._pan_from: QPoint | None = None
        self._space = False
        self._button_down = False
        self._fitted = False
        # The whole level stays in view as the window is resized (maximised, docks moved), until the user
        # zooms; Fit level (Ctrl+0) turns it back on.
        self._auto_fit = True
        scene.sceneRectChanged.connect(lambda _r: self._pad_scene_rect())

    def _pad_scene_rect(self) -> None:
        """Let the view scroll a viewport beyond the level on every side (as Tiled does), so a zoom can keep any
        square where it is on the screen, even near the map's edge or when the map is smaller than the view."""
        r = self.level_scene.sceneRect()
        z = self.zoom() or 1.0
        mx, my = self.viewport().width() / z, self.viewport().height() / z
        self.setSceneRect(r.adjusted(-mx, -my, mx, my))

    # --- zoom -----------------------------------------------------------------------------------
    def zoom(self) -> float:
        return self.transform().m11()

    def set_zoom(self, z: float) -> None:
        self._auto_fit = False
        z = min(MAX_ZOOM, max(MIN_ZOOM, z))
        self.resetTransform()
        self.scale(z, z)
        self._pad_scene_rect()
        self.zoomChanged.emit(z)

    def zoom_by(self, factor: float) -> None:
        """Zoom about the centre of the view (keyboard zoom)."""
        self.zoom_at(factor, self.viewport().rect().center())

    def zoom_at(self, factor: float, pos: QPoint) -> None:
        """Zoom by factor keeping the scene point under viewport position pos where it is (as Tiled's wheel)."""
        before = self.mapToScene(pos)
        self.set_zoom(self.zoom() * factor)
        after = self.mapToScene(pos)
        z = self.zoom()
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        h.setValue(h.value() + round((before.x() - after.x()) * z))
        v.setValue(v.value() + round((before.y() - after.y()) * z))

    def fit(self) -> None:
        """Show the whole level, and keep showing it as the view is resized until the user zooms."""
        self._auto_fit = True
        rect = self.level_scene.sceneRect()
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        self._pad_scene_rect()
        self.centerOn(rect.center())
        self.zoomChanged.emit(self.zoom())

    def zoom_to_squares(self, squares: list[tuple[int, int]]) -> None:
        """Centre on squares and zoom so they and some context fit (issue clicked in the dock)."""
        if not squares:
            return
        xs = [x for x, _ in squares]
        ys = [y for _, y in squares]
        from PySide6.QtCore import QRectF

        self._auto_fit = False
        r = QRectF((min(xs) - 4) * S, (min(ys) - 4) * S, (max(xs) - min(xs) + 9) * S, (max(ys) - min(ys) + 9) * S)
        self.fitInView(r, Qt.AspectRatioMode.KeepAspectRatio)
        if self.zoom() > 2.0:
            self.set_zoom(2.0)
        self._pad_scene_rect()
        self.centerOn(r.center())
        self.zoomChanged.emit(self.zoom())

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._fitted:  # the first time it has a size: show the whole level
            self._fitted = True
            self.fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._fitted and self._auto_fit:
            self.fit()

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps:
            self.zoom_at(1.15 ** steps, event.position().toPoint())
        event.accept()

    # --- mouse -> tool --------------------------------------------------------------------------
    def square_at(self, pos: QPoint) -> tuple[int, int]:
        p = self.mapToScene(pos)
        return int(p.x() // S), int(p.y() // S)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        button = event.button()
        if button == Qt.MouseButton.MiddleButton or (self._space and button == Qt.MouseButton.LeftButton):
            self._pan_from = event.position().toPoint()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            return
        tool = self._tool()
        if tool is not None and tool.edits and not tool.ctx.editable(self.level_scene.level_id):
            return
        if tool is not None:
            self._button_down = True
            x, y = self.square_at(event.position().toPoint())
            tool.press(self.level_scene, x, y, event.button(), event.modifiers())

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position().toPoint()
        if self._pan_from is not None:
            delta = pos - self._pan_from
            self._pan_from = pos
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - delta.y())
            return
        x, y = self.square_at(pos)
        tool = self._tool()
        if tool is not None:
            tool.move(self.level_scene, x, y, event.buttons(), event.modifiers())
        self.squareHovered.emit(self.level_scene.level_id, x, y)  # after the tool, so it reports the result

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None and event.button() in (Qt.MouseButton.MiddleButton, Qt.MouseButton.LeftButton):
            self._pan_from = None
            self.viewport().unsetCursor()
            return
        tool = self._tool()
        if tool is not None and self._button_down:
            self._button_down = False
            x, y = self.square_at(event.position().toPoint())
            tool.release(self.level_scene, x, y, event.button(), event.modifiers())

    def leaveEvent(self, event: object) -> None:
        tool = self._tool()
        if tool is not None:
            tool.leave(self.level_scene)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            return
        if event.key() == Qt.Key.Key_Escape:
            tool = self._tool()
            if tool is not None:
                tool.cancel()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            self.viewport().unsetCursor()
            return
        super().keyReleaseEvent(event)
