"""The legal actions of a decision as a person is shown them: where each points on the map, its AP cost, and an
attack's exact kill chance.

Read off the rules only: the legal actions (`legal_actions_of`, `legal_actions`), the moves API
(`engine.rules.moves.piece_moves`: destination, facing and AP of steps, turns, doors, ladders, holes, links and
exits),
the costs of the other orders (`engine.rules.moves`), and the exact odds (`engine.rules.chances`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.rules.actions import Action
from engine.rules.board import FACE_INDEX, FACE_VEC
from engine.rules.kernel import RELOAD_COST, STAND_COST
from engine.rules.moves import (
    ASSAULT_COST,
    FLAME_COST,
    GUARD_COST,
    LINK_COSTS,
    OVERWATCH_COST,
    SHOT_COST,
    UNJAM_COST,
    piece_moves,
)
from engine.rules.state import GameState

# AP of the orders that are neither a move nor an attack (a Marine pays his AP first, then command points).
_ORDER_COST = {"overwatch": OVERWATCH_COST, "guard": GUARD_COST, "unjam": UNJAM_COST, "reload": RELOAD_COST,
               "stand": STAND_COST, "give": 1, "enter": 1, "drop": 0, "reveal": 0, "psi": 0}


@dataclass(frozen=True)
class Choice:
    """One legal action: its text, the square it points at (-1: none), its AP cost and an attack's kill chance."""

    action: Action
    verb: str
    piece: str | None  # the piece that acts (None: a decision that names none, like cp keep)
    square: int = -1
    cost: int | None = None
    kill: Fraction | None = None

    @property
    def text(self) -> str:
        return str(self.action.text())

    def label(self) -> str:
        """What the map writes on the action's square: its cost, and a kill chance in whole percent."""
        parts = []
        if self.kill is not None:
            parts.append(f"{percent(self.kill)}")
        if self.cost is not None:
            parts.append(f"{self.cost} AP")
        return " ".join(parts)


def percent(p: Fraction) -> str:
    """A chance as a person reads it: whole percent (a tenth below 10%)."""
    v = float(p) * 100
    return f"{v:.1f}%" if 0 < v < 10 else f"{v:.0f}%"


def piece_choices(state: GameState, pid: str) -> list[Choice]:
    """The actions piece `pid` is offered now, in the rules' order, each placed and priced."""
    pc = state.piece(pid)
    if pc is None:
        return []
    moves = {m.action: m for m in piece_moves(state, pid)}
    out: list[Choice] = []
    for a in state.legal_actions_of(pid):
        m = moves.get(a)
        if m is not None:
            square = m.door_sq if m.door is not None else m.to
            out.append(Choice(a, a.verb, pid, square, m.cost))
            continue
        out.append(_order(state, pc, a))
    return out


def _order(state: GameState, pc: Any, a: Action) -> Choice:
    b = state.game.board
    verb, args = a.verb, a.args
    if verb == "shoot":
        target = args[1]
        sq = b.doors.get(target, state.k.p[target].sq if target in state.k.p else -1)
        from engine.rules.chances import shot_chance

        return Choice(a, verb, pc.id, sq, 0 if pc.free else SHOT_COST, shot_chance(state, pc.id, target).kill)
    if verb == "flame":
        from engine.rules.chances import flame_chance

        return Choice(a, verb, pc.id, b.parse_sq(args[1]), FLAME_COST, flame_chance(state, pc.id))
    if verb == "assault":
        target = args[1]
        if target in b.doors:
            return Choice(a, verb, pc.id, b.doors[target], ASSAULT_COST)
        from engine.rules.chances import assault_chance

        return Choice(a, verb, pc.id, state.k.p[target].sq, ASSAULT_COST, assault_chance(state, pc.id, target))
    if verb == "enter":  # a blip from its entry area, a Marine out of a boarding torpedo onto its ramp
        return Choice(a, verb, pc.id, b.entries.get(pc.entry, b.ramps.get(pc.entry, -1)), 1)
    if verb == "psi" and len(args) > 1:
        return Choice(a, verb, pc.id, _square_of(state, args[-1]), 0)
    return Choice(a, verb, pc.id, -1, _ORDER_COST.get(verb))


def _square_of(state: GameState, text: str) -> int:
    """The square an argument names: a square's text, a piece's id or a door's id (-1: none)."""
    b = state.game.board
    if text in state.k.p:
        return int(state.k.p[text].sq)
    if text in b.doors:
        return int(b.doors[text])
    try:
        return int(b.parse_sq(text))
    except (ValueError, KeyError):
        return -1


