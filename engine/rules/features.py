"""This game's holes, ladders, rubble and chutes (fixed by the mission or drawn per game for Pitfall)."""

from __future__ import annotations

import random
from collections.abc import Callable, Container
from typing import TYPE_CHECKING, Any

from engine.rules.board import Board
from engine.rules.verbs import LINKS

if TYPE_CHECKING:
    from engine.rules.game import Game
    from engine.rules.pieces import Piece


# What the remembered eyes' views may cover, in squares seen, together: hundreds of poses on the sample missions
# (a view there covers tens to a hundred squares), two or three on a 200 x 200 open hall (the Board's
# VIEW_CACHE_SQUARES then still has room for the views it keeps itself).
EYE_MEMO_SQUARES = 50_000


def _linked(verb: str) -> Callable[[Any], Container[int]]:
    return lambda st: st.feat.links[verb]


# Where a game holds each kind of the mission's features (engine/mission/kinds.py), as the squares a state knows
# them by: tests/engine/test_feature_kinds.py puts one feature of every kind on a board and finds each here.
HELD: dict[str, Callable[[Any], Container[int]]] = {
    "doors": lambda st: st.game.board.door_at,
    "entry_areas": lambda st: set(st.game.board.entries.values()),
    "exits": lambda st: st.game.board.exit_at,
    "objectives": lambda st: st.obj_at,
    "pitfalls": lambda st: st.feat.pit_down,
    "ladders": lambda st: st.feat.ladder,
    "rubble": lambda st: st.feat.rubble,
    "chutes": lambda st: st.feat.chutes,
    "torpedoes": lambda st: set(st.game.board.ramps.values()),
    "deployment_areas": lambda st: {t for squares in st.game.deploy_areas.values() for t in squares},
    # (a Marine aboard a boarding torpedo, off the board, is held at its ramp)
    "squad": lambda st: {pc.sq if pc.sq >= 0 else st.game.board.ramps.get(pc.entry, -1)
                         for pc in st.p.values() if pc.kind == "marine"},
    # (a link's feature, by the squares its verb moves between)
    **{link.kind: _linked(verb) for verb, link in LINKS.items()},
}


