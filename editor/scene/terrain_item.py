"""Draws one level's squares: walls, floor tinted by section, section borders and names, the grid."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QLineF, QRect, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from editor import palette
from editor.document import MissionDocument
from editor.scene.grid_arrays import WALL_CODE, argb, codes_array, image_from, tile_boundary_lines
from engine.mission.model import WALL, Level

S = 32.0  # scene units per square
MIN_GRID_PX = 5.0  # below this many screen pixels per square the grid would only grey the map
TILE = 32  # squares per side of a tile of section borders (TerrainItem)
# Tiles of borders one paint makes at most (about a millisecond each); the rest come at a later turn of the event
# loop, so the first look at a whole 200x200 level (49 tiles, after an Open or a fill) is not one long stall.
PAINT_TILES = 12
# A big level's names are first placed, and the borders a paint left out drawn, this long after the paint: a zero
# delay ran them in the same turn of the event loop as the paint, one longer stall.
LATER_MS = 10


def section_colours(level: Level, codes_grid: np.ndarray | None = None) -> dict[str, QColor]:
    """A tint per section code; codes are ordered so a file always paints the same way."""
    painted = set("".join(level.rows)) if codes_grid is None else {chr(c) for c in np.unique(codes_grid)}
    codes = sorted((painted - {WALL, "."}) | set(level.sections))
    return {c: QColor(palette.SECTION_TINTS[i % len(palette.SECTION_TINTS)]) for i, c in enumerate(codes)}


def section_label_squares(level: Level, avoid: frozenset[tuple[int, int]] = frozenset(),
                          ) -> dict[str, tuple[float, float]]:
    """Where to write each section's name: the section square nearest the section's centre of mass,
    preferring squares without a feature (`avoid`) so a name does not cover a counter."""
    codes = codes_array(level.rows, level.width)
    h, w = codes.shape
    blocked = np.zeros(codes.shape, dtype=bool)
    for x, y in avoid:
        if 0 <= y < h and 0 <= x < w:
            blocked[y, x] = True
    # Every section at once, grouped by one radix sort of the codes, where a pass per section made a 62-room
    # level of 200x200 cost 60 passes over 40,000 squares on every edit.
    flat = codes.ravel()
    keep = np.flatnonzero((flat != WALL_CODE) & (flat != ord(".")))
    if keep.size == 0:
        return {}
    order = np.argsort(flat[keep], kind="stable")  # row-major order kept within a section, as argmin had it
    squares = keep[order]
    cs = flat[squares]
    starts = np.flatnonzero(np.r_[True, cs[1:] != cs[:-1]])
    counts = np.diff(np.r_[starts, cs.size])
    xs, ys = squares % w, squares // w
    mx = np.repeat(np.add.reduceat(xs, starts) / counts, counts)
    my = np.repeat(np.add.reduceat(ys, starts) / counts, counts)
    cost = (xs - mx) ** 2 + (ys - my) ** 2 + blocked.ravel()[squares] * 1e6
    best = np.flatnonzero(cost == np.repeat(np.minimum.reduceat(cost, starts), counts))
    group = np.searchsorted(starts, best, side="right")
    first = best[np.r_[True, group[1:] != group[:-1]]]
    return {chr(int(cs[i])): (int(xs[i]), int(ys[i])) for i in first}


def occupied(doc: MissionDocument, level_id: str) -> frozenset[tuple[int, int]]:
    """Squares of a level holding a feature (or the bottom of a pitfall above)."""
    from editor.scene.feature_item import standing

    return frozenset(standing(doc).get(level_id, {}))


class TerrainItem(QGraphicsItem):
    """Only draws: reads the level from the document into pictures kept until the squares change.

    The squares are an image of one pixel per square scaled up without smoothing, the grid is one line per
    row and column, and the section borders are merged runs computed with numpy, kept per tile of TILE x TILE
    squares: an edit recomputes the borders of the tiles it touches, and a paint draws those of the tiles it
    exposes, so a stroke on a 200x200 map costs what it does on a 20x20 one.
    """

    def __init__(self, doc: MissionDocument, level_id: str) -> None:
        super().__init__()
        self.doc, self.level_id = doc, level_id
        self.show_grid = True
        self._full = True  # everything to recompute (sections declared, levels changed, first paint)
        self._dirty: QRect | None = None  # squares changed since the pictures were made
        self._cache_level: Level | None = None
        self._codes = np.zeros((0, 0), dtype=np.uint8)
        self._image = QImage()
        self._walls = QImage()
        self._tiles: dict[tuple[int, int], list[QLineF]] = {}
        self._stale_tiles: set[tuple[int, int]] = set()  # tiles whose borders must be made again
        self.unfinished = False  # the last edges_in left out tiles still to be made
        self._later = False  # a paint for the borders left out is on its way (_update_later)
        self._padded = np.zeros((0, 0), dtype=np.uint8)  # the codes bordered by one cell of wall
        self.setZValue(0)
        # Without this flag exposedRect is the whole item and one painted square repaints the map.
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)

    def level(self) -> Level | None:
        return self.doc.mission.level(self.level_id)

    def boundingRect(self) -> QRectF:
        lv = self.level()
        if lv is None:
            return QRectF()
        return QRectF(0, 0, lv.width * S, lv.height * S)

    def invalidate(self, region: QRect | None = None) -> None:
        """The squares of `region` changed (None: anything may have, recompute all) — the level scene calls this
        on the document's signals; the pictures are remade at the next paint."""
        if region is None:
            self._full = True
        else:
            self._dirty = QRect(region) if self._dirty is None else self._dirty.united(region)

    def _refresh_cache(self, lv: Level) -> None:
        """Every picture up to date, the borders of every tile included."""
        self._refresh_pictures(lv)
        self.make_tiles()

    def _refresh_pictures(self, lv: Level) -> None:
        """The squares' images up to date; the tiles whose borders changed are only marked (made when drawn or
        when the window is idle: make_tiles), so a first look at a level does not wait for all its borders."""
        shape = (lv.height, lv.width)
        if self._cache_level is not lv or self._codes.shape != shape:
            self._full = True
        if not self._full and self._dirty is None:
            return
        h, w = shape
        if self._full:
            self._codes = codes_array(lv.rows, lv.width)
            tiles = {(tx, ty) for tx in range(0, max(w, 1), TILE) for ty in range(0, max(h, 1), TILE)}
            self._tiles = {}
        else:
            assert self._dirty is not None
            # The changed squares and one more around them: a border between a square and its neighbour moves.
            x0, y0 = max(0, self._dirty.left() - 1), max(0, self._dirty.top() - 1)
            x1, y1 = min(w, self._dirty.right() + 2), min(h, self._dirty.bottom() + 2)
            self._codes[y0:y1] = codes_array(lv.rows[y0:y1], lv.width)
            tiles = {(tx, ty) for tx in range(x0 // TILE * TILE, x1, TILE) for ty in range(y0 // TILE * TILE, y1, TILE)}
        codes = self._codes
        lut = np.full(256, argb(palette.FLOOR), dtype=np.uint32)
        for code, colour in section_colours(lv, codes).items():
            lut[ord(code) & 0xFF] = argb(colour)
        lut[WALL_CODE] = argb(palette.WALL)
        self._image = image_from(lut[codes])
        # Walls again, alone: painted over the grid so grid lines show on floor only.
        walls = np.where(codes == WALL_CODE, np.uint32(argb(palette.WALL)), np.uint32(0))
        self._walls = image_from(walls)
        self._padded = np.pad(codes, 1, constant_values=WALL_CODE)
        self._stale_tiles |= tiles
        self._cache_level, self._full, self._dirty = lv, False, None

    def make_tiles(self, most: int | None = None) -> bool:
        """Make the borders of up to `most` (None: all) tiles marked by _refresh_pictures; True when none is left."""
        for key in sorted(self._stale_tiles)[:most]:
            self._make_tile(key)
        return not self._stale_tiles

    def _make_tile(self, key: tuple[int, int]) -> None:
        tx, ty = key
        h, w = self._codes.shape
        self._tiles[key] = tile_boundary_lines(self._padded, tx, ty, min(tx + TILE, w), min(ty + TILE, h), S)
        self._stale_tiles.discard(key)

    def edges_in(self, x0: int, y0: int, x1: int, y1: int, most: int | None = None) -> list[QLineF]:
        """The section borders of the tiles that squares [x0, x1) x [y0, y1) touch. Of those tiles still to be
        made, `most` (None: all) are made now and the others left out: `unfinished` then says so."""
        out: list[QLineF] = []
        self.unfinished = False
        for ty in range(y0 // TILE * TILE, y1, TILE):
            for tx in range(x0 // TILE * TILE, x1, TILE):
                if (tx, ty) in self._stale_tiles:
                    if most is not None and most <= 0:
                        self.unfinished = True
                        continue
                    self._make_tile((tx, ty))
                    most = None if most is None else most - 1
                out.extend(self._tiles.get((tx, ty), ()))
        return out

    def _update_later(self) -> None:
        """Draw again a moment later, in a turn of the event loop of its own: the borders a paint left out come
        then. Until then other paints (the same turn often paints twice) make no more of them."""
        scene = self.scene()
        if scene is not None and not self._later:
            self._later = True
            QTimer.singleShot(LATER_MS, scene, self._draw_rest)

    def _draw_rest(self) -> None:
        self._later = False
        self.update()

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        lv = self.level()
        if lv is None or lv.width == 0:
            return
        self._refresh_pictures(lv)
        exposed = option.exposedRect if option.exposedRect.isValid() else self.boundingRect()
        x0 = max(0, int(exposed.left() // S))
        y0 = max(0, int(exposed.top() // S))
        x1 = min(lv.width, int(exposed.right() // S) + 1)
        y1 = min(lv.height, int(exposed.bottom() // S) + 1)
        if x1 <= x0 or y1 <= y0:
            return
        target = QRectF(x0 * S, y0 * S, (x1 - x0) * S, (y1 - y0) * S)
        source = QRectF(x0, y0, x1 - x0, y1 - y0)
        p.save()
        # Nearest-pixel scaling keeps squares crisp; antialiasing would blur the seams between them.
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        p.drawImage(target, self._image, source)
        square_px = S * QStyleOptionGraphicsItem.levelOfDetailFromTransform(p.worldTransform())
        if self.show_grid and square_px >= MIN_GRID_PX:
            p.setPen(QPen(QColor(palette.GRID_LINE), 0))
            # Inner lines only: the map's outer edge is a section border (floor) or not drawn (wall).
            p.drawLines([QLineF(x * S, y0 * S, x * S, y1 * S) for x in range(max(x0, 1), min(x1, lv.width - 1) + 1)]
                        + [QLineF(x0 * S, y * S, x1 * S, y * S) for y in range(max(y0, 1), min(y1, lv.height - 1) + 1)])
            p.drawImage(target, self._walls, source)
        p.restore()
        # Heavy borders where the section changes: the flamer and psychic storm hit whole sections.
        edge = QPen(QColor(palette.SECTION_EDGE), 3)
        edge.setCapStyle(Qt.PenCapStyle.FlatCap)
        p.setPen(edge)
        if square_px < MIN_GRID_PX * 2:
            # Zoomed out, thousands of borders a fraction of a pixel wide: drawn aliased they look the same and
            # cost a quarter (a whole 200x200 level redrawn in 30 ms instead of 60 in a real window).
            p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        p.drawLines(self.edges_in(x0, y0, x1, y1, 0 if self._later else PAINT_TILES))
        if self.unfinished:
            self._update_later()


class SectionNamesItem(QGraphicsItem):
    """Section codes and names on pale tags, above the features so a counter never hides a room's name."""

    def __init__(self, doc: MissionDocument, level_id: str) -> None:
        super().__init__()
        self.doc, self.level_id = doc, level_id
        self._stale = True  # the level's squares or features changed since the names were placed
        self._placed = False
        self._labels: dict[str, tuple[float, float]] = {}
        self.tokens: frozenset[tuple[int, int]] = frozenset()
        # Above the replay's tokens too, which also steer the names off their squares (set_tokens).
        self.setZValue(61)

    def boundingRect(self) -> QRectF:
        lv = self.doc.mission.level(self.level_id)
        return QRectF() if lv is None else QRectF(-S, 0, (lv.width + 2) * S, lv.height * S)

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        lv = self.doc.mission.level(self.level_id)
        if lv is None:
            return
        if not self._placed:
            if lv.width * lv.height <= PAINT_TILES * TILE * TILE or self.scene() is None:
                self.labels()
            else:
                # A big level's names are placed a moment later (a look at every feature and section), in a
                # turn of the event loop of their own: the level's first picture comes sooner, without them.
                QTimer.singleShot(LATER_MS, self.scene(), self._place_later)
        # Otherwise the names stay where they were until the level scene's timer, once a burst of edits is over,
        # places them again (LevelScene._check_labels): a stroke does not place 60 names on every step.
        self._paint_names(p, lv)

    def _place_later(self) -> None:
        if not self._placed:
            self.labels()
            self.update()

    def invalidate(self) -> None:
        """The level's squares or features changed: place the names again when next asked (not on every edit of
        another level, as keying on the document's revision did)."""
        self._stale = True

    def labels(self) -> dict[str, tuple[float, float]]:
        """Where each section's name goes (section_label_squares), placed again only after a change."""
        lv = self.doc.mission.level(self.level_id)
        if self._stale and lv is not None:
            self._placed = True
            self._labels = section_label_squares(lv, occupied(self.doc, self.level_id) | self.tokens)
            self._stale = False
        return self._labels

    def set_tokens(self, squares: frozenset[tuple[int, int]]) -> None:
        """Squares models stand on (a replay): names move off them when the section has room elsewhere."""
        if squares != self.tokens:
            self.tokens = squares
            self._stale = True
            self.update()

    def _paint_names(self, p: QPainter, lv: Level) -> None:
        font = QFont()
        font.setPixelSize(int(S * 0.34))
        font.setBold(True)
        p.setFont(font)
        metrics = p.fontMetrics()
        back = QColor("#fbf8f0")
        back.setAlpha(215)
        for code, (x, y) in self._labels.items():
            sec = lv.sections.get(code)
            name = sec.name if sec and sec.name else ""
            text = f"{code}" + (f" · {name}" if name else "")
            # A pale tag behind the name keeps it legible where a narrow corridor puts it over walls.
            w = metrics.horizontalAdvance(text) + S * 0.3
            # Straddle the top edge when a wall is above: the tag then covers wall, not counters.
            top = y * S - S * 0.21 if lv.cell(int(x), int(y) - 1) == WALL else y * S + S * 0.04
            box = QRectF((x + 0.5) * S - w / 2, top, w, S * 0.42)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(back)
            p.drawRoundedRect(box, S * 0.1, S * 0.1)
            p.setPen(QColor(palette.SECTION_LABEL))
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


class GhostBelowItem(QGraphicsItem):
    """The level below, drawn faintly over this one so pitfall bottoms and ladder ends line up."""

    def __init__(self, doc: MissionDocument, level_id: str) -> None:
        super().__init__()
        self.doc, self.level_id = doc, level_id
        self._cache: tuple[int, Level | None] = (-1, None)
        self._image = QImage()
        self.setZValue(5)
        self.setVisible(False)

    def boundingRect(self) -> QRectF:
        below = self.doc.mission.level_below(self.level_id)
        if below is None:
            return QRectF()
        return QRectF(0, 0, below.width * S, below.height * S)

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        below = self.doc.mission.level_below(self.level_id)
        if below is None or below.width == 0:
            return
        if self._cache != (self.doc.revision, below):
            # How faint: the item's opacity (Levels panel). Three pixels per square, only the middle one set:
            # scaled up, a small dot in each floor square.
            codes = codes_array(below.rows, below.width)
            dots = np.zeros((codes.shape[0] * 3, codes.shape[1] * 3), dtype=np.uint32)
            dots[1::3, 1::3] = np.where(codes != WALL_CODE, np.uint32(argb(palette.GHOST_BELOW)), np.uint32(0))
            self._image = image_from(dots)
            self._cache = (self.doc.revision, below)
        p.save()
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
        p.drawImage(QRectF(0, 0, below.width * S, below.height * S), self._image)
        p.restore()
