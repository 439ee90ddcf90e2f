"""LevelScene: one level's map, its marks, and the overlay API for the balance lab."""

from __future__ import annotations

import weakref

from PySide6.QtCore import QRect, QRectF, QTimer
from PySide6.QtGui import QColor, QRegion
from PySide6.QtWidgets import QGraphicsScene, QGraphicsSimpleTextItem

from editor import palette
from editor.document import MissionDocument
from editor.scene.feature_item import FeatureItem
from editor.scene.marks import AnchorItem, HeatmapItem, IssueMarksItem, PreviewItem, SelectionItem, TokensItem
from editor.scene.overlay import ColourScale, GameMarksItem, Mark, Token, colour_function
from editor.scene.terrain_item import GhostBelowItem, S, SectionNamesItem, TerrainItem
from engine.mission import Issue

_to_warm: list[weakref.ref[LevelScene]] = []
_warm_timer: QTimer | None = None
# Tiles of section borders made per turn of the event loop while warming a level (a few ms): a whole 200x200
# level's 49 in one turn held the window for a tenth of a second after an Open.
WARM_TILES = 8


def _warm_later(scene: LevelScene) -> None:
    global _warm_timer
    _to_warm.append(weakref.ref(scene))
    if _warm_timer is None:
        _warm_timer = QTimer()
        _warm_timer.setSingleShot(True)
        _warm_timer.timeout.connect(_warm_next)
    _warm_timer.start(0)


def _warm_next() -> None:
    """One level per turn of the event loop: eight zero-delay timers would all fire in one turn, a stall of
    eight levels' work."""
    while _to_warm:
        ref = _to_warm.pop(0)
        scene = ref()
        try:
            if scene is not None:
                if not scene.warm(WARM_TILES):
                    _to_warm.insert(0, ref)  # the rest of its borders at the next turn
                break
        except RuntimeError:  # the scene went with its window
            continue
    if _to_warm and _warm_timer is not None:
        _warm_timer.start(0)