class Features:
    """Immutable once drawn; shared by every copy of one game's state."""

    def __init__(self) -> None:
        self.pit_down: dict[int, int] = {}  # pitfall square -> square below (-1: bottomless)
        self.pit_up: dict[int, int] = {}  # square below a pitfall -> the pitfall square
        self.pit_letter: dict[int, str] = {}
        self.ladder: dict[int, int] = {}  # either end -> the other end
        self.ladder_top: dict[int, int] = {}
        self.rubble: dict[int, int] = {}
        self.chutes: dict[int, int] = {}
        # link verb (engine/rules/verbs.py) -> square -> ((name, square), ...): where the verb goes from there
        self.links: dict[str, dict[int, tuple[tuple[str, int], ...]]] = {verb: {} for verb in LINKS}
        # turbo-lift entrance -> ((level id, the lift's entrance on that level), ...) for every other level it serves
        self.lift = self.links["ride"]
        # Squares where entering always has a consequence (a chute, a pitfall, a ladder top): with objects and
        # flames, where a step must call Movement.entered (set by finish()).
        self.on_enter: frozenset[int] = frozenset()
        # square -> ((hole square on the viewer's level, other end, diagonally-opposite square or -1, upper), ...)
        self._views: dict[int, tuple[tuple[int, int, int, int], ...]] = {}
        self._through: dict[int, tuple[int, ...]] = {}
        # square -> the squares on other levels a Marine there might see through a hole (filled on demand)
        self._hole_targets: dict[int, frozenset[int]] = {}
        # (marine id, square, facing, prone) -> that Marine's eye for spotting blips (sight.py; filled on demand:
        # it depends on the pose, the board and these features only, and a Features belongs to one Game). Kept
        # through keep_eye, within EYE_MEMO_SQUARES: each eye holds its view, which the Board may then not drop.
        self.eye_memo: dict[tuple[str, int, int, bool], Any] = {}
        self._eye_held = 0

    def finish(self, b: Board, hole_los: str, pf_ladders: bool = True) -> None:
        pits: list[tuple[int, int]] = [(u, d) for u, d in self.pit_down.items() if d >= 0]
        ladders = [(t, self.ladder[t]) for t in self.ladder_top]
        through: dict[int, list[int]] = {}
        views: dict[int, list[tuple[int, int, int, int]]] = {}
        for upper, lower in pits + ladders:
            through.setdefault(upper, []).append(lower)
            through.setdefault(lower, []).append(upper)
        # [PF] ladder holes are seen through like pitfalls; [4e] ladder ends are simply adjacent (game.py).
        for upper, lower in pits + (ladders if pf_ladders else []):
            for here, there in ((upper, lower), (lower, upper)):
                views.setdefault(here, []).append((here, there, -1, upper))
                for d, n in enumerate(b.nbr[here]):
                    if n < 0:
                        continue
                    opp = -1
                    if hole_los == "pitfall":
                        # The square diagonally/straight opposite the viewer, on the other level.
                        opp = b.nbr[there][(d + 4) % 8]
                    views.setdefault(n, []).append((here, there, opp, upper))
        self._through = {k: tuple(v) for k, v in through.items()}
        self._views = {k: tuple(v) for k, v in views.items()}
        self.on_enter = frozenset([*self.chutes, *self.pit_down, *self.ladder_top])

    def keep_eye(self, pose: tuple[str, int, int, bool], eye: Any, squares: int) -> None:
        """Remember a pose's eye, whose view covers `squares` squares, forgetting every eye kept so far once they
        would cover more than EYE_MEMO_SQUARES: on a big open map each view is megabytes, and every pose a Marine
        ever took would otherwise keep its view (and its lines) alive to the end of the game."""
        if self._eye_held + squares > EYE_MEMO_SQUARES:
            self.eye_memo.clear()
            self._eye_held = 0
        self.eye_memo[pose] = eye
        self._eye_held += squares

    def through(self, s: int) -> tuple[int, ...]:
        """Squares directly above or below s through a hole."""
        return self._through.get(s, ())

    def hole_targets(self, s: int, ladders_4e: bool) -> frozenset[int]:
        """Every square on another level that a Marine on s could see through a hole ([4e]: or down a ladder; or
        at another entrance of his turbo-lift); hole_sees may only be true for these."""
        out = self._hole_targets.get(s)
        if out is None:
            cands = {c for _here, there, opp, _upper in self._views.get(s, ()) for c in (there, opp) if c >= 0}
            if ladders_4e and s in self.ladder:
                cands.add(self.ladder[s])
            cands.update(t for _level, t in self.lift.get(s, ()))
            out = self._hole_targets[s] = frozenset(cands)
        return out

    def hole_sees(
        self, b: Board, occ: Container[int], closed: Container[int], clear_line: Callable[[int, int], bool], m: Piece,
        t: int,
    ) -> bool:
        """Pitfall LOS through holes: the viewer on or next to a hole sees the far end (and the square beyond);
        occ and closed: the squares holding a piece or a closed door, clear_line(a, b): no obstacle from a to b."""
        views = self._views.get(m.sq)
        if not views:
            return False
        for here, there, opp, upper in views:
            if t != there and t != opp:
                continue
            if upper in occ and upper != m.sq and upper != t:
                continue  # a model in the upper square of the hole blocks the view through it (not of itself)
            if here != m.sq:
                if not b.in_arc(m.sq, m.facing, here) or here in closed:
                    continue
                if not clear_line(m.sq, here):
                    continue
            return True
        return False

    def arc_squares(self, b: Board, sq: int, facing: int, rng: int) -> tuple[int, ...]:
        key = (sq, facing, rng)
        cache = b._arc_cache
        out = cache.get(key)
        if out is None:
            out = cache[key] = b.arc_within(sq, facing, rng)
        return out

    def rubble_between(self, b: Board, a: int, t: int) -> int:
        """Rubble piles a shot passes through or into (not ones it passes diagonally beside)."""
        n = 1 if t in self.rubble else 0
        line = b.line(a, t) or ()
        for c in line:
            if type(c) is int and c in self.rubble:
                n += 1
        return n

    def describe(self, b: Board) -> dict[str, list[tuple[str, int, int]]]:
        def pos(s: int) -> tuple[str, int, int]:
            li, x, y = b.lxy(s)
            return (b.level_ids[li], x, y)

        return {
            "pitfalls": [pos(s) for s in sorted(self.pit_down)],
            "ladder_tops": [pos(s) for s in sorted(self.ladder_top)],
            "ladder_bottoms": [pos(self.ladder[s]) for s in sorted(self.ladder_top)],
            "rubble": [pos(s) for s in sorted(self.rubble)],
            "chutes": [pos(s) for s in sorted(self.chutes)],
        }


