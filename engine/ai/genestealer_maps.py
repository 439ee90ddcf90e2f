"""The Genestealer player's maps: walking cost to the attack squares (with the flank, key-target, leader and
strong-fighter terms on their seeds) and to the Marines' route ahead (#3: ambush); memoised per pose."""

from __future__ import annotations

from typing import Any

from engine.ai.genestealer_terms import _STRONG_MELEE
from engine.ai.situation import Situation
from engine.ai.tables import LazyMap, downhill
from engine.ai.weights import GenestealerWeights, weights_from_params


class GenestealerMaps:
    """The maps and their memos; the base of the Genestealer player."""

    name = "heuristic-genestealers"

    def __init__(self, params: dict[str, float] | None = None) -> None:
        self.params: dict[str, float] = dict(params or {})
        self.w = self._weights(self.params)
        # The overwatch term's weight per expected shot (#9).
        self._caution = self._overwatch_weight()
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

    @staticmethod
    def _weights(params: dict[str, float]) -> GenestealerWeights:
        return weights_from_params(GenestealerWeights, params)

    def _overwatch_weight(self) -> float:
        return 0.5 + 2 * self.w.caution

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
        flank = int(self.w.flank)
        # When only the flamer can win the mission, the others are worth less: strike him first.
        key = 0 if sit.goal.kind != "flame" else int(self.w.key_target)
        # ... and he is struck by the shortest way: the walk round to his side gives him the time to burn it.
        key_front = int(self.w.key_flank) if sit.goal.kind == "flame" else flank
        seeds: list[tuple[int, int]] = []
        leaders = self._leaders(sit)
        melee = int(self.w.melee_target)
        for m in sit.marines:
            nb = b.nbr[m.sq]
            flamer = m.ranged == "heavy_flamer"
            extra = key if key and not flamer else 0
            if m.melee in _STRONG_MELEE:
                extra += melee  # #2: one Genestealer pins him, the others go round him to the weaker Marines
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
        if not self.w.lead_target or sit.goal.kind != "escape":
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
        if self.w.ambush > 0 and sit.goal.kind != "flame" and sit.marines:
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

    def _urgent(self, sit: Situation) -> bool:
        """The Marines are about to reach their goal: no more waiting, everything charges."""
        D = sit.marine_goal_map()
        if D is None or not sit.marines:
            return False
        return bool(min([D[m.sq] for m in sit.marines]) <= self.w.urgent_within)
