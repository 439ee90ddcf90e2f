"""The heuristic Marine player (docs/playbook.md, "Marines"), and the novice variant's switches.

Stateless: every decision is recomputed from the state (with the Situation's exact memos), front Marine
first. A Marine shoots what he sees, flames groups, walks the squad along the precomputed shortest route to
the goal without running ahead, and ends his activation on overwatch (or guard) facing where the nearest
threat will come from; the last Marine covers the rear. Command points are kept for the Genestealer turn:
unjam, turn to face, shoot.

Moves are candidates → scores → choice: the rules list the moves a Marine is offered (`engine.rules.moves`,
with their AP cost), each is scored by small named terms (`_score_*`, each weighed by a field of
`MarineWeights`), and the best one that leaves the AP the Marine keeps is taken. A turn is scored by the step
it prepares (priced by the rules' `step_cost` for the new facing) and is offered only when that step follows
in the same activation, so a Marine never turns back and forth.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.ai import decisions as dec
from engine.ai.base import register
from engine.ai.situation import EnemyPicture, Situation, ThreatMap, observe
from engine.ai.tables import INF, downhill, facing_toward
from engine.ai.weights import MarineWeights, defaults, weights_from_params
from engine.rules.actions import FACES, PASS, Action, act
from engine.rules.board import DIR_VEC, FACE_VEC
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
from engine.rules.moves import (
    ASSAULT_COST,
    DOOR_COST,
    FLAME_COST,
    GUARD_COST,
    OVERWATCH_COST,
    SHOT_COST,
    UNJAM_COST,
    Move,
    piece_moves,
)

_STRONG_MELEE = frozenset({"thunder_hammer", "lightning_claws"})


WATCH_COST = max(OVERWATCH_COST, GUARD_COST)  # what a Marine keeps to end on overwatch or guard
_STEP_VERBS = ("move",)
_OTHER_VERBS = ("turn", "open", "close", "climb", "ride")


class _Squad:
    """Per-decision squad picture shared by every Marine considered."""

    __slots__ = (
        "D", "_cheapest", "carry_out", "cp_now", "hurry", "order", "pic", "radius", "reach", "rear", "sit", "tm",
    )

    def __init__(self, sit: Situation, D: list[int] | None, pic: EnemyPicture, radius: float, cp_now: int) -> None:
        self.sit = sit
        self.D = D
        self.pic = pic
        self.tm = pic.threat
        ms = sit.marines
        if D is not None:
            # Front to back by (distance to the goal, id): decorated in one list (no key call per Marine); ids
            # are unique, so the pieces themselves are never compared.
            self.order = [x[2] for x in sorted([(D[pc.sq], pc.id, pc) for pc in ms])]
        else:
            self.order = list(ms)
        self.radius = radius
        self.cp_now = cp_now
        self.rear = self.order[-1] if len(self.order) > 1 else None
        self.hurry = False
        self.reach = False  # the goal is within this turn's reach
        self.carry_out = sit.marine_goal_map_is_exit()  # the objective is in a Marine's hands, on its way out
        self._cheapest = -1

    def cheapest(self, pc: Any) -> int:
        """The AP of a Marine's cheapest move (a quarter turn, a door), by the rules' costs; the same for all."""
        c = self._cheapest
        if c < 0:
            c = self._cheapest = min(DOOR_COST, self.sit.state.turn_cost(pc, (pc.facing + 1) % 4))
        return c

    def on_way(self, t: int) -> bool:
        """Door square t lies on some Marine's shortest way to the goal (then it is not a flank door): the route
        he saves through it is as long as the walk to it, the door's opening included."""
        D = self.D
        if D is None:
            return False
        b = self.sit.board
        lvl = t // b.plane
        rng = b.rng
        dt = D[t]
        for pc in self.order:
            s = pc.sq
            if s // b.plane == lvl and D[s] - dt >= rng(s, t) + DOOR_COST:
                return True
        return False


