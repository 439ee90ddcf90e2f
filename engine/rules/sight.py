"""Lines of sight: what a Marine sees, and whether any Marine sees a square (blips)."""

from __future__ import annotations

from collections.abc import Callable

from engine.rules.board import Line
from engine.rules.pieces import Piece
from engine.rules.victory import VictoryRules

# (marine id, level, view, squares seen through holes) per seeing Marine
BlipEyes = tuple[tuple[str, int, dict[int, Line], frozenset[int]], ...]


class SightRules(VictoryRules):
    """Lines of sight: what a Marine sees, and whether any Marine sees a square (blips)."""

    def _blocked(self, c: int) -> bool:
        return c in self.occ or c in self.closed or c in self.flames or c in self.barriers

    def _clear_line(self, a: int, t: int, ignore_fire: bool = False) -> bool:
        line = self.game.board.line(a, t)
        return line is not None and self._line_clear(line, ignore_fire)

    def _line_clear(self, line: Line, ignore_fire: bool = False) -> bool:
        """No model, closed door, flame (unless ignored) or barrier on a static line (corners: both squares)."""
        occ, closed, bar = self.occ, self.closed, self.barriers
        flames: dict[int, int] = {} if ignore_fire else self.flames
        for c in line or ():
            if type(c) is int:
                if c in occ or c in closed or c in flames or c in bar:
                    return False
            else:
                p, q = c  # type: ignore[misc]
                if (p in occ or p in closed or p in flames or p in bar) and (
                    q in occ or q in closed or q in flames or q in bar
                ):
                    return False
        return True

    def _sees(self, m: Piece, t: int) -> bool:
        """Marine m has LOS to square t (front arc; through holes per the Pitfall rules)."""
        ms = m.sq
        if m.prone or ms < 0:
            return False
        b = self.game.board
        if ms // b.plane == t // b.plane:
            line = b.static_view(ms, m.facing).get(t)
            return line is not None and self._line_clear(line, self.game.fire_module and m.ranged == "assault_cannon")
        if not self.game.pf_ladders and self.feat.ladder.get(ms) == t:
            return True  # [4e] the two ends of a ladder are adjacent, whatever the facing
        if ms not in self.feat._views:
            return False
        return self.feat.hole_sees(self, m, t)

    def _seer(self, m: Piece) -> Callable[[int], bool]:
        """_sees specialised to one Marine (its view and flags looked up once): for loops over many squares."""
        ms = m.sq
        if m.prone or ms < 0:
            return _blind
        b = self.game.board
        plane = b.plane
        lvl = ms // plane
        view = b.static_view(ms, m.facing)
        ignore_fire = self.game.fire_module and m.ranged == "assault_cannon"
        holes = ms in self.feat._views or (not self.game.pf_ladders and ms in self.feat.ladder)
        line_clear = self._line_clear
        sees = self._sees

        def seer(t: int) -> bool:
            if t // plane == lvl:
                line = view.get(t)
                return line is not None and line_clear(line, ignore_fire)
            return holes and sees(m, t)

        return seer

    def _seen_by_marine(self, t: int) -> bool:
        """Some Marine sees square t (for blips: [2e] Marines see to the front and sides, fire only to the front)."""
        memo = self._seen_memo
        if memo is None:
            return self._seen_by_marine_now(t)
        cand = self._seen_cand
        if cand is None:
            self._blip_eyes()
            cand = self._seen_cand
            assert cand is not None
        if t not in cand:
            return False  # most squares asked about are out of every Marine's view, even on an empty board
        r = memo.get(t)
        if r is None:
            r = memo[t] = self._seen_by_marine_now(t)
        return r

    def _blip_eyes(self) -> BlipEyes:
        """(marine id, level, walls-only view for spotting blips, squares it might see through holes) of every
        seeing Marine; also sets _seen_cand inside a memo scope (every square in those views)."""
        eyes = self._blip_eyes_memo
        if eyes is None:
            # Kept from scope to scope while the seeing Marines stay put (the Genestealer turn, mostly).
            seeing = [(pc.id, pc.sq, pc.facing) for pc in self.p.values()
                      if pc.kind == "marine" and pc.sq >= 0 and not pc.prone]
            key = (self.feat, *seeing)
            cached = self._sight_cache
            if cached is not None and cached[0] == key:
                eyes, cand = cached[1], cached[2]
            else:
                b = self.game.board
                plane = b.plane
                look = b.wide_view if self.game.wide_sight else b.static_view
                feat = self.feat
                ladders_4e = not self.game.pf_ladders
                eyes = tuple(
                    (pid, sq // plane, look(sq, f), feat.hole_targets(sq, ladders_4e)) for pid, sq, f in seeing
                )
                cand = frozenset().union(*[e[2] for e in eyes], *[e[3] for e in eyes])
                self._sight_cache = (key, eyes, cand)
            if self._seen_memo is not None:
                self._blip_eyes_memo = eyes
                self._seen_cand = cand
        return eyes

    def _seen_by_marine_now(self, t: int) -> bool:
        tl = t // self.game.board.plane
        for pid, lvl, view, through in self._blip_eyes():
            if lvl == tl:
                line = view.get(t)
                if line is not None and self._line_clear(line):
                    return True
            elif t in through and self._sees(self.p[pid], t):
                return True
        return False

    def _adjacent_to_marine(self, t: int) -> bool:
        near = self._near_memo
        if near is None:
            b = self.game.board
            near = {}
            for pc in self.p.values():
                if pc.kind == "marine" and pc.sq >= 0:
                    for n in b.nbr[pc.sq]:
                        near[n] = True
            if self._seen_memo is not None:
                self._near_memo = near
        return t in near

    def _begin_memo(self) -> None:
        """Open a scope in which nothing moves (computing legal actions, looking for seen blips)."""
        self._seen_memo = {}
        self._seen_cand = None

    def _end_memo(self) -> None:
        self._seen_memo = None
        self._seen_cand = None
        self._blip_eyes_memo = None
        self._near_memo = None


def _blind(t: int) -> bool:
    return False
