"""Pieces entering and leaving squares: relocation, deaths and escapes."""

from __future__ import annotations

from engine.rules.pieces import Death, Piece
from engine.rules.sight import SightRules


class PlacementRules(SightRules):
    """Pieces entering and leaving squares: relocation, deaths and escapes."""

    def _relocate(self, pc: Piece, t: int) -> None:
        occ = self.occ
        if pc.sq >= 0:
            del occ[pc.sq]
        pc.sq = t
        occ[t] = pc.id
        if pc.kind != "marine":
            self._blip_rev += 1
            traffic = self.traffic
            traffic[t] = traffic.get(t, 0) + 1
        else:
            self._pose_rev += 1
        if pc.carry:
            self._vic_rev += 1  # "objective carried to a square" reads where the carrier stands

    def _place(self, pc: Piece, t: int) -> None:
        pc.sq = t
        self.occ[t] = pc.id
        if pc.kind == "marine":
            self._pose_rev += 1
        else:
            self._blip_rev += 1
        if t in self.obj_at and pc.kind != "blip" and not pc.carry:
            pc.carry = self.obj_at.pop(t)
        if pc.carry:
            self._vic_rev += 1

    def _empty_adjacent(self, s: int) -> list[int]:
        res = [t for t in self.game.board.nbr[s] if t >= 0 and self._free_square(t) and t not in self.flames]
        res.extend(t for t in self.feat.through(s) if self._free_square(t) and t not in self.flames)
        return res

    def _kill(self, pc: Piece, killer: str | None, cause: str) -> None:
        b = self.game.board
        lvl = x = y = None
        if pc.sq >= 0:
            li, x, y = b.lxy(pc.sq)
            lvl = b.level_ids[li]
        self.deaths.append(Death(pc.id, pc.kind, lvl, x, y, killer, self.turn, cause))
        self._note(f"{pc.id} dies ({cause})")
        self._remove(pc, escaped=None)

    def _remove(self, pc: Piece, escaped: str | None) -> None:
        self._vic_rev += 1  # p, escapes and carried objects change: every victory condition may read them
        if pc.kind == "blip":
            self.used.append(pc.value)
            self._blip_rev += 1
        elif pc.kind == "marine":
            self._pose_rev += 1
        if pc.sq >= 0:
            self.occ.pop(pc.sq, None)
            if pc.carry:
                if escaped is None:
                    if pc.sq not in self.obj_at:
                        self.obj_at[pc.sq] = pc.carry
                elif escaped == "exit":
                    self.objective_carried_to[pc.carry] = "exit:" + self.game.board.exit_at.get(pc.sq, "")
        del self.p[pc.id]
        if self.active == pc.id:
            self.active = None
        if escaped is not None and pc.kind == "marine":
            self.escaped.append(pc.id)
            self.escaped_via[pc.id] = escaped
            self._note(f"{pc.id} escapes by the {escaped}")
        self._check_victory()
