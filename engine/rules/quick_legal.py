"""Is this one step legal? Answered for a single direction, without listing the piece's other actions.

A player walking a piece asks about one or two steps per decision; listing every move, turn, shot and
door of the piece to answer costs several times more. Each branch below repeats, for one direction, the
conditions of the step loops in engine/rules/legal.py (`_marine_actions`, `_stealer_actions`,
`_blip_actions`); tests/engine/test_rules_lazy_legal.py holds the two to the same answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.rules.actions import Action, act
from engine.rules.board import DIR_INDEX, FACE_INDEX
from engine.rules.pieces import Piece

if TYPE_CHECKING:
    from engine.rules.game import GameState


def quick_move_legal(state: GameState, pc: Piece, args: tuple[str, ...]) -> bool | None:
    """In an action phase: is `move <pc> <dir> [facing|jump]` legal now? None when the form is unusual."""
    n = len(args)
    if n < 2 or n > 3:
        return None
    d = DIR_INDEX.get(args[1])
    if d is None:
        return None
    extra = args[2] if n == 3 else None
    s = pc.sq
    if s < 0:
        return False  # off the board a piece may only enter
    kind = pc.kind
    if state.phase == "marines":
        if kind != "marine" or pc.prone or (extra is not None and extra != "jump"):
            return False
        return _marine_step(state, pc, d, extra == "jump")
    if kind == "marine" or pc.st == 2 or pc.ap <= 0:
        return False
    if kind == "stealer":
        return _stealer_step(state, pc, d, extra)
    if extra is not None and extra != "jump":
        return False
    state._begin_memo()
    try:
        return _blip_step(state, pc, d, extra == "jump")
    finally:
        state._end_memo()


def quick_turn_legal(state: GameState, pc: Piece, args: tuple[str, ...]) -> bool | None:
    """In an action phase: is `turn <pc> <facing>` legal now? None when the form is unusual."""
    if len(args) != 2:
        return None
    f = FACE_INDEX.get(args[1])
    if f is None:
        return None
    s = pc.sq
    if s < 0 or f == pc.facing or (state.game.fire_module and s in state.flames):
        return False  # [AE-F] a unit in fire may only step out of it
    if state.phase == "marines":
        if pc.kind != "marine" or pc.prone:
            return False
        return (1 if (f - pc.facing) % 4 != 2 else 2) <= state._budget(pc, False)
    return pc.kind == "stealer" and pc.st != 2 and pc.ap > 0


def marine_fire_options(state: GameState, pc: Piece) -> tuple[list[Action], list[Action]] | None:
    """In the Marine action phase: (shoot actions, flame actions) of Marine pc, in legal order.

    None unless the Marine surely has some legal action (so a caller that needs "has he anything to do?"
    can rely on yes): on the board, standing, with AP or CP for a turn, not held in a lasting fire.
    """
    s = pc.sq
    if state.phase != "marines" or pc.kind != "marine" or s < 0 or pc.prone:
        return None
    if state.game.fire_module and s in state.flames:
        return None
    budget = state._budget(pc, False)
    if budget < 1:
        return None  # a quarter turn costs 1: with it, the Marine always has a legal action
    shots: list[Action] = []
    ranged = pc.ranged
    if ranged in ("storm_bolter", "assault_cannon") and not pc.jam and (ranged == "storm_bolter" or pc.ammo > 0):
        pid = pc.id
        shots = [act("shoot", pid, tid) for tid in state._shoot_targets(pc, None)]
    flames: list[Action] = []
    if budget >= 2 and ranged == "heavy_flamer" and pc.ammo > 0:
        name = state.game.board.name
        flames = [act("flame", pc.id, name(t)) for t in state._flame_targets(pc)]
    return shots, flames


def stealer_assaults(state: GameState, pc: Piece) -> list[Action] | None:
    """In the Genestealer action phase: the `assault` actions of Genestealer pc, in legal order.

    None unless the Genestealer surely has some legal action (on the board, AP left, not held in a lasting
    fire: a turn is always offered then).
    """
    s = pc.sq
    if state.phase != "stealers" or pc.kind != "stealer" or pc.st == 2 or pc.ap <= 0 or s < 0:
        return None
    if state.game.fire_module and s in state.flames:
        return None
    out: list[Action] = []
    pid = pc.id
    occ, p = state.occ, state.p
    b = state.game.board
    t = b.nbr[s][pc.facing * 2]
    if t >= 0:
        tid = occ.get(t)
        if tid is not None and p[tid].kind == "marine":
            out.append(act("assault", pid, tid))
        did = state.closed.get(t)
        if did is not None and b.door_kind[did] == "door":
            out.append(act("assault", pid, did))
    for other in state.feat.through(s):
        tid = occ.get(other)
        if tid is not None and p[tid].kind == "marine":
            out.append(act("assault", pid, tid))
    return out


def _cost_of(state: GameState, s: int, facing: int, marine: bool, d: int) -> int:
    """AP of the step in direction d before rubble, or 0 when the piece may not step that way."""
    for dd, _t, cost in state.game.board.steps(s, facing, marine):
        if dd == d:
            return cost
    return 0


def _open(state: GameState, s: int, t: int) -> bool:
    """Nothing stands on t, and a piece on s may walk into it (flames: only when already standing in them)."""
    if t in state.occ or t in state.closed or t in state.barriers:
        return False
    flames = state.flames
    if t in flames:
        return s in flames and not state.game.fire_module and not state.game.markers
    return True


def _marine_step(state: GameState, pc: Piece, d: int, jump: bool) -> bool:
    s = pc.sq
    cost = _cost_of(state, s, pc.facing, True, d)
    if not cost:
        return False
    t = state.game.board.nbr[s][d]
    if not _open(state, s, t):
        return False
    if t in state.feat.rubble:
        cost += 1
    if cost > state._budget(pc, False) or (d & 1 and not state._diag_ok(s, d)):
        return False
    return not jump or t in state.feat.pit_down


def _stealer_step(state: GameState, pc: Piece, d: int, extra: str | None) -> bool:
    s = pc.sq
    f0 = pc.facing
    cost = _cost_of(state, s, f0, False, d)
    if not cost:
        return False
    t = state.game.board.nbr[s][d]
    if not _open(state, s, t):
        return False
    if t in state.feat.rubble:
        cost += 1
    if cost > pc.ap or (d & 1 and not state._diag_ok(s, d)):
        return False
    if extra is None:
        return True
    if extra == "jump":
        below = state.feat.pit_down.get(t, -1)
        return below >= 0 and state._can_enter(pc, below)
    f = FACE_INDEX.get(extra)
    # A Genestealer may end the step facing a quarter turn left or right (the move tables' other facings
    # are not offered).
    return f is not None and f in ((f0 + 1) % 4, (f0 + 3) % 4)


def _blip_step(state: GameState, pc: Piece, d: int, jump: bool) -> bool:
    s = pc.sq
    t = state.game.board.nbr[s][d]
    if t < 0 or (pc.ap < 2 and t in state.feat.rubble):
        return False
    if d & 1 and not state._diag_ok(s, d):
        return False
    if not _open(state, s, t) or t in state.obj_at or state._adjacent_to_marine(t) or state._seen_by_marine(t):
        return False
    if not jump:
        return True
    below = state.feat.pit_down.get(t, -1)
    return below >= 0 and state._can_enter(pc, below)