class _Route:
    """What a Marine's moves are ranked against: his route map and the limits on his moves this decision."""

    __slots__ = ("D", "allowed", "back_ok", "guide", "here", "reserve")

    def __init__(self, D: list[int], here: int, allowed: float, reserve: int, back_ok: bool, guide: int) -> None:
        self.D = D
        self.here = here
        self.allowed = allowed  # the least route distance he may reach (he must not run ahead of the squad)
        self.reserve = reserve  # AP kept for overwatch or guard
        self.back_ok = back_ok  # the rear guard may step backwards
        self.guide = guide  # the square of the Marine ahead (-1: none)


# -- the scoring terms of a move (each weighed by a MarineWeights field) ----------------------------------------
def term_progress(w: MarineWeights, here: int, v: int) -> float:
    """Route gained (#10: keep moving to the objective)."""
    return w.progress * (here - v)


def term_ap(w: MarineWeights, cost: int) -> float:
    """AP spent, the prepared step included (a turn then a step costs 2, a step ahead 1)."""
    return w.ap_cost * cost


def term_side_doors(w: MarineWeights, sit: Situation, t: int) -> float:
    """Closed side doors beside square t: where a Genestealer bursts in (#12)."""
    nb = sit.board.nbr[t]
    closed = sit.state.closed
    return w.side_door * ((nb[0] in closed) + (nb[2] in closed) + (nb[4] in closed) + (nb[6] in closed))


def term_diagonal(w: MarineWeights, d: int) -> float:
    """A diagonal step, where a straight one is as short (straight steps keep the squad's file)."""
    return w.diagonal if d & 1 else 0.0


def term_file(w: MarineWeights, b: Any, t: int, guide: int) -> float:
    """Squares off the route of the Marine ahead (the squad must not split in a room)."""
    if guide < 0 or t // b.plane != guide // b.plane:
        return 0.0
    off: int = max(abs(b.xs[t] - b.xs[guide]), abs(b.ys[t] - b.ys[guide]))
    return w.keep_file * min(off, 4)


