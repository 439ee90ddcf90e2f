"""What a player reads off its observation before deciding: pieces by side, legal actions by actor, distance maps.

A player reads the game only through its side's `Observation` (engine.rules.observation: what that side may know,
a live read-only view of the rules' own pieces and tables, so nothing is built per decision) and the public rules
API (the predicates it carries, the Game's board and tables). Nothing is mutated.

Consecutive decisions mostly see the same pieces and the same enemy positions (a Marine turn moves only
Marines), so a few module-level memos carry work from one decision to the next, each keyed on exactly what
it is a function of: the split of the pieces by side (the same piece objects), the EnemyPicture with its
lazily worked-out ThreatMap (the enemies' squares, kinds and entries), the flamer's reach per pose (the board).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine.ai.tables import GameTables, Graph, LazyMap, tables
from engine.rules.actions import Action
from engine.rules.board import Board
from engine.rules.lazy_legal import LegalActions
from engine.rules.observation import Observation
from engine.rules.pieces import Piece

_NO_ACTOR = frozenset({"cp", "lurk", "put", "parry", "guardroll", "psipoints", "psi", "pass", "end"})


def observe(state: Any, side: str) -> Observation:
    """What `side` may know of `state` (a GameState), or `state` itself when it is already `side`'s observation."""
    if type(state) is Observation:
        if state.player != side:
            raise ValueError(f"a player for the {side} was handed the {state.player}' observation")
        return state
    obs: Observation = state.observation(side)
    return obs


# The tables of the last state seen: a game asks hundreds of times in a row for the same ones.
# One tuple, replaced whole, so a reader never sees a half-updated entry.
_LAST: tuple[Any, Any, GameTables | None] = (None, None, None)


def _last_tables(state: Observation) -> GameTables:
    global _LAST
    game, feat, gt = _LAST
    if gt is not None and game is state.game and feat is state.feat:
        return gt
    gt = tables(state.game).for_state(state)
    _LAST = (state.game, state.feat, gt)
    return gt


# How far an enemy's walking cost is worked out: only the squad's neighbourhood matters (threat radius,
# facing toward the threat). Farther squares read INF.
THREAT_LIMIT = 40


class ThreatMap(LazyMap):
    """The enemies' walking cost to each square (`dijkstra(gt.fwd, seeds, size, THREAT_LIMIT)`), worked out lazily.

    A Marine decision reads the map at the Marines' squares and next to them, and mostly only asks "within
    the threat radius?": the levels are expanded only as far as the questions need, and resumed for a later
    question (the map is kept while the enemies stay put, i.e. for most of a Marine turn).
    """

    __slots__ = ()

    def __init__(self, g: Graph, seeds: Iterable[tuple[int, int]], size: int, limit: int = THREAT_LIMIT) -> None:
        super().__init__(g, seeds, size, limit)