def decision_choices(state: GameState) -> list[Choice]:
    """The answers of a pending decision (a reaction, command points, a facing, a placement ...), each placed on
    the square or piece it names when it names one."""
    out: list[Choice] = []
    entries = state.game.board.entries
    for a in state.legal_actions():
        args = a.args
        pid = args[0] if args and args[0] in state.k.p else None
        if a.verb == "lurk":
            sq = entries.get(args[0], -1)
        elif a.verb in ("put", "setup"):
            sq = _square_of(state, args[0])
        elif a.verb == "deploy" and len(args) > 1:
            sq = _square_of(state, args[1])
        elif a.verb == "face" and pid is not None and len(args) > 1:
            sq = _faced(state, int(state.k.p[pid].sq), args[1])
        elif a.verb in LINK_COSTS and pid is not None and len(args) > 1:
            # A link as a reaction (a lift's ride): the square named, as in the action phase
            sq = dict(state.feat.links[a.verb].get(state.k.p[pid].sq, ())).get(args[1], -1)
        elif a.verb in ("retreat", "scuttle", "shove", "flame") and len(args) > 1:
            sq = _square_of(state, args[1])
        elif pid is not None:
            sq = int(state.k.p[pid].sq)
        else:
            sq = -1
        kill = None
        if a.verb == "fire" and pid is not None:
            # An overwatch shot at the acting Genestealer (or the door closed in sight): its exact chance.
            d = state.decision()
            target = getattr(d, "genestealer", None) or getattr(d, "door", None)
            if target is not None and (target in state.k.p or target in state.game.board.doors):
                from engine.rules.chances import shot_chance

                kill = shot_chance(state, pid, target, overwatch=True).kill
        cost = LINK_COSTS.get(a.verb)
        out.append(Choice(a, a.verb, pid, sq, cost, kill))
    return out


def _faced(state: GameState, sq: int, face: str) -> int:
    """The square a facing looks at: the neighbour that way on the piece's level (its own square at the edge), so
    a facing is picked by clicking the square the model is to face."""
    b = state.game.board
    if sq < 0 or face not in FACE_INDEX:
        return sq
    li, x, y = b.lxy(sq)
    dx, dy = FACE_VEC[FACE_INDEX[face]]
    there = b.sq_or_none(li, x + dx, y + dy)
    return sq if there is None else int(there)


@dataclass(frozen=True)
class Route:
    """The cheapest way found for a piece to reach a square now: its AP and the actions (steps and turns)."""

    square: int
    cost: int
    actions: tuple[Action, ...]


def reach(state: GameState, pid: str, limit: int = 600) -> dict[int, Route]:
    """Every square piece `pid` can walk to in this activation, with the cheapest AP and the steps and turns.

    Planned on a copy of the game as the piece's side knows it (hidden values and dice drawn afresh), by playing
    the moves the rules offer (`piece_moves`) from pose to pose; a route stops where the game would ask a
    decision (an overwatch shot, a conversion), since what follows depends on it. `limit` bounds the poses tried.
    """
    import heapq

    pc = state.piece(pid)
    side = state.current_player()
    if pc is None or pc.sq < 0 or side is None or state.decision() is not None:
        return {}
    start = state.copy(resample_dice=True, seed=0, hidden_from=side)
    heap: list[tuple[int, int, GameState, tuple[Action, ...]]] = [(0, 0, start, ())]
    best: dict[tuple[int, int], int] = {(pc.sq, pc.facing): 0}
    out: dict[int, Route] = {}
    pushed = 1
    while heap and pushed < limit:
        cost, _n, st, path = heapq.heappop(heap)
        here = st.piece(pid)
        if here is None or here.sq < 0:
            continue
        if best.get((here.sq, here.facing), cost) < cost:
            continue
        if path and here.sq != pc.sq and here.sq not in out:
            out[here.sq] = Route(here.sq, cost, path)
        if st.decision() is not None or st.current_player() != side:
            continue  # the game asks something first: the route ends here
        for m in piece_moves(st, pid, verbs=("move", "turn")):
            if m.jump:
                continue
            nc = cost + m.cost
            if nc < best.get((m.to, m.facing), nc + 1):
                best[(m.to, m.facing)] = nc
                nxt = st.copy()
                nxt.apply(m.action)
                heapq.heappush(heap, (nc, pushed, nxt, (*path, m.action)))
                pushed += 1
    return out