def _below(game: Game, s: int) -> int:
    b = game.board
    out = b.below_memo.get(s)
    if out is None:
        li, x, y = b.lxy(s)
        lower = game.mission.level_below(b.level_ids[li])
        out = -1 if lower is None or not lower.is_floor(x, y) else b.sq_of(lower.id, x, y)
        b.below_memo[s] = out
    return out


def setup_squares(game: Game, placed: dict[int, int]) -> list[int]:
    """Squares where the next face-down Pitfall counter may go (players' set-up): a clear square of a zone
    section that holds no counter yet, with floor below (the counter may be a pitfall or a ladder)."""
    b = game.board
    m = game.mission
    setup = m.random_setup
    if setup is None:
        return []
    blocked = set(b.door_at) | set(b.deploy) | set(b.entries.values()) | set(b.exit_at)
    blocked |= {b.sq_of(c.level, c.x, c.y) for c in m.chutes}
    blocked |= {b.sq_of(o.level, o.x, o.y) for o in m.objectives}
    used = {(sq // b.plane, b.section[sq]) for sq in placed}
    out: list[int] = []
    for level, code in setup.zones:
        li = b.level_index.get(level)
        if li is None or (li, code) in used:
            continue
        out.extend(sq for sq in b.sections.get((li, code), ()) if sq not in blocked and _below(game, sq) >= 0)
    return sorted(set(out))


def placed_features(game: Game, placed: dict[int, int], order: list[int]) -> Features:
    """Features after the players' set-up: placed maps square -> index into the shuffled counters `order`."""
    b = game.board
    m = game.mission
    assert m.random_setup is not None
    f = draw_features(game, None)
    counters = m.random_setup.counters
    for sq, k in placed.items():
        c = counters[order[k]]
        if c.kind == "pitfall":
            f.pit_down[sq] = _below(game, sq)
            f.pit_letter[sq] = c.letter or ""
        elif c.kind == "ladder":
            bot = _below(game, sq)
            f.ladder[sq], f.ladder[bot], f.ladder_top[sq] = bot, sq, 1
        else:
            f.rubble[sq] = 1
    for sq, below in f.pit_down.items():
        if below >= 0:
            f.pit_up[below] = sq
    f.finish(b, game.opts.hole_los, game.opts.ladder_rule == "pitfall")
    return f


def draw_features(game: Game, rng: random.Random | None) -> Features:
    """The mission's fixed features, plus the random counter set-up drawn from rng when the mission has one."""
    b = game.board
    m = game.mission
    f = Features()
    for p in m.pitfalls:
        s = b.sq_of(p.level, p.x, p.y)
        f.pit_down[s] = _below(game, s)
        f.pit_letter[s] = p.letter
    for lad in m.ladders:
        top = b.sq_of(lad.top.level, lad.top.x, lad.top.y)
        bot = b.sq_of(lad.bottom.level, lad.bottom.x, lad.bottom.y)
        f.ladder[top], f.ladder[bot], f.ladder_top[top] = bot, top, 1
    for r in m.rubble:
        f.rubble[b.sq_of(r.level, r.x, r.y)] = 1
    for c in m.chutes:
        f.chutes[b.sq_of(c.level, c.x, c.y)] = 1
    for verb, link in LINKS.items():
        joined = f.links[verb]
        for feature in link.stops(m):
            stops = [(name, b.sq_of(e.level, e.x, e.y)) for name, e in feature]
            for _name, s in stops:
                joined[s] = tuple((n, t) for n, t in stops if t != s)
    if m.random_setup is not None and rng is not None:
        _random_setup(game, f, rng)
    for s, below in f.pit_down.items():
        if below >= 0:
            f.pit_up[below] = s
    f.finish(b, game.opts.hole_los, game.opts.ladder_rule == "pitfall")
    return f


def _setup_candidates(game: Game) -> dict[tuple[int, str], tuple[tuple[int, int, tuple[int, ...]], ...]]:
    """Per zone section (level index, code): (square, square below or -1, its orthogonal neighbours) of each
    square no door, deployment square, entry, exit, chute or objective takes, in section order. The same for
    every game on the mission, so worked out once per Board (_random_setup filters them per game)."""
    b = game.board
    cached = b.setup_candidates
    if cached is not None:
        return cached
    m = game.mission
    blocked = set(b.door_at) | set(b.deploy) | set(b.entries.values()) | set(b.exit_at)
    blocked |= {b.sq_of(c.level, c.x, c.y) for c in m.chutes}
    blocked |= {b.sq_of(o.level, o.x, o.y) for o in m.objectives}
    out: dict[tuple[int, str], tuple[tuple[int, int, tuple[int, ...]], ...]] = {}
    for key, squares in b.sections.items():
        out[key] = tuple(
            (s, _below(game, s), (b.nbr[s][0], b.nbr[s][2], b.nbr[s][4], b.nbr[s][6]))
            for s in squares
            if s not in blocked
        )
    b.setup_candidates = out
    return out


def _random_setup(game: Game, f: Features, rng: random.Random) -> None:
    b = game.board
    m = game.mission
    setup = m.random_setup
    assert setup is not None
    counters = list(setup.counters)
    rng.shuffle(counters)
    zones = list(setup.zones)
    rng.shuffle(zones)
    sections = _setup_candidates(game)
    # The pitfalls and rubble so far (the mission's, then those drawn): a pitfall or rubble never goes
    # orthogonally next to one (the neighbours are board squares or -1, never in this set).
    pits_rubble = set(f.pit_down) | set(f.rubble)
    for c, (level, code) in zip(counters, zones, strict=False):
        li = b.level_index.get(level)
        if li is None:
            continue
        spaced = c.kind in ("pitfall", "rubble")
        needs_below = c.kind in ("pitfall", "ladder")
        cands = []
        for s, below, orth in sections.get((li, code), ()):
            if s in f.pit_down or s in f.ladder or s in f.rubble:
                continue
            if spaced and not pits_rubble.isdisjoint(orth):
                continue
            if needs_below and below < 0:
                continue
            cands.append(s)
        if not cands:
            continue
        s = cands[rng.randrange(len(cands))]
        if c.kind == "pitfall":
            f.pit_down[s] = _below(game, s)
            f.pit_letter[s] = c.letter or ""
            pits_rubble.add(s)
        elif c.kind == "ladder":
            bot = _below(game, s)
            f.ladder[s], f.ladder[bot], f.ladder_top[s] = bot, s, 1
        else:
            f.rubble[s] = 1
            pits_rubble.add(s)
