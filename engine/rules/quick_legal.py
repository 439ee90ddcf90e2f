"""One kind of a piece's actions, without listing the others: a turn, a Marine's shots, a Genestealer's blows.

A player deciding for a piece asks about a turn, or wants only the shots, and listing every move, turn,
shot and door of the piece to answer costs several times more (single steps are checked by
`LegalRules._move_is_legal`). Each function repeats, for its kind, the early returns of the generators in
engine/rules/legal.py (`_marine_actions`, `_stealer_actions`), then calls the part it shares with them
(`_marine_shots`, `_marine_flames`, `_stealer_blows`); tests/engine/test_rules_lazy_legal.py holds them to
the same answers as the full list.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from engine.rules.actions import Action
from engine.rules.board import FACE_INDEX
from engine.rules.pieces import Piece

if TYPE_CHECKING:
    from engine.rules.game import GameState


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


def marine_fire_budget(state: GameState, pc: Piece) -> int | None:
    """In the Marine action phase: Marine pc's AP budget (`_budget(pc, False)`) past the early returns of
    `_marine_actions`, where its shot and flamer parts (`_marine_shots`, `_marine_flames`) list his shots.

    None unless the Marine surely has some legal action (so a caller that needs "has he anything to do?"
    can rely on yes): on the board, standing, with AP or CP for a turn, not held in a lasting fire.
    """
    budget = state._marine_past_steps(pc)
    if budget is None or budget < 1:
        return None  # a quarter turn costs 1: with it, the Marine always has a legal action
    return budget


def marine_idle(state: GameState, pc: Piece) -> bool:
    """In the Marine action phase: True when Marine pc surely has no legal action (False: he may have some).

    The first early return of `_marine_actions`: no AP or CP left, no free shot, nothing carried to drop.
    """
    if state.phase != "marines" or pc.kind != "marine" or pc.sq < 0:
        return False
    if pc.carry or (pc.free and (pc.ranged == "storm_bolter" or pc.ranged == "assault_cannon")):
        return False
    return state._budget(pc, False) <= 0


def marine_fire_options(state: GameState, pc: Piece) -> tuple[list[Action], list[Action]] | None:
    """In the Marine action phase: (shoot actions, flame actions) of Marine pc, in legal order.

    None when marine_fire_budget is None.
    """
    budget = marine_fire_budget(state, pc)
    if budget is None:
        return None
    shots: list[Action] = []
    state._marine_shots(pc, budget, shots)
    flames: list[Action] = []
    state._marine_flames(pc, budget, flames)
    return shots, flames


def stealer_may_be_shot(state: GameState, pc: Piece, stealer_squares: AbstractSet[int]) -> bool:
    """False when Marine pc surely has no shot at a Genestealer (`stealer_squares`: the squares they stand on).

    `_marine_shots` lists none with a jammed gun or no gun; `_shoot_targets` (and `_sees`) see a square of his
    level only when it is in his walls-only view, and one of another level only among `Features.hole_targets`:
    with no Genestealer on those squares, no line needs checking.
    """
    ms = pc.sq
    if pc.prone or ms < 0 or pc.jam or (pc.ranged != "storm_bolter" and pc.ranged != "assault_cannon"):
        return False
    if not stealer_squares:
        return False
    if not state.game.board.static_view(ms, pc.facing).keys().isdisjoint(stealer_squares):
        return True
    return not state.feat.hole_targets(ms, not state.game.pf_ladders).isdisjoint(stealer_squares)


def archivist_storms(state: GameState, pc: Piece) -> list[Action] | None:
    """In the Marine action phase: the psychic storms on single pieces (`psi storm <id>`) among Archivist pc's
    own actions, in legal order; None when pc is not an Archivist on the board in the Marine phase.

    Past the early returns of `_marine_actions` (`_marine_past_steps`) and its gate for the powers (once per
    turn), the piece storms of `_psi_actions` (`_storm_targets`), without the squares for a force barrier and
    the section storms.
    """
    if state.phase != "marines" or pc.kind != "marine" or pc.rank != "archivist" or pc.sq < 0:
        return None
    if state._marine_past_steps(pc) is None or state.psi_used or state.psi < 3:
        return []
    out: list[Action] = []
    state._storm_targets(pc, out)
    return out


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
    # Past every early return of _stealer_actions, so its own part lists exactly these.
    out: list[Action] = []
    state._stealer_blows(pc, out)
    return out
