"""The Marine player's scoring terms (docs/ai.md, Marines): each a small function of one playbook
consideration, weighed by a `MarineWeights` field."""

from __future__ import annotations

from engine.ai.marine_squad import WATCH_COST, _Route, _Squad
from engine.ai.situation import Situation
from engine.ai.weights import MarineWeights
from engine.rules.board import Board
from engine.rules.game import MARINE_AP
from engine.rules.pieces import Piece


# -- the scoring terms of a move (each weighed by a MarineWeights field) ----------------------------------------
def term_progress(w: MarineWeights, here: int, v: int) -> float:
    """Route gained (#10: keep moving to the objective)."""
    return w.progress * (here - v)


def term_ap(w: MarineWeights, cost: int) -> float:
    """AP spent, the prepared step included (a turn then a step costs 2, a step ahead 1)."""
    return w.ap_cost * cost


def term_side_doors(w: MarineWeights, sit: Situation, t: int) -> float:
    """Closed side doors beside square t: where a Genestealer bursts in (#12)."""
    nb = sit.board.nbr[t]
    closed = sit.state.closed
    return w.side_door * ((nb[0] in closed) + (nb[2] in closed) + (nb[4] in closed) + (nb[6] in closed))


def term_diagonal(w: MarineWeights, d: int) -> float:
    """A diagonal step, where a straight one is as short (straight steps keep the squad's file)."""
    return w.diagonal if d & 1 else 0.0


def term_march(w: MarineWeights, r: _Route, v: int) -> float:
    """The marching order (#3): a step past the front Marine to route distance v; the best melee Marine is
    welcome in front (`march_melee`), the flamer is not (`march_flamer`, more than a square of progress is
    worth: he lets the others by and travels in the middle)."""
    if not r.kit or not v < r.front <= r.here:
        return 0.0
    return w.march_melee if r.kit > 0 else -w.march_flamer


def term_file(w: MarineWeights, b: Board, t: int, guide: int) -> float:
    """Squares off the route of the Marine ahead (the squad must not split in a room)."""
    if guide < 0 or t // b.plane != guide // b.plane:
        return 0.0
    off: int = max(abs(b.xs[t] - b.xs[guide]), abs(b.ys[t] - b.ys[guide]))
    return w.keep_file * min(off, 4)


def term_clock(w: MarineWeights, sq: _Squad, pc: Piece, dist: int, left: int) -> float:
    """The squares the last Marine would fall short of the goal by the turn limit if he kept the AP of a watch
    every turn (a passive last Marine loses on the clock; only moving can win), plus `clock_slack`; above 0 he
    dashes. Squads keep their schedule: one Marine on watch does not slow the others."""
    if len(sq.order) != 1:
        return 0.0
    pace = MARINE_AP - WATCH_COST
    reach = max(0, sq.sit.state.ap_budget(pc, cp=0) - WATCH_COST) + pace * max(left - 1, 0)
    return dist + w.clock_slack - reach


def term_flank_exposure(w: MarineWeights, sq: _Squad, s: int) -> int:
    """Doors off every Marine's way within `flank_watch` squares of square s with an enemy near them (within half
    the threat radius): a squad crossing a room there has more than its leader and rear guard on overwatch (#12:
    Genestealers burst in from the side doors)."""
    reach = int(w.flank_watch)
    if reach <= 0:
        return 0
    b = sq.sit.board
    lvl = s // b.plane
    rng = b.rng
    n = 0
    for t in b.door_at:
        if t // b.plane == lvl and rng(s, t) <= reach and sq.tm.within(t, sq.radius / 2) and not sq.on_way(t):
            n += 1
    return n
