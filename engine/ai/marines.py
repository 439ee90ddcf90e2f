"""The heuristic Marine player (docs/playbook.md, "Marines"); the novice one (novice.py) is a subclass.

Stateless: every decision is recomputed from the state (with the Situation's exact memos), front Marine
first. A Marine shoots what he sees, flames groups, walks the squad along the precomputed shortest route to
the goal without running ahead, and ends his activation on overwatch (or guard) facing where the nearest
threat will come from; the last Marine covers the rear. Command points are kept for the Genestealer turn:
unjam, turn to face, shoot.

Moves are candidates → scores → choice: the rules list the moves a Marine is offered (`engine.rules.moves`,
with their AP cost), each is scored by small named terms (marine_terms.py, each weighed by a field of
`MarineWeights`), and the best one that leaves the AP the Marine keeps is taken (marine_moves.py). A turn is
scored by the step it prepares (priced by the rules' `step_cost` for the new facing) and is offered only when
that step follows in the same activation, so a Marine never turns back and forth.

The player is built up in layers, each module named after what it holds: marine_reactions.py (in-rule
decisions, reactions, facings) under marine_routes.py (where a Marine may go) under marine_moves.py (the
scoring of his moves), and marine_fire.py (shots, flames, blows); this module holds the turn: tempo, command
points, the mission's own actions, the plan of each Marine and how he ends his activation.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.ai import decisions as dec
from engine.ai.base import register
from engine.ai.marine_fire import MarineFire
from engine.ai.marine_moves import MarineMoves
from engine.ai.marine_places import _line
from engine.ai.marine_squad import _STRONG_MELEE, WATCH_COST, _Squad
from engine.ai.marine_terms import term_clock
from engine.ai.situation import Situation, observe
from engine.ai.tables import INF
from engine.ai.weights import MarineWeights, defaults, weights_from_params
from engine.rules.actions import FACES, PASS, Action, act
from engine.rules.decisions import (
    CommandDecision,
    Decision,
    DeployDecision,
    DoorOverwatchDecision,
    FaceDecision,
    GuardDecision,
    OverwatchDecision,
    ParryDecision,
    PsiDecision,
    PutDecision,
    ReactionDecision,
    RetreatDecision,
    TurnToFaceDecision,
)
from engine.rules.moves import LINK_VERBS
from engine.rules.pieces import Piece


class MarinePlayer(MarineMoves, MarineFire):
    """Scored, rule-of-thumb Marine player."""

    name = "heuristic-marines"
    # Overwatch or guard facing a wall watches nothing: the player does not set it.
    watch_a_wall = False

    def __init__(self, params: dict[str, float] | None = None) -> None:
        self.params: dict[str, float] = dict(params or {})
        self.w = self._weights(self.params)
        self._scorers = {
            "move": self._score_step, "turn": self._score_turn, "open": self._score_open,
            "close": self._score_close, "climb": self._score_climb,
            **dict.fromkeys(LINK_VERBS, self._score_climb),  # a link (a lift's ride) is scored as a climb
        }

    @staticmethod
    def _weights(params: dict[str, float]) -> MarineWeights:
        return weights_from_params(MarineWeights, params)

    # ------------------------------------------------------------------ entry point
    def choose(self, state: Any, actions: Sequence[Action], rng: random.Random) -> Action:
        """Pick one of the legal actions, reading only what the Marines may know (`observe`)."""
        obs = observe(state, "marines")
        sit = Situation(obs, actions)
        pending = obs.decision()
        # A Marine aboard a boarding torpedo comes out as soon as its ramp is free (docs/RULES.md, 15).
        out = self._come_out(sit) if pending is None else None
        a = out or (self._phase(sit) if pending is None else self._decide(pending, sit))
        if a is None or a not in sit.legal:
            a = dec.find(actions, "pass") or actions[0]
        return a

    @staticmethod
    def _come_out(sit: Situation) -> Action | None:
        """The first Marine aboard a torpedo that may come out (asked piece by piece: listing every legal action
        to look for one would cost most of a decision)."""
        for pc in sit.state.p.values():
            if pc.kind == "marine" and pc.sq < 0 and pc.entry:
                for a in sit.of(pc.id, "enter"):
                    return a
        return None

    # ------------------------------------------------------------------ sub-decisions
    def _decide(self, pending: Decision, sit: Situation) -> Action | None:
        handler = _DECISIONS.get(type(pending))
        return handler(self, pending, sit) if handler is not None else None


    # ------------------------------------------------------------------ action phase
    def _phase(self, sit: Situation) -> Action | None:
        st = sit.state
        if not sit.marines:
            return PASS
        w = self.w
        sq = _Squad(sit, sit.marine_goal_map(), sit.enemy_picture(), w.threat_radius * (0.5 + w.caution), 0)
        sq.hurry = self._behind_schedule(sit, sq)
        sq.cp_now = self._cp_now(sit, sq)
        a = self._psi(sit)
        if a is not None:
            return a
        # The active Marine first, then the fresh ones front to back; the first with a legal plan acts.
        legal = sit.legal
        active = st.active
        if active is not None:
            pc = st.p.get(active)
            if pc is not None and pc.sq >= 0:
                a = self._plan(pc, sq)
                if a is not None and a in legal:
                    return a
        for pc in sq.order:
            if pc.st == 0 and pc.id != active:
                a = self._plan(pc, sq)
                if a is not None and a in legal:
                    return a
        return PASS

    def _cp_now(self, sit: Situation, sq: _Squad) -> int:
        """The command points the squad spends in its own turn (#5): kept for the Genestealer turn while an enemy
        is within keep_cp_within of the squad, or while the objective is carried out with the exit not yet in
        reach (a dash would leave the carrier alone ahead with nothing for a reaction); else all of them."""
        st = sit.state
        w = self.w
        if w.cp_reserve < 0.5:
            return st.cp
        if sq.carry_out and not sq.reach and len(sq.order) > 1:
            return 0
        if sq.hurry or not st.cp:
            return st.cp
        within = sq.tm.within
        keep = w.keep_cp_within
        for pc in sit.marines:
            if within(pc.sq, keep):
                return 0
        return st.cp

    def _behind_schedule(self, sit: Situation, sq: _Squad) -> bool:
        """With a turn limit, march without stopping when the goal is farther than a steady pace covers."""
        limit = sit.goal.turn_limit
        if sq.D is None:
            return False
        # The carrier's distance, else the front Marine's.
        key = sq.order[0]
        for pc in sit.marines:
            if pc.carry:
                key = pc
                break
        dist = sq.D[key.sq]
        # The goal is within this turn's reach: go for it.
        if dist <= 4 + sit.state.cp:
            sq.reach = True
            return True
        # The turn limit is near (asked before the dearer count below: either makes it True).
        if limit is not None:
            left = limit - sit.state.turn + 1
            if dist >= INF or dist > 2.6 * max(left, 1) - 2 or term_clock(self.w, sq, key, dist, left) > 0:
                return True
        # Few enemies near the squad (playbook #10, tempo): dash rather than let blips mass on the flanks.
        return self._few_near(sit, sq)

    def _few_near(self, sit: Situation, sq: _Squad) -> bool:
        """At most `dash_below` enemies (a blip counts 2) within the threat radius of the squad."""
        # The enemies near each Marine's square are kept (as a bit mask) while the enemies stay put.
        pic = sq.pic
        return pic.weight(pic.near_any(sit.board, sit.marines, sq.radius)) <= self.w.dash_below

    def _psi(self, sit: Situation) -> Action | None:
        """A psychic storm on the Genestealer nearest a Marine, within psi_storm_range of him."""
        for m in sit.marines:
            if m.rank == "archivist":
                break
        else:
            return None  # only an Archivist has powers
        # Only a Genestealer within that range of some Marine (on his level) qualifies: with none, the
        # Archivist's powers need not be listed (the dear part: every square he could put a barrier on).
        pic = sit.enemy_picture()
        if not pic.stealers(pic.near_any(sit.board, sit.marines, self.w.psi_storm_range)):
            return None
        b = sit.board
        best: tuple[int, Action] | None = None
        for a in self._psi_options(sit):
            if a.verb == "psi" and a.args[0] == "storm":
                q = sit.state.p.get(a.args[1])
                if q is None or q.kind != "stealer":
                    continue
                r = min(b.rng(m.sq, q.sq) for m in sit.marines if m.sq // b.plane == q.sq // b.plane)
                if r <= self.w.psi_storm_range and (best is None or r < best[0]):
                    best = (r, a)
        return best[1] if best else None

    @staticmethod
    def _psi_options(sit: Situation) -> list[Action]:
        """The psychic powers on offer: only an Archivist has them, so only his are read (_psi asks with an
        Archivist in the squad)."""
        out: list[Action] = []
        for pc in sit.marines:
            if pc.rank == "archivist":
                out.extend(sit.actions_of(pc.id, "psi"))
        return out

    def _plan(self, pc: Piece, sq: _Squad) -> Action | None:
        """His next action: the mission's own, a fight, a move, else settle on overwatch or guard."""
        # What he may spend: the rules' budget with the command points the squad spends now (none of them when it
        # keeps them for the Genestealer turn); only CP once his activation is over or the activations are used up.
        ap = sq.sit.state.ap_budget(pc, cp=sq.cp_now)
        if ap <= 0 and not pc.free:
            return None
        if pc.prone:
            return self._stand(pc, sq)
        for step in (self._mission_action, self._fight, self._move, self._settle):
            a = step(pc, sq, ap)
            if a is not None:
                return a
        return None

    def _stand(self, pc: Piece, sq: _Squad) -> Action:
        f = self._threat_facing(pc, sq.sit, sq.tm)
        if f is None:
            f = self._path_facing(pc.sq, sq.D, sq.sit) if sq.D is not None else 0
        return act("stand", pc.id, FACES[f if f is not None and f >= 0 else 0])

    def _mission_action(self, pc: Piece, sq: _Squad, ap: int) -> Action | None:
        """The mission's own target first: flame the section, leave by the exit (an escort only once the carrier
        is near it: leaving sooner wins nothing and leaves the carrier alone, staying on it would bar it)."""
        sit = sq.sit
        b = sit.board
        goal = sit.goal
        if goal.kind == "flame" and pc.ranged == "heavy_flamer":
            for a in sit.actions_of(pc.id, "flame"):
                t = b.parse_sq(a.args[1])
                if (t // b.plane, b.section[t]) == goal.flame_key:
                    return a
        if pc.sq in b.exit_at and (
            (goal.kind == "escape" and "exit" in goal.via)
            or (sq.carry_out and (pc.carry or self._carrier_near(sq)))
        ):
            a = act("exit", pc.id)
            if a in sit.legal:
                return a
        return None

    def _carrier_near(self, sq: _Squad) -> bool:
        D = sq.D
        return D is not None and any(pc.carry and D[pc.sq] <= self.w.escort_exit for pc in sq.order)


    def _settle(self, pc: Piece, sq: _Squad, ap: int) -> Action | None:
        """End the activation usefully: face the threat (never a wall), then overwatch (or guard for melee
        Marines). A flamer faces the threat too: he burns, and fights, to his front."""
        if ap < WATCH_COST:
            return None
        sit = sq.sit
        watch = self._watch(pc, sq)
        f = self._watch_facing(pc, sq, ap)
        blind = _line(sit, pc.sq, pc.facing) == 0
        if f is not None and f != pc.facing:
            # With AP for the turn and the watch after it; facing a wall, the turn alone is still worth it.
            if ap - sit.state.turn_cost(pc, f) >= WATCH_COST or blind:
                a = act("turn", pc.id, FACES[f])
                if a in sit.legal:
                    return a
        if watch is None or (blind and not self.watch_a_wall):
            return None  # (overwatch or guard on a wall watches nothing)
        return watch if watch in sit.legal else None

    def _watch(self, pc: Piece, sq: _Squad) -> Action | None:
        """What he would end on: overwatch for a gunner, guard for a melee Marine when a fight is coming (#7)."""
        shooter = pc.ranged in ("storm_bolter", "assault_cannon") and pc.melee not in _STRONG_MELEE
        if shooter:
            return None if pc.ow else act("overwatch", pc.id)
        if not pc.guard and (sq.tm.within(pc.sq, sq.radius) or pc.ranged == "none"):
            return act("guard", pc.id)
        return None

    def _watch_facing(self, pc: Piece, sq: _Squad, ap: int) -> int | None:
        """Where he should face on watch: the threat (#1), the way back for the rear guard (#4), else the longest
        open line; never a wall."""
        if pc.ow or pc.guard:
            return None
        sit = sq.sit
        f: int | None = None
        if ap > WATCH_COST:  # (AP for a turn and the watch after it)
            f = self._threat_facing(pc, sit, sq.tm)
            if f is None and sq.D is not None and sq.rear is not None and pc is sq.rear and self.w.rear_guard >= 0.5:
                f = (self._path_facing(pc.sq, sq.D, sit) + 2) % 4
        want = pc.facing if f is None else f
        if _line(sit, pc.sq, want) > 0:
            return f
        # The wanted facing is blind: the open line nearest to it, longest first.
        lines = [(_line(sit, pc.sq, g), -((g - want) % 4 == 2), g == pc.facing, g) for g in range(4)]
        best = max(lines)
        return best[3] if best[0] > 0 else f


# Who answers each decision (MarinePlayer._decide), by method name so that a subclass's own answer is the one asked.
_DECISIONS: dict[type, Any] = {
    CommandDecision: lambda self, pending, sit: self._command(pending, sit),
    OverwatchDecision: lambda self, pending, sit: dec.find(sit.actions, "fire"),
    DoorOverwatchDecision: lambda self, pending, sit: self._door_overwatch(pending, sit),
    ParryDecision: lambda self, pending, sit: dec.parry(pending.roll, sit.actions),
    GuardDecision: lambda self, pending, sit: dec.guard_reroll(pending.roll, sit.actions),
    PsiDecision: lambda self, pending, sit: dec.psi_points(pending.roll, sit.actions),
    ReactionDecision: lambda self, pending, sit: self._react(sit, pending.genestealer),
    PutDecision: lambda self, pending, sit: self._put_away(sit),
    TurnToFaceDecision: lambda self, pending, sit: act("face", pending.piece, FACES[pending.facing]),
    FaceDecision: lambda self, pending, sit: self._face(sit, pending.piece),
    RetreatDecision: lambda self, pending, sit: self._retreat(pending, sit),
    DeployDecision: lambda self, pending, sit: self._deploy(sit),
}


def heuristic_marines(params: dict[str, float]) -> MarinePlayer:
    """Factory for the registry."""
    return MarinePlayer(params)


register(
    "heuristic-marines",
    heuristic_marines,
    side="marines",
    defaults=defaults(MarineWeights),
    description="squad to the goal on shortest routes, overwatch on the threat, rear guard, CP kept for reactions",
)
