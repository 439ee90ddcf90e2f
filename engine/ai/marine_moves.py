"""A Marine's moves as candidates -> scores -> choice: the rules list them (`engine.rules.moves`), the terms
(marine_terms.py) score them, the best one that leaves the AP he keeps is taken."""

from __future__ import annotations

from typing import Any

from mypy_extensions import trait

from engine.ai.marine_routes import MarineRoutes
from engine.ai.marine_squad import _Route, _Squad
from engine.ai.marine_terms import term_ap, term_diagonal, term_file, term_march, term_progress, term_side_doors
from engine.ai.situation import Situation
from engine.ai.tables import INF
from engine.rules.actions import Action
from engine.rules.board import DIR_VEC, FACE_VEC
from engine.rules.moves import DOOR_COST, LINK_VERBS, Move, piece_moves
from engine.rules.pieces import Piece


@trait
class MarineMoves(MarineRoutes):
    """The scoring of the moves the rules offer."""

    _scorers: dict[str, Any]

    def _move(self, pc: Piece, sq: _Squad, ap: int) -> Action | None:
        """The best of the moves the rules offer him (candidates → scores → choice), or None to stay."""
        r = self._route(pc, sq)
        if r is None:
            return None
        bound = self._bound(pc, r, sq, ap)
        if bound is None:
            return None  # no move could score: the rules need not be asked
        sit = sq.sit
        st = sit.state
        of = sit.of
        score = self._scorers
        best: tuple[float, Action] | None = None
        # His steps first; the other moves only when one of them could still beat the best step.
        for verbs in (_STEP_VERBS, _OTHER_VERBS):
            for m in piece_moves(st, pc.id, of, verbs):
                v = score[m.verb](pc, m, r, sq, ap)
                if v is not None and v > 0 and (best is None or v > best[0]):  # (staying put scores 0)
                    best = (v, m.action)
            if best is not None and best[0] >= bound:
                break
        return best[1] if best is not None else None

    def _bound(self, pc: Piece, r: _Route, sq: _Squad, ap: int) -> float | None:
        """The most a move other than a step could score (every term but progress subtracts), or None when no
        move at all could score: he cannot pay the cheapest move and keep his reserve, or no free square one
        step (or a ladder) away gains route within his limits and no door he could close is near."""
        if ap - sq.cheapest(pc) < r.reserve:
            return None
        st = sq.sit.state
        w = self.w
        D = r.D
        here, allowed = r.here, r.allowed
        occ = st.occ
        gain = 0
        for t in sq.sit.gt.mt.steps[pc.sq]:
            if allowed <= D[t] < here and here - D[t] > gain and t not in occ:
                gain = here - D[t]
        bound = w.progress * gain - 2 * w.ap_cost if gain else -INF  # a turn (or a door) and the step after it
        sit = sq.sit
        lad = sit.state.feat.ladder.get(pc.sq)
        if lad is not None and allowed <= D[lad] < here:
            bound = max(bound, w.progress * (here - D[lad]) - w.ap_cost)
        for t in sit.gt.link_dest.get(pc.sq, ()):
            if allowed <= D[t] < here:
                bound = max(bound, w.progress * (here - D[t]) - w.ap_cost)
        if w.close_flank > 0 and sit.enemies and sit.board.doors_near(pc.sq, pc.facing):
            bound = max(bound, w.close_flank)
        return None if bound == -INF and not gain else bound

    # -- scoring terms of a move: each returns the move's score, or None when it is not a candidate -------------
    def _score_step(self, pc: Piece, m: Move, r: _Route, sq: _Squad, ap: int) -> float | None:
        t = m.to
        if m.jump or t in sq.sit.state.flames:
            return None
        v = r.D[t]
        if v >= r.here or v < r.allowed or ap - m.cost < r.reserve:
            return None
        if _AHEAD[pc.facing][m.d] and not r.back_ok:
            return None  # only the rear guard walks backwards (still facing the threat); the others turn first
        return self._value(t, v, m.cost, r, sq.sit) - term_diagonal(self.w, m.d)

    def _score_turn(self, pc: Piece, m: Move, r: _Route, sq: _Squad, ap: int) -> float | None:
        """A turn is worth the forward step it prepares, priced for the new facing, if that step follows now.

        The steps are the rules' own from his square for the new facing (`Game.steps`, in direction order; a
        diagonal squeezed between blocked squares is left out by `diag_ok`), priced by `step_cost`: the step the
        rules will offer once the turn is made (engine.rules.moves: a plan of two actions)."""
        sit = sq.sit
        st = sit.state
        f = m.facing
        step_cost = st.step_cost
        occ, flames, closed = st.occ, st.flames, st.closed
        best: float | None = None
        for d, t, _ap in st.game.steps(pc.sq, f, "marine"):
            if _AHEAD[f][d] or t in occ or t in flames or t in st.barriers:
                continue
            v = r.D[t]
            if v >= r.here or v < r.allowed:
                continue
            c = step_cost(pc, d, t, f)
            if c is None or not st.diag_ok(pc.sq, d):
                continue
            door = t in closed
            c += DOOR_COST if door else 0
            if ap - m.cost - c < r.reserve:
                continue
            val = self._value(t, v, m.cost + c, r, sit) - term_diagonal(self.w, d) - (self.w.open_door if door else 0.0)
            if best is None or val > best:
                best = val
        return best

    def _score_open(self, pc: Piece, m: Move, r: _Route, sq: _Squad, ap: int) -> float | None:
        """Opening a door on the way: worth the step through it, less `open_door` (#12)."""
        t = m.door_sq
        v = r.D[t]
        if v >= r.here or v < r.allowed or ap - m.cost < r.reserve:
            return None
        return self._value(t, v, m.cost + 1, r, sq.sit) - self.w.open_door

    def _score_climb(self, pc: Piece, m: Move, r: _Route, sq: _Squad, ap: int) -> float | None:
        v = r.D[m.to]
        if v >= r.here or v < r.allowed or ap - m.cost < r.reserve:
            return None
        return term_progress(self.w, r.here, v) - term_ap(self.w, m.cost)

    def _score_close(self, pc: Piece, m: Move, r: _Route, sq: _Squad, ap: int) -> float | None:
        """Closing a door off every Marine's way cuts an approach on the flank (#12)."""
        if self.w.close_flank <= 0 or not sq.sit.enemies or ap - m.cost < r.reserve:
            return None
        if sq.on_way(m.door_sq):
            return None
        return self.w.close_flank

    def _value(self, t: int, v: int, cost: int, r: _Route, sit: Situation) -> float:
        """A step's worth onto square t (route distance v) for `cost` AP: the sum of its terms."""
        w = self.w
        val = (
            term_progress(w, r.here, v)
            - term_ap(w, cost)
            - term_side_doors(w, sit, t)
            - term_file(w, sit.board, t, r.guide)
        )
        return val + term_march(w, r, v) if r.kit else val  # (the marching order binds the flamer and fighters)


_STEP_VERBS = ("move",)


_OTHER_VERBS = ("turn", "open", "close", "climb", *LINK_VERBS)


# _AHEAD[facing][d]: 0 when a step in direction d goes forward for that facing (positive dot product), else 1.
_AHEAD = [tuple(0 if DIR_VEC[d][0] * fx + DIR_VEC[d][1] * fy > 0 else 1 for d in range(8)) for fx, fy in FACE_VEC]
