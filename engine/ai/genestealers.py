"""The heuristic Genestealer player (docs/playbook.md, "Genestealers"), and the novice variant's switches.

Distances are "walking cost to an attack square": the squares orthogonally next to a Marine, where a
Genestealer can strike; the Marine's front square costs `flank` more, so paths come round the side. Blips
close in unseen (the rules keep them out of sight) and convert when near; Genestealers wait out of the
overwatch arcs at a stand-off distance until enough are gathered, or the path is cheap in expected
overwatch shots, or the watcher has jammed — then they charge together and strike.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from engine.ai import decisions as dec
from engine.ai.base import register
from engine.ai.situation import Situation, observe
from engine.ai.tables import INF, LazyMap, downhill
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
from engine.rules.moves import Move, piece_moves


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
        # The overwatch term's weight per expected shot (#9); the novice ignores overwatch.
        self._caution = 0.0 if novice else 0.5 + 2 * self.w.caution
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
        leaders = self._leaders(sit)
        for m in sit.marines:
            nb = b.nbr[m.sq]
            flamer = m.ranged == "heavy_flamer"
            extra = key if key and not flamer else 0
            if leaders and m.id not in leaders:
                extra += int(self.w.lead_target)
            front = key_front if flamer else flank
            for d in (0, 2, 4, 6):
                t = nb[d]
                if t >= 0:
                    seeds.append((t, extra + (front if d == m.facing * 2 and not m.prone else 0)))
            for t in st.feat.through(m.sq):
                seeds.append((t, extra + 1))
        return seeds

    def _leaders(self, sit: Situation) -> tuple[str, ...]:
        """#8: in an escape mission, the Marines nearest the way out, as many as must still get out to win:
        the kills that stop the win. Empty when every Marine is one of them."""
        if self.novice or not self.w.lead_target or sit.goal.kind != "escape":
            return ()
        need = sit.goal.escapes - len(sit.state.escaped)
        D = sit.marine_goal_map()
        if D is None or need <= 0 or need >= len(sit.marines):
            return ()
        ranked = sorted((D[m.sq], m.id) for m in sit.marines)
        return tuple(pid for _, pid in ranked[:need])

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
            nxt = downhill(D, steps[cur], cur)
            if nxt < 0:
                break
            route.append(nxt)
            cur = nxt
        return max(0, int(4 - self.w.ambush * 2)), route[int(self.w.ambush_ahead):]

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
        if isinstance(pending, LurkDecision):
            return self._lurk(sit)
        if isinstance(pending, TurnToFaceDecision):
            return act("face", pending.piece, FACES[pending.facing])
        if isinstance(pending, FaceDecision):
            return self._face(sit, pending.piece)
        if isinstance(pending, (PutDecision, ScuttleDecision)):
            return self._place(sit)
        if isinstance(pending, ShoveDecision):
            return self._shove(sit)
        return None

    def _place(self, sit: Situation) -> Action | None:
        """A Genestealer put or scuttling: the square nearest an attack square, the first on ties."""
        dm = self._attack_map(sit) if sit.marines else None
        best: tuple[int, int, Action] | None = None
        for i, a in enumerate(sit.actions):
            if a.verb not in ("put", "scuttle"):
                continue
            t = sit.board.parse_sq(a.args[-1])
            v = dm[t] if dm is not None else 0
            if best is None or (v, i) < best[:2]:
                best = (v, i, a)
        return best[2] if best else None

    @staticmethod
    def _shove(sit: Situation) -> Action | None:
        """A shoved Marine goes where his way to the goal is longest."""
        D = sit.marine_goal_map()
        best: tuple[int, Action] | None = None
        for a in sit.actions:
            if a.verb == "shove":
                t = sit.board.parse_sq(a.args[1])
                v = D[t] if D is not None else 0
                if best is None or v > best[0]:
                    best = (v, a)
        return best[1] if best else None

    def _lurk(self, sit: Situation) -> Action | None:
        """Choose the entry area for the next blip: near the Marines (or their route ahead), not held shut."""
        st = sit.state
        opts = [a for a in sit.actions if a.verb == "lurk"]
        if not opts or not sit.marines:
            return opts[0] if opts else None
        cands = self._lurk_cands(sit, opts)
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

    def _lurk_cands(self, sit: Situation, opts: list[Action]) -> list[tuple[int, bool, int]]:
        """Each option's entry square, and what its score adds to the map's cost there: +6 while the entry is
        locked for this turn, +2 per blip already waiting at it (not for the novice)."""
        b = sit.board
        radius = sit.state.game.opts.lurk_radius
        counts: dict[str, int] = {}
        for pc in sit.enemies:
            if pc.sq < 0 and pc.entry:
                counts[pc.entry] = counts.get(pc.entry, 0) + 1
        cands: list[tuple[int, bool, int]] = []
        for a in opts:
            e = a.args[0]
            t = b.entries[e]
            locked = not self.novice and any(
                m.sq // b.plane == t // b.plane and b.rng(m.sq, t) <= radius for m in sit.marines
            )
            cands.append((t, locked, 0 if self.novice else counts.get(e, 0)))
        return cands

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
    # Candidates -> scores -> choice. A piece's candidates are the rules' own moves from its square (Game.steps:
    # direction, square and AP; the doors next to it; its climb or jump), left out only where the rules' own
    # predicate (free_square) says no step can go. Each is scored by named terms (below), and the least score
    # wins. The rules are asked about a candidate only when its score would win.
    def _phase(self, sit: Situation) -> Action | None:
        if not sit.marines:
            return PASS
        dm = self._attack_map(sit)
        fld = _Field(sit, dm, self.w.standoff + 3, self)
        for pc in _movers(sit, dm):
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
        dm = fld.dm
        pid = pc.id
        if self.novice:
            return None if pc.acted else act("reveal", pid)
        if pc.sq < 0:
            # Convert before entering when the Marines are close: the Genestealers then act at once (#7).
            if not pc.acted and dm[fld.sit.board.entries[pc.entry]] <= self.w.reveal_range:
                return act("reveal", pid)
            return act("enter", pid)
        here = dm[pc.sq]
        if not pc.acted and here <= self.w.reveal_range:
            return act("reveal", pid)
        if pc.ap <= 0 or fld.route[pc.sq] <= 1 or here <= self.w.standoff:
            return None
        return self._blip_step(pc, fld)

    def _blip_step(self, pc: Any, fld: _Field) -> Action | None:
        """A blip's step: its square's route cost (#3) plus a tie-break (a move, then a climb or jump, then a
        door); the least wins, the earliest in legal-action order on ties, if it gains over half a square.

        Sorting the candidates by (score, legal order) and taking the first legal one gives the same action as
        scoring every legal action, and usually asks the rules about one step instead of listing them all.
        """
        dm = fld.route
        cands = self._blip_cands(pc, fld.sit, dm, dm[pc.sq] - 0.5)
        cands.sort()  # each candidate's order is unique: the tuples sort by (score, order)
        legal = fld.sit.legal
        for c in cands:
            if c[2] in legal:
                return c[2]
        return None

    def _blip_cands(self, pc: Any, sit: Situation, dm: list[int], limit: float
                    ) -> list[tuple[float, tuple[int, int], Action]]:
        """(score, legal order, action) of a blip's steps, door openings, climb and jump scoring under `limit`."""
        st = sit.state
        s = pc.sq
        free = st.free_square
        tab = st.game.move_table(pc.id)
        # The board's steps from s, in direction order (a diagonal squeezed between two walls is not among them).
        cands = [(v, (0, d), tab[d * 6]) for t, d in sit.gt.mt.step_dirs[s] if (v := dm[t] + MOVE_TIE) < limit
                 and free(t)]
        door_state = st.door_state
        for i, (did, t) in enumerate(sit.gt.mt.blip_doors[s]):
            if dm[t] + DOOR_TIE < limit and door_state[did] == "closed":
                cands.append((dm[t] + DOOR_TIE, (1, i), act("open", pc.id, did)))
        t = sit.gt.hole_dest.get(s, -1)
        if t >= 0 and dm[t] + HOLE_TIE < limit:
            cands.extend((dm[t] + HOLE_TIE, (2, k), a) for k, a in _hole_moves(pc, sit))
        if s in sit.gt.lift_dest:
            cands.extend((dm[mv.to] + HOLE_TIE, (3, k), mv.action) for k, mv in enumerate(_rides(pc, sit))
                         if dm[mv.to] + HOLE_TIE < limit)
        return cands

    def _stealer(self, pc: Any, fld: _Field) -> Action | None:
        if pc.ap <= 0:
            return None
        a = self._strike(pc, fld)
        if a is not None:
            return a
        if pc.sq < 0:
            t = fld.sit.board.entries[pc.entry]
            if self.novice or fld.danger(t) <= self.w.shot_tolerance:
                return act("enter", pc.id)
            return None
        if fld.dm[pc.sq] >= INF:
            return None
        if self.novice:
            return self._step(pc, fld, charge=True)
        return self._advance(pc, fld)

    def _strike(self, pc: Any, fld: _Field) -> Action | None:
        """A blow at the Marine in front; beside a Marine, the turn to face him, unless his side is one step
        away while he faces us (#2)."""
        sit = fld.sit
        st = sit.state
        for a in sit.actions_of(pc.id, "assault"):
            if a.args[1] in st.p:
                return a
        if pc.sq < 0:
            return None
        nb = sit.board.nbr[pc.sq]
        for d in (0, 2, 4, 6):
            oid = st.occ.get(nb[d]) if nb[d] >= 0 else None
            if oid is not None and st.p[oid].kind == "marine":
                if self.novice or not self._better_flank(pc, st.p[oid], fld):
                    return act("turn", pc.id, FACES[d // 2])
        return None

    def _advance(self, pc: Any, fld: _Field) -> Action | None:
        """Close a watched door (#5), charge (#1, #4, #8) or close in to the stand-off line (#6, #9)."""
        door = self._door_to_close(pc, fld)
        if door is not None and not self._should_charge(pc, fld):
            return door
        charging = self._open_steps(pc, fld, True)
        waiting = None
        if not self._may_step(pc, fld, charging):
            waiting = self._open_steps(pc, fld, False)
            if not self._may_step(pc, fld, waiting):
                return None  # no step either way (often a Genestealer queued behind others): no charge to weigh
        charge = self._should_charge(pc, fld)
        return self._step(pc, fld, charge=charge, opened=charging if charge else waiting)

    def _door_to_close(self, pc: Any, fld: _Field) -> Action | None:
        """#5: an open door in front of the Genestealer that a Marine on overwatch sees, while the Genestealer
        itself stands out of sight: shut, it blocks his fire lane and he must come through it."""
        if not self.w.close_doors or pc.ap < 1:
            return None
        sit = fld.sit
        st = sit.state
        for did, t in sit.board.doors_near(pc.sq, pc.facing):
            if st.door_state[did] == "open" and st.free_square(t) and fld.danger(t) >= 1.0:
                a = act("close", pc.id, did)
                return a if fld.danger(pc.sq) == 0 and a in sit.legal else None
        return None

    @staticmethod
    def _may_step(pc: Any, fld: _Field, opened: _Opened) -> bool:
        """False when `_step` with `opened` (what `_open_steps` found) surely returns None: no step or door can come
        in under its limit, and there is no hole to climb or jump (its candidate is not always built, so any counts)."""
        return bool(opened[1] or opened[2]) or fld.sit.gt.hole_dest.get(pc.sq, -1) >= 0

    def _square_score(self, t: int, fld: _Field, charge: bool) -> float:
        """The terms of ending an action on square t: the approach (#1, #6) and the overwatch shots there (#9)."""
        v = _approach(fld.dm[t], charge, self.w.standoff)
        if self._caution:
            v += self._caution * fld.danger(t)
        return v

    def _open_steps(self, pc: Any, fld: _Field, charge: bool) -> _Opened:
        """What `_step` weighs before facings and legality: its limit (the score of the square it stands on, less
        half a square), the steps (i, d, t, lo, ap) and the closed doors (i, door id, t, lo) whose lower bound lo
        (the approach term alone), plus the least tie-break it adds, is under that limit; i is the index in the
        rules' list. Any other step or door scores at least the limit and cannot be chosen.
        """
        sit = fld.sit
        st = sit.state
        dm = fld.dm
        s = pc.sq
        stand = self.w.standoff
        limit = self._square_score(s, fld, charge) - 0.5
        free = st.free_square
        steps: list[tuple[int, int, int, float, int]] = []
        for i, (d, t, ap) in enumerate(st.game.steps(s, pc.facing, "stealer")):
            lo = _approach(dm[t], charge, stand)
            if lo + MOVE_TIE < limit and free(t):
                steps.append((i, d, t, lo, ap))
        doors: list[tuple[int, str, int, float]] = []
        door_state = st.door_state
        for i, (did, t) in enumerate(sit.board.doors_near(s, pc.facing)):
            if door_state[did] == "closed":
                lo = _approach(dm[t], charge, stand)
                if lo + DOOR_TIE < limit:
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
        shots, rest = _path_shots(fld, s, min(pc.ap, dm[s]))
        if rest > 0 and shots == 0.0:
            # Not there this turn but unseen on the way: keep closing in up to the stand-off line.
            return True
        # Every friend close by soaks shots (#1, until the bolters jam); a full group soaks them at full value.
        friends = max(0, fld.near - 1) * (1.0 if fld.near >= w.group else 0.3)
        tolerance = w.shot_tolerance + w.aggression * 2 + friends
        return shots <= tolerance

    def _step(self, pc: Any, fld: _Field, *, charge: bool, opened: _Opened | None = None) -> Action | None:
        """A Genestealer's move (or door opening, climb, jump) toward an attack square, or the stand-off line.

        Each candidate scores its square (`_square_score`) plus its tie-breaks: `FACING_TIE` when a move does
        not end facing the way onward, `MOVE_TIE` per AP of a move (the rules' cost), `HOLE_TIE` a climb or jump,
        `DOOR_TIE` opening a door. The least score wins, the earliest in legal-action order on ties, if it gains
        over half a square. `opened`: what `_open_steps` gives for this piece and `charge`, if already asked.
        """
        limit, steps, doors = opened if opened is not None else self._open_steps(pc, fld, charge)
        cands = self._move_cands(pc, fld, steps)
        for i, did, t, lo in doors:
            cands.append((lo + DOOR_TIE, (1, i, 0), t, (DOOR_TIE,), act("open", pc.id, did)))
        t = fld.sit.gt.hole_dest.get(pc.sq, -1)
        if t >= 0:
            lo = _approach(fld.dm[t], charge, self.w.standoff) + HOLE_TIE
            if lo < limit:  # (the rules are asked for the climb and jump only when one could win)
                cands.extend((lo, (2, k, 0), t, (HOLE_TIE,), a) for k, a in _hole_moves(pc, fld.sit))
        if pc.sq in fld.sit.gt.lift_dest:
            for k, mv in enumerate(_rides(pc, fld.sit)):
                lo = _approach(fld.dm[mv.to], charge, self.w.standoff) + HOLE_TIE
                cands.append((lo, (3, k, 0), mv.to, (HOLE_TIE,), mv.action))
        return self._best(cands, limit, fld, charge)

    def _move_cands(self, pc: Any, fld: _Field, steps: list[tuple[int, int, int, float, int]]) -> list[_Cand]:
        """The moves of `steps`, each with the three facings it may end with (keep, right, left)."""
        sit = fld.sit
        dm = fld.dm
        tab = sit.state.game.move_table(pc.id)
        slots = _SLOTS[pc.facing]
        cands: list[_Cand] = []
        for i, d, t, lo, ap in steps:
            # Each step goes to a different square, so each square's wanted facing is worked out once.
            want = self._want_facing(t, dm, sit)
            cost = MOVE_TIE * ap
            k = d * 6
            for j, (new_f, slot) in enumerate(slots):
                if new_f != want:
                    cands.append((lo + FACING_TIE + cost, (0, i, j), t, (FACING_TIE, cost), tab[k + slot]))
                else:
                    cands.append((lo + cost, (0, i, j), t, (cost,), tab[k + slot]))
        return cands

    def _best(self, cands: list[_Cand], limit: float, fld: _Field, charge: bool) -> Action | None:
        """The least-scoring legal candidate under `limit`. Candidates are taken by their lower bound (the score
        without the overwatch term, which only adds) while one could still win, and the rules are asked about
        one only when its score would win: the same action as scoring every legal action."""
        cands.sort()  # by (lower bound, order): each order is unique, so later fields are never compared
        legal = fld.sit.legal
        best_v, best_o, best_a = limit, (-1, 0, 0), None
        for lo, order, t, adds, a in cands:
            if lo > best_v or (lo == best_v and order > best_o):
                break  # the rest score at least this much: none can win
            v = self._square_score(t, fld, charge)
            for e in adds:
                v += e
            if (v < best_v or (v == best_v and order < best_o)) and a in legal:
                best_v, best_o, best_a = v, order, a
        return best_a


def _movers(sit: Situation, dm: list[int]) -> Iterator[Any]:
    """The pieces to ask, in order: the active one (usually a blip in mid-move, which settles the decision),
    then the fresh ones, Genestealers before blips, nearest first."""
    st = sit.state
    active = st.active
    if active is not None:
        pc = st.p.get(active)
        if pc is not None:
            yield pc
    # Sorted as (blip?, distance, id, piece) tuples: ids are unique, so the pieces are never compared.
    fresh = [(pc.kind == "blip", dm[pc.sq] if pc.sq >= 0 else INF, pc.id, pc) for pc in sit.enemies if pc.st == 0]
    fresh.sort()
    for _, _, pid, pc in fresh:
        if pid != active:
            yield pc


def _hole_moves(pc: Any, sit: Situation) -> list[tuple[int, Action]]:
    """(0, climb) and (1, jump) as the rules offer them from the piece's square (asked only on a hole square)."""
    out = [(0, a) for a in sit.actions_of(pc.id, "climb")]
    out.extend((1, a) for a in sit.actions_of(pc.id, "jump"))
    return out


def _rides(pc: Any, sit: Situation) -> list[Move]:
    """The turbo-lift rides the rules offer the piece, each with where it comes out (asked only at an entrance)."""
    return piece_moves(sit.state, pc.id, sit.of, ("ride",))


def _approach(x: int, charge: bool, stand: float) -> float:
    """The approach term of a square at attack cost x: charging, the cost itself (#1); waiting, the distance
    from the stand-off line, +2 inside it (#6: out of reach of the Marines' AP)."""
    return float(x) if charge else abs(x - stand) + (2.0 if x < stand else 0.0)


def _path_shots(fld: _Field, s: int, steps: int) -> tuple[float, int]:
    """The overwatch shots along the greedy path down the attack map from s for `steps` steps, and the attack
    cost left at its end."""
    dm = fld.dm
    graph = fld.sit.gt.mt.steps
    cur, shots = s, 0.0
    for _ in range(steps):
        best_t = downhill(dm, graph[cur], cur)
        if best_t < 0:
            break
        cur = best_t
        shots += fld.danger(cur)
    return shots, dm[cur]


# Tie-breaks between candidates of equal score (not playbook terms): fewer AP, then a climb or jump, then a door;
# a move ending facing the way onward.
MOVE_TIE = 0.01
HOLE_TIE = 0.02
DOOR_TIE = 0.03
FACING_TIE = 0.05


def _lurk_score(cost: int, locked: bool, waiting: int) -> float:
    """An entry's score for _lurk: the map's cost at its square, +6 while locked, +2 per blip waiting at it."""
    v = float(cost)
    if locked:
        v += 6
    v += 2 * waiting
    return v


FACE_INDEX = {f: i for i, f in enumerate(FACES)}

# What GenestealerPlayer._open_steps finds: (limit, steps (i, d, t, lo), closed doors (i, door id, t, lo)).
_Opened = tuple[float, list[tuple[int, int, int, float, int]], list[tuple[int, str, int, float]]]

# A candidate of _step: (lower bound, legal order, square, tie-breaks added to the square's score, action).
_Cand = tuple[float, tuple[int, int, int], int, tuple[float, ...], Action]


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
