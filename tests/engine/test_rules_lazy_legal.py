"""Per-piece legality (legal_actions_of, is_legal, LegalActions) answers exactly what the full list answers.

The simulator's players only ask about the pieces they consider, and apply() validates from the actor's own
actions; a difference from legal_actions() would let an illegal move through or refuse a legal one.
"""

from __future__ import annotations

import random

import pytest

from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.actions import DIRS, Action, act
from engine.rules.game import Game, GameState
from engine.rules.lazy_legal import LegalActions, StaleLegalActionsError
from engine.rules.pieces import IllegalActionError


def _probes(state: GameState, full: list[Action]) -> list[Action]:
    """Every legal action, equal-but-not-identical copies, and near misses for every piece."""
    out = list(full) + [Action(a.verb, a.args) for a in full[:6]]
    for pid in state.p:
        out += [act("move", pid, d) for d in DIRS]
        out += [act("reveal", pid), act("enter", pid), act("overwatch", pid), act("guard", pid)]
    out += [act("pass"), act("end"), act("psi", "prescience"), act("move", "nobody", "N")]
    return out


@pytest.mark.parametrize("sample", ["pitfall", "recover_the_relic", "the_long_drop", "tutorial"])
def test_per_piece_answers_match_the_full_list(sample: str) -> None:
    game = Game(load_mission(str(sample_mission(sample))))
    checked_pieces = checked_probes = 0
    for seed in range(3):
        state = game.new_state(seed)
        rng = random.Random(seed)
        for _ in range(300):
            if state.is_terminal():
                break
            # Ask the fresh copies first: once the full list exists, the answers come from it.
            per_piece = state.copy()
            lazy = state.copy()
            full = state.legal_actions()
            for pid in state.p:
                assert per_piece.legal_actions_of(pid) == [a for a in full if a.actor == pid], pid
                checked_pieces += 1
            view = LegalActions(lazy)
            ref = set(full)
            for a in _probes(state, full):
                assert (a in view) == (a in ref), a.text()
                checked_probes += 1
            assert list(view) == full
            state.apply(rng.choice(full))
    assert checked_pieces > 1000 and checked_probes > 10000


def test_apply_refuses_what_the_actor_may_not_do() -> None:
    game = Game(load_mission(str(sample_mission("pitfall"))))
    state = game.new_state(1)
    while state.stack or state.phase != "marines":
        state.apply(state.legal_actions()[-1])
    full = set(state.legal_actions())
    fresh = state.copy()
    illegal = next(act("move", pid, d) for pid in state.p for d in DIRS if act("move", pid, d) not in full)
    with pytest.raises(IllegalActionError):
        fresh.apply(illegal)
    with pytest.raises(IllegalActionError):
        fresh.apply(act("reveal", "nobody"))


def test_a_view_of_an_older_decision_refuses_to_answer() -> None:
    game = Game(load_mission(str(sample_mission("tutorial"))))
    state = game.new_state(2)
    view = state.legal_view()
    assert view  # an action phase or a decision always offers something
    state.apply(state.legal_actions()[0])
    with pytest.raises(StaleLegalActionsError):
        _ = len(view)