class LevelScene(QGraphicsScene):
    """Draws one level of the document; listens to the document and never changes it."""

    def __init__(self, doc: MissionDocument, level_id: str) -> None:
        super().__init__()
        self.doc, self.level_id = doc, level_id
        self.setBackgroundBrush(QColor(palette.WALL).darker(130))
        self.terrain = TerrainItem(doc, level_id)
        self.ghost = GhostBelowItem(doc, level_id)
        self.features = FeatureItem(doc, level_id)
        self.names = SectionNamesItem(doc, level_id)
        self.heatmap = HeatmapItem()
        self.issue_marks = IssueMarksItem()
        self.selection = SelectionItem()
        self.preview = PreviewItem()
        self.anchor = AnchorItem()
        self.tokens = TokensItem()
        self.game_marks = GameMarksItem()
        for item in (self.terrain, self.ghost, self.features, self.names, self.heatmap, self.issue_marks,
                     self.selection, self.preview, self.anchor, self.tokens, self.game_marks):
            self.addItem(item)
        self.focus_squares: set[tuple[int, int]] = set()
        self._labels: dict[str, tuple[float, float]] = {}
        # Section names may move when squares change; checking once after a burst of edits keeps strokes fast.
        self._label_timer = QTimer(self)
        self._label_timer.setSingleShot(True)
        self._label_timer.setInterval(120)
        self._label_timer.timeout.connect(self._check_labels)
        doc.terrainChanged.connect(self._on_terrain)
        doc.featuresChanged.connect(self._on_features)
        doc.sectionsChanged.connect(self._on_sections)
        doc.levelsChanged.connect(self._on_levels)
        doc.issuesChanged.connect(self.refresh_issues)
        self._on_levels()
        self.refresh_issues()
        # The level's pictures made while the window is idle, so that the first look at a tab does not build a
        # 200x200 level's borders and names while the designer waits.
        _warm_later(self)

    def warm(self, tiles: int | None = None) -> bool:
        """Make the terrain's pictures and the names' places now, if anything changed since, and the borders of
        up to `tiles` tiles (None: all); True when nothing is left to make."""
        lv = self.doc.mission.level(self.level_id)
        if lv is None or not lv.width:
            return True
        self.terrain._refresh_pictures(lv)
        self.names.labels()
        return self.terrain.make_tiles(tiles)

    # --- document echo --------------------------------------------------------------------------
    def _on_terrain(self, level: str, region: QRect) -> None:
        if level == self.level_id:
            self.names.invalidate()
            self.terrain.invalidate(region)
            area = QRectF(region.x() * S, region.y() * S, region.width() * S, region.height() * S)
            self.terrain.update(area.adjusted(-4 * S, -S, 4 * S, S))
            self.features.update(area.adjusted(-S, -S, S, S))
            self._label_timer.start()
        else:
            self.ghost.update()

    def _check_labels(self) -> None:
        labels = self.names.labels()
        if labels != self._labels:  # a name moved: its old place must be repainted too
            self._labels = labels
            self.names.update()

    def _on_all(self, *args: object) -> None:
        self.names.invalidate()
        self.names.update()
        self.terrain.update()
        self.features.update()
        self.ghost.update()

    def _on_features(self) -> None:
        """Repaint the squares whose features changed; names may move off a new counter once the edits pause."""
        self.names.invalidate()
        self._label_timer.start()
        area = self.features.changed_area()
        if area is None:
            self._on_all()
        elif not area.isEmpty():
            self.update(area)

    def _on_sections(self, level: str) -> None:
        if level == self.level_id:
            self.terrain.invalidate()  # a declared section may change the tints
        self._on_all()

    def _on_levels(self) -> None:
        self.terrain.invalidate()
        for item in (self.terrain, self.features, self.ghost, self.names):
            item.prepareGeometryChange()
        lv = self.doc.mission.level(self.level_id)
        if lv is not None:
            self.setSceneRect(QRectF(-S, -S, (lv.width + 2) * S, (lv.height + 2) * S))
        self._on_all()

    def level_issues(self) -> list[Issue]:
        return [i for i in self.doc.issues if i.level == self.level_id and i.squares]

    def refresh_issues(self) -> None:
        self.issue_marks.set_issues([(i.severity, i.squares) for i in self.level_issues()], self.focus_squares)

    def set_focus_squares(self, squares: set[tuple[int, int]]) -> None:
        """Squares of the issue the designer clicked in the validation dock."""
        self.focus_squares = squares
        self.refresh_issues()

    # --- display options ---------------------------------------------------------------------
    def set_show_below(self, show: bool) -> None:
        self._show_below = show
        self.ghost.setVisible(show and not self.hidden)

    hidden = False
    _show_below = False
    _hidden_note: QGraphicsSimpleTextItem | None = None

    def set_hidden(self, hidden: bool) -> None:
        """A hidden level (Levels panel) keeps its tab, as a hidden layer keeps its row in Tiled: its map is not
        drawn, and a line says why."""
        if hidden == self.hidden:
            return
        self.hidden = hidden
        for item in (self.terrain, self.features, self.names, self.heatmap, self.issue_marks, self.selection,
                     self.tokens, self.game_marks):
            item.setVisible(not hidden)
        self.ghost.setVisible(self._show_below and not hidden)
        if self._hidden_note is None:
            self._hidden_note = self.addSimpleText("Hidden: tick Show in the Levels panel to draw this level")
            self._hidden_note.setBrush(QColor(palette.FLOOR))
            self._hidden_note.setScale(2.0)
            self._hidden_note.setPos(S, S)
        self._hidden_note.setVisible(hidden)

    def set_below_opacity(self, opacity: float) -> None:
        self.ghost.setOpacity(opacity)

    def set_show_grid(self, show: bool) -> None:
        self.terrain.show_grid = show
        self.terrain.update()

    def set_selection(self, area: QRegion | None) -> None:
        self.selection.set_area(area)

    def set_anchor(self, square: tuple[int, int] | None, text: str = "") -> None:
        """Mark where the first end of a two-click feature went (None removes the mark)."""
        self.anchor.set_anchor(square, text)

    def set_preview(self, squares: list[tuple[int, int]], ok: bool = True, reason: str = "") -> None:
        self.preview.set_preview(squares, ok, reason)

    # --- overlay API (balance lab) -------------------------------------------------------------
    def set_heatmap(self, values: dict[tuple[int, int], float] | None, colour_scale: ColourScale = None,
                    opacity: float = 0.6) -> None:
        """Colour squares by value; colour_scale is value->colour, (vmin, vmax), or None for the data range."""
        if not values:
            self.heatmap.set_values({}, lambda v: QColor())
            return
        self.heatmap.opacity_ = opacity
        self.heatmap.set_values(dict(values), colour_function(values, colour_scale))

    def set_tokens(self, tokens: list[Token]) -> None:
        """Draw models (marine / genestealer / blip) over the map, replacing the previous ones."""
        self.tokens.set_tokens(tokens)
        self.names.set_tokens(frozenset((t.x, t.y) for t in tokens))

    def set_game_marks(self, marks: list[Mark]) -> None:
        """Draw one game's counters, door states and fire over the mission's features, replacing the previous."""
        self.game_marks.set_marks(marks, self.doc.mission.level(self.level_id))

    def clear_overlays(self) -> None:
        """Remove the heatmap, the tokens and the game marks."""
        self.set_heatmap(None)
        self.set_tokens([])
        self.set_game_marks([])
