"""The Marine player's fighting: clear a jam, shoot (#6), flame (#8), strike (#7)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from mypy_extensions import trait

from engine.ai.marine_reactions import MarineReactions
from engine.ai.marine_squad import _STRONG_MELEE, _Squad
from engine.ai.situation import Situation
from engine.rules.actions import Action, act
from engine.rules.chances import flamer_kill_chance
from engine.rules.moves import ASSAULT_COST, FLAME_COST, OVERWATCH_COST, SHOT_COST, UNJAM_COST
from engine.rules.pieces import Piece


@cache
def _flamer_kill(ruleset: str) -> float:
    return float(flamer_kill_chance(ruleset))


@trait
class MarineFire(MarineReactions):
    """Shots, flamer shots and blows."""

    # What a Marine standing in a section is worth to a flamer shot there: None, never burn him.
    burn_marine: float | None = None

    def _fight(self, pc: Piece, sq: _Squad, ap: int) -> Action | None:
        """Clear a jam, shoot, flame or strike, when it is worth it."""
        sit = sq.sit
        pid = pc.id
        p = sit.state.p
        # His shots at Genestealers (not at doors): none to ask about while no Genestealer is on the board.
        targets = [a for a in sit.actions_of(pid, "shoot") if a.args[1] in p] if sq.pic.stealer_squares else []
        if pc.jam and ap >= UNJAM_COST and (targets or sq.tm.within(pc.sq, sq.radius)):
            return act("unjam", pid)
        if targets:
            shot = self._shoot(pc, targets, ap, sit)
            if shot is not None:
                return shot
        if pc.ranged == "heavy_flamer" and ap >= FLAME_COST:
            burn = self._flame(pc, sit.actions_of(pid, "flame") if sit.goal.kind == "flame" else None, sit)
            if burn is not None:
                return burn
        return self._strike(pc, sit, ap)

    def _strike(self, pc: Piece, sit: Situation, ap: int) -> Action | None:
        """Assault a Genestealer in front, for Marines who win in melee (#7) or cannot shoot."""
        front = sit.board.nbr[pc.sq][pc.facing * 2]
        if front < 0 or ap < ASSAULT_COST:
            return None
        st = sit.state
        tid = st.occ.get(front)
        if tid is None or st.p[tid].kind != "stealer":
            return None
        return act("assault", pc.id, tid) if self._melee_first(pc) else None

    @staticmethod
    def _melee_first(pc: Piece) -> bool:
        """He strikes a Genestealer in front rather than shoot: no gun, a jam, or a hammer or claws (#7)."""
        return pc.ranged == "none" or pc.jam or pc.melee in _STRONG_MELEE

    def _shoot(self, pc: Piece, targets: list[Action], ap: int, sit: Situation) -> Action | None:
        b = sit.board
        st = sit.state
        best: tuple[int, Action] | None = None
        for a in targets:
            q = st.p[a.args[1]]
            r = b.rng(pc.sq, q.sq) if q.sq // b.plane == pc.sq // b.plane else 1
            key = r - (2 if pc.sus == q.id else 0)
            if best is None or key < best[0]:
                best = (key, a)
        if best is None:
            return None
        if pc.free:
            return best[1]
        if ap < SHOT_COST:
            return None
        return best[1] if self._shoot_now(pc, best[0], ap) else None

    def _shoot_now(self, pc: Piece, near: int, ap: int) -> bool:
        """#6: on overwatch he fires anyway; with only the AP for overwatch left, overwatch usually beats shots
        now (every action in view is a shot), unless the target (`near` squares away) could strike first."""
        return (
            pc.ow
            or ap > OVERWATCH_COST
            or near <= 2
            or self.w.aggression >= 0.8
            or (pc.ranged == "assault_cannon" and ap >= SHOT_COST)
        )

    def _flame(self, pc: Piece, mine: Sequence[Action] | None, sit: Situation) -> Action | None:
        """The flamer shot worth taking; `mine` is his list of flamer shots (None: ask the rules)."""
        need = self.w.flamer_min
        if mine is None:
            # A shot is worth something only with an enemy in its section; none in any section his flamer
            # could reach from here means every shot is worth 0 or less, below any positive bar (see below).
            bar = need + self._fuel_kept(pc)
            if bar > 0 and not sit.flame_may_pay(pc):
                return None
            mine = sit.actions_of(pc.id, "flame")
        b = sit.board
        best: tuple[float, Action] | None = None
        for a in mine:
            if a.verb != "flame":
                continue
            v = self._section_value(b.parse_sq(a.args[1]), sit)
            if v is not None and (best is None or v > best[0]):
                best = (v, a)
        if best is None:
            return None
        # A Genestealer about to strike is worth a shot on its own: the glove loses most fights; so is one coming
        # at a flamer with no bolter near to stop it (#8: a single charger is the bolters' job, when there are any).
        if best[0] > 0 and need > 0.8 and self._flamer_on_his_own(pc, sit):
            need = 0.8
        return best[1] if best[0] >= need + self._fuel_kept(pc) else None

    @staticmethod
    def _fuel_kept(pc: Piece) -> float:
        """Fuel is finite: the last two shots are kept for a real group."""
        return 0.8 if pc.ammo <= 2 else 0.0

    def _flamer_on_his_own(self, pc: Piece, sit: Situation) -> bool:
        """A Genestealer is about to strike him, or one is coming with no other Marine within `flamer_alone`."""
        threat = sit.enemy_picture().threat
        if threat.within(pc.sq, 2):
            return True
        w = self.w
        if not threat.within(pc.sq, w.threat_radius):
            return False
        b = sit.board
        lvl = pc.sq // b.plane
        return not any(
            m is not pc and m.sq // b.plane == lvl and b.rng(m.sq, pc.sq) <= w.flamer_alone for m in sit.marines
        )

    def _section_value(self, t: int, sit: Situation) -> float | None:
        """Expected kills of a flamer shot at square t's section: the rules' kill chance a Genestealer, 1.5 a
        blip; None when a Marine stands in it (the flamer kills him too), unless `burn_marine` prices him."""
        st = sit.state
        occ = st.occ
        kill = _flamer_kill(st.game.ruleset)
        v = 0.0
        for s in sit.board.section_squares(t):
            oid = occ.get(s)
            if oid is None:
                continue
            kind = st.p[oid].kind
            if kind == "marine":
                if self.burn_marine is None:
                    return None
                v += self.burn_marine
            else:
                v += kill if kind == "stealer" else 1.5
        return v
