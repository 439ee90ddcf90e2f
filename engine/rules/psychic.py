"""The Archivist's psychic powers: which may be used, and their effects."""

from __future__ import annotations

from engine.rules.actions import Action, act
from engine.rules.board import Board
from engine.rules.kernel import Kernel
from engine.rules.pieces import Piece
from engine.rules.victory import Victory


class Psychic:
    """The Archivist's psychic powers: which may be used, and their effects."""

    def __init__(self, k: Kernel, victory: Victory) -> None:
        self.k = k
        self.game = k.game
        self.victory = victory

    def archivist_powers(self, pc: Piece, budget: int, out: list[Action]) -> None:
        """The Archivist's powers (no AP), once per Marine turn."""
        if pc.rank == "archivist" and not self.k.psi_used:
            self.powers(pc, out)

    def powers(self, pc: Piece, out: list[Action]) -> None:
        """[4e] one power per Marine turn, no AP, no LOS needed."""
        k = self.k
        s = pc.sq
        if k.psi >= 1 and k.cp < k.cp_start:
            out.append(act("psi", "prescience"))
        if k.psi < 2:
            return
        index, barriers, sections = _psi_table(self.game.board, s)
        occ, closed, bars, flames = k.occ, k.closed, k.barriers, k.flames
        # Every square in range but those holding a piece, a closed door, a barrier or flames (free_square and
        # no flames): the few taken ones cut the table into runs copied whole.
        taken = sorted({i for taken in (occ, closed, bars, flames) for t in taken if (i := index.get(t)) is not None})
        start = 0
        for i in taken:
            out.extend(barriers[start:i])
            start = i + 1
        out.extend(barriers[start:])
        if k.psi >= 3:
            self.storm_targets(pc, out)
            p = k.p
            for squares, a in sections:
                if any(occ.get(t) and p[occ[t]].kind != "marine" for t in squares):
                    out.append(a)

    def storm_targets(self, pc: Piece, out: list[Action]) -> None:
        """The psychic storms on single models (`psi storm <id>`) that _psi_actions lists for Archivist pc when
        psi >= 3: every Genestealer or blip on his level within 6 squares."""
        s = pc.sq
        b = self.game.board
        lvl = s // b.plane
        for q in self.k.p.values():
            if q.kind != "marine" and q.sq >= 0 and q.sq // b.plane == lvl and b.rng(s, q.sq) <= 6:
                out.append(act("psi", "storm", q.id))

    def use(self, a: Action) -> None:
        k = self.k
        power = a.args[0]
        b = self.game.board
        k.psi_used = True
        if power == "prescience":
            k.psi -= 1
            k.cp += 1
            k.note("prescience: +1 CP")
        elif power == "barrier":
            k.psi -= 2
            k.add_barrier(b.parse_sq(a.args[1]))
            k.note(f"force barrier at {a.args[1]}")
        elif power == "storm":
            k.psi -= 3
            arg = a.args[1]
            if ":" in arg:
                t = b.parse_sq(arg)
                k.note(f"psychic storm on section {b.section[t]}")
                for sq in b.section_squares(t):
                    tid = k.occ.get(sq)
                    if tid is not None and k.p[tid].kind != "marine":
                        q = k.p[tid]
                        if self.k.dice.d6() >= 4 and not q.alpha:
                            self.victory.kill(q, "psi", "psychic storm")
            else:
                target = k.p.get(arg)
                k.note(f"psychic storm on {arg}")
                if target is not None and self.k.dice.d6() >= 2 and not target.alpha:
                    self.victory.kill(target, "psi", "psychic storm")


PsiTable = tuple[dict[int, int], tuple[Action, ...], tuple[tuple[tuple[int, ...], Action], ...]]


def _psi_table(b: Board, s: int) -> PsiTable:
    """What the powers may target from square s, whatever the pieces: `psi barrier SQ` for each floor square of
    s's level within 12 but s, in square order (and each such square's index in that tuple); (squares,
    `psi storm SQ`) of each section of the level within 6 (a square of it), by section code, SQ its first
    square. Per Board, filled on demand."""
    out: PsiTable | None = b.psi_memo.get(s)
    if out is None:
        plane = b.plane
        lvl = s // plane
        squares_in_range = [
            t for t in range(lvl * plane, (lvl + 1) * plane) if b.floor[t] and t != s and b.rng(s, t) <= 12
        ]
        index = {t: i for i, t in enumerate(squares_in_range)}
        barriers = tuple(act("psi", "barrier", b.name(t)) for t in squares_in_range)
        near: dict[str, tuple[int, ...]] = {}
        for (li, code), squares in b.sections.items():
            if li == lvl and any(b.rng(s, t) <= 6 for t in squares):
                near[code] = squares
        sections = tuple((near[code], act("psi", "storm", b.name(near[code][0]))) for code in sorted(near))
        out = b.psi_memo[s] = (index, barriers, sections)
    return out
