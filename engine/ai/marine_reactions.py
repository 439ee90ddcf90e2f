"""The Marine player's answers to in-rule decisions and its reactions in the Genestealer turn (#5), and where
a Marine faces."""

from __future__ import annotations

from typing import Any

from mypy_extensions import trait

from engine.ai import decisions as dec
from engine.ai.situation import Situation, ThreatMap
from engine.ai.tables import INF, downhill, facing_toward
from engine.ai.weights import MarineWeights
from engine.rules.actions import FACES, PASS, Action, act
from engine.rules.moves import piece_moves
from engine.rules.pieces import Piece


@trait
class MarineReactions:
    """Decisions, reactions and facings; the base of the Marine player."""

    w: MarineWeights

    def _command(self, pending: Any, sit: Situation) -> Action | None:
        redraw = sit.state.cp <= self.w.redraw_below
        return act("cp", "redraw" if redraw else "keep")

    def _door_overwatch(self, pending: Any, sit: Situation) -> Action | None:
        # A closing door is not worth a jam.
        return dec.find(sit.actions, "hold")

    def _retreat(self, pending: Any, sit: Situation) -> Action | None:
        """A Marine attacked through a hole retreats toward the goal."""
        D = sit.marine_goal_map()
        best: tuple[int, Action] | None = None
        for a in sit.actions:
            if a.verb == "retreat":
                v = D[sit.board.parse_sq(a.args[1])] if D is not None else 0
                if best is None or v < best[0]:
                    best = (v, a)
        return best[1] if best else PASS

    def _deploy(self, sit: Situation) -> Action | None:
        """Set-up in a deployment area: the offered square nearest the goal, the designer's own square on a tie
        (it is offered first)."""
        D = sit.marine_goal_map()
        if D is None:
            return None
        b = sit.board
        best: tuple[int, Action] | None = None
        for a in sit.actions:
            if a.verb == "deploy":
                v = D[b.parse_sq(a.args[1])]
                if best is None or v < best[0]:
                    best = (v, a)
        return best[1] if best else None

    def _put_away(self, sit: Situation) -> Action | None:
        """Involuntary conversion: put each extra Genestealer as far from the Marines as the rule allows."""
        b = sit.board
        best: tuple[int, int, Action] | None = None
        for i, a in enumerate(sit.actions):
            if a.verb != "put":
                continue
            t = b.parse_sq(a.args[0])
            near = min((b.rng(t, m.sq) if m.sq // b.plane == t // b.plane else 99 for m in sit.marines), default=99)
            key = (near, -i)
            if best is None or key > best[:2]:
                best = (near, -i, a)
        return best[2] if best else None

    def _face(self, sit: Situation, pid: str) -> Action | None:
        pc = sit.state.p.get(pid)
        if pc is None or pc.sq < 0:
            return None
        f = self._threat_facing(pc, sit, sit.enemy_picture().threat)
        if f is None:
            D = sit.marine_goal_map()
            f = self._path_facing(pc.sq, D, sit) if D is not None else pc.facing
        return act("face", pid, FACES[f if f is not None and f >= 0 else 0])

    def _react(self, sit: Situation, gid: str) -> Action | None:
        """A Genestealer acted in view and CP are left: turn to face it, clear a jam, or shoot it."""
        st = sit.state
        g = st.p.get(gid)
        if g is None or g.sq < 0 or st.cp <= 0:
            return PASS
        return self._react_turn(sit, g) or self._react_unjam(sit, g) or self._react_shoot(sit, g) or PASS

    def _react_turn(self, sit: Situation, g: Piece) -> Action | None:
        """Turn a Marine to face a Genestealer that stepped beside him (one of the turns the rules offer)."""
        nbr = sit.board.nbr
        for m in sit.marines:
            if m.prone:
                continue
            for d in (0, 2, 4, 6):
                if nbr[m.sq][d] == g.sq and d != m.facing * 2:
                    for mv in piece_moves(sit.state, m.id, sit.of, ("turn",)):
                        if mv.facing == d // 2:
                            return mv.action
        return None

    def _react_unjam(self, sit: Situation, g: Piece) -> Action | None:
        """Clear the jam of a watching Marine who sees it: his overwatch then fires."""
        for m in sit.marines:
            if m.jam and m.ow and sit.sees(m, g.sq):
                a = act("unjam", m.id)
                if a in sit.legal:
                    return a
        return None

    def _react_shoot(self, sit: Situation, g: Piece) -> Action | None:
        """Shoot it with the nearest Marine within react_range who is not on overwatch."""
        b = sit.board
        best: tuple[int, Action] | None = None
        for m in sit.marines:
            if m.ow and not m.jam:
                continue  # shooting would end his overwatch, which fires for free after this reaction
            r = b.rng(m.sq, g.sq)
            if r > self.w.react_range or (best is not None and r >= best[0]):
                continue
            a = act("shoot", m.id, g.id)
            if a in sit.legal:
                best = (r, a)
        return best[1] if best else None

    def _next_step(self, s: int, D: list[int], sit: Situation) -> int:
        return downhill(D, sit.gt.mt.steps[s], s)

    def _threat_facing(self, pc: Piece, sit: Situation, tm: ThreatMap) -> int | None:
        """The facing toward the neighbour the nearest enemy would come through (None: none is coming)."""
        n = tm.toward(pc.sq, sit.gt.mt.steps[pc.sq])
        if n < 0 or tm.value(pc.sq) >= INF:
            return None
        return facing_toward(sit.board, pc.sq, n, prefer=pc.facing)

    def _path_facing(self, s: int, D: list[int] | None, sit: Situation) -> int:
        if D is None:
            return 0
        n = self._next_step(s, D, sit)
        return facing_toward(sit.board, s, n) if n >= 0 else 0
