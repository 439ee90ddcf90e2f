"""Close assault: the attack, parry / guard / psi decisions, the outcome and turning to face."""

from __future__ import annotations

from typing import Any

from engine.rules import combat as cb
from engine.rules.actions import PASS, Action, act
from engine.rules.board import FACE_INDEX, FACE_NAMES, Board
from engine.rules.decisions import (
    AssaultStep,
    GuardDecision,
    ParryDecision,
    PsiDecision,
    RetreatDecision,
    TurnToFaceDecision,
)
from engine.rules.fire import Fire
from engine.rules.kernel import ASSAULT_COST, GUARD_COST, G, Kernel, M
from engine.rules.pieces import Piece
from engine.rules.victory import Victory


class Assault:
    """Close assault: the attack, parry / guard / psi decisions, the outcome and turning to face."""

    def __init__(self, k: Kernel, fire: Fire, victory: Victory) -> None:
        self.k = k
        self.game = k.game
        self.fire = fire
        self.victory = victory

    def marine_guard(self, pc: Piece, budget: int, out: list[Action]) -> None:
        if budget >= GUARD_COST and not pc.guard:
            out.append(self.game.order_table(pc.id)["guard"])

    def marine_blows(self, pc: Piece, budget: int, out: list[Action]) -> None:
        """Assaults of a Marine: [4e] a Genestealer at the other end of his ladder, the Genestealer or door in
        front (never through a hole)."""
        if budget < ASSAULT_COST:
            return
        k = self.k
        pid = pc.id
        occ, p = k.occ, k.p
        s = pc.sq
        feat = k.feat
        if not self.game.pf_ladders and s in feat.ladder:
            below_id = occ.get(feat.ladder[s])
            if below_id is not None and p[below_id].kind == "stealer":
                out.append(act("assault", pid, below_id))
        self.front_blows(pc, "stealer", out)

    def front_blows(self, pc: Piece, enemy: str, out: list[Action]) -> None:
        """Assaults on the square in front: the enemy model (kind `enemy`) on it, then a closed door on it."""
        k = self.k
        t = k.front(pc)
        if t >= 0:
            tid = k.occ.get(t)
            if tid is not None and k.p[tid].kind == enemy:
                out.append(act("assault", pc.id, tid))
            did = k.closed.get(t)
            if did is not None and self.game.board.door_kind[did] == "door":
                out.append(act("assault", pc.id, did))

    def stealer_blows(self, pc: Piece, budget: int, out: list[Action]) -> None:
        """Assaults of a Genestealer on the board: the Marine or door in front, Marines through a hole."""
        self.front_blows(pc, "marine", out)
        k = self.k
        pid = pc.id
        occ, p = k.occ, k.p
        for other in k.feat.through(pc.sq):
            tid = occ.get(other)
            if tid is not None and p[tid].kind == "marine":
                out.append(act("assault", pid, tid))

    def act_guard(self, pc: Piece, a: Action, reaction: bool) -> None:
        self.k.pay(pc, GUARD_COST, reaction)
        pc.guard = True
        pc.ow = False

    def act_assault(self, pc: Piece, a: Action, reaction: bool) -> None:
        k = self.k
        k.pay(pc, ASSAULT_COST, reaction)
        tid = a.args[1]
        if tid in self.game.board.doors:
            fighter = self.fighter(pc) if pc.kind == "marine" else None
            _rolled, destroyed = cb.door_attack(self.k.dice, "close_assault", marine=fighter)
            k.note(f"{pc.id} attacks door {tid}: {'destroyed' if destroyed else 'holds'}")
            if destroyed:
                self.fire.destroy_door(tid)
            return
        self.attack(pc, k.p[tid])

    def assault_terms(self, att: Piece, dfn: Piece) -> tuple[bool, dict[str, Any]]:
        """(through a hole, the arguments of combat.roll_assault but the dice) for `att` attacking `dfn` now: what
        the attack rolls, and what odds.AssaultSpec prices."""
        b = self.game.board
        marine, stealer = (att, dfn) if att.kind == "marine" else (dfn, att)
        through = att.sq // b.plane != dfn.sq // b.plane
        # frontal: the defender faces the attacker (never through a hole; [4e] ladder ends count as face to face).
        k = self.k
        ladder4e = through and not self.game.pf_ladders and k.feat.ladder.get(att.sq) == dfn.sq
        if ladder4e:
            through = False
            frontal = True
        else:
            frontal = (not through) and k.front(dfn) == att.sq
        return through, {"marine": self.fighter(marine), "alpha": stealer.alpha, "frontal": frontal,
                         "marine_attacking": att.kind == "marine", "ruleset": self.game.ruleset,
                         "guard": marine.guard and marine is dfn}

    def attack(self, att: Piece, dfn: Piece) -> None:
        through, terms = self.assault_terms(att, dfn)
        if att.kind != "marine":
            dfn.ow = False  # a Marine attacked in close assault loses his overwatch
        roll = cb.roll_assault(self.k.dice, **terms)
        self.k.stack.append(AssaultStep(att.id, dfn.id, roll, 0, through))

    def fighter(self, m: Piece) -> cb.MarineFighter:
        return cb.MarineFighter(m.melee, m.rank, m.shield, m.prone, self.k.psi if m.melee == "force_axe" else 0)

    def run_asr(self, frame: AssaultStep) -> None:
        att_id, dfn_id, roll, stage, through = frame.attacker, frame.defender, frame.roll, frame.stage, frame.through
        k = self.k
        att, dfn = k.p.get(att_id), k.p.get(dfn_id)
        if att is None or dfn is None:
            return
        if stage == 0:
            if cb.parry_choices(roll):
                k.stack.append(ParryDecision(att_id, dfn_id, roll, through))
                return
            stage = 1
        if stage == 1:
            if cb.guard_choices(roll):
                k.stack.append(GuardDecision(att_id, dfn_id, roll, through))
                return
            stage = 2
        if stage == 2:
            if [p for p in cb.psi_choices(roll) if p <= k.psi]:
                k.stack.append(PsiDecision(att_id, dfn_id, roll, through))
                return
        self.resolve(att, dfn, roll, through)

    def resolve(self, att: Piece, dfn: Piece, roll: cb.AssaultRoll, through: bool) -> None:
        k = self.k
        out = cb.assault_outcome(roll)
        dead = cb.assault_casualty(roll)
        k.note(f"{att.id} assaults {dfn.id}: {out}")
        if dead is not None:
            loser = att if (att.kind == "marine") == (dead == "marine") else dfn
            self.victory.kill(loser, (dfn if loser is att else att).id, "close assault")
            return
        b = self.game.board
        facing_att = (not through) and not (dfn.kind == "marine" and dfn.prone) and k.front(dfn) == att.sq
        if out == ("marine" if att.kind == "marine" else "stealer"):
            return  # the attacker won against a defender it cannot harm? (not reached: attacker wins kill)
        if through and dfn.kind == "marine":
            opts = [t for t in (b.nbr[dfn.sq][dfn.facing * 2], b.nbr[dfn.sq][(dfn.facing * 2 + 4) % 8])
                    if k.free_square(t) and t not in k.flames]
            if opts:
                k.stack.append(RetreatDecision(dfn.id, tuple(opts)))
            return
        if not facing_att:
            f = _facing_towards(b, dfn.sq, att.sq)
            if f is not None:
                k.stack.append(TurnToFaceDecision(dfn.id, f, M if dfn.kind == "marine" else G))

    def parry_options(self, frame: ParryDecision) -> list[Action]:
        return [act("parry", str(i)) for i in cb.parry_choices(frame.roll)] + [PASS]

    def answer_parry(self, frame: ParryDecision, a: Action) -> None:
        roll = frame.roll
        if a.verb == "parry":
            roll = cb.apply_parry(self.k.dice, roll, int(a.args[0]))
        self.k.stack.append(AssaultStep(frame.attacker, frame.defender, roll, 1, frame.through))

    def guard_options(self, frame: GuardDecision) -> list[Action]:
        return [act("guardroll", str(i)) for i in cb.guard_choices(frame.roll)] + [PASS]

    def answer_guard(self, frame: GuardDecision, a: Action) -> None:
        roll = frame.roll
        if a.verb == "guardroll":
            roll = cb.apply_guard(self.k.dice, roll, int(a.args[0]))
        self.k.stack.append(AssaultStep(frame.attacker, frame.defender, roll, 2, frame.through))

    def psi_options(self, frame: PsiDecision) -> list[Action]:
        return [act("psipoints", str(i)) for i in cb.psi_choices(frame.roll) if i <= self.k.psi] + [PASS]

    def answer_psi(self, frame: PsiDecision, a: Action) -> None:
        roll = frame.roll
        if a.verb == "psipoints":
            n = int(a.args[0])
            self.k.psi -= n
            roll = cb.apply_psi(roll, n)
        self.k.stack.append(AssaultStep(frame.attacker, frame.defender, roll, 3, frame.through))

    def turn_to_face_options(self, frame: TurnToFaceDecision) -> list[Action]:
        if frame.piece not in self.k.p:
            return []
        return [act("face", frame.piece, FACE_NAMES[frame.facing]), PASS]

    def answer_turn_to_face(self, frame: TurnToFaceDecision, a: Action) -> None:
        if a.verb == "face":
            k = self.k
            k.set_pose(k.p[a.args[0]], facing=FACE_INDEX[a.args[1]], prone=False)


def _facing_towards(b: Board, s: int, t: int) -> int | None:
    if s // b.plane != t // b.plane:
        return None
    w = b.W
    dx = t % w - s % w
    dy = (t % b.plane) // w - (s % b.plane) // w
    if dx == 0 and dy < 0:
        return 0
    if dx > 0 and dy == 0:
        return 1
    if dx == 0 and dy > 0:
        return 2
    if dx < 0 and dy == 0:
        return 3
    return None
