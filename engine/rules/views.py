"""Walls-only views: the squares a Marine's pose might see, each with its static line of sight.

A view answers one square at a time (`get`, `in`), or which of some squares it holds (`among`, `meets`): the
rules ask about the squares where something stands, never for the whole arc. A small arc is drawn whole once, as
a plain dict (floor square -> its line, for the squares whose line no wall blocks, in square order: C-level
lookups and set operations, the samples' case); a large one is an `OpenView`, which works out each square's line
when asked, so on an open 200 x 200 level a view costs the squares asked about, not the 20,000 of its arc. Both
give the same answer for every square (tests/engine/test_rules_views.py).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.rules.board import Board

# A static LOS line: None (always blocked) or a tuple of checks; an int is one square that must be clear, a
# pair (a, b) is a corner the line passes exactly through, blocked only if both squares are obstructed.
Line = tuple[int | tuple[int, int], ...] | None


class OpenView:
    """A view too large to draw whole: whether a square is in it, and its line, are worked out when asked (the
    arc's test, then the Board's line, which keeps the lines asked for within its budget)."""

    __slots__ = ("_board", "_level", "_s", "_wide", "facing")

    def __init__(self, board: Board, s: int, facing: int, wide: bool) -> None:
        self._board = board
        self._s = s
        self._level = s // board.plane
        # A wide view ([2e]) holds every square but the rear arc's; a front one the front arc's only.
        self._wide = wide
        self.facing = (facing + 2) % 4 if wide else facing

    def get(self, t: int, default: None = None) -> Line:
        """t's line if t is in this view, else None."""
        b = self._board
        s = self._s
        if t // b.plane != self._level or t == s or not b.floor[t]:
            return None
        if b.in_arc(s, self.facing, t) == self._wide:  # (a wide view's facing is its rear arc's)
            return None
        return b.line(s, t)

    def __contains__(self, t: object) -> bool:
        return type(t) is int and self.get(t) is not None

    def among(self, squares: Collection[int]) -> set[int]:
        """The squares of `squares` in this view (a line worked out for each one on this level)."""
        get = self.get
        return {t for t in squares if get(t) is not None}

    def meets(self, squares: Collection[int]) -> bool:
        """Some square of `squares` is in this view."""
        get = self.get
        return any(get(t) is not None for t in squares)

    def __iter__(self) -> Iterator[int]:
        """Every square of the view, in square order: the whole arc's lines, for tests and tools only."""
        b = self._board
        base = self._level * b.plane
        get = self.get
        return iter([t for t in range(base, base + b.plane) if get(t) is not None])


View = dict[int, Line] | OpenView


def among(view: View, squares: Collection[int]) -> set[int]:
    """The squares of `squares` in the view."""
    return view.among(squares) if isinstance(view, OpenView) else view.keys() & squares


def meets(view: View, squares: Collection[int]) -> bool:
    """Some square of `squares` is in the view."""
    return view.meets(squares) if isinstance(view, OpenView) else not view.keys().isdisjoint(squares)


def weight(view: View) -> int:
    """What a memo keeping the view holds, in squares: a drawn view's squares, nothing of an open view's arc."""
    return 1 if isinstance(view, OpenView) else len(view)
