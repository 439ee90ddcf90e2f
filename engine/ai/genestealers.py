"""The heuristic Genestealer player (docs/playbook.md, "Genestealers"), and the novice variant's switches.

Distances are "walking cost to an attack square": the squares orthogonally next to a Marine, where a
Genestealer can strike; the Marine's front square costs `flank` more, so paths come round the side. Blips
close in unseen (the rules keep them out of sight) and convert when near; Genestealers wait out of the
overwatch arcs at a stand-off distance until enough are gathered, or the path is cheap in expected
overwatch shots, or the watcher has jammed — then they charge together and strike.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.ai import decisions as dec
from engine.ai.base import register
from engine.ai.situation import Situation, observe
from engine.ai.tables import INF, LazyMap
from engine.ai.weights import GenestealerWeights, defaults, weights_from_params
from engine.rules.actions import DIRS, FACES, PASS, Action, act
from engine.rules.board import DIR_VEC, FACE_VEC
from engine.rules.decisions import (
    Decision,
    FaceDecision,
    LurkDecision,
    PutDecision,
    ScuttleDecision,
    ShoveDecision,
    TurnToFaceDecision,
)


class _Field:
    """Per-decision picture: attack-distance map, the Marines on overwatch, how many models are close.

    Most decisions are a blip's next step, which needs none of the group picture: every part is computed
    on first use (the state does not change during a decision, so the answers are the same).
    """

    __slots__ = ("_danger", "_near", "_reach", "_route", "_urgent", "_watchers", "dm", "ow_range", "player", "sit")

    def __init__(self, sit: Situation, dm: list[int], reach: float, player: GenestealerPlayer) -> None:
        self.sit = sit
        self.dm = dm
        self.player = player
        self._reach = reach
        self.ow_range = sit.state.game.ow_range
        self._watchers: list[Any] | None = None
        self._near: int | None = None
        self._route: list[int] | None = None
        self._urgent: bool | None = None
        # The state is fixed for the decision, so a square's danger is too; paths and moves overlap.
        self._danger: dict[int, float] = {}

    @property
    def watchers(self) -> list[Any]:
        """The Marines whose overwatch can fire."""
        w = self._watchers
        if w is None:
            w = self._watchers = [m for m in self.sit.marines if m.ow and not m.jam and not m.prone]
        return w

    @property
    def near(self) -> int:
        """Models (a blip counts its value) within `reach` of an attack square."""
        n = self._near
        if n is None:
            dm = self.dm
            reach = self._reach
            n = 0
            blip_value = self.sit.state.blip_value  # (the Genestealers know their own blips' values)
            for pc in self.sit.enemies:
                if pc.sq >= 0 and dm[pc.sq] <= reach:
                    n += blip_value(pc.id) if pc.kind == "blip" else 1
            self._near = n
        return n

    @property
    def route(self) -> list[int]:
        """The blips' map: attack squares and the Marines' route ahead (only a blip on the board asks)."""
        r = self._route
        if r is None:
            r = self._route = self.player._route_map(self.sit, self.dm)
        return r

    @property
    def urgent(self) -> bool:
        """The Marines are about to reach their goal."""
        u = self._urgent
        if u is None:
            u = self._urgent = self.player._urgent(self.sit)
        return u

    def danger(self, t: int) -> float:
        """Expected overwatch shots (plus a little for CP reactions) for an action ending on square t."""
        n = self._danger.get(t)
        if n is None:
            n = self._danger[t] = self._compute_danger(t)
        return n

    def _compute_danger(self, t: int) -> float:
        st = self.sit.state
        b = self.sit.board
        n = 0.0
        lvl = t // b.plane
        for m in self.watchers:
            if (m.sq // b.plane != lvl or b.rng(m.sq, t) <= self.ow_range) and st.sees(m, t):
                n += 1.0
        if st.cp > 0 and n == 0.0:
            for m in self.sit.marines:
                if m.sq // b.plane == lvl and not m.ow and b.rng(m.sq, t) <= 6 and st.sees(m, t):
                    n += 0.3
                    break
        return n


class GenestealerPlayer:
    """Scored, rule-of-thumb Genestealer player; `novice=True` plays the simple solo-rules way."""

    def __init__(self, params: dict[str, float] | None = None, *, novice: bool = False) -> None:
        self.params: dict[str, float] = dict(params or {})
        self.w = weights_from_params(GenestealerWeights, self.params)
        self.novice = novice
        self.name = "novice-genestealers" if novice else "heuristic-genestealers"
        # Last results of the pure map builders (see _attack_seeds); identity-checked, never mutated.
        self._seed_memo: tuple[Any, tuple[tuple[str, int, int, bool], ...], list[tuple[int, int]], Situation] | None = (
            None
        )
        self._map_memo: tuple[list[tuple[int, int]], list[int]] | None = None
        # The attack map of those seeds worked out only as far as a facing decision read it (see _face).
        self._lazy_memo: tuple[list[tuple[int, int]], LazyMap] | None = None
        self._route_memo: tuple[list[tuple[int, int]], list[int], list[int]] | None = None
        # The map of the set-up's entry choices (see _lurk_lazy), for its attack seeds and goal map (or None).
        self._setup_memo: tuple[list[tuple[int, int]], list[int] | None, LazyMap] | None = None

    def choose(self, state: Any, actions: Sequence[Action], rng: random.Random) -> Action:
        """Pick one of the legal actions, reading only what the Genestealers may know (`observe`)."""
        obs = observe(state, "genestealers")
        sit = Situation(obs, actions)
        pending = obs.decision()
        a = self._phase(sit) if pending is None else self._decide(pending, sit)
        if a is None or a not in sit.legal:
            a = dec.find(actions, "pass") or actions[0]
        return a

    # ------------------------------------------------------------------ maps
    def _attack_seeds(self, sit: Situation) -> list[tuple[int, int]]:
        """Attack squares with their starting cost: 0 beside or behind a Marine, `flank` in front of him."""
        # The seeds depend only on where the Marines stand and face, which rarely changes between two
        # Genestealer decisions (a whole phase of blip steps): memoise on that signature and the game.
        memo = self._seed_memo
        if memo is not None and memo[3] is sit:
            return memo[2]  # asked again within the same decision
        # The rules' own record of the Marines' poses: the same tuple object while none of them changed.
        sig = sit.state.marine_poses()
        if memo is not None and memo[0] is sit.gt and (memo[1] is sig or memo[1] == sig):
            self._seed_memo = (memo[0], sig, memo[2], sit)
            return memo[2]
        seeds = self._build_seeds(sit)
        self._seed_memo = (sit.gt, sig, seeds, sit)
        return seeds

    def _build_seeds(self, sit: Situation) -> list[tuple[int, int]]:
        b = sit.board
        st = sit.state
        flank = 0 if self.novice else int(self.w.flank)
        # When only the flamer can win the mission, the others are worth less: strike him first.
        key = 0 if self.novice or sit.goal.kind != "flame" else int(self.w.key_target)
        # ... and he is struck by the shortest way: the walk round to his side gives him the time to burn it.
        key_front = int(self.w.key_flank) if not self.novice and sit.goal.kind == "flame" else flank
        seeds: list[tuple[int, int]] = []
        for m in sit.marines:
            nb = b.nbr[m.sq]
            flamer = m.ranged == "heavy_flamer"
            extra = key if key and not flamer else 0
            front = key_front if flamer else flank
            for d in (0, 2, 4, 6):
                t = nb[d]
                if t >= 0:
                    seeds.append((t, extra + (front if d == m.facing * 2 and not m.prone else 0)))
            for t in st.feat.through(m.sq):
                seeds.append((t, extra + 1))
        return seeds

    def _attack_map(self, sit: Situation) -> list[int]:
        seeds = self._attack_seeds(sit)
        memo = self._map_memo
        if memo is not None and memo[0] is seeds:
            return memo[1]
        lazy = self._lazy_memo
        if lazy is not None and lazy[0] is seeds:
            # A facing decision started this very map: finish it (the same map as to_seeds would build).
            dm = sit.gt.finish_map(("A", tuple(seeds)), lazy[1])
        else:
            dm = sit.gt.to_seeds(("A", tuple(seeds)), seeds)
        self._map_memo = (seeds, dm)
        return dm

    def _attack_map_near(self, sit: Situation, s: int) -> list[int]:
        """The attack map, exact at s and at every square cheaper than s (others may read more than they cost).

        A facing decision (a Genestealer placed in the Marine turn, mostly) reads only its square and the next
        steps down from it, and the Marines usually move again before the next Genestealer decision: the map is
        worked out only that far, and finished by _attack_map if the same seeds ask for all of it.
        """
        seeds = self._attack_seeds(sit)
        memo = self._map_memo
        if memo is not None and memo[0] is seeds:
            return memo[1]
        lazy = self._lazy_memo
        if lazy is not None and lazy[0] is seeds:
            lm = lazy[1]
        else:
            lm = sit.gt.to_seeds_lazy(("A", tuple(seeds)), seeds)
            self._lazy_memo = (seeds, lm)
        lm.value(s)
        return lm.dist

    def _route_map(self, sit: Situation, dm: list[int]) -> list[int]:
        """Blips' map: attack squares, and the Marines' route to their goal a few squares ahead (ambush)."""
        memo = self._route_memo
        if memo is not None and sit.goal.kind == "escape" and memo[0] is self._attack_seeds(sit):
            # An escape's goal map is built once per game and kept (GameTables.marine_goal_map), and the seeds'
            # memo belongs to one game's tables: the same seeds object means the same goal map as last time.
            return memo[2]
        D = self._route_goal(sit)
        if D is None:
            return dm
        # A pure function of the attack seeds (memoised object) and the goal map: reuse the last one.
        seeds0 = self._attack_seeds(sit)
        memo = self._route_memo
        if memo is not None and memo[0] is seeds0 and memo[1] is D:
            return memo[2]
        rm = self._build_route_map(sit, D)
        self._route_memo = (seeds0, D, rm)
        return rm

    def _route_goal(self, sit: Situation) -> list[int] | None:
        """The Marines' goal map when the blips' map adds their route to the attack squares, else None."""
        if self.w.ambush > 0 and not self.novice and sit.goal.kind != "flame" and sit.marines:
            return sit.marine_goal_map()
        return None

    def _route_ahead(self, sit: Situation, D: list[int]) -> tuple[int, list[int]]:
        """The route map's extra seeds: their cost (bias) and the squares of the Marines' route ahead."""
        steps = sit.gt.mt.steps
        lead = min(sit.marines, key=lambda m: D[m.sq])
        route: list[int] = []
        cur = lead.sq
        for _ in range(40):
            nxt, best = -1, D[cur]
            for t in steps[cur]:
                if D[t] < best:
                    nxt, best = t, D[t]
            if nxt < 0:
                break
            route.append(nxt)
            cur = nxt
        return max(0, int(4 - self.w.ambush * 2)), route[3:]

    def _build_route_map(self, sit: Situation, D: list[int]) -> list[int]:
        bias, route = self._route_ahead(sit, D)
        seeds = list(self._attack_seeds(sit))  # a copy: the memoised list is shared
        ahead = [(t, bias) for t in route]
        seeds.extend(ahead)
        key = ("R", bias, tuple(route), tuple(seeds[:64]))
        # Seeds = attack seeds + route ahead: start from the attack map and spread only the route's seeds.
        return sit.gt.to_seeds_over(key, self._attack_map(sit), ahead)

    # ------------------------------------------------------------------ sub-decisions
    def _decide(self, pending: Decision, sit: Situation) -> Action | None:
        actions = sit.actions
        if isinstance(pending, LurkDecision):
            return self._lurk(sit)
        if isinstance(pending, TurnToFaceDecision):
            return act("face", pending.piece, FACES[pending.facing])
        if isinstance(pending, FaceDecision):
            return self._face(sit, pending.piece)
        if isinstance(pending, (PutDecision, ScuttleDecision)):
            dm = self._attack_map(sit) if sit.marines else None
            best: tuple[int, int, Action] | None = None
            for i, a in enumerate(actions):
                if a.verb not in ("put", "scuttle"):
                    continue
                t = sit.board.parse_sq(a.args[-1])
                v = dm[t] if dm is not None else 0
                if best is None or (v, i) < best[:2]:
                    best = (v, i, a)
            return best[2] if best else None
        if isinstance(pending, ShoveDecision):
            D = sit.marine_goal_map()
            best2: tuple[int, Action] | None = None
            for a in actions:
                if a.verb == "shove":
                    t = sit.board.parse_sq(a.args[1])
                    v = D[t] if D is not None else 0
                    if best2 is None or v > best2[0]:
                        best2 = (v, a)
            return best2[1] if best2 else None
        return None

    def _lurk(self, sit: Situation) -> Action | None:
        """Choose the entry area for the next blip: near the Marines (or their route ahead), not held shut."""
        st = sit.state
        b = sit.board
        opts = [a for a in sit.actions if a.verb == "lurk"]
        if not opts or not sit.marines:
            return opts[0] if opts else None
        radius = st.game.opts.lurk_radius
        counts: dict[str, int] = {}
        for pc in sit.enemies:
            if pc.sq < 0 and pc.entry:
                counts[pc.entry] = counts.get(pc.entry, 0) + 1
        # Each option's entry square, and what its score adds to the map's cost there: +6 while the entry is
        # locked for this turn, +2 per blip already waiting at it (not for the novice).
        cands: list[tuple[int, bool, int]] = []
        for a in opts:
            e = a.args[0]
            t = b.entries[e]
            locked = not self.novice and any(
                m.sq // b.plane == t // b.plane and b.rng(m.sq, t) <= radius for m in sit.marines
            )
            cands.append((t, locked, 0 if self.novice else counts.get(e, 0)))
        if st.phase == "setup":
            # The Marines take their first turn before any Genestealer moves: this map would not be read again,
            # so it is worked out only as far as the choice needs.
            return opts[self._lurk_lazy(sit, cands)]
        dm = self._attack_map(sit)
        if not self.novice:
            dm = self._route_map(sit, dm)
        best: tuple[float, int] | None = None
        for i, (t, locked, n) in enumerate(cands):
            v = _lurk_score(dm[t], locked, n)
            if best is None or (v, i) < best:
                best = (v, i)
        assert best is not None
        return opts[best[1]]

    def _lurk_lazy(self, sit: Situation, cands: list[tuple[int, bool, int]]) -> int:
        """The index of the least (score, index) of `cands` as _lurk scores them, on the map that _lurk reads
        (the route map, or the attack map) worked out level by level only until that least one is certain."""
        gt = sit.gt
        seeds0 = self._attack_seeds(sit)
        D = self._route_goal(sit)
        memo = self._setup_memo
        if memo is not None and memo[0] is seeds0 and memo[1] is D:
            lm = memo[2]  # the set-up's next choice, the Marines still in place: go on with the same map
        else:
            seeds = seeds0
            if D is not None:
                # The route map is the map of the attack seeds and the route's (see _build_route_map).
                bias, route = self._route_ahead(sit, D)
                seeds = seeds + [(t, bias) for t in route]
            lm = LazyMap(gt.rev, seeds, gt.mt.size)
            self._setup_memo = (seeds0, D, lm)
        best: tuple[float, int] | None = None
        pending = list(enumerate(cands))
        r = 0
        while pending:
            # Every square of cost <= r holds its cost now (within expands the levels below r); any other costs
            # more than r, so an option still pending scores at least as if its entry cost r + 1.
            rest = []
            for i, (t, locked, n) in pending:
                if r >= INF or lm.within(t, r):
                    v = _lurk_score(lm.dist[t], locked, n)
                    if best is None or (v, i) < best:
                        best = (v, i)
                else:
                    rest.append((i, (t, locked, n)))
            pending = rest
            if best is not None and all(best < (_lurk_score(r + 1, c[1], c[2]), i) for i, c in pending):
                break
            # Once the map is complete the options still pending cannot reach a seed: score them all at once
            # rather than one level at a time up to INF.
            r = INF if lm.complete else r + 1
        assert best is not None
        return best[1]

    def _face(self, sit: Situation, pid: str) -> Action | None:
        pc = sit.state.p.get(pid)
        if pc is None or pc.sq < 0 or not sit.marines:
            return act("face", pid, "N")
        # _want_facing reads the map at pc.sq and takes a step only to a square cheaper than that.
        dm = self._attack_map_near(sit, pc.sq)
        return act("face", pid, FACES[self._want_facing(pc.sq, dm, sit)])

    def _want_facing(self, s: int, dm: list[int], sit: Situation) -> int:
        """Face an orthogonally adjacent Marine, else the next step toward an attack square."""
        b = sit.board
        st = sit.state
        nb = b.nbr[s]
        for d in (0, 2, 4, 6):
            t = nb[d]
            if t >= 0:
                oid = st.occ.get(t)
                if oid is not None and st.p[oid].kind == "marine":
                    return d // 2
        # The first least step toward an attack square, and the facing along it (a step on one level toward
        # direction d is the unit vector DIR_VEC[d], so its facing is tabulated by direction).
        best_d, best_v = -1, dm[s]
        for t, d in sit.gt.mt.step_dirs[s]:
            v = dm[t]
            if v < best_v:
                best_d, best_v = d, v
        if best_d < 0:
            return 0
        return _FACING_OF_DIR[best_d]

    # ------------------------------------------------------------------ action phase
    def _phase(self, sit: Situation) -> Action | None:
        st = sit.state
        if not sit.marines:
            return PASS
        dm = self._attack_map(sit)
        fld = _Field(sit, dm, self.w.standoff + 3, self)
        # The active piece first (usually a blip in mid-move, which settles the decision), then the fresh
        # ones, Genestealers before blips, nearest first.
        if st.active is not None:
            pc = st.p.get(st.active)
            if pc is not None:
                a = self._stealer(pc, fld) if pc.kind == "stealer" else self._blip(pc, fld)
                if a is not None and a in sit.legal:
                    return a
        active = st.active
        # Sorted as (blip?, distance, id, piece) tuples: ids are unique, so the pieces are never compared.
        fresh = [(pc.kind == "blip", dm[pc.sq] if pc.sq >= 0 else INF, pc.id, pc) for pc in sit.enemies if pc.st == 0]
        fresh.sort()
        for _, _, pid, pc in fresh:
            if pid == active:
                continue
            a = self._stealer(pc, fld) if pc.kind == "stealer" else self._blip(pc, fld)
            if a is not None and a in sit.legal:
                return a
        return PASS

    def _urgent(self, sit: Situation) -> bool:
        """The Marines are about to reach their goal: no more waiting, everything charges."""
        D = sit.marine_goal_map()
        if D is None or not sit.marines:
            return False
        return bool(min([D[m.sq] for m in sit.marines]) <= self.w.urgent_within)

    def _blip(self, pc: Any, fld: _Field) -> Action | None:
        sit = fld.sit
        dm = fld.dm
        pid = pc.id
        if self.novice:
            if not pc.acted:
                return act("reveal", pid)
            return None
        if pc.sq < 0:
            # Convert before entering when the Marines are close: the Genestealers then act at once.
            if not pc.acted and dm[sit.board.entries[pc.entry]] <= self.w.reveal_range:
                return act("reveal", pid)
            return act("enter", pid)
        here = dm[pc.sq]
        if not pc.acted and here <= self.w.reveal_range:
            return act("reveal", pid)
        if pc.ap <= 0 or fld.route[pc.sq] <= 1 or here <= self.w.standoff:
            return None
        return self._blip_step(pc, fld)

    def _blip_step(self, pc: Any, fld: _Field) -> Action | None:
        """`_step(charge=True, blip=True)` for a blip, asking the rules about the best steps only.

        A blip's step scores its square's route cost (+0.01 a move, +0.02 a climb or jump, +0.03 opening a
        door) and the least score wins, the earliest in legal-action order on ties, if it gains over half a
        square. Sorting the candidates by (score, legal order) and taking the first legal one gives the same
        action as scoring every legal action, and usually checks one step instead of listing them all.
        """
        sit = fld.sit
        st = sit.state
        gt = sit.gt
        mt = gt.mt
        dm = fld.route
        s = pc.sq
        pid = pc.id
        limit = dm[s] - 0.5
        tab = st.game.move_table(pid)
        occ = st.occ
        closed = st.closed
        cands: list[tuple[float, tuple[int, int], Action]] = []
        # The board's steps from s, in direction order: a diagonal with a wall on both sides is never a legal
        # step (the rules refuse a diagonal whose two side squares are both blocked), so it is not listed.
        for t, d in mt.step_dirs[s]:
            # No piece may step onto an occupied square or a closed door (every step loop of the rules skips
            # them): such a move is never legal, so it is left out rather than asked about.
            if t not in occ and t not in closed:
                v = dm[t] + 0.01
                if v < limit:
                    cands.append((v, (0, d), tab[d * 6]))
        doors = mt.blip_doors[s]
        if doors:
            door_state = st.door_state
            for i, (did, t) in enumerate(doors):
                v = dm[t] + 0.03
                # The rules offer "open" for closed doors only: any other is never legal, so it is not asked about.
                if v < limit and door_state[did] == "closed":
                    cands.append((v, (1, i), act("open", pid, did)))
        t = gt.hole_dest.get(s, -1)
        if t >= 0 and dm[t] + 0.02 < limit:
            v = dm[t] + 0.02
            # Only climbs and jumps the rules may offer are asked about (see _step).
            if t not in occ and t not in closed and (s in st.feat.ladder or s in st.feat.pit_up):
                cands.append((v, (2, 0), act("climb", pid)))
            j = gt.jump_dest.get(s, -1)
            if j >= 0 and j not in occ and j not in closed:
                cands.append((v, (2, 1), act("jump", pid)))
        if not cands:
            return None
        # Each candidate's order is unique, so the tuples sort by (score, order) without a key function.
        cands.sort()
        legal = sit.legal
        for c in cands:
            if c[2] in legal:
                return c[2]
        return None

    def _stealer(self, pc: Any, fld: _Field) -> Action | None:
        sit = fld.sit
        st = sit.state
        b = sit.board
        pid = pc.id
        if pc.ap <= 0:
            return None
        for a in sit.actions_of(pid, "assault"):
            if a.args[1] in st.p:
                return a
        if pc.sq < 0:
            t = b.entries[pc.entry]
            if self.novice or fld.danger(t) <= self.w.shot_tolerance:
                return act("enter", pid)
            return None
        s = pc.sq
        nb = b.nbr[s]
        for d in (0, 2, 4, 6):
            t = nb[d]
            if t >= 0:
                oid = st.occ.get(t)
                if oid is not None and st.p[oid].kind == "marine":
                    if self.novice or not self._better_flank(pc, st.p[oid], fld):
                        return act("turn", pid, FACES[d // 2])
        dm = fld.dm
        if dm[s] >= INF:
            return None
        if self.novice:
            return self._step(pc, fld, charge=True)
        charging = self._open_steps(pc, fld, True)
        waiting = None
        if not self._may_step(pc, fld, charging):
            waiting = self._open_steps(pc, fld, False)
            if not self._may_step(pc, fld, waiting):
                return None  # no step either way (often a Genestealer queued behind others): no charge to weigh
        charge = self._should_charge(pc, fld)
        return self._step(pc, fld, charge=charge, opened=charging if charge else waiting)

    @staticmethod
    def _may_step(pc: Any, fld: _Field, opened: _Opened) -> bool:
        """False when `_step` with `opened` (what `_open_steps` found) surely returns None: no step or door can come
        in under its limit, and there is no hole to climb or jump (its candidate is not always built, so any counts)."""
        return bool(opened[1] or opened[2]) or fld.sit.gt.hole_dest.get(pc.sq, -1) >= 0

    def _open_steps(self, pc: Any, fld: _Field, charge: bool) -> _Opened:
        """What `_step` weighs before facings and legality: its limit (the score of the square it stands on, less
        half a square), the steps (i, d, t, lo) and the closed doors (i, door id, t, lo) whose lower bound lo, plus
        the least it adds (0.01 a step, 0.03 a door), is under that limit; i is the index in the board's list.

        Any other step or door scores at least the limit and cannot be chosen; an occupied square or a closed door
        is never a legal step (see _blip_step), so it is left out rather than asked about.
        """
        sit = fld.sit
        st = sit.state
        b = sit.board
        dm = fld.dm
        s = pc.sq
        stand = self.w.standoff
        caution = 0.0 if self.novice else (0.5 + 2 * self.w.caution)
        # base(t): dm[t] when charging, else the distance from the stand-off line (+2 inside it); score(t) adds
        # caution * danger(t). Written out inline (the same float operations in the same order) at each use.
        x = dm[s]
        v = float(x) if charge else abs(x - stand) + (2.0 if x < stand else 0.0)
        if caution:
            v += caution * fld.danger(s)
        limit = v - 0.5
        occ = st.occ
        closed = st.closed
        steps: list[tuple[int, int, int, float]] = []
        for i, (d, t, _cost) in enumerate(st.game.steps(s, pc.facing, "stealer")):
            if t not in occ and t not in closed:
                x = dm[t]
                lo = float(x) if charge else abs(x - stand) + (2.0 if x < stand else 0.0)
                if lo + 0.01 < limit:
                    steps.append((i, d, t, lo))
        doors: list[tuple[int, str, int, float]] = []
        door_state = st.door_state
        for i, (did, t) in enumerate(b.doors_near(s, pc.facing)):
            if door_state[did] == "closed":
                x = dm[t]
                lo = float(x) if charge else abs(x - stand) + (2.0 if x < stand else 0.0)
                if lo + 0.03 < limit:
                    doors.append((i, did, t, lo))
        return limit, steps, doors

    def _better_flank(self, pc: Any, marine: Any, fld: _Field) -> bool:
        """Next to a Marine who faces us: is a side or rear square one cheap step away? Then go there."""
        b = fld.sit.board
        st = fld.sit.state
        if b.nbr[marine.sq][marine.facing * 2] != pc.sq or marine.prone:
            return False
        if pc.ap < 3:
            return False
        for d in (0, 2, 4, 6):
            if d == marine.facing * 2:
                continue
            t = b.nbr[marine.sq][d]
            if t >= 0 and t not in st.occ and t in fld.sit.gt.mt.steps[pc.sq] and fld.danger(t) == 0:
                return True
        return False

    def _should_charge(self, pc: Any, fld: _Field) -> bool:
        """Charge when the expected overwatch shots on the way are few enough for the group gathered."""
        w = self.w
        dm = fld.dm
        s = pc.sq
        if dm[s] <= 1 or fld.urgent:
            return True
        sit = fld.sit
        steps = sit.gt.mt.steps
        cur, shots = s, 0.0
        for _ in range(min(pc.ap, dm[s])):
            best_t, best_v = -1, dm[cur]
            for t in steps[cur]:
                if dm[t] < best_v:
                    best_t, best_v = t, dm[t]
            if best_t < 0:
                break
            cur = best_t
            shots += fld.danger(cur)
        if dm[cur] > 0 and shots == 0.0:
            # Not there this turn but unseen on the way: keep closing in up to the stand-off line.
            return True
        # Every friend close by soaks shots (until the bolters jam); a full group soaks them at full value.
        friends = max(0, fld.near - 1) * (1.0 if fld.near >= w.group else 0.3)
        tolerance = w.shot_tolerance + w.aggression * 2 + friends
        return shots <= tolerance

    def _step(self, pc: Any, fld: _Field, *, charge: bool, opened: _Opened | None = None) -> Action | None:
        """A Genestealer's move (or door opening) toward an attack square, or toward the stand-off line.

        Each square scores its attack-map cost (or its distance from the stand-off line), plus its expected
        overwatch shots times `caution`; a move adds 0.05 when it does not end facing the way onward and
        0.01 per AP (a step back costs 2), a climb or jump 0.02, opening a door 0.03. The least score wins,
        the earliest in legal-action order on ties, if it gains over half a square.

        Candidates are taken in order of their score without the shots (a lower bound, since shots only
        add) while one could still win, and the rules are asked about one only when its score would win: the
        same action as scoring every legal action, for a few legality questions and line-of-sight checks
        instead of all of them. `opened`: what `_open_steps` gives for this piece and `charge`, if already asked.
        """
        sit = fld.sit
        st = sit.state
        dm = fld.dm
        s = pc.sq
        w = self.w
        pid = pc.id
        caution = 0.0 if self.novice else (0.5 + 2 * w.caution)
        stand = w.standoff
        danger = fld.danger
        # base(t) and score(t) as in _open_steps, written out inline (the same float operations in the same order).
        limit, steps, doors = opened if opened is not None else self._open_steps(pc, fld, charge)
        f0 = pc.facing
        fx, fy = FACE_VEC[f0]
        tab = st.game.move_table(pid)
        # (lower bound, order, square, extra after the square's score, action); order = legal-action order
        cands: list[tuple[float, tuple[int, int, int], int, tuple[float, ...], Action]] = []
        occ = st.occ
        closed = st.closed
        slots = _SLOTS[f0]
        # Each step goes to a different square, so each square's wanted facing is worked out once.
        for i, d, t, lo in steps:
            want = self._want_facing(t, dm, sit)
            dx, dy = DIR_VEC[d]
            cost = 0.01 * (2 if dx * fx + dy * fy < 0 else 1)
            k = d * 6
            for j, (new_f, slot) in enumerate(slots):
                if new_f != want:
                    cands.append((lo + 0.05 + cost, (0, i, j), t, (0.05, cost), tab[k + slot]))
                else:
                    cands.append((lo + cost, (0, i, j), t, (cost,), tab[k + slot]))
        for i, did, t, lo in doors:
            cands.append((lo + 0.03, (1, i, 0), t, (0.03,), act("open", pid, did)))
        feat = st.feat
        t = sit.gt.hole_dest.get(s, -1)
        if t >= 0:
            x = dm[t]
            lo = (float(x) if charge else abs(x - stand) + (2.0 if x < stand else 0.0)) + 0.02
            # The rules offer a climb only up a ladder or a pit from s (to t, then) into a square it may enter,
            # never an occupied one or a closed door: any other climb is never legal, so it is not asked about.
            if (s in feat.ladder or s in feat.pit_up) and t not in occ and t not in closed:
                cands.append((lo, (2, 0, 0), t, (0.02,), act("climb", pid)))
            # Likewise a jump only down a pitfall with a floor below or a ladder from its top (GameTables.jump_dest)
            # into a square it may enter.
            j = sit.gt.jump_dest.get(s, -1)
            if j >= 0 and j not in occ and j not in closed:
                cands.append((lo, (2, 1, 0), t, (0.02,), act("jump", pid)))
        cands.sort()  # by (lower bound, order): each order is unique, so later fields are never compared
        legal = sit.legal
        # Starting from (limit, before everything): a candidate must score strictly under the limit.
        best_v, best_o, best_a = limit, (-1, 0, 0), None
        for lo, order, t, adds, a in cands:
            if lo > best_v or (lo == best_v and order > best_o):
                break  # the rest score at least this much: none can win
            x = dm[t]
            v = float(x) if charge else abs(x - stand) + (2.0 if x < stand else 0.0)
            if caution:
                v += caution * danger(t)
            for e in adds:
                v += e
            # The rules are asked only about a candidate that would win: a loser's legality changes nothing.
            if (v < best_v or (v == best_v and order < best_o)) and a in legal:
                best_v, best_o, best_a = v, order, a
        return best_a


def _lurk_score(cost: int, locked: bool, waiting: int) -> float:
    """An entry's score for _lurk: the map's cost at its square, +6 while locked, +2 per blip waiting at it."""
    v = float(cost)
    if locked:
        v += 6
    v += 2 * waiting
    return v


FACE_INDEX = {f: i for i, f in enumerate(FACES)}

# What GenestealerPlayer._open_steps finds: (limit, steps (i, d, t, lo), closed doors (i, door id, t, lo)).
_Opened = tuple[float, list[tuple[int, int, int, float]], list[tuple[int, str, int, float]]]


_DIR_IDX = {d: i for i, d in enumerate(DIRS)}


# The facing that best points along a unit step (dx, dy): the max-dot-product rule, ties to the lower
# facing, tabulated once instead of evaluated per candidate move.
_FACING_FOR = {
    (dx, dy): max(range(4), key=lambda f: (FACE_VEC[f][0] * dx + FACE_VEC[f][1] * dy, -f))
    for dx in (-1, 0, 1)
    for dy in (-1, 0, 1)
}


# _FACING_FOR of each direction index's unit step.
_FACING_OF_DIR = tuple(_FACING_FOR[v] for v in DIR_VEC)

# A Genestealer's move toward d from facing f: the (new facing, move-table slot) it may end with, in the legal
# order: keep f (slot 0), then turn right, then left (slot = facing + 1).
_SLOTS = tuple(((f, 0), ((f + 1) % 4, (f + 1) % 4 + 1), ((f + 3) % 4, (f + 3) % 4 + 1)) for f in range(4))


def heuristic_genestealers(params: dict[str, float]) -> GenestealerPlayer:
    """Factory for the registry."""
    return GenestealerPlayer(params)


register(
    "heuristic-genestealers",
    heuristic_genestealers,
    side="genestealers",
    defaults=defaults(GenestealerWeights),
    description="blips close in unseen, gather out of the arcs, charge together from the flank, strike the jammed",
)
