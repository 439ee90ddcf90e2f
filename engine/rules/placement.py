"""Pieces leaving play: deaths and escapes (the kernel takes them off; the victory conditions are checked)."""

from __future__ import annotations

from engine.rules.pieces import Death, Piece
from engine.rules.sight import SightRules


class PlacementRules(SightRules):
    """Pieces leaving play: deaths and escapes."""

    def _kill(self, pc: Piece, killer: str | None, cause: str) -> None:
        k = self.k
        b = self.game.board
        lvl = x = y = None
        if pc.sq >= 0:
            li, x, y = b.lxy(pc.sq)
            lvl = b.level_ids[li]
        k.deaths.append(Death(pc.id, pc.kind, lvl, x, y, killer, k.turn, cause))
        k.note(f"{pc.id} dies ({cause})")
        self._take_off(pc, None)

    def _take_off(self, pc: Piece, escaped: str | None) -> None:
        """pc leaves play (killed, or escaped by the exit or the chute); a blip's value goes to the used pile."""
        if pc.kind == "blip":
            self.used.append(pc.value)
        self.k.remove(pc, escaped)
        self._check_victory()
