"""The moves a piece may make now, each with what a player needs to rank it (public rules API).

Contract of `piece_moves(state, pid)`:

- It lists the move-like actions the rules offer piece `pid` at this decision, in the legal generator's order:
  steps (`move`, with a Genestealer's new facing or a declared `jump`), `turn`, door `open` / `close`, `exit`,
  `climb` (ladder, or up a pitfall), `jump` (down a hole) and each link (`ride`: a turbo-lift); the verbs declared
  `moves` in engine/rules/verbs.py (`MOVE_VERBS`); `verbs` narrows the list. A link (`LINK_VERBS`: a move between
  a feature's squares at a fixed cost) is read the same way whatever its verb, so a player, the playtest and the
  route maps handle a new one with no code of their own.
  Nothing else: every Move's `action` is legal at this decision, and an action the list leaves out is not (the
  list is read off the legal generator, `GameState.legal_actions_of`, part by part).
- Each `Move` says where the piece stands afterwards (`to`; -1 once it leaves by an exit), which way it faces
  (`facing`; a climb or a Genestealer's jump is followed by a facing decision, so there it is the present
  facing), what it costs (`cost`, AP by the kernel's own predicates: `step_cost` with rubble, `turn_cost`,
  `ladder_cost`, the door, jump and exit costs; a Marine pays his AP first, then command points), and what it
  opens or shuts (`door`, `door_sq`). A step that enters a square with an object picks it up (`Observation.obj_at`).
- What a move reveals is asked of the same rules: `Observation.sees` from the new pose, `Board.static_view` for
  the squares of an arc. A plan of two actions (a turn, then a step) prices its second action with
  `step_cost(pc, d, t, facing)`; the step itself is offered once the turn is made.

`state` is a GameState or an Observation (anything with `piece`, `game`, `feat`, `step_cost`, `turn_cost`
and `legal_view`); `of(pid, verb)` may hand in the decision's own `LegalActions.of` (or a player's memo of it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from engine.rules.actions import Action
from engine.rules.board import DIR_INDEX, FACE_INDEX
from engine.rules.kernel import (
    ASSAULT_COST,
    DOOR_COST,
    EXIT_COST,
    FLAME_COST,
    GUARD_COST,
    JUMP_COST,
    OVERWATCH_COST,
    PIT_CLIMB_COST,
    SHOT_COST,
    UNJAM_COST,
    ladder_cost,
)
from engine.rules.pieces import Piece
from engine.rules.verbs import LINKS, VERBS

# The costs of the orders a player weighs its moves against (what it keeps for overwatch, a shot, ...).
__all__ = [
    "ASSAULT_COST",
    "DOOR_COST",
    "EXIT_COST",
    "FLAME_COST",
    "GUARD_COST",
    "JUMP_COST",
    "LINK_COSTS",
    "LINK_VERBS",
    "MOVE_VERBS",
    "OVERWATCH_COST",
    "PIT_CLIMB_COST",
    "RELOCATING",
    "RIDE_COST",
    "SHOT_COST",
    "UNJAM_COST",
    "Move",
    "ladder_cost",
    "link_steps",
    "piece_moves",
]

MOVE_VERBS: tuple[str, ...] = tuple(v.name for v in VERBS if v.moves)
LINK_VERBS: tuple[str, ...] = tuple(LINKS)
LINK_COSTS: dict[str, int] = {verb: link.cost for verb, link in LINKS.items()}  # AP, the same for every piece
RIDE_COST = LINK_COSTS["ride"]  # a turbo-lift ride (docs/RULES.md, 'Turbo-lift')
# The verbs that may take a piece to another square (the playtest marks where they lead).
RELOCATING: frozenset[str] = frozenset(v.name for v in VERBS if v.goes)

ActionsOf = Callable[[str, str], Sequence[Action]]


class Move(NamedTuple):
    """One move on offer: the action, and where, facing which way, for how many AP, opening or shutting what."""

    action: Action
    verb: str
    to: int  # the square the piece stands on afterwards (-1: it left by an exit)
    facing: int  # its facing afterwards
    cost: int  # AP (a Marine's budget: AP, then command points)
    door: str | None = None  # the door it opens or closes
    door_sq: int = -1  # that door's square
    jump: bool = False  # a declared jump into the pitfall it enters (it lands on the level below)
    d: int = -1  # a step's direction (0 N, 1 NE, ... 7 NW)


def piece_moves(state: Any, pid: str, of: ActionsOf | None = None, verbs: Sequence[str] = MOVE_VERBS) -> list[Move]:
    """The moves the rules offer piece `pid` now (see the module's contract)."""
    pc = state.piece(pid)
    if pc is None or pc.sq < 0:
        return []
    if of is None:
        of = state.legal_view().of
    out: list[Move] = []
    for verb in verbs:
        offered = _WHERE.get(verb)
        if offered is not None and not offered(state, pc):
            continue  # (the rules offer none here: not asked)
        actions = of(pid, verb)
        if actions:
            _READ[verb](state, pc, actions, out)
    return out


# Where the rules can offer a verb at all (a piece's square and facing), so the generator is asked only there: a
# door among the squares the piece may reach with a door action, a ladder or hole end, an exit.
def _near_door(state: Any, pc: Piece) -> bool:
    return bool(state.game.board.doors_near(pc.sq, -1 if pc.kind == "blip" else pc.facing))


def _at_hole(state: Any, pc: Piece) -> bool:
    feat = state.feat
    s = pc.sq
    return s in feat.ladder or s in feat.pit_up or s in feat.pit_down


def _at_link(verb: str) -> Callable[[Any, Any], bool]:
    return lambda state, pc: pc.sq in state.feat.links[verb]


def _at_exit(state: Any, pc: Piece) -> bool:
    return pc.sq in state.game.board.exit_at


_WHERE: dict[str, Callable[[Any, Any], bool]] = {
    "open": _near_door, "close": _near_door, "climb": _at_hole, "jump": _at_hole, "exit": _at_exit,
    **{verb: _at_link(verb) for verb in LINKS},
}


def _steps(state: Any, pc: Piece, actions: Sequence[Action], out: list[Move]) -> None:
    s = pc.sq
    nbr = state.game.board.nbr[s]
    pits = state.feat.pit_down
    step_cost = state.step_cost
    f = pc.facing
    new = tuple.__new__  # (a Move from its fields without the NamedTuple's Python-level __new__: many per decision)
    for a in actions:
        args = a.args
        d = DIR_INDEX[args[1]]
        t = nbr[d]
        cost = step_cost(pc, d, t) or 0
        if len(args) == 2:
            out.append(new(Move, (a, "move", t, f, cost, None, -1, False, d)))
        elif args[2] == "jump":
            out.append(new(Move, (a, "move", pits.get(t, t), f, cost, None, -1, True, d)))
        else:
            out.append(new(Move, (a, "move", t, FACE_INDEX[args[2]], cost, None, -1, False, d)))


def _turns(state: Any, pc: Piece, actions: Sequence[Action], out: list[Move]) -> None:
    turn_cost = state.turn_cost
    new = tuple.__new__
    s = pc.sq
    for a in actions:
        f = FACE_INDEX[a.args[1]]
        out.append(new(Move, (a, "turn", s, f, turn_cost(pc, f), None, -1, False, -1)))


def _doors(state: Any, pc: Piece, actions: Sequence[Action], out: list[Move]) -> None:
    where = state.game.board.doors
    for a in actions:
        did = a.args[1]
        out.append(Move(a, a.verb, pc.sq, pc.facing, DOOR_COST, did, where[did]))


def _climbs(state: Any, pc: Piece, actions: Sequence[Action], out: list[Move]) -> None:
    feat = state.feat
    s = pc.sq
    for a in actions:
        if s in feat.ladder:
            out.append(Move(a, "climb", feat.ladder[s], pc.facing, ladder_cost(pc.kind, state.game.pf_ladders)))
        else:
            out.append(Move(a, "climb", feat.pit_up[s], pc.facing, PIT_CLIMB_COST))


def _jumps(state: Any, pc: Piece, actions: Sequence[Action], out: list[Move]) -> None:
    feat = state.feat
    s = pc.sq
    below = feat.pit_down.get(s)
    if below is None:
        below = feat.ladder.get(s, -1)
    for a in actions:
        out.append(Move(a, "jump", below, pc.facing, JUMP_COST, jump=True))


def _links(verb: str) -> Callable[[Any, Any, Sequence[Action], list[Move]], None]:
    cost = LINKS[verb].cost

    def read(state: Any, pc: Piece, actions: Sequence[Action], out: list[Move]) -> None:
        stops = dict(state.feat.links[verb][pc.sq])
        for a in actions:
            out.append(Move(a, verb, stops[a.args[1]], pc.facing, cost))

    return read


def link_steps(feat: Any) -> dict[int, tuple[tuple[int, int], ...]]:
    """Square -> ((square, AP), ...): where each link (a turbo-lift's ride, ...) goes from there and for how many
    AP (the same for every piece): the links a player's route maps add to the board's steps."""
    out: dict[int, tuple[tuple[int, int], ...]] = {}
    for verb, link in LINKS.items():
        for s, stops in feat.links[verb].items():
            out[s] = out.get(s, ()) + tuple((t, link.cost) for _name, t in stops)
    return out


def _exits(state: Any, pc: Piece, actions: Sequence[Action], out: list[Move]) -> None:
    for a in actions:
        out.append(Move(a, "exit", -1, pc.facing, EXIT_COST))


_READ: dict[str, Callable[[Any, Any, Sequence[Action], list[Move]], None]] = {
    "move": _steps, "turn": _turns, "open": _doors, "close": _doors, "climb": _climbs, "jump": _jumps,
    "exit": _exits, **{verb: _links(verb) for verb in LINKS},
}
