"""The main window: level tabs, docks, menus and tool actions around one MissionDocument."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence, QStatusTipEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMainWindow,
    QScrollArea,
    QTabWidget,
    QToolBar,
    QUndoView,
    QWidget,
)

from editor.commands.region import area_squares
from editor.docks.legend import LegendPanel
from editor.docks.levels_panel import LevelsPanel
from editor.docks.properties import PropertiesPanel
from editor.docks.tools_panel import ToolsPanel
from editor.docks.validation import ValidationPanel
from editor.document import MissionDocument
from editor.export_actions import ExportActions
from editor.features import features_in
from editor.files import FileActions
from editor.help import HelpActions
from editor.level_view import LevelView
from editor.mapview import MapView
from editor.menus import MenuActions
from editor.reveal import reveal
from editor.scene.level_scene import LevelScene
from editor.tool_icons import tool_icon
from editor.tools import TOOL_CLASSES, Tool, ToolContext
from engine.mission import Issue

MIN_MAP_WIDTH, MIN_MAP_HEIGHT = 420, 320
MAX_CHOICES = 50  # features of a selection offered in Properties › Feature


def scrolled(panel: QWidget) -> QScrollArea:
    """A panel in a scroll area: the dock may then be shorter than the panel, so the window fits a small or
    scaled screen (1280×720 logical at 150%) and the panel scrolls instead."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(panel)
    area.setMinimumWidth(panel.minimumSizeHint().width() + 16)
    return area


REPAINT_LATER_MS = 10  # after a document is set, the window is painted this long later


