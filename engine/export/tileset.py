"""The terrain tileset written beside a Tiled map: one tile per terrain character, drawn without Qt."""

from __future__ import annotations

from engine.export.colours import DEFAULT, Colours
from engine.export.png import RGB, encode_png, hex_rgb
from engine.mission.model import UNSECTIONED, WALL, Mission

TILE = 32


def terrain_chars(m: Mission) -> list[str]:
    """Every terrain character the mission uses: wall, plain floor, then section codes in sorted order."""
    codes = sorted({c for lv in m.levels for row in lv.rows for c in row} - {WALL, UNSECTIONED})
    return [WALL, UNSECTIONED, *codes]


def tile_colour(char: str, index: int, pal: Colours = DEFAULT) -> str:
    """The fill colour of one tile of the tileset."""
    if char == WALL:
        return pal.WALL
    if char == UNSECTIONED:
        return pal.FLOOR
    # Tiles 0 and 1 are wall and plain floor, so section k (from 0) is tile k + 2.
    return pal.SECTION_TINTS[(index - 2) % len(pal.SECTION_TINTS)]


def tileset_png(chars: list[str], pal: Colours = DEFAULT) -> bytes:
    """A one-row PNG strip: tile i shows chars[i] as a filled square with a grid line and a section mark."""
    width, height = TILE * len(chars), TILE
    grid = hex_rgb(pal.GRID_LINE)
    mark = hex_rgb(pal.SECTION_EDGE)
    rows: list[list[RGB]] = [[(0, 0, 0)] * width for _ in range(height)]
    for i, ch in enumerate(chars):
        fill = hex_rgb(tile_colour(ch, i, pal))
        for y in range(TILE):
            for x in range(TILE):
                edge = x == 0 or y == 0 or x == TILE - 1 or y == TILE - 1
                rows[y][i * TILE + x] = grid if edge and ch != WALL else fill
        if ch not in (WALL, UNSECTIONED):
            _dots(rows, i * TILE, i, mark)
    return encode_png(width, height, rows)


def _dots(rows: list[list[RGB]], x0: int, index: int, colour: RGB) -> None:
    """A small count of dots in the corner (index-1 of them, up to 8) so sections differ even in greyscale."""
    for k in range(min(index - 1, 8)):
        cx, cy = x0 + 4 + (k % 4) * 4, 4 + (k // 4) * 4
        for dy in range(2):
            for dx in range(2):
                rows[cy + dy][cx + dx] = colour
