"""What a Genestealer decision reads: the attack map, the Marines on overwatch, the models gathered, the
overwatch shots on a square; each part worked out on first use."""

from __future__ import annotations

from engine.ai.genestealer_maps import GenestealerMaps
from engine.ai.situation import Situation
from engine.ai.tables import downhill
from engine.rules.pieces import Piece


class _Field:
    """Per-decision picture: attack-distance map, the Marines on overwatch, how many models are close.

    Most decisions are a blip's next step, which needs none of the group picture: every part is computed
    on first use (the state does not change during a decision, so the answers are the same).
    """

    __slots__ = ("_danger", "_near", "_reach", "_route", "_urgent", "_watchers", "dm", "ow_range", "player", "sit")

    def __init__(self, sit: Situation, dm: list[int], reach: float, player: GenestealerMaps) -> None:
        self.sit = sit
        self.dm = dm
        self.player = player
        self._reach = reach
        self.ow_range = sit.state.game.ow_range
        self._watchers: list[Piece] | None = None
        self._near: int | None = None
        self._route: list[int] | None = None
        self._urgent: bool | None = None
        # The state is fixed for the decision, so a square's danger is too; paths and moves overlap.
        self._danger: dict[int, float] = {}

    @property
    def watchers(self) -> list[Piece]:
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
