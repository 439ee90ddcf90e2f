"""Where a Marine may go this decision: his route map (the goal's; with nothing to reach, a choke point #9 or a
dead end #11), how far ahead of the squad (cohesion), the AP he keeps for a watch, the rear guard (#4)."""

from __future__ import annotations

from mypy_extensions import trait

from engine.ai.marine_places import _chokes, _dead_ends
from engine.ai.marine_reactions import MarineReactions
from engine.ai.marine_squad import WATCH_COST, _Route, _set_march, _Squad
from engine.ai.marine_terms import term_flank_exposure
from engine.ai.tables import INF
from engine.rules.pieces import Piece


@trait
class MarineRoutes(MarineReactions):
    """A Marine's route and its limits."""

    def _route(self, pc: Piece, sq: _Squad) -> _Route | None:
        """His route map and the limits on his moves this decision (None: he holds where he is)."""
        D = sq.D
        if D is None or D[pc.sq] >= INF:
            return self._hold_route(pc, sq)
        sit = sq.sit
        if sit.goal.kind == "flame" and pc.ranged != "heavy_flamer":
            D = sit.marine_goal_map(flamer=False) or D
        s = pc.sq
        here = D[s]
        if here >= INF:
            return None
        order = sq.order
        idx = order.index(pc) if pc in order else 0
        role = "middle"
        if len(order) > 1:
            role = "lead" if idx == 0 else ("rear" if pc is sq.rear else "middle")
        back_ok = False
        if role == "rear" and self._guards_rear(pc, sq):
            if D[s] - D[order[-2].sq] <= self.w.gap + 1:
                return None
            f = self._threat_facing(pc, sit, sq.tm)
            if f is not None and f != pc.facing:
                return None  # turn to face it first (the activation ends on overwatch)
            back_ok = True  # shuffle backwards, still facing the threat
        guide = order[idx - 1].sq if idx > 0 else -1
        r = _Route(D, here, self._allowed(pc, sq, D, idx), self._reserve(pc, sq, role), back_ok, guide)
        if len(order) > 2 and not sq.hurry:  # (a squad in a hurry walks in the order it stands)
            _set_march(r, pc, order)
        return r

    def _hold_route(self, pc: Piece, sq: _Squad) -> _Route | None:
        """With no goal to walk to: the last Marine holes up (#11), a squad holds a choke point (#9)."""
        if len(sq.order) == 1:
            return self._cover_route(pc, sq)
        return self._choke_route(pc, sq)

    def _choke_route(self, pc: Piece, sq: _Squad) -> _Route | None:
        """#9: a squad with nothing to reach holds the corridor squares within `choke` squares of an entry area
        (one square wide: the Genestealers come one at a time down the fire lane, and the Marines standing there
        keep the blips at that entry waiting)."""
        if self.w.choke <= 0:
            return None
        sit = sq.sit
        C = sit.gt.marine_goal_map(("chokes", self.w.choke), _chokes(sit, int(self.w.choke)))
        here = C[pc.sq]
        if here <= 0 or here >= INF:
            return None
        order = sq.order
        idx = order.index(pc) if pc in order else 0
        role = "lead" if idx == 0 else ("rear" if pc is sq.rear else "middle")
        guide = order[idx - 1].sq if idx > 0 else -1
        return _Route(C, here, -INF, self._reserve(pc, sq, role), False, guide)

    def _cover_route(self, pc: Piece, sq: _Squad) -> _Route | None:
        """#11: the last Marine with no goal in reach and a threat near backs into the nearest dead end (one open
        side: one Genestealer at a time, from his front) within `dead_end` squares, still facing the threat."""
        sit = sq.sit
        if len(sq.order) != 1 or self.w.dead_end <= 0 or not sq.tm.within(pc.sq, sq.radius):
            return None
        C = sit.gt.marine_goal_map("dead-ends", _dead_ends(sit))
        here = C[pc.sq]
        if here <= 0 or here > self.w.dead_end:
            return None
        f = self._threat_facing(pc, sit, sq.tm)
        if f is not None and f != pc.facing:
            return None  # face the threat first
        return _Route(C, here, -INF, self._reserve(pc, sq, "middle"), True, -1)

    def _guards_rear(self, pc: Piece, sq: _Squad) -> bool:
        """The last Marine covers the rear (#4) when a threat near comes from behind; not the carrier, who walks
        on (the squad waits for him, he does not wait for it)."""
        return (
            not pc.carry
            and self.w.rear_guard >= 0.5
            and sq.tm.within(pc.sq, sq.radius)
            and self._threat_behind(pc, sq)
        )

    def _reserve(self, pc: Piece, sq: _Squad, role: str) -> int:
        """The AP he keeps for overwatch or guard: when threatened in front, at the rear or close; else none."""
        if sq.hurry or not sq.tm.within(pc.sq, sq.radius):
            return 0
        if role in ("lead", "rear") or len(sq.order) == 1 or sq.tm.within(pc.sq, sq.radius / 2):
            return WATCH_COST
        return WATCH_COST if term_flank_exposure(self.w, sq, pc.sq) > 0 else 0

    def _allowed(self, pc: Piece, sq: _Squad, D: list[int], idx: int) -> float:
        """The least route distance he may reach: no more than `gap` ahead of the Marine behind him after that
        one's move (the carrier: `carrier_gap`, and no dash bonus unless the goal is within this turn's reach)."""
        order = sq.order
        if idx + 1 >= len(order):
            return -INF
        w = self.w
        fol = order[idx + 1]
        exp = int(sq.sit.state.ap_budget(fol, cp=0)) if fol.st == 0 else 0  # (his AP, if he may still activate)
        if pc.carry and not sq.reach:
            return float(D[fol.sq] - exp - (w.carrier_gap + 1))
        return float(D[fol.sq] - exp - (w.gap + 1) - (4 if sq.hurry else 0))

    def _threat_behind(self, pc: Piece, sq: _Squad) -> bool:
        """The nearest enemy reaches this Marine from the side away from the goal."""
        D = sq.D
        if D is None:
            return True
        n = sq.tm.toward(pc.sq, sq.sit.gt.mt.steps[pc.sq])
        return n >= 0 and D[n] >= D[pc.sq]
