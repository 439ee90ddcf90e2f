"""What a player reads off a state before deciding: pieces by side, legal actions by actor, distance maps.

Reads the engine's live pieces (`state.p`, `state.occ`, ...) directly rather than through the frozen views,
because building views for every decision would cost more than the decision itself. Nothing is mutated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ai.tables import INF, GameTables, tables
from engine.rules.actions import Action
from engine.rules.lazy_legal import LegalActions
from engine.rules.quick_legal import marine_fire_options, stealer_assaults

_NO_ACTOR = frozenset({"cp", "lurk", "put", "parry", "guardroll", "psipoints", "psi", "pass", "end"})


# The tables of the last state seen: a game asks hundreds of times in a row for the same ones.
# One tuple, replaced whole, so a reader never sees a half-updated entry.
_LAST: tuple[Any, Any, GameTables | None] = (None, None, None)


def _last_tables(state: Any) -> GameTables:
    global _LAST
    game, feat, gt = _LAST
    if gt is not None and game is state.game and feat is state.feat:
        return gt
    gt = tables(state.game).for_state(state)
    _LAST = (state.game, state.feat, gt)
    return gt


class LegalSet:
    """`a in legal` for the legal actions, without hashing every Action of every decision.

    The engine interns its actions (`act()`), so a candidate is nearly always the very object in the list:
    an id set (C-level, no Python `__hash__` calls) answers that; anything else falls back to a frozenset,
    built only then, which keeps the answer exactly that of `a in frozenset(actions)`.
    """

    __slots__ = ("_actions", "_ids", "_set")

    def __init__(self, actions: Sequence[Action]) -> None:
        self._actions = actions  # also keeps the objects alive, so their ids stay unique
        self._ids: set[int] | None = None
        self._set: frozenset[Action] | None = None

    def __contains__(self, a: object) -> bool:
        ids = self._ids
        if ids is None:
            ids = self._ids = set(map(id, self._actions))
        if id(a) in ids:
            return True
        fs = self._set
        if fs is None:
            fs = self._set = frozenset(self._actions)
        return a in fs


class LazyLegal:
    """`a in legal` for a lazy LegalActions, remembering the last action found legal.

    A pick is confirmed on its way out several times (the sub-decision, the phase, then `choose`); the state
    does not change within a decision, so the rules' answer for the same action is the same every time.
    """

    __slots__ = ("_ask", "_last")

    def __init__(self, actions: LegalActions) -> None:
        self._ask = actions.__contains__
        self._last: object = None

    def __contains__(self, a: object) -> bool:
        if a is self._last:
            return True
        if self._ask(a):
            self._last = a
            return True
        return False


class Situation:
    """One decision's snapshot: legal actions indexed by actor, pieces by side, the game's tables."""

    __slots__ = ("_by_actor", "_lazy", "_of", "actions", "board", "enemies", "goal", "gt", "legal", "marines", "state")

    def __init__(self, state: Any, actions: Sequence[Action]) -> None:
        self.state = state
        self.actions = actions
        # A lazy LegalActions (from the simulator) answers membership and per-piece lists itself.
        self.legal: LazyLegal | LegalSet
        if type(actions) is LegalActions:
            self._lazy = True
            self.legal = LazyLegal(actions)
        else:
            self._lazy = False
            self.legal = LegalSet(actions)
        self._by_actor: dict[str, list[Action]] | None = None
        self._of: dict[str, list[Action]] | None = None
        marines: list[Any] = []
        enemies: list[Any] = []
        for pc in state.p.values():
            if pc.kind != "marine":
                enemies.append(pc)
            elif pc.sq >= 0:
                marines.append(pc)
        self.marines = marines
        self.enemies = enemies
        gt = _last_tables(state)
        self.gt: GameTables = gt
        self.board = gt.mt.board
        self.goal = gt.mt.goal

    @property
    def by_actor(self) -> dict[str, list[Action]]:
        """Legal piece actions grouped by the acting piece's id (built on first use)."""
        by = self._by_actor
        if by is None:
            by = {}
            no_actor = _NO_ACTOR
            get = by.get
            for a in self.actions:
                args = a.args
                if args and a.verb not in no_actor:
                    lst = get(args[0])
                    if lst is None:
                        by[args[0]] = [a]
                    else:
                        lst.append(a)
            self._by_actor = by
        return by

    def actions_of(self, pid: str) -> list[Action]:
        """Legal actions of piece `pid`, in legal order: `by_actor.get(pid, [])` without grouping them all."""
        # A decision asks about one to three pieces, so one filtered scan each beats grouping every action.
        of = self._of
        if of is None:
            of = self._of = {}
        lst = of.get(pid)
        if lst is None and self._lazy:
            lst = of[pid] = self.actions.of(pid)  # type: ignore[attr-defined]
        elif lst is None:
            no_actor = _NO_ACTOR
            lst = of[pid] = [a for a in self.actions if a.args and a.args[0] == pid and a.verb not in no_actor]
        return lst

    def fire_options(self, pc: Any) -> tuple[list[Action], list[Action]] | None:
        """(shoot, flame) actions of Marine pc in the action phase, without listing his other actions.

        None when the rules cannot say cheaply (or the actions came as a plain list): ask actions_of then.
        """
        if self._lazy and not self.state.stack:
            return marine_fire_options(self.state, pc)
        return None

    def stealer_assaults(self, pc: Any) -> list[Action] | None:
        """The assault actions of Genestealer pc in the action phase (None: ask actions_of instead)."""
        if self._lazy and not self.state.stack:
            return stealer_assaults(self.state, pc)
        return None

    def marine_goal_map(self, flamer: bool = True) -> list[int] | None:
        """Marine cost to the mission goal from every square (None when the Marines only have to survive).

        For a section to flame, the escort (`flamer=False`) heads for the section's inner squares, out of
        the doorway the flamer needs.
        """
        g = self.goal
        st = self.state
        if g.kind == "escape":
            # Fixed for the game (chutes and exits do not move): skip rebuilding the square list.
            cached = self.gt.cached_goal_map("escape")
            if cached is not None:
                return cached
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
        b = self.board
        entries = b.entries
        # Seeds (square, 0) for a piece on the board, (its entry's square, 1) for a lurking one, written as
        # one int each (square, or -1 - entry square): a flat key hashes cheaply, and decodes to the seeds.
        flat = [pc.sq if pc.sq >= 0 else -1 - entries[pc.entry] for pc in self.enemies if pc.sq >= 0 or pc.entry]
        if not flat:
            return [INF] * b.size
        # The map is a function of the seeds alone (any order gives the same map); the pieces keep their
        # order between decisions, so the unsorted tuple finds the cached map as well.
        key = ("E", tuple(flat))
        gt = self.gt
        cached = gt.cached_map(key)
        if cached is not None:
            return cached
        seeds = [(x, 0) if x >= 0 else (-1 - x, 1) for x in flat]
        # Only the squad's neighbourhood matters (threat radius, facing toward the threat).
        return gt.from_seeds(key, seeds, limit=40)

    def sees(self, m: Any, t: int) -> bool:
        """Marine m has line of sight to square t now."""
        return bool(self.state._sees(m, t))