class EnemyPicture:
    """What the Marine player reads off the enemies' positions, kept while they stay put (most of a Marine turn).

    Built from `key` alone (Situation.enemy_picture): on-board enemies as 2 * square + (1 for a blip, 0 for a
    Genestealer), lurking ones as -1 - their entry's square, in state.p order.
    """

    __slots__ = ("_blips", "_near", "_onboard", "key", "stealer_squares", "threat")

    def __init__(self, gt: GameTables, key: tuple[int, ...]) -> None:
        self.key = key
        seeds = [(x >> 1, 0) if x >= 0 else (-1 - x, 1) for x in key]
        self.threat = ThreatMap(gt.fwd, seeds, gt.mt.size)
        b = gt.mt.board
        plane = b.plane
        xs = b.xs
        ys = b.ys
        # (level, x, y) of each on-board enemy, for Board.rng.
        self._onboard = [(t // plane, xs[t], ys[t]) for t in [x >> 1 for x in key if x >= 0]]
        self.stealer_squares = frozenset([x >> 1 for x in key if x >= 0 and not x & 1])
        blips = 0
        for i, x in enumerate([x for x in key if x >= 0]):
            if x & 1:
                blips |= 1 << i
        self._blips = blips
        self._near: dict[float, dict[int, int]] = {}

    def near_masks(self, r: float) -> dict[int, int]:
        """The near_mask(_, s, r) found so far, by square s."""
        masks = self._near.get(r)
        if masks is None:
            masks = self._near[r] = {}
        return masks

    def near_mask(self, b: Board, s: int, r: float) -> int:
        """Bit i set when the i-th on-board enemy is on s's level within range r of s (Board.rng)."""
        masks = self.near_masks(r)
        m = masks.get(s)
        if m is None:
            lvl = s // b.plane
            x = b.xs[s]
            y = b.ys[s]
            m = 0
            bit = 1
            for t_lvl, tx, ty in self._onboard:
                if t_lvl == lvl and max(abs(tx - x), abs(ty - y)) <= r:
                    m |= bit
                bit <<= 1
            masks[s] = m
        return m

    def near_any(self, b: Board, pieces: Iterable[Piece], r: float) -> int:
        """The union of near_mask(b, pc.sq, r) over `pieces` (the enemies within r of any of them)."""
        masks = self.near_masks(r)
        mask = 0
        for pc in pieces:
            x = masks.get(pc.sq)
            mask |= x if x is not None else self.near_mask(b, pc.sq, r)
        return mask

    def stealers(self, mask: int) -> int:
        """The Genestealers (not blips) among the enemies of `mask`."""
        return mask & ~self._blips

    def weight(self, mask: int) -> int:
        """The enemies of `mask` counted as the Marine player counts them: a blip 2, a Genestealer 1."""
        blips = mask & self._blips
        return mask.bit_count() + blips.bit_count()


# Per board: each square's section as an int, and per Marine pose and flamer range (square, facing, range) the
# sections of the squares in his flamer's arc (Situation.flame_may_pay).
_FLAME_REACH: tuple[Any, list[int], dict[tuple[int, int, int], frozenset[int]]] = (None, [], {})

# The pieces of the last state seen (state.p's values), its Marines and its other pieces, in that order. Shared
# between decisions: readers never change these lists.
_SIDES: tuple[list[Piece], list[Piece], list[Piece]] = ([], [], [])

# The picture of the last enemy positions seen, with what it was read off: the state, its enemies list (_SIDES:
# the same list object while the pieces are the same objects), the kernel's blip_rev at the time (the rules move
# it whenever a blip or Genestealer is put on a square or leaves one, kernel.py) and the tables.
_PICTURE: tuple[Any, Any, int, Any, EnemyPicture | None] = (None, None, -1, None, None)


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

    __slots__ = (
        "_by_actor",
        "_lazy",
        "_of",
        "_picture",
        "actions",
        "board",
        "enemies",
        "goal",
        "gt",
        "legal",
        "marines",
        "of",
        "state",
    )
    # Made on first use (see __init__).
    _by_actor: dict[str, list[Action]]
    _of: dict[str, list[Action]]
    _picture: EnemyPicture | None  # (None until then)

    state: Observation

    def __init__(self, state: Observation, actions: Sequence[Action]) -> None:
        self.state = state
        self.actions = actions
        # Asked in nearly every Marine decision: a None store costs less than the AttributeError of an unset slot.
        self._picture = None
        # A lazy LegalActions (from the simulator) answers membership and per-piece lists itself. The memos
        # _by_actor and _of start unset: each is made on first use (an unset slot raises AttributeError), which
        # saves the stores on the many decisions that never ask.
        self.legal: LazyLegal | LegalSet
        # `of(pid, verb)`: a piece's legal actions of one verb (actions_of, or the lazy list's own, one call fewer).
        self.of: Callable[[str, str], list[Action]]
        if type(actions) is LegalActions:
            self._lazy = True
            self.legal = LazyLegal(actions)
            self.of = actions.of
        else:
            self._lazy = False
            self.legal = LegalSet(actions)
            self.of = self.actions_of
        # The pieces by side: the same piece objects as at the last decision (the usual case) give the same
        # split (a piece's kind never changes), so only the Marines' squares are read again.
        global _SIDES
        pieces = list(state.p.values())
        last, squad, enemies = _SIDES
        if pieces != last:  # identity first: a Piece has no __eq__
            squad = []
            enemies = []
            for pc in pieces:
                if pc.kind != "marine":
                    enemies.append(pc)
                else:
                    squad.append(pc)
            _SIDES = (pieces, squad, enemies)
        # The Marines on the board: the squad list itself (shared, read-only) when none is off it.
        self.marines = squad
        for pc in squad:
            if pc.sq < 0:
                self.marines = [pc for pc in squad if pc.sq >= 0]
                break
        self.enemies = enemies
        game, feat, gt = _LAST  # _last_tables(state), inlined
        if gt is None or game is not state.game or feat is not state.feat:
            gt = _last_tables(state)
        self.gt: GameTables = gt
        self.board = gt.mt.board
        self.goal = gt.mt.goal

    @property
    def by_actor(self) -> dict[str, list[Action]]:
        """Legal piece actions grouped by the acting piece's id (built on first use)."""
        try:
            return self._by_actor
        except AttributeError:
            pass
        by: dict[str, list[Action]] = {}
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

    def actions_of(self, pid: str, verb: str | None = None) -> list[Action]:
        """Legal actions of piece `pid` (with `verb`: only those), in legal order; in an action phase, `verb="psi"`
        gives an Archivist's psychic powers. Without grouping every action by actor."""
        if verb is not None:
            if self._lazy:
                part: list[Action] = self.actions.of(pid, verb)  # type: ignore[attr-defined]
                return part
            if verb == "psi":
                return [a for a in self.actions if a.verb == "psi"]
            return [a for a in self.actions_of(pid) if a.verb == verb]
        # A decision asks about one to three pieces, so one filtered scan each beats grouping every action.
        try:
            of = self._of
        except AttributeError:
            of = self._of = {}
        lst = of.get(pid)
        if lst is None and self._lazy:
            lst = of[pid] = self.actions.of(pid)  # type: ignore[attr-defined]
        elif lst is None:
            no_actor = _NO_ACTOR
            lst = of[pid] = [a for a in self.actions if a.args and a.args[0] == pid and a.verb not in no_actor]
        return lst

    def flame_may_pay(self, pc: Piece) -> bool:
        """Some enemy stands in a section that the flamer of Marine pc could reach from his pose.

        A flamer target is a square of his front arc within flamer range, or one seen through a hole
        (Fire.flame_targets): the sections of all of those, visible or not, count.
        """
        global _FLAME_REACH
        b = self.board
        st = self.state
        rng = st.game.flamer_range
        memo = _FLAME_REACH
        if memo[0] is not b:
            ids: dict[tuple[int, str | None], int] = {}
            sec_id = [ids.setdefault((s // b.plane, b.section[s]), len(ids)) for s in range(b.size)]
            memo = _FLAME_REACH = (b, sec_id, {})
        sec_id = memo[1]
        key = (pc.sq, pc.facing, rng)
        reach = memo[2].get(key)
        if reach is None:
            # The squares of his walls-only view within range (the arc's part within range only: Fire's list).
            reach = memo[2][key] = frozenset([sec_id[t] for t in b.arc_within(pc.sq, pc.facing, rng)])
        holes = st.feat.hole_targets(pc.sq, False)
        if holes:
            # This game's holes next to him: the sections of the squares he may see through them too.
            reach = reach.union([sec_id[t] for t in holes])
        for q in self.enemies:
            t = q.sq
            if t >= 0 and sec_id[t] in reach:
                return True
        return False

    def marine_goal_map(self, flamer: bool = True) -> list[int] | None:
        """Marine cost to the mission goal from every square (None when the Marines only have to survive).

        For a section to flame, the escort (`flamer=False`) heads for the section's inner squares, out of
        the doorway the flamer needs.
        """
        kind = self.goal.kind
        if kind == "escape":
            return self._escape_map()
        if kind == "carry":
            return self._carry_map()
        if kind == "flame":
            return self._flame_map(flamer)
        return None

    def _escape_map(self) -> list[int] | None:
        # Fixed for the game (chutes and exits do not move): skip rebuilding the square list.
        cached = self.gt.cached_goal_map("escape")
        if cached is not None:
            return cached
        g = self.goal
        sqs: list[int] = []
        if "chute" in g.via:
            sqs.extend(self.state.feat.chutes)
        if "exit" in g.via:
            sqs.extend(g.exit_squares)
        return self.gt.marine_goal_map("escape", sqs) if sqs else None

    def _carry_map(self) -> list[int] | None:
        g = self.goal
        for pc in self.marines:
            if pc.carry == g.objective:
                return self.gt.marine_goal_map("exit", g.exit_squares)
        for sq, oid in self.state.obj_at.items():
            if oid == g.objective:
                return self.gt.marine_goal_map(("obj", sq), (sq,))
        # A Genestealer holds it: hunt him down (he drops it when he dies).
        for pc in self.enemies:
            if pc.carry == g.objective and pc.sq >= 0:
                return self.gt.marine_goal_map(("obj", pc.sq), (pc.sq,))
        return None

    def _flame_map(self, flamer: bool) -> list[int]:
        g = self.goal
        if flamer:
            return self.gt.marine_goal_map("flame", g.flame_squares)
        cached = self.gt.cached_goal_map("flame-escort")
        if cached is not None:
            return cached  # (the mission's section: the same squares every time)
        b = self.board
        inner = [t for t in g.flame_squares if all(n >= 0 and b.section[n] == b.section[t] for n in b.nbr[t])]
        return self.gt.marine_goal_map("flame-escort", inner or g.flame_squares)

    def marine_goal_map_is_exit(self) -> bool:
        """In a carry mission: the objective is in a Marine's hands, so the squad heads for the exit."""
        g = self.goal
        return g.kind == "carry" and any(pc.carry == g.objective for pc in self.marines)

    def enemy_picture(self) -> EnemyPicture:
        """The EnemyPicture of the enemies' positions now (the same object while they do not change)."""
        pic0 = self._picture
        if pic0 is not None:
            return pic0
        global _PICTURE
        st = self.state
        last_st, last_enemies, rev, gt, pic = _PICTURE
        # The same enemy pieces, none of them put on a square or taken off one since: the same key. (A lurker's
        # entry is set only when it is made, a new piece; a piece's kind never changes.) In a Marine turn the
        # enemies stay put, so this skips reading every enemy at nearly every decision.
        blip_rev = st.blip_rev
        if pic is not None and last_enemies is self.enemies and rev == blip_rev and last_st is st and gt is self.gt:
            self._picture = pic
            return pic
        entries = self.board.entries
        key = tuple(
            [
                (pc.sq << 1) + (pc.kind == "blip") if pc.sq >= 0 else -1 - entries[pc.entry]
                for pc in self.enemies
                if pc.sq >= 0 or pc.entry
            ]
        )
        if pic is None or gt is not self.gt or pic.key != key:
            pic = EnemyPicture(self.gt, key)
        _PICTURE = (st, self.enemies, blip_rev, self.gt, pic)
        self._picture = pic
        return pic

    def sees(self, m: Piece, t: int) -> bool:
        """Marine m has line of sight to square t now."""
        return bool(self.state.sees(m, t))