class MainWindow(MenuActions, FileActions, ExportActions, HelpActions, QMainWindow):
    """Owns the views and docks; every change to the mission goes through the document's undo stack."""

    def __init__(self, doc: MissionDocument) -> None:
        QMainWindow.__init__(self)
        self.resize(1500, 920)
        screen = self.screen().availableGeometry() if self.screen() is not None else None
        if screen is not None and (screen.width() < 1500 or screen.height() < 920):
            # Never open larger than the desktop: a window wider than the screen hides its own docks.
            self.resize(min(1500, int(screen.width() * 0.95)), min(920, int(screen.height() * 0.92)))
        self.doc = doc
        self.ctx = ToolContext(doc)
        self.level_view = LevelView(self)
        self.level_view.changed.connect(self._apply_level_view)
        self.ctx.locked = self.level_view.locked
        self.ctx.show_level = self.show_level
        self.ctx.message = lambda text: self.show_status(text, 4000)
        self.ctx.selection_changed = self._selection_changed
        self.ctx.scene_of = self.scene
        self.ctx.context_menu = self.show_selection_menu
        self.tools: list[Tool] = [cls(self.ctx) for cls in TOOL_CLASSES]
        self.tool: Tool | None = None
        self.views: dict[str, MapView] = {}
        self.show_grid = True
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.currentChanged.connect(self._tab_changed)
        # However small the window, the map keeps a usable area: the window's minimum grows instead.
        self.tabs.setMinimumSize(MIN_MAP_WIDTH, MIN_MAP_HEIGHT)
        self.setCentralWidget(self.tabs)
        self.coords = QLabel()
        self.coords.setToolTip("Level, square under the mouse, its section, and the zoom")
        self.statusBar().addPermanentWidget(self.coords)
        self._make_tool_actions()
        self._make_docks()
        self._make_menus()
        self.init_files()
        self.set_document(doc)
        self.set_tool(self.tools[1])

    # --- document ------------------------------------------------------------------------------
    def set_document(self, doc: MissionDocument) -> None:
        """Show another document (New/Open/recovery); views and docks are rebuilt around it."""
        old = self.doc if self.doc is not doc else None
        if old is not None and self.isVisible() and self.updatesEnabled():
            # The new panels and maps are laid out now and painted a moment later, in a turn of the event loop of
            # their own: on the largest mission building them and painting them were one long stall.
            self.setUpdatesEnabled(False)
            QTimer.singleShot(REPAINT_LATER_MS, self, lambda: self.setUpdatesEnabled(True))
        self.doc = doc
        self.ctx.doc = doc
        self.ctx.selection = None
        self.ctx._base_rev = -1
        for t in self.tools:
            t.cancel()
        doc.levelsChanged.connect(self._rebuild_tabs)
        doc.dirtyChanged.connect(self._update_title)
        doc.fileChanged.connect(self._update_title)
        doc.issuesChanged.connect(self._update_title)
        doc.issuesChanged.connect(self._drop_fixed_focus)
        # What is under the mouse changes when the map does, not only when the mouse moves.
        doc.terrainChanged.connect(self._refresh_hover)
        doc.sectionsChanged.connect(self._refresh_hover)
        doc.levelsChanged.connect(self._refresh_hover)
        # Bound methods, not lambdas: Qt drops the connection when the window goes, the document may outlive it.
        doc.undo_stack.indexChanged.connect(self._undo_state)
        doc.undo_stack.cleanChanged.connect(self._undo_state)
        self._undo_state()
        for dock in (self.validation_dock, self.properties_dock, self.tools_dock, self.history_dock, self.levels_dock):
            stale = dock.widget()
            if stale is not None:  # setWidget does not delete the panel of the previous document
                stale.deleteLater()
        self.validation = ValidationPanel(doc)
        self.validation.issueActivated.connect(self.show_issue)
        self.validation_dock.setWidget(self.validation)
        self.properties = PropertiesPanel(doc)
        self.properties.feature_panel.follow = self._follow_feature
        self.properties_dock.setWidget(self.properties)
        self.level_view.reset()
        self.levels_panel = LevelsPanel(doc, self.level_view)
        self.levels_dock.setWidget(scrolled(self.levels_panel))
        self.tools_panel = ToolsPanel(self.ctx, list(self.tool_actions.values()))
        self.tools_dock.setWidget(scrolled(self.tools_panel))
        history = QUndoView(doc.undo_stack)
        # The undo model resets on every push; uniform rows keep relayout cheap on a long history.
        history.setUniformItemSizes(True)
        history.setToolTip("Undo history: click a step to go back to it")
        self.history_dock.setWidget(history)
        self._rebuild_tabs()
        self._update_title()
        if old is not None:
            old.deleteLater()

    def _rebuild_tabs(self) -> None:
        wanted = [lv.id for lv in self.doc.mission.levels_top_down()]
        current = self.current_level()
        if list(self.views) == wanted and all(v.level_scene.doc is self.doc for v in self.views.values()):
            self._retitle_tabs()
            return
        self.tabs.blockSignals(True)
        self.tabs.clear()
        old_views = self.views
        self.views = {}
        for level_id in wanted:
            view = old_views.pop(level_id, None)
            if view is None or view.level_scene.doc is not self.doc:
                view = MapView(LevelScene(self.doc, level_id), lambda: self.tool)
                view.squareHovered.connect(self._hovered)
                view.zoomChanged.connect(self._refresh_hover)
            view.level_scene.set_show_grid(self.show_grid)
            self.views[level_id] = view
            self.tabs.addTab(view, level_id)
        for view in old_views.values():
            view.deleteLater()
        self._retitle_tabs()
        self.tabs.blockSignals(False)
        self.show_level(current if current in self.views else wanted[0])
        self._apply_level_view()
        self._tab_changed(self.tabs.currentIndex())

    def _apply_level_view(self) -> None:
        """Hidden levels keep their tab (marked, the map not drawn) and lose their outline on the level above; the
        level below's opacity."""
        state = self.level_view
        for level_id, view in self.views.items():
            view.level_scene.set_hidden(level_id in state.hidden)
            below = self.doc.mission.level_below(level_id)
            view.level_scene.set_show_below(state.show_below and (below is None or below.id not in state.hidden))
            view.level_scene.set_below_opacity(state.below_opacity)
        if hasattr(self, "act_below"):
            self.act_below.setChecked(state.show_below)
        self._retitle_tabs()

    def _retitle_tabs(self) -> None:
        for i, level_id in enumerate(self.views):
            lv = self.doc.mission.level(level_id)
            if lv is not None:
                hidden = " (hidden)" if level_id in self.level_view.hidden else ""
                self.tabs.setTabText(i, f"{lv.depth}: {lv.name or lv.id}{hidden}")
                self.tabs.setTabToolTip(i, f"Level {lv.id}, depth {lv.depth} (0 = top), {lv.width}×{lv.height}")

    def _undo_state(self, *_args: object) -> None:
        try:
            stack = self.doc.undo_stack
            stack.count()
        except RuntimeError:  # the document is being torn down
            return
        self.act_undo.setEnabled(stack.canUndo())
        self.act_redo.setEnabled(stack.canRedo())
        self.act_undo.setText(f"&Undo {stack.undoText()}".rstrip())
        self.act_redo.setText(f"&Redo {stack.redoText()}".rstrip())

    def _update_title(self, *_args: object) -> None:
        errors = sum(1 for i in self.doc.issues if i.severity == "error")
        flag = f" — {errors} error(s)" if errors else ""
        self.setWindowTitle(f"{self.doc.display_name()}[*]{flag} — hulkforge editor")
        self.setWindowModified(self.doc.dirty)

    # --- levels and views ----------------------------------------------------------------------
    def current_level(self) -> str | None:
        view = self.tabs.currentWidget()
        return view.level_scene.level_id if isinstance(view, MapView) else None

    def current_view(self) -> MapView | None:
        view = self.tabs.currentWidget()
        return view if isinstance(view, MapView) else None

    def show_level(self, level_id: str) -> None:
        view = self.views.get(level_id)
        if view is not None:
            self.tabs.setCurrentWidget(view)

    def _tab_changed(self, _index: int) -> None:
        level = self.current_level()
        if level is not None and hasattr(self, "tools_panel"):
            self.tools_panel.set_level(level)
        self._selection_changed()
        if level is not None and level != self._last_hover[0]:
            # The square shown was on the level just left: name the new level until the mouse is over it.
            self._hovered(level, None, None)

    _last_hover: tuple[str, int | None, int | None] = ("", None, None)

    def _refresh_hover(self, *_args: object) -> None:
        if self._last_hover[0]:
            self._hovered(*self._last_hover)

    def _hovered(self, level: str, x: int | None, y: int | None) -> None:
        self._last_hover = (level, x, y)
        lv = self.doc.mission.level(level)
        view = self.views.get(level)
        if lv is None or view is None:
            return
        zoom = f"zoom {view.zoom() * 100:.0f}%"
        if x is None or y is None:
            self.coords.setText(f"{lv.name or lv.id} (depth {lv.depth}) · {zoom}")
            return
        inside = 0 <= x < lv.width and 0 <= y < lv.height
        where = f"x {x}, y {y}" if inside else "outside the map"
        code = lv.section_of(x, y) if inside else None
        sec = lv.sections.get(code) if code else None
        what = "wall" if inside and not lv.is_floor(x, y) else (f"section {code} {sec.name if sec else ''}"
                                                                  if code else "floor")
        self.coords.setText(f"{lv.name or lv.id} (depth {lv.depth}) · {where} · {what if inside else ''} · {zoom}")

    def _selection_changed(self) -> None:
        sel = self.ctx.selection
        for level_id, view in self.views.items():
            view.level_scene.set_selection(sel[1] if sel and sel[0] == level_id else None)
        if hasattr(self, "properties"):
            found = features_in(self.doc.mission, sel[0], area_squares(sel[1])) if sel else []
            self.properties.feature_panel.set_features(found[:MAX_CHOICES])
            if found:  # as Tiled does: a selected object shows its own properties
                self.properties.show_form(self.properties.feature_panel)

    def _follow_feature(self, level: str, x: int, y: int) -> None:
        """A feature moved from the Feature panel: the selection goes with it."""
        self.show_level(level)
        self.ctx.set_selection(level, QRect(x, y, 1, 1))

    _focused: Issue | None = None  # the issue clicked last, outlined on the map until it is fixed

    def _drop_fixed_focus(self) -> None:
        """Once the issue clicked is fixed (no longer found), its outline goes."""
        if self._focused is not None and self._focused not in self.doc.issues:
            self._focused = None
            for view in self.views.values():
                view.level_scene.set_focus_squares(set())

    def show_issue(self, issue: Issue) -> None:
        """Switch to the issue's level, select and zoom to its squares, and mark them."""
        self._focused = issue
        for view in self.views.values():
            view.level_scene.set_focus_squares(set())
        if issue.level is None or issue.level not in self.views:
            reveal(self, issue)
            self.show_status(f"{issue.rule}: {issue.message}", 6000)
            return
        self.show_level(issue.level)
        view = self.views[issue.level]
        squares = list(issue.squares)
        view.level_scene.set_focus_squares(set(squares))
        if squares:
            xs = [x for x, _ in squares]
            ys = [y for _, y in squares]
            self.ctx.set_selection(issue.level, QRect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1))
            view.zoom_to_squares(squares)
        reveal(self, issue)
        self.show_status(f"{issue.rule}: {issue.message}", 6000)

    # --- tools ----------------------------------------------------------------------------------
    def _make_tool_actions(self) -> None:
        self.tool_group = QActionGroup(self)
        self.tool_actions: dict[str, QAction] = {}
        for tool in self.tools:
            act = QAction(tool.name, self)
            act.setCheckable(True)
            act.setShortcut(QKeySequence(tool.shortcut))
            act.setToolTip(tool.tooltip())
            act.setStatusTip(tool.tip)
            act.setIcon(tool_icon(tool.name))
            act.triggered.connect(lambda _c=False, t=tool: self.set_tool(t))
            self.tool_group.addAction(act)
            self.tool_actions[tool.name] = act
        # The same actions as icons in a bar beside the Tools dock (Tiled's tool bar): one click, its shortcut
        # and tip on hover.
        self.tool_bar = QToolBar("Tool bar", self)
        self.tool_bar.setObjectName("Tool_bar")
        self.tool_bar.setIconSize(QSize(24, 24))
        self.tool_bar.setToolTip("")
        for act in self.tool_actions.values():
            self.tool_bar.addAction(act)
        self.addToolBar(Qt.ToolBarArea.LeftToolBarArea, self.tool_bar)

    def show_status(self, text: str, ms: int = 0) -> None:
        """A status-bar message cut to the room left of the permanent widgets (coordinates, the lab's job), so a
        long tool tip never runs under them; the full text is the status bar's tool tip."""
        bar = self.statusBar()
        text = " ".join(text.split())
        taken = sum(w.width() + 12 for w in bar.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
                    if w.isVisible() and w is not bar)
        room = max(120, bar.width() - taken - 24)
        bar.showMessage(bar.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, room), ms)
        bar.setToolTip(text)

    def event(self, e: QEvent) -> bool:
        if e.type() == QEvent.Type.StatusTip and isinstance(e, QStatusTipEvent):
            # Hovering an action shows its status tip: cut it to fit like every other message.
            self.show_status(e.tip())
            return True
        return super().event(e)

    def set_tool(self, tool: Tool) -> None:
        if tool is self.tool:  # picking the current tool again keeps a half-made edit (a ladder's top end)
            self.tool_actions[tool.name].setChecked(True)
            return
        if self.tool is not None:
            self.tool.deactivate()
            for view in self.views.values():
                self.tool.leave(view.level_scene)
        self.tool = tool
        tool.activate()
        self.tool_actions[tool.name].setChecked(True)
        for view in self.views.values():
            view.viewport().setCursor(tool.cursor)
        self.show_status(f"{tool.name} ({tool.shortcut}): {tool.tip}", 5000)

    def tool_named(self, name: str) -> Tool:
        return next(t for t in self.tools if t.name == name)

    # --- docks and menus ----------------------------------------------------------------------
    def _dock(self, title: str, area: Qt.DockWidgetArea, tip: str) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(title.replace(" ", "_"))
        dock.setToolTip(tip)
        self.addDockWidget(area, dock)
        return dock

    def _make_docks(self) -> None:
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        self.tools_dock = self._dock("Tools", left, "Pick a tool (single-letter shortcuts) and its options")
        self.levels_dock = self._dock("Levels", left, "Show, lock, rename, reorder, add and remove levels")
        self.legend_dock = self._dock("Legend", left, "What the map's colours and symbols mean")
        self.legend_dock.setWidget(LegendPanel())
        self.tabifyDockWidget(self.levels_dock, self.legend_dock)
        self.levels_dock.raise_()
        self.properties_dock = self._dock("Properties", right, "Mission, squad, Genestealers, victory, levels")
        self.validation_dock = self._dock("Validation", right, "Live list of rule issues; click one to see it")
        self.history_dock = self._dock("History", right, "Undo history: click a step to go back to it")
        self.tabifyDockWidget(self.validation_dock, self.history_dock)
        self.validation_dock.raise_()
        self.resizeDocks([self.tools_dock, self.properties_dock], [250, 460], Qt.Orientation.Horizontal)
        self.resizeDocks([self.properties_dock, self.validation_dock], [520, 320], Qt.Orientation.Vertical)
        # The tool options first; on a short screen the Levels list gives up its room before them.
        self.resizeDocks([self.tools_dock, self.levels_dock], [600, 240], Qt.Orientation.Vertical)

    def scene(self, level_id: str) -> LevelScene | None:
        """The scene showing a level, or None (overlay API entry point for the balance lab)."""
        view = self.views.get(level_id)
        return view.level_scene if view is not None else None

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.maybe_save():
            self.discard_recovery()
            event.accept()
        else:
            event.ignore()


__all__ = ["MainWindow", "QWidget"]
