"""Whole-level pictures computed with numpy, so a 200x200 map paints in a few calls instead of 40,000.

A level's characters become a (height, width) array of byte codes; a colour table turns that into an image of
one pixel per square, which the painter scales up without smoothing (each pixel becomes a crisp square); the
places where neighbouring squares differ become merged line runs for the section borders and issue outlines.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QLineF
from PySide6.QtGui import QColor, QImage

from engine.mission.model import WALL

WALL_CODE = ord(WALL)


def codes_array(rows: list[str], width: int) -> np.ndarray:
    """(height, width) uint8 array of the rows' characters; ragged rows read as wall past their end."""
    if not rows or width <= 0:
        return np.full((len(rows), max(width, 0)), WALL_CODE, dtype=np.uint8)
    text = "".join(row.ljust(width, WALL)[:width] for row in rows)
    return np.frombuffer(text.encode("latin-1", "replace"), dtype=np.uint8).reshape(len(rows), width).copy()


def argb(colour: QColor | str, alpha: int | None = None) -> int:
    """A colour as the 0xAARRGGBB integer QImage's 32-bit formats store."""
    c = QColor(colour)
    if alpha is not None:
        c.setAlpha(alpha)
    return int(c.rgba())


def image_from(values: np.ndarray) -> QImage:
    """An ARGB32 (premultiplied alpha not used) image of one pixel per array cell; the image owns a copy."""
    data = np.ascontiguousarray(values, dtype=np.uint32)
    h, w = data.shape
    image = QImage(data.data, w, h, w * 4, QImage.Format.Format_ARGB32)
    return image.copy()  # detach from the numpy buffer, which Python may free


def boundary_lines(labels: np.ndarray, scale: float, skip: int | None = None,
                   origin: tuple[int, int] = (0, 0)) -> list[QLineF]:
    """Lines (scene units, `scale` per cell) between orthogonal neighbours whose labels differ.

    The array is bordered by `skip` (or 0) so cells on the edge get their outer side too; a side between two
    cells both equal to `skip` is never drawn. Collinear unit sides are merged into one line each. Cell (0, 0)
    of the array is square `origin` of the level.
    """
    ox, oy = origin
    fill = 0 if skip is None else skip
    padded = np.pad(labels, 1, constant_values=fill)
    lines: list[QLineF] = []
    # Vertical sides: between column i-1 and i of the padded array, i = 1..w+1 -> scene x = (i - 1) * scale.
    vert = padded[1:-1, :-1] != padded[1:-1, 1:]  # (h, w+1)
    for col, start, end in _runs(vert.T):
        x = (col + ox) * scale
        lines.append(QLineF(x, (start + oy) * scale, x, (end + oy) * scale))
    horiz = padded[:-1, 1:-1] != padded[1:, 1:-1]  # (h+1, w)
    for row, start, end in _runs(horiz):
        y = (row + oy) * scale
        lines.append(QLineF((start + ox) * scale, y, (end + ox) * scale, y))
    return lines


def tile_boundary_lines(padded: np.ndarray, x0: int, y0: int, x1: int, y1: int, scale: float) -> list[QLineF]:
    """The sides of `boundary_lines` that belong to the tile of squares [x0, x1) x [y0, y1): the left and top
    side of each of its squares, and the right (bottom) side too on the map's last column (row).

    `padded` is the level's codes bordered by one cell (np.pad of codes_array): tiles together draw every side
    once, so an edit recomputes only the tiles it touches.
    """
    h, w = padded.shape[0] - 2, padded.shape[1] - 2
    xe, ye = x1 + (x1 == w), y1 + (y1 == h)
    lines: list[QLineF] = []
    # Side at x between squares x-1 and x: padded columns x and x+1.
    vert = padded[y0 + 1:y1 + 1, x0:xe] != padded[y0 + 1:y1 + 1, x0 + 1:xe + 1]
    for col, start, end in _runs(vert.T):
        x = (col + x0) * scale
        lines.append(QLineF(x, (start + y0) * scale, x, (end + y0) * scale))
    horiz = padded[y0:ye, x0 + 1:x1 + 1] != padded[y0 + 1:ye + 1, x0 + 1:x1 + 1]
    for row, start, end in _runs(horiz):
        y = (row + y0) * scale
        lines.append(QLineF((start + x0) * scale, y, (end + x0) * scale, y))
    return lines


def _runs(mask: np.ndarray) -> list[tuple[int, int, int]]:
    """(row, start, end) of every run of True along each row of a 2-D boolean array."""
    if mask.size == 0:
        return []
    m = mask.astype(np.int8)
    edges = np.diff(np.pad(m, ((0, 0), (1, 1))), axis=1)
    starts = np.nonzero(edges == 1)
    ends = np.nonzero(edges == -1)
    # Row-major order of np.nonzero pairs the n-th start with the n-th end.
    return list(zip(starts[0].tolist(), starts[1].tolist(), ends[1].tolist(), strict=True))
