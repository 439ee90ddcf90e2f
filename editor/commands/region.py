"""Region edits built from child commands: delete, paste, move, rotate a selection; rotate the whole map."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QRect
from PySide6.QtGui import QRegion, QUndoCommand

from editor.commands.base import CompoundCommand
from editor.commands.features import AddFeatureCommand, RemoveFeatureCommand
from editor.commands.levels import ReplaceMissionCommand, SetSectionCommand
from editor.commands.terrain import PaintTerrainCommand
from editor.document import MissionDocument
from editor.features import (
    feature_list,
    features_in,
    free_section_code,
    iter_features,
    map_ends,
    moved,
    next_pitfall_letter,
    places,
)
from engine.mission.model import FACINGS, UNSECTIONED, WALL, Mission, Section, Square

ROTATE_CW = {f: FACINGS[(i + 1) % 4] for i, f in enumerate(FACINGS)}


Area = QRect | QRegion  # a selection: a rectangle, or any set of squares (added to and cut from)


def rect_squares(rect: QRect) -> set[tuple[int, int]]:
    return {(x, y) for x in range(rect.left(), rect.right() + 1) for y in range(rect.top(), rect.bottom() + 1)}


def area_squares(area: Area) -> set[tuple[int, int]]:
    """The squares of a rectangle or region."""
    if isinstance(area, QRect):
        return rect_squares(area)
    return {sq for r in area for sq in rect_squares(r)}


def bounds(area: Area) -> QRect:
    return area if isinstance(area, QRect) else area.boundingRect()


def region_of(squares: set[tuple[int, int]]) -> QRegion:
    """The region made of these squares (one rectangle per run of a row)."""
    region = QRegion()
    for y in sorted({y for _, y in squares}):
        xs = sorted(x for x, yy in squares if yy == y)
        start = prev = xs[0]
        for x in [*xs[1:], None]:
            if x is not None and x == prev + 1:
                prev = x
                continue
            region = region.united(QRect(start, y, prev - start + 1, 1))
            if x is not None:
                start = prev = x
    return region


Cells = dict[tuple[int, int], str]


def copy_region(doc: MissionDocument, level: str, area: Area) -> tuple[Cells, list[tuple[str, Any]]]:
    """Terrain and features of a region, relative to its bounding top-left square (features deep-copied)."""
    lv = doc.level(level)
    rect = bounds(area)
    inside = area_squares(area)
    cells = {(x - rect.left(), y - rect.top()): lv.cell(x, y) for x, y in inside}
    feats = []
    for kind, obj in features_in(doc.mission, level, inside):
        if not all(p[0] == level and (p[1], p[2]) in inside for p in places(kind, obj)):
            continue  # half a ladder cannot be pasted on its own
        feats.append((kind, copy.deepcopy(moved(obj, level, -rect.left(), -rect.top(), kind=kind))))
    return cells, feats


def delete_region(doc: MissionDocument, level: str, area: Area, text: str = "Delete selection",
                  parent: CompoundCommand | None = None) -> QUndoCommand:
    """Remove the features inside the region and turn its squares to wall."""
    cmd = CompoundCommand(text, parent)
    squares = area_squares(area)
    for kind, obj in features_in(doc.mission, level, squares):
        RemoveFeatureCommand(doc, kind, obj, cmd)
    PaintTerrainCommand(doc, level, dict.fromkeys(squares, WALL), parent=cmd)
    return cmd


def section_declarations(doc: MissionDocument, level: str, cells: Cells, sections: dict[str, Section],
                         parent: CompoundCommand) -> Cells:
    """Declare on level the sections that pasted cells use (copied from their own level): a code the level
    lacks is declared as it was; one the level declares otherwise gets a free code. Returns the cells to paint."""
    declared = doc.level(level).sections
    used = set(declared)
    renamed: dict[str, str] = {}
    for code in sorted({c for c in cells.values() if c not in (WALL, UNSECTIONED)}):
        source = sections.get(code)
        if source is None or declared.get(code) == source:
            continue
        new = code if code not in used else free_section_code(used)
        used.add(new)
        renamed[code] = new
        SetSectionCommand(doc, level, new, dataclasses.replace(source), parent)
    return {sq: renamed.get(c, c) for sq, c in cells.items()} if renamed else cells


def _fresh_ids(doc: MissionDocument, kind: str, obj: Any, taken: dict[str, set[str]]) -> Any:
    """Give a pasted feature an id (or pitfall letter) nobody uses yet."""
    if kind == "pitfalls":
        return dataclasses.replace(obj, letter=next_pitfall_letter(doc.mission))
    ident = getattr(obj, "id", None)
    if ident is None:
        return obj
    used = taken.setdefault(kind, {o.id for o in feature_list(doc.mission, kind)})
    if ident in used:
        prefix = ident.rstrip("0123456789") or "F"
        n = 1
        while f"{prefix}{n}" in used:
            n += 1
        ident = f"{prefix}{n}"
    used.add(ident)
    return dataclasses.replace(obj, id=ident)


def paste_region(doc: MissionDocument, level: str, x: int, y: int, cells: dict[tuple[int, int], str],
                 features: list[tuple[str, Any]], text: str = "Paste", parent: CompoundCommand | None = None,
                 keep_ids: bool = False, sections: dict[str, Section] | None = None) -> QUndoCommand:
    """Paint copied terrain at (x, y) on a level (any level) and add the copied features there; sections are the
    declarations of the copied level, brought along where this level lacks them."""
    cmd = CompoundCommand(text, parent)
    lv = doc.level(level)
    if sections:
        cells = section_declarations(doc, level, cells, sections, cmd)
    PaintTerrainCommand(doc, level, {(x + dx, y + dy): c for (dx, dy), c in cells.items()}, parent=cmd)
    taken: dict[str, set[str]] = {}
    for kind, obj in features:
        src_level = places(kind, obj)[0][0]
        new = moved(copy.deepcopy(obj), src_level, x, y, new_level=level, kind=kind)
        if not all(0 <= px < lv.width and 0 <= py < lv.height for _, px, py in places(kind, new)):
            continue
        if not keep_ids:
            new = _fresh_ids(doc, kind, new, taken)
        AddFeatureCommand(doc, kind, new, cmd)
    return cmd


def move_region(doc: MissionDocument, level: str, area: Area, dx: int, dy: int) -> QUndoCommand:
    """Cut the region and paste it (dx, dy) away on the same level; features keep their ids."""
    cells, feats = copy_region(doc, level, area)
    rect = bounds(area)
    cmd = CompoundCommand("Move selection")
    delete_region(doc, level, area, parent=cmd)
    paste_region(doc, level, rect.left() + dx, rect.top() + dy, cells, feats, parent=cmd, keep_ids=True)
    return cmd


def rotate_region(doc: MissionDocument, level: str, area: Area) -> QUndoCommand:
    """Turn the selection 90° clockwise about its bounding top-left corner (width and height swap)."""
    cells, feats = copy_region(doc, level, area)
    rect = bounds(area)
    h = rect.height()
    turned = {(h - 1 - y, x): c for (x, y), c in cells.items()}
    turned_feats = [(k, _rotate_feature(k, o, lambda _level: h)) for k, o in feats]
    cmd = CompoundCommand("Rotate selection")
    delete_region(doc, level, area, parent=cmd)
    paste_region(doc, level, rect.left(), rect.top(), turned, turned_feats, parent=cmd, keep_ids=True)
    return cmd


def _rotate_xy(x: int, y: int, h: int) -> tuple[int, int]:
    return h - 1 - y, x


def _rotate_feature(kind: str, obj: Any, height: Callable[[str], int]) -> Any:
    """The feature turned 90° clockwise, each square with the height of its own level (a ladder's ends may be on
    levels of different sizes), its side or facing turned too."""
    def turn(sq: Square) -> Square:
        nx, ny = _rotate_xy(sq.x, sq.y, height(sq.level))
        return Square(sq.level, nx, ny)

    obj = map_ends(kind, obj, turn)
    changes: dict[str, Any] = {}
    for attr in ("side", "facing"):
        if hasattr(obj, attr):
            changes[attr] = ROTATE_CW[getattr(obj, attr)]
    return dataclasses.replace(obj, **changes) if changes else obj


def rotated_mission(m: Mission) -> Mission:
    """The whole mission turned 90° clockwise: every level, every feature, every facing and side."""
    out = copy.deepcopy(m)
    heights = {lv.id: lv.height for lv in out.levels}
    for lv in out.levels:
        h, w = lv.height, lv.width
        lv.rows = ["".join(lv.cell(x, h - 1 - y2) for y2 in range(h)) for x in range(w)]
    for kind, obj in list(iter_features(out)):
        lst = feature_list(out, kind)
        i = next(j for j, o in enumerate(lst) if o is obj)
        lst[i] = _rotate_feature(kind, obj, lambda level: heights.get(level, 0))
    return out


def rotate_map(doc: MissionDocument) -> QUndoCommand:
    """Command turning the whole map 90° clockwise."""
    return ReplaceMissionCommand(doc, rotated_mission(doc.mission), "Rotate map")

