"""Per-piece legality (legal_actions_of, is_legal, LegalActions) answers exactly what the full list answers.

The simulator's players only ask about the pieces they consider, and apply() validates from the actor's own
actions (its generator's part for the action's verb); a difference from legal_actions() would let an illegal move
through or refuse a legal one.
"""

from __future__ import annotations

import random

import pytest

from engine.mission import load_mission
from engine.resources import sample_mission, sample_names
from engine.rules.actions import DIRS, FACES, Action, act
from engine.rules.game import Game, GameState
from engine.rules.lazy_legal import LegalActions, StaleLegalActionsError
from engine.rules.pieces import IllegalActionError
from engine.rules.testing import scenario

VERBS = ("move", "turn", "shoot", "flame", "assault", "open", "close", "enter", "reveal", "climb", "jump", "overwatch",
         "guard", "unjam", "reload", "exit", "drop", "give", "stand", "psi")


def _check_parts(fresh: GameState, state: GameState) -> int:
    """Each piece's actions of each verb, asked first on a fresh copy, are its whole list's of that verb (psi: the
    powers an Archivist's own list holds)."""
    n = 0
    for pid in state.p:
        own = state._own_actions(pid)
        for verb in VERBS:
            assert fresh.legal_actions_of(pid, verb) == [a for a in own if a.verb == verb], (pid, verb)
            n += bool(fresh.legal_actions_of(pid, verb))
    return n


def _probes(state: GameState, full: list[Action]) -> list[Action]:
    """Every legal action, equal-but-not-identical copies, and near misses for every piece."""
    out = list(full) + [Action(a.verb, a.args) for a in full[:6]]
    for pid in state.p:
        out += [act("move", pid, d, *extra) for d in DIRS for extra in ((), ("jump",), *((f,) for f in FACES))]
        out += [act("turn", pid, f) for f in FACES]
        out += [act("reveal", pid), act("enter", pid), act("overwatch", pid), act("guard", pid)]
    out += [act("pass"), act("end"), act("psi", "prescience"), act("move", "nobody", "N")]
    return out


@pytest.mark.parametrize("sample", sample_names())
def test_per_piece_answers_match_the_full_list(sample: str) -> None:
    game = Game(load_mission(str(sample_mission(sample))))
    checked_pieces = checked_probes = checked_parts = 0
    for seed in range(2):
        state = game.new_state(seed)
        rng = random.Random(seed)
        for _ in range(250):
            if state.is_terminal():
                break
            # Ask the fresh copies first: once the full list exists, the answers come from it.
            per_piece = state.copy()
            lazy = state.copy()
            parts = state.copy()
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
            if not state.stack:
                checked_parts += _check_parts(parts, state)
            state.apply(rng.choice(full))
    assert checked_pieces > 1000 and checked_probes > 10000 and checked_parts > 1000


@pytest.mark.parametrize("sample", sample_names())
def test_one_action_shortcuts_on_fresh_states_match_the_full_list(sample: str) -> None:
    """A move, turn, enter, reveal, climb, jump, overwatch, guard or shot asked first about its piece takes a shortcut
    of its own (not the piece's listed actions): each is asked on a fresh copy, where no other answer is memoised
    yet."""
    game = Game(load_mission(str(sample_mission(sample))))
    compared = listed = 0
    for seed in range(3):
        state = game.new_state(seed)
        rng = random.Random(seed)
        for _ in range(200):
            if state.is_terminal():
                break
            asked: list[tuple[GameState, list[Action]]] = []
            if not state.stack:
                for pid in state.p:  # copies made before the full list: they answer without it
                    orders = [act(v, pid) for v in ("enter", "reveal", "climb", "jump", "overwatch", "guard")]
                    orders += [act("psi", "prescience"), act("psi", "storm", pid)]
                    shots = [act("shoot", pid, tid) for tid in [*state.p, *state.door_state]]
                    for probes in (orders, shots,
                                   [act("move", pid, d, *x) for d in DIRS for x in ((), ("jump",), ("N",), ("W",))],
                                   [act("turn", pid, f) for f in FACES]):
                        asked.append((state.copy(), probes))
            full = state.legal_actions()
            ref = set(full)
            for fresh, probes in asked:
                for a in probes:
                    assert fresh.is_legal(a) == (a in ref), (sample, seed, a.text())
                    compared += 1
                    listed += a in ref
            state.apply(rng.choice(full))
    assert compared > 5000 and listed > 100


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


def test_steps_over_rubble_holes_doors_and_flames_at_every_ap_and_facing() -> None:
    """The corners random games rarely reach: low AP beside rubble, jumps into holes, flames, diagonals."""
    rows = ["#########",
            "#aaaaaaa#",
            "#aaa#aaa#",
            "#aaaaaaa#",
            "#########"]
    lower = ["#########", "#bbbbbbb#", "#bbbbbbb#", "#bbbbbbb#", "#########"]
    compared = 0
    for phase, fire in (("marines", False), ("stealers", False), ("marines", True), ("stealers", True)):
        state = scenario(rows, lower=lower, phase=phase, game_options={"fire_module": fire},
                         rubble=[(3, 1), (5, 3)], pitfalls=[("A", 4, 3)],
                         doors=[("d1", 6, 2)], marines=[("m1", 3, 3, "E"), ("m2", 7, 1, "W")],
                         stealers=[("g1", 3, 2, "S")], blips=[("b1", 5, 1, 2), ("b2", 2, 1, 1)])
        b = state.game.board
        # Flames beside and under pieces: [AE-F] a unit standing in a lasting fire may only step out.
        for x, y in ((2, 3), (3, 2), (5, 1)):
            state.flames[b.sq_of("upper", x, y)] = 1
        for ap in range(7):
            for facing in range(4):
                for pc in state.p.values():
                    pc.ap, pc.facing, pc.st = ap, facing, 0 if (ap + facing) % 3 else 2
                state.touch()
                fresh = state.copy()
                parts = state.copy()
                full = set(state.legal_actions())
                for pid in state.p:
                    steps = [act("move", pid, d, *x) for d in DIRS for x in ((), ("jump",), *((f,) for f in FACES))]
                    others = [act(v, pid) for v in ("climb", "jump", "enter", "reveal", "overwatch", "guard")]
                    others += [act("shoot", pid, tid) for tid in [*state.p, "d1"]]
                    for a in steps + [act("turn", pid, f) for f in FACES] + others:
                        assert fresh.is_legal(a) == (a in full), (phase, fire, ap, facing, a.text())
                        compared += 1
                _check_parts(parts, state)
    assert compared > 10000
