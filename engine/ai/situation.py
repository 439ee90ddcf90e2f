"""What a player reads off a state before deciding: pieces by side, legal actions by actor, distance maps.

Reads the engine's live pieces (`state.p`, `state.occ`, ...) directly rather than through the frozen views,
because building views for every decision would cost more than the decision itself. Nothing is mutated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ai.tables import INF, GameTables, tables
from engine.rules.actions import Action

_NO_ACTOR = frozenset({"cp", "lurk", "put", "parry", "guardroll", "psipoints", "psi", "pass", "end"})


class Situation:
    """One decision's snapshot: legal actions indexed by actor, pieces by side, the game's tables."""

    __slots__ = ("_by_actor", "actions", "board", "enemies", "goal", "gt", "legal", "marines", "state")

    def __init__(self, state: Any, actions: Sequence[Action]) -> None:
        self.state = state
        self.actions = actions
        # The engine keeps the frozenset it checks apply() against; reuse it while it is current.
        cached = getattr(state, "_legal_set", None)
        if cached is not None and getattr(state, "_legal_key", None) == getattr(state, "version", 0):
            self.legal = cached
        else:
            self.legal = frozenset(actions)
        self._by_actor: dict[str, list[Action]] | None = None
        ms = []
        es = []
        for pc in state.p.values():
            if pc.kind == "marine":
                if pc.sq >= 0:
                    ms.append(pc)
            else:
                es.append(pc)
        self.marines = ms
        self.enemies = es
        mt = tables(state.game)
        self.gt: GameTables = mt.for_state(state)
        self.board = mt.board
        self.goal = mt.goal

    @property
    def by_actor(self) -> dict[str, list[Action]]:
        """Legal piece actions grouped by the acting piece's id (built on first use)."""
        by = self._by_actor
        if by is None:
            by = {}
            for a in self.actions:
                if a.args and a.verb not in _NO_ACTOR:
                    lst = by.get(a.args[0])
                    if lst is None:
                        by[a.args[0]] = [a]
                    else:
                        lst.append(a)
            self._by_actor = by
        return by

    def marine_goal_map(self, flamer: bool = True) -> list[int] | None:
        """Marine cost to the mission goal from every square (None when the Marines only have to survive).

        For a section to flame, the escort (`flamer=False`) heads for the section's inner squares, out of
        the doorway the flamer needs.
        """
        g = self.goal
        st = self.state
        if g.kind == "escape":
            sqs = []
            if "chute" in g.via:
                sqs.extend(st.feat.chutes)
            if "exit" in g.via:
                sqs.extend(g.exit_squares)
            return self.gt.marine_goal_map("escape", sqs) if sqs else None
        if g.kind == "carry":
            for pc in self.marines:
                if pc.carry == g.objective:
                    return self.gt.marine_goal_map("exit", g.exit_squares)
            for sq, oid in st.obj_at.items():
                if oid == g.objective:
                    return self.gt.marine_goal_map(("obj", sq), (sq,))
            return None
        if g.kind == "flame":
            if flamer:
                return self.gt.marine_goal_map("flame", g.flame_squares)
            b = self.board
            inner = [t for t in g.flame_squares if all(n >= 0 and b.section[n] == b.section[t] for n in b.nbr[t])]
            return self.gt.marine_goal_map("flame-escort", inner or g.flame_squares)
        return None

    def marine_goal_map_is_exit(self) -> bool:
        """In a carry mission: the objective is in a Marine's hands, so the squad heads for the exit."""
        g = self.goal
        return g.kind == "carry" and any(pc.carry == g.objective for pc in self.marines)

    def enemy_map(self) -> list[int]:
        """Walking cost for the nearest Genestealer or blip (lurking ones from their entry) to every square."""
        st = self.state
        b = self.board
        seeds = []
        for pc in self.enemies:
            if pc.sq >= 0:
                seeds.append((pc.sq, 0))
            elif pc.entry:
                seeds.append((b.entries[pc.entry], 1))
        if not seeds:
            return [INF] * b.size
        key = ("E", st.turn, tuple(sorted(seeds)))
        # Only the squad's neighbourhood matters (threat radius, facing toward the threat).
        return self.gt.from_seeds(key, seeds, limit=40)

    def sees(self, m: Any, t: int) -> bool:
        """Marine m has line of sight to square t now."""
        return bool(self.state._sees(m, t))
