"""The Archivist's psychic powers: which may be used, and their effects."""

from __future__ import annotations

from engine.rules.actions import Action, act
from engine.rules.assault import AssaultRules
from engine.rules.pieces import Piece


class PsychicRules(AssaultRules):
    """The Archivist's psychic powers: which may be used, and their effects."""

    def _psi_actions(self, pc: Piece, out: list[Action]) -> None:
        """[4e] one power per Marine turn, no AP, no LOS needed."""
        b = self.game.board
        s = pc.sq
        lvl = s // b.plane
        if self.psi >= 1 and self.cp < self.cp_start:
            out.append(act("psi", "prescience"))
        if self.psi >= 2:
            for t in range(lvl * b.plane, (lvl + 1) * b.plane):
                if b.floor[t] and t != s and b.rng(s, t) <= 12 and self._free_square(t) and t not in self.flames:
                    out.append(act("psi", "barrier", b.name(t)))
        if self.psi >= 3:
            sections: dict[str, int] = {}
            for q in self.p.values():
                if q.kind != "marine" and q.sq >= 0 and q.sq // b.plane == lvl and b.rng(s, q.sq) <= 6:
                    out.append(act("psi", "storm", q.id))
            for (li, code), squares in b.sections.items():
                if li == lvl and any(b.rng(s, t) <= 6 for t in squares):
                    if any(self.occ.get(t) and self.p[self.occ[t]].kind != "marine" for t in squares):
                        sections[code] = squares[0]
            for code in sorted(sections):
                out.append(act("psi", "storm", b.name(sections[code])))

    def _do_psi(self, a: Action) -> None:
        power = a.args[0]
        b = self.game.board
        self.psi_used = True
        if power == "prescience":
            self.psi -= 1
            self.cp += 1
            self._note("prescience: +1 CP")
        elif power == "barrier":
            self.psi -= 2
            t = b.parse_sq(a.args[1])
            self.barriers[t] = 1
            self._note(f"force barrier at {a.args[1]}")
        elif power == "storm":
            self.psi -= 3
            arg = a.args[1]
            if ":" in arg:
                t = b.parse_sq(arg)
                self._note(f"psychic storm on section {b.section[t]}")
                for sq in b.section_squares(t):
                    tid = self.occ.get(sq)
                    if tid is not None and self.p[tid].kind != "marine":
                        q = self.p[tid]
                        if self.dice.d6() >= 4 and not q.alpha:
                            self._kill(q, "psi", "psychic storm")
            else:
                target = self.p.get(arg)
                self._note(f"psychic storm on {arg}")
                if target is not None and self.dice.d6() >= 2 and not target.alpha:
                    self._kill(target, "psi", "psychic storm")
