"""Squares the Marine player looks for on the board: dead ends (#11), choke points by an entry (#9), open
lines to watch (#1)."""

from __future__ import annotations

from engine.ai.situation import Situation


def _dead_ends(sit: Situation) -> list[int]:
    """The squares with one open side (walls on three: attacked only from the front)."""
    steps = sit.gt.mt.steps
    out: list[int] = []
    for s, nb in enumerate(sit.board.nbr):
        if steps[s] and sum(1 for d in (0, 2, 4, 6) if nb[d] >= 0 and steps[nb[d]]) == 1:
            out.append(s)
    return out


def _chokes(sit: Situation, reach: int) -> list[int]:
    """The squares of a one-square-wide corridor (open in front and behind, walls on both sides) within `reach`
    squares of an entry area on their level."""
    b = sit.board
    steps = sit.gt.mt.steps
    nbr = b.nbr
    out: list[int] = []
    for e in b.entries.values():
        lvl = e // b.plane
        for s, nb in enumerate(nbr):
            if s // b.plane != lvl or not steps[s] or s in b.door_at or b.rng(s, e) > reach:
                continue
            open_sides = [d for d in (0, 2, 4, 6) if nb[d] >= 0 and steps[nb[d]]]
            if len(open_sides) == 2 and open_sides[1] - open_sides[0] == 4:
                out.append(s)
    return out


def _line(sit: Situation, s: int, f: int, most: int = 6) -> int:
    """How many squares lie straight ahead of square s facing f (up to `most`) to a wall, a closed door counting
    as one (a Genestealer opening it stands in the line): 0 is a wall in front."""
    nbr = sit.board.nbr
    closed = sit.state.closed
    d = f * 2
    n = 0
    t = nbr[s][d]
    while t >= 0 and n < most:
        n += 1
        if t in closed:
            break
        t = nbr[t][d]
    return n