class MarinePlayer:
    """Scored, rule-of-thumb Marine player; `novice=True` gives the weaker habits of docs/playbook.md."""

    def __init__(self, params: dict[str, float] | None = None, *, novice: bool = False) -> None:
        self.params: dict[str, float] = dict(params or {})
        self.w = weights_from_params(MarineWeights, self.params)
        self.novice = novice
        self.name = "novice-marines" if novice else "heuristic-marines"
        self._scorers = {
            "move": self._score_step, "turn": self._score_turn, "open": self._score_open,
            "close": self._score_close, "climb": self._score_climb, "ride": self._score_climb,
        }

    # ------------------------------------------------------------------ entry point
    def choose(self, state: Any, actions: Sequence[Action], rng: random.Random) -> Action:
        """Pick one of the legal actions, reading only what the Marines may know (`observe`)."""
        obs = observe(state, "marines")
        sit = Situation(obs, actions)
        pending = obs.decision()
        # A Marine aboard a boarding torpedo comes out as soon as its ramp is free (docs/RULES.md, 15).
        out = dec.find(actions, "enter") if pending is None else None
        a = out or (self._phase(sit) if pending is None else self._decide(pending, sit))
        if a is None or a not in sit.legal:
            a = dec.find(actions, "pass") or actions[0]
        return a

    # ------------------------------------------------------------------ sub-decisions
    def _decide(self, pending: Decision, sit: Situation) -> Action | None:
        handler = _DECISIONS.get(type(pending))
        return handler(self, pending, sit) if handler is not None else None

    def _command(self, pending: Any, sit: Situation) -> Action | None:
        redraw = not self.novice and sit.state.cp <= self.w.redraw_below
        return act("cp", "redraw" if redraw else "keep")

    def _door_overwatch(self, pending: Any, sit: Situation) -> Action | None:
        # A closing door is not worth a jam; novices shoot at anything that moves.
        return dec.find(sit.actions, "fire" if self.novice else "hold")

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
        if g is None or g.sq < 0 or st.cp <= 0 or self.novice:
            return PASS
        return self._react_turn(sit, g) or self._react_unjam(sit, g) or self._react_shoot(sit, g) or PASS

    def _react_turn(self, sit: Situation, g: Any) -> Action | None:
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

    def _react_unjam(self, sit: Situation, g: Any) -> Action | None:
        """Clear the jam of a watching Marine who sees it: his overwatch then fires."""
        for m in sit.marines:
            if m.jam and m.ow and sit.sees(m, g.sq):
                a = act("unjam", m.id)
                if a in sit.legal:
                    return a
        return None

    def _react_shoot(self, sit: Situation, g: Any) -> Action | None:
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
        if self.novice or w.cp_reserve < 0.5:
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
        if sq.D is None or self.novice:
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
            if dist >= INF or dist > 2.6 * max(left, 1) - 2:
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
        if self.novice:
            return None
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

    def _plan(self, pc: Any, sq: _Squad) -> Action | None:
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

    def _stand(self, pc: Any, sq: _Squad) -> Action:
        f = self._threat_facing(pc, sq.sit, sq.tm)
        if f is None:
            f = self._path_facing(pc.sq, sq.D, sq.sit) if sq.D is not None else 0
        return act("stand", pc.id, FACES[f if f is not None and f >= 0 else 0])

    def _mission_action(self, pc: Any, sq: _Squad, ap: int) -> Action | None:
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
            or (sq.carry_out and (pc.carry or self.novice or self._carrier_near(sq)))
        ):
            a = act("exit", pc.id)
            if a in sit.legal:
                return a
        return None

    def _carrier_near(self, sq: _Squad) -> bool:
        D = sq.D
        return D is not None and any(pc.carry and D[pc.sq] <= self.w.escort_exit for pc in sq.order)

    def _fight(self, pc: Any, sq: _Squad, ap: int) -> Action | None:
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

    def _strike(self, pc: Any, sit: Situation, ap: int) -> Action | None:
        """Assault a Genestealer in front, for Marines who win in melee (#7) or cannot shoot."""
        front = sit.board.nbr[pc.sq][pc.facing * 2]
        if front < 0 or ap < ASSAULT_COST:
            return None
        st = sit.state
        tid = st.occ.get(front)
        if tid is None or st.p[tid].kind != "stealer":
            return None
        if pc.ranged == "none" or pc.jam or pc.melee in _STRONG_MELEE or self.novice:
            return act("assault", pc.id, tid)
        return None

    def _shoot(self, pc: Any, targets: list[Action], ap: int, sit: Situation) -> Action | None:
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
        if self.novice or pc.ow:
            return best[1]
        # With only the AP for overwatch left, overwatch usually beats shots now (every action in view is a
        # shot), unless the target is already close enough to strike first.
        if (
            ap > OVERWATCH_COST
            or best[0] <= 2
            or self.w.aggression >= 0.8
            or (pc.ranged == "assault_cannon" and ap >= SHOT_COST)
        ):
            return best[1]
        return None

    def _flame(self, pc: Any, mine: Sequence[Action] | None, sit: Situation) -> Action | None:
        """The flamer shot worth taking; `mine` is his list of flamer shots (None: ask the rules)."""
        need = 0.5 if self.novice else self.w.flamer_min
        if mine is None:
            # A shot is worth something only with an enemy in its section; none in any section his flamer
            # could reach from here means every shot is worth 0 or less, below any positive bar (see below).
            bar = need + (0.8 if pc.ammo <= 2 and not self.novice else 0.0)
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
        if not self.novice and best[0] > 0 and self._flamer_on_his_own(pc, sit):
            need = min(need, 0.8)
        # Fuel is finite: a last shot is kept for a real group.
        if pc.ammo <= 2 and not self.novice:
            need += 0.8
        return best[1] if best[0] >= need else None

    def _flamer_on_his_own(self, pc: Any, sit: Situation) -> bool:
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
        """Expected kills of a flamer shot at square t's section: 5/6 a Genestealer, 1.5 a blip; None when a
        Marine stands in it (the flamer kills him on a 2+; a novice counts him -4 and may burn him)."""
        st = sit.state
        occ = st.occ
        v = 0.0
        for s in sit.board.section_squares(t):
            oid = occ.get(s)
            if oid is None:
                continue
            kind = st.p[oid].kind
            if kind == "marine":
                if not self.novice:
                    return None
                v -= 4.0
            else:
                v += 5 / 6 if kind == "stealer" else 1.5
        return v

    def _move(self, pc: Any, sq: _Squad, ap: int) -> Action | None:
        """The best of the moves the rules offer him (candidates → scores → choice), or None to stay."""
        r = self._route(pc, sq)
        if r is None:
            return None
        bound = self._bound(pc, r, sq, ap)
        if bound is None:
            return None  # no move could score: the rules need not be asked
        sit = sq.sit
        st = sit.state
        of = sit.of
        score = self._scorers
        best: tuple[float, Action] | None = None
        # His steps first; the other moves only when one of them could still beat the best step.
        for verbs in (_STEP_VERBS, _OTHER_VERBS):
            for m in piece_moves(st, pc.id, of, verbs):
                v = score[m.verb](pc, m, r, sq, ap)
                if v is not None and (best is None or v > best[0]):
                    best = (v, m.action)
            if best is not None and best[0] >= bound:
                break
        return best[1] if best is not None else None

    def _bound(self, pc: Any, r: _Route, sq: _Squad, ap: int) -> float | None:
        """The most a move other than a step could score (every term but progress subtracts), or None when no
        move at all could score: he cannot pay the cheapest move and keep his reserve, or no free square one
        step (or a ladder) away gains route within his limits and no door he could close is near."""
        if ap - sq.cheapest(pc) < r.reserve:
            return None
        st = sq.sit.state
        w = self.w
        D = r.D
        here, allowed = r.here, r.allowed
        occ = st.occ
        gain = 0
        for t in sq.sit.gt.mt.steps[pc.sq]:
            if allowed <= D[t] < here and here - D[t] > gain and t not in occ:
                gain = here - D[t]
        bound = w.progress * gain - 2 * w.ap_cost if gain else -INF  # a turn (or a door) and the step after it
        sit = sq.sit
        lad = sit.state.feat.ladder.get(pc.sq)
        if lad is not None and allowed <= D[lad] < here:
            bound = max(bound, w.progress * (here - D[lad]) - w.ap_cost)
        for t in sit.gt.lift_dest.get(pc.sq, ()):
            if allowed <= D[t] < here:
                bound = max(bound, w.progress * (here - D[t]) - w.ap_cost)
        if not self.novice and sit.enemies and sit.board.doors_near(pc.sq, pc.facing):
            bound = max(bound, w.close_flank)
        return None if bound == -INF and not gain else bound

    def _route(self, pc: Any, sq: _Squad) -> _Route | None:
        """His route map and the limits on his moves this decision (None: he holds where he is)."""
        D = sq.D
        if D is None:
            return None
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
        if len(order) > 1 and not self.novice:
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
        return _Route(D, here, self._allowed(pc, sq, D, idx), self._reserve(pc, sq, role), back_ok, guide)

    def _guards_rear(self, pc: Any, sq: _Squad) -> bool:
        """The last Marine covers the rear (#4) when a threat near comes from behind; not the carrier, who walks
        on (the squad waits for him, he does not wait for it)."""
        return (
            not pc.carry
            and self.w.rear_guard >= 0.5
            and sq.tm.within(pc.sq, sq.radius)
            and self._threat_behind(pc, sq)
        )

    def _reserve(self, pc: Any, sq: _Squad, role: str) -> int:
        """The AP he keeps for overwatch or guard: when threatened in front, at the rear or close; else none."""
        if self.novice or sq.hurry or not sq.tm.within(pc.sq, sq.radius):
            return 0
        if role in ("lead", "rear") or len(sq.order) == 1 or sq.tm.within(pc.sq, sq.radius / 2):
            return WATCH_COST
        return 0

    def _allowed(self, pc: Any, sq: _Squad, D: list[int], idx: int) -> float:
        """The least route distance he may reach: no more than `gap` ahead of the Marine behind him after that
        one's move (the carrier: `carrier_gap`, and no dash bonus unless the goal is within this turn's reach)."""
        order = sq.order
        if self.novice or idx + 1 >= len(order):
            return -INF
        w = self.w
        fol = order[idx + 1]
        exp = int(sq.sit.state.ap_budget(fol, cp=0)) if fol.st == 0 else 0  # (his AP, if he may still activate)
        if pc.carry and not sq.reach:
            return float(D[fol.sq] - exp - (w.carrier_gap + 1))
        return float(D[fol.sq] - exp - (w.gap + 1) - (4 if sq.hurry else 0))

    # -- scoring terms of a move: each returns the move's score, or None when it is not a candidate -------------
    def _score_step(self, pc: Any, m: Move, r: _Route, sq: _Squad, ap: int) -> float | None:
        t = m.to
        if m.jump or t in sq.sit.state.flames:
            return None
        v = r.D[t]
        if v >= r.here or v < r.allowed or ap - m.cost < r.reserve:
            return None
        if _AHEAD[pc.facing][m.d] and not r.back_ok:
            return None  # only the rear guard walks backwards (still facing the threat); the others turn first
        return self._value(t, v, m.cost, r, sq.sit) - term_diagonal(self.w, m.d)

    def _score_turn(self, pc: Any, m: Move, r: _Route, sq: _Squad, ap: int) -> float | None:
        """A turn is worth the forward step it prepares, priced for the new facing, if that step follows now."""
        sit = sq.sit
        st = sit.state
        f = m.facing
        step_cost = st.step_cost
        occ, flames, closed = st.occ, st.flames, st.closed
        best: float | None = None
        for t, d in sit.gt.mt.step_dirs[pc.sq]:
            if _AHEAD[f][d] or t in occ or t in flames or t in st.barriers:
                continue
            v = r.D[t]
            if v >= r.here or v < r.allowed:
                continue
            c = step_cost(pc, d, t, f)
            if c is None or not st.diag_ok(pc.sq, d):
                continue
            door = t in closed
            c += DOOR_COST if door else 0
            if ap - m.cost - c < r.reserve:
                continue
            val = self._value(t, v, m.cost + c, r, sit) - term_diagonal(self.w, d) - (self.w.open_door if door else 0.0)
            if best is None or val > best:
                best = val
        return best

    def _score_open(self, pc: Any, m: Move, r: _Route, sq: _Squad, ap: int) -> float | None:
        """Opening a door on the way: worth the step through it, less `open_door` (#12)."""
        t = m.door_sq
        v = r.D[t]
        if v >= r.here or v < r.allowed or ap - m.cost < r.reserve:
            return None
        return self._value(t, v, m.cost + 1, r, sq.sit) - self.w.open_door

    def _score_climb(self, pc: Any, m: Move, r: _Route, sq: _Squad, ap: int) -> float | None:
        v = r.D[m.to]
        if v >= r.here or v < r.allowed or ap - m.cost < r.reserve:
            return None
        return term_progress(self.w, r.here, v) - term_ap(self.w, m.cost)

    def _score_close(self, pc: Any, m: Move, r: _Route, sq: _Squad, ap: int) -> float | None:
        """Closing a door off every Marine's way cuts an approach on the flank (#12)."""
        if self.novice or not sq.sit.enemies or ap - m.cost < r.reserve:
            return None
        if sq.on_way(m.door_sq):
            return None
        return self.w.close_flank

    def _value(self, t: int, v: int, cost: int, r: _Route, sit: Situation) -> float:
        """A step's worth onto square t (route distance v) for `cost` AP: the sum of its terms."""
        w = self.w
        return (
            term_progress(w, r.here, v)
            - term_ap(w, cost)
            - term_side_doors(w, sit, t)
            - term_file(w, sit.board, t, r.guide)
        )

    def _next_step(self, s: int, D: list[int], sit: Situation) -> int:
        return downhill(D, sit.gt.mt.steps[s], s)

    def _threat_behind(self, pc: Any, sq: _Squad) -> bool:
        """The nearest enemy reaches this Marine from the side away from the goal."""
        D = sq.D
        if D is None:
            return True
        n = sq.tm.toward(pc.sq, sq.sit.gt.mt.steps[pc.sq])
        return n >= 0 and D[n] >= D[pc.sq]

    def _threat_facing(self, pc: Any, sit: Situation, tm: ThreatMap) -> int | None:
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

    def _settle(self, pc: Any, sq: _Squad, ap: int) -> Action | None:
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
        if watch is None or (blind and not self.novice):
            return None  # (overwatch or guard on a wall watches nothing)
        return watch if watch in sit.legal else None

    def _watch(self, pc: Any, sq: _Squad) -> Action | None:
        """What he would end on: overwatch for a gunner, guard for a melee Marine when a fight is coming (#7)."""
        shooter = pc.ranged in ("storm_bolter", "assault_cannon") and pc.melee not in _STRONG_MELEE
        if shooter:
            return None if pc.ow else act("overwatch", pc.id)
        if not pc.guard and (sq.tm.within(pc.sq, sq.radius) or pc.ranged == "none"):
            return act("guard", pc.id)
        return None

    def _watch_facing(self, pc: Any, sq: _Squad, ap: int) -> int | None:
        """Where he should face on watch: the threat (#1), the way back for the rear guard (#4), else the longest
        open line; never a wall."""
        if self.novice or pc.ow or pc.guard:
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


