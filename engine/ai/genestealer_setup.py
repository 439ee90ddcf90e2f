"""The Genestealer player's placing decisions: the entry for a new blip (#3), where a Genestealer is put or
scuttles, where a shoved Marine goes, which way a Genestealer faces."""

from __future__ import annotations

from engine.ai.genestealer_maps import GenestealerMaps
from engine.ai.genestealer_terms import _FACING_OF_DIR, _lurk_score
from engine.ai.situation import Situation
from engine.ai.tables import INF, LazyMap
from engine.rules.actions import FACES, Action, act


class GenestealerSetup(GenestealerMaps):
    """Entries, placing and facing."""

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
        dm = self._route_map(sit, self._attack_map(sit))
        best: tuple[float, int] | None = None
        for i, (t, locked, n) in enumerate(cands):
            v = _lurk_score(self.w, dm[t], locked, n)
            if best is None or (v, i) < best:
                best = (v, i)
        assert best is not None
        return opts[best[1]]

    def _lurk_cands(self, sit: Situation, opts: list[Action]) -> list[tuple[int, bool, int]]:
        """Each option's entry square, and what its score adds to the map's cost there: +6 while the entry is
        locked for this turn, +2 per blip already waiting at it."""
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
            locked = any(m.sq // b.plane == t // b.plane and b.rng(m.sq, t) <= radius for m in sit.marines)
            cands.append((t, locked, counts.get(e, 0)))
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
                    v = _lurk_score(self.w, lm.dist[t], locked, n)
                    if best is None or (v, i) < best:
                        best = (v, i)
                else:
                    rest.append((i, (t, locked, n)))
            pending = rest
            if best is not None and all(best < (_lurk_score(self.w, r + 1, c[1], c[2]), i) for i, c in pending):
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
