"""The heuristic Marine player (docs/playbook.md, "Marines"), and the novice variant's switches.

Stateless: every decision is recomputed from the state (with the Situation's exact memos), front Marine
first. A Marine shoots what he sees, flames groups, walks the squad along the precomputed shortest route to
the goal without running ahead, and ends his activation on overwatch (or guard) facing where the nearest
threat will come from; the last Marine covers the rear. Command points are kept for the Genestealer turn:
unjam, turn to face, shoot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.ai import decisions as dec
from engine.ai.base import register
from engine.ai.situation import EnemyPicture, Situation, ThreatMap, observe
from engine.ai.tables import INF, facing_toward
from engine.ai.weights import MarineWeights, defaults, weights_from_params
from engine.rules.actions import DIRS, FACES, PASS, Action, act
from engine.rules.board import DIR_VEC, FACE_VEC
from engine.rules.decisions import (
    CommandDecision,
    Decision,
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

_STRONG_MELEE = frozenset({"thunder_hammer", "lightning_claws"})


class _Squad:
    """Per-decision squad picture shared by every Marine considered."""

    __slots__ = ("D", "cp_now", "hurry", "order", "pic", "radius", "rear", "sit", "tm")

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


class MarinePlayer:
    """Scored, rule-of-thumb Marine player; `novice=True` gives the weaker habits of docs/playbook.md."""

    def __init__(self, params: dict[str, float] | None = None, *, novice: bool = False) -> None:
        self.params: dict[str, float] = dict(params or {})
        self.w = weights_from_params(MarineWeights, self.params)
        self.novice = novice
        self.name = "novice-marines" if novice else "heuristic-marines"

    # ------------------------------------------------------------------ entry point
    def choose(self, state: Any, actions: Sequence[Action], rng: random.Random) -> Action:
        """Pick one of the legal actions, reading only what the Marines may know (`observe`)."""
        obs = observe(state, "marines")
        sit = Situation(obs, actions)
        pending = obs.decision()
        a = self._phase(sit) if pending is None else self._decide(pending, sit)
        if a is None or a not in sit.legal:
            a = dec.find(actions, "pass") or actions[0]
        return a

    # ------------------------------------------------------------------ sub-decisions
    def _decide(self, pending: Decision, sit: Situation) -> Action | None:
        st = sit.state
        actions = sit.actions
        if isinstance(pending, CommandDecision):
            redraw = not self.novice and st.cp <= self.w.redraw_below
            return act("cp", "redraw" if redraw else "keep")
        if isinstance(pending, OverwatchDecision):
            return dec.find(actions, "fire")
        if isinstance(pending, DoorOverwatchDecision):
            # A closing door is not worth a jam; novices shoot at anything that moves.
            return dec.find(actions, "fire" if self.novice else "hold")
        if isinstance(pending, ParryDecision):
            return dec.parry(pending.roll, actions)
        if isinstance(pending, GuardDecision):
            return dec.guard_reroll(pending.roll, actions)
        if isinstance(pending, PsiDecision):
            return dec.psi_points(pending.roll, actions)
        if isinstance(pending, ReactionDecision):
            return self._react(sit, pending.genestealer)
        if isinstance(pending, PutDecision):
            return self._put_away(sit)
        if isinstance(pending, TurnToFaceDecision):
            return act("face", pending.piece, FACES[pending.facing])
        if isinstance(pending, FaceDecision):
            return self._face(sit, pending.piece)
        if isinstance(pending, RetreatDecision):
            D = sit.marine_goal_map()
            best: tuple[int, Action] | None = None
            for a in actions:
                if a.verb == "retreat":
                    t = sit.board.parse_sq(a.args[1])
                    v = D[t] if D is not None else 0
                    if best is None or v < best[0]:
                        best = (v, a)
            return best[1] if best else PASS
        return None

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
        b = sit.board
        legal = sit.legal
        for m in sit.marines:
            if m.prone:
                continue
            for d in (0, 2, 4, 6):
                if b.nbr[m.sq][d] == g.sq and d != m.facing * 2:
                    a = act("turn", m.id, FACES[d // 2])
                    if a in legal:
                        return a
        for m in sit.marines:
            if m.jam and m.ow and sit.sees(m, g.sq):
                a = act("unjam", m.id)
                if a in legal:
                    return a
        best: tuple[int, Action] | None = None
        for m in sit.marines:
            a = act("shoot", m.id, gid)
            if a not in legal:
                continue
            if m.ow and not m.jam:
                continue  # shooting would end his overwatch, which fires for free after this reaction
            r = b.rng(m.sq, g.sq)
            if r > self.w.react_range:
                continue
            key = r
            if best is None or key < best[0]:
                best = (key, a)
        return best[1] if best else PASS

    # ------------------------------------------------------------------ action phase
    def _phase(self, sit: Situation) -> Action | None:
        st = sit.state
        if not sit.marines:
            return PASS
        D = sit.marine_goal_map()
        w = self.w
        radius = w.threat_radius * (0.5 + w.caution)
        sq = _Squad(sit, D, sit.enemy_picture(), radius, 0)
        sq.hurry = self._behind_schedule(sit, sq)
        # Command points buy reactions in the Genestealer turn; spend them now only when dashing, or while no
        # enemy is within keep_cp_within of the squad (the nearest enemy's cost to a Marine is above it).
        if self.novice or w.cp_reserve < 0.5 or sq.hurry:
            sq.cp_now = st.cp
        elif st.cp:  # (with no CP left there is nothing to decide)
            within = sq.tm.within
            keep = w.keep_cp_within
            for pc in sit.marines:
                if within(pc.sq, keep):
                    break
            else:
                sq.cp_now = st.cp
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
        sit = sq.sit
        st = sit.state
        b = sit.board
        pid = pc.id
        # Of a Marine's own actions only his shots and flamer shots are read whole, and only when they may matter;
        # the rest is asked one action at a time.
        # What he may spend: the rules' budget with the command points the squad spends now (none of them when it
        # keeps them for the Genestealer turn); only CP once his activation is over or the activations are used up.
        ap = st.ap_budget(pc, cp=sq.cp_now)
        if ap <= 0 and not pc.free:
            return None
        if pc.prone:
            f = self._threat_facing(pc, sit, sq.tm)
            if f is None:
                f = self._path_facing(pc.sq, sq.D, sit) if sq.D is not None else 0
            return act("stand", pid, FACES[f if f is not None and f >= 0 else 0])
        goal = sit.goal
        flames: list[Action] | None = None
        # The mission's own target first: flame the section, leave by the exit.
        if goal.kind == "flame" and pc.ranged == "heavy_flamer":
            flames = sit.actions_of(pid, "flame")
            for a in flames:
                t = b.parse_sq(a.args[1])
                if (t // b.plane, b.section[t]) == goal.flame_key:
                    return a
        if pc.sq in b.exit_at and (
            (goal.kind == "escape" and "exit" in goal.via) or (goal.kind == "carry" and sit.marine_goal_map_is_exit())
        ):
            a = act("exit", pid)
            if a in sit.legal:
                return a
        # "Threatened" (an enemy within the threat radius) is asked only where it decides something.
        p = st.p
        # His shots at Genestealers (not at doors): none to ask about while no Genestealer is on the board.
        targets = [a for a in sit.actions_of(pid, "shoot") if a.args[1] in p] if sq.pic.stealer_squares else []
        if pc.jam and ap >= 1 and (targets or sq.tm.within(pc.sq, sq.radius)):
            return act("unjam", pid)
        if targets:
            shot = self._shoot(pc, targets, ap, sit)
            if shot is not None:
                return shot
        if pc.ranged == "heavy_flamer" and ap >= 2:
            burn = self._flame(pc, flames, sit)
            if burn is not None:
                return burn
        front = b.nbr[pc.sq][pc.facing * 2]
        if front >= 0 and ap >= 1:
            tid = st.occ.get(front)
            if (
                tid is not None
                and p[tid].kind == "stealer"
                and (pc.ranged == "none" or pc.jam or pc.melee in _STRONG_MELEE or self.novice)
            ):
                return act("assault", pid, tid)
        step = self._move(pc, sq, ap)
        if step is not None:
            return step
        return self._settle(pc, sq, ap)

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
        if ap < 1:
            return None
        if self.novice or pc.ow:
            return best[1]
        # With exactly 2 AP left, overwatch usually beats two shots now (every action in view is a shot),
        # unless the target is already close enough to strike first.
        if ap > 2 or best[0] <= 2 or self.w.aggression >= 0.8 or (pc.ranged == "assault_cannon" and ap >= 1):
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
        st = sit.state
        best: tuple[float, Action] | None = None
        for a in mine:
            if a.verb != "flame":
                continue
            t = b.parse_sq(a.args[1])
            v = 0.0
            for s in b.section_squares(t):
                oid = st.occ.get(s)
                if oid is None:
                    continue
                q = st.p[oid]
                if q.kind == "marine":
                    v -= 4.0
                elif q.kind == "stealer":
                    v += 5 / 6
                else:
                    v += 1.5
            if best is None or v > best[0]:
                best = (v, a)
        if best is None:
            return None
        # A Genestealer about to strike is worth a shot on its own: the glove loses most fights.
        if not self.novice and best[0] > 0 and sit.enemy_picture().threat.within(pc.sq, 2):
            need = min(need, 0.8)
        # Fuel is finite: a last shot is kept for a real group.
        if pc.ammo <= 2 and not self.novice:
            need += 0.8
        return best[1] if best[0] >= need else None

    def _move(self, pc: Any, sq: _Squad, ap: int) -> Action | None:
        D = sq.D
        if D is None:
            return None
        sit = sq.sit
        if sit.goal.kind == "flame" and pc.ranged != "heavy_flamer":
            D = sit.marine_goal_map(flamer=False) or D
        st = sit.state
        b = sit.board
        s = pc.sq
        w = self.w
        order = sq.order
        idx = order.index(pc) if pc in order else 0
        role = "middle"
        if len(order) > 1 and not self.novice:
            role = "lead" if idx == 0 else ("rear" if pc is sq.rear else "middle")
        hurry = sq.hurry
        reserve = 0
        if not self.novice and not hurry and sq.tm.within(s, sq.radius):  # threatened
            if role == "lead" or role == "rear" or sq.tm.within(s, sq.radius / 2) or len(order) == 1:
                reserve = 2
        back_ok = False
        allowed = -INF
        if role == "rear" and w.rear_guard >= 0.5 and sq.tm.within(s, sq.radius) and self._threat_behind(pc, sq):
            ahead = order[-2]
            if D[s] - D[ahead.sq] <= w.gap + 1:
                return None
            f = self._threat_facing(pc, sit, sq.tm)
            if f is not None and f != pc.facing:
                return None  # turn to face it first (the activation ends on overwatch)
            back_ok = True  # shuffle backwards, still facing the threat
        if not self.novice and idx + 1 < len(order):
            fol = order[idx + 1]
            exp = sit.state.ap_budget(fol, cp=0) if fol.st == 0 else 0  # (his AP, if he may still activate)
            allowed = D[fol.sq] - exp - (w.gap + 1) - (4 if hurry else 0)
        here = D[s]
        if here >= INF:
            return None
        # The ladder, if climbing it is the way.
        lad = st.feat.ladder.get(s)
        best_t, best_v, best_d = -1, here, 0
        # Among equally short steps, stay on the route of the Marine ahead (the squad must not split),
        # then prefer a step that needs no turn.
        guide = order[idx - 1].sq if idx > 0 else -1
        best_key: tuple[int, int, int, int, int, int] | None = None
        ahead_of = _AHEAD[pc.facing]
        closed = st.closed
        occ = st.occ
        flames = st.flames
        nbr = b.nbr
        plane = b.plane
        # Board.rng(t, guide) over the tabulated coordinates, for a guide on t's level.
        xs = b.xs
        ys = b.ys
        g_lvl = guide // plane if guide >= 0 else -1
        gx = xs[guide]
        gy = ys[guide]
        for t, d in sit.gt.mt.step_dirs[s]:
            v = D[t]
            if v >= here or t in occ or t in flames:
                continue
            near = max(abs(xs[t] - gx), abs(ys[t] - gy)) if t // plane == g_lvl else 0
            # A closed door on an equally short way stays shut: opening it costs AP and opens a flank; the
            # square beside a closed side door is where a Genestealer bursts in; straight ahead keeps the file.
            nb = nbr[t]
            beside = (nb[0] in closed) + (nb[2] in closed) + (nb[4] in closed) + (nb[6] in closed)
            # The facing only breaks the last tie: a choice that flips with the facing makes a Marine turn
            # back and forth on the spot.
            key = (v, 1 if t in closed else 0, beside, d % 2, near, ahead_of[d])
            if best_key is None or key < best_key:
                best_key, best_t, best_v, best_d = key, t, v, d
        if lad is not None and D[lad] + 3 <= best_v and lad not in st.occ and ap - 2 >= reserve:
            a = act("climb", pc.id)
            if a in sit.legal:
                return a
        if best_t < 0 or best_v < allowed:
            return None
        did = st.closed.get(best_t)
        if did is not None:
            a = act("open", pc.id, did)
            if a in sit.legal and ap - 1 >= reserve:
                return a
            if a in sit.legal:
                return None
        d = best_d  # the direction of the step s -> best_t
        dx, dy = DIR_VEC[d]
        fx, fy = FACE_VEC[pc.facing]
        dot = dx * fx + dy * fy
        cost = 1 + (1 if best_t in st.feat.rubble else 0)
        if dot < 0 and back_ok:
            cost += 1
            if ap - cost >= reserve:
                a = act("move", pc.id, DIRS[d])
                if a in sit.legal:
                    return a
            return None
        if dot > 0:
            if ap - cost >= reserve:
                a = act("move", pc.id, DIRS[d])
                if a in sit.legal:
                    return a
            return None
        # Turn toward the step; for a diagonal step pick the facing that also suits the step after it.
        nxt = self._next_step(best_t, D, sit)
        cands = [f for f in range(4) if FACE_VEC[f][0] * dx + FACE_VEC[f][1] * dy > 0]
        f_best = cands[0]
        if len(cands) > 1 and nxt >= 0:
            nd = DIR_VEC[_dir_index(b, best_t, nxt)]
            f_best = max(cands, key=lambda f: (FACE_VEC[f][0] * nd[0] + FACE_VEC[f][1] * nd[1], -f))
        tcost = 2 if (f_best - pc.facing) % 4 == 2 else 1
        if ap - tcost - cost >= reserve:
            a = act("turn", pc.id, FACES[f_best])
            if a in sit.legal:
                return a
        return None

    def _next_step(self, s: int, D: list[int], sit: Situation) -> int:
        best_t, best_v = -1, D[s]
        for t in sit.gt.mt.steps[s]:
            if D[t] < best_v:
                best_t, best_v = t, D[t]
        return best_t

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
        """End the activation usefully: face the threat, then overwatch (or guard for melee Marines)."""
        if ap < 2:
            return None
        sit = sq.sit
        legal = sit.legal
        # The facing is read only off overwatch and guard, and with AP for a turn and the overwatch after it.
        if self.novice or pc.ow or pc.guard or ap < 3:
            f = None
        else:
            f = self._threat_facing(pc, sit, sq.tm)
            if f is None and sq.D is not None and sq.rear is not None and pc is sq.rear and self.w.rear_guard >= 0.5:
                f = (self._path_facing(pc.sq, sq.D, sit) + 2) % 4
        if f is not None and f != pc.facing:
            tcost = 2 if (f - pc.facing) % 4 == 2 else 1
            if ap - tcost >= 2:
                a = act("turn", pc.id, FACES[f])
                if a in legal:
                    return a
        shooter = pc.ranged in ("storm_bolter", "assault_cannon") and pc.melee not in _STRONG_MELEE
        if shooter and not pc.ow:
            a = act("overwatch", pc.id)
            if a in legal:
                return a
        if not shooter and not pc.guard and (sq.tm.within(pc.sq, sq.radius) or pc.ranged == "none"):
            a = act("guard", pc.id)
            if a in legal:
                return a
        return None


def _dir_index(b: Any, s: int, t: int) -> int:
    w = b.W
    dx = t % w - s % w
    dy = (t % b.plane) // w - (s % b.plane) // w
    dx = (dx > 0) - (dx < 0)
    dy = (dy > 0) - (dy < 0)
    return _DIR_OF[(dx, dy)]


_DIR_OF = {v: i for i, v in enumerate(DIR_VEC)}
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