def _line(sit: Situation, s: int, f: int, most: int = 6) -> int:
    """How many squares lie straight ahead of square s facing f (up to `most`) to a wall, a closed door counting
    as one (a Genestealer opening it stands in the line): 0 is a wall in front."""
    nbr = sit.board.nbr
    closed = sit.state.closed
    d = f * 2
    n = 0
    t = nbr[s][d]
    while t >= 0 and n < most:
        n += 1
        if t in closed:
            break
        t = nbr[t][d]
    return n



# Who answers each decision (MarinePlayer._decide).
_DECISIONS: dict[type, Any] = {
    CommandDecision: MarinePlayer._command,
    OverwatchDecision: lambda self, pending, sit: dec.find(sit.actions, "fire"),
    DoorOverwatchDecision: MarinePlayer._door_overwatch,
    ParryDecision: lambda self, pending, sit: dec.parry(pending.roll, sit.actions),
    GuardDecision: lambda self, pending, sit: dec.guard_reroll(pending.roll, sit.actions),
    PsiDecision: lambda self, pending, sit: dec.psi_points(pending.roll, sit.actions),
    ReactionDecision: lambda self, pending, sit: self._react(sit, pending.genestealer),
    PutDecision: lambda self, pending, sit: self._put_away(sit),
    TurnToFaceDecision: lambda self, pending, sit: act("face", pending.piece, FACES[pending.facing]),
    FaceDecision: lambda self, pending, sit: self._face(sit, pending.piece),
    RetreatDecision: MarinePlayer._retreat,
    DeployDecision: lambda self, pending, sit: self._deploy(sit),
}
# _AHEAD[facing][d]: 0 when a step in direction d goes forward for that facing (positive dot product), else 1.
_AHEAD = [tuple(0 if DIR_VEC[d][0] * fx + DIR_VEC[d][1] * fy > 0 else 1 for d in range(8)) for fx, fy in FACE_VEC]


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
