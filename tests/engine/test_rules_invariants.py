"""Seeded random play-outs on every sample mission: invariants hold after every action, games end, replays match."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.mission import load_mission
from engine.resources import sample_missions
from engine.rules.game import Game, GameState, replay
from engine.rules.testing import played_states

SAMPLES = {p.stem: p for p in sample_missions()}
MAX_ACTIONS = 100_000


def _game(name: str, **options: Any) -> Game:
    return Game(load_mission(SAMPLES[name]), options or None)


def check_invariants(s: GameState) -> None:
    b = s.game.board
    on_board = [pc for pc in s.p.values() if pc.sq >= 0]
    # never two models on one square, and the occupancy table matches the pieces
    assert len({pc.sq for pc in on_board}) == len(on_board)
    assert s.occ == {pc.sq: pc.id for pc in on_board}
    for pc in on_board:
        assert b.floor[pc.sq], f"{pc.id} in a wall"
        assert pc.sq not in s.closed, f"{pc.id} in a closed door"
        assert pc.sq not in s.barriers
    for pc in s.p.values():
        assert pc.ap >= 0, f"{pc.id} has {pc.ap} AP"
        if pc.sq < 0:  # lurking at an entry area, or (a Marine) aboard a boarding torpedo
            assert pc.entry, f"{pc.id} off the board but not lurking"
            assert (pc.kind == "marine") == (pc.entry in b.ramps), f"{pc.id} off the board at {pc.entry}"
    assert s.cp >= 0 and s.psi >= 0
    # blips conserved: every counter is in the pile, the used pile, or in play
    pool = sum(s.game.mission.genestealers.pool.values())
    blips = sum(1 for pc in s.p.values() if pc.kind == "blip")
    assert len(s.pile) + len(s.used) + blips == pool
    assert sum(1 for pc in s.p.values() if pc.kind == "stealer") <= s.game.mission.genestealers.model_cap
    if not s.is_terminal():
        assert s.current_player() in ("marines", "genestealers")
        assert s.legal_actions()


def random_game(game: Game, seed: int, check: bool = True) -> GameState:
    s = game.new_state(seed)
    rng = random.Random(seed * 7919 + 1)
    n = 0
    while not s.is_terminal():
        acts = s.legal_actions()
        s.apply(rng.choice(acts))
        n += 1
        assert n < MAX_ACTIONS, "game did not end"
        if check:
            check_invariants(s)
    return s


def fingerprint(s: GameState) -> tuple[Any, ...]:
    return (
        s.result(),
        tuple((pc.id, pc.sq, pc.facing, pc.ap, pc.prone, s.k.blip_value.get(pc.id)) for pc in s.p.values()),
        tuple(s.deaths),
        tuple(s.escaped),
        tuple(s.log),
        tuple(sorted(s.traffic.items())),
    )


@pytest.mark.parametrize("name", sorted(SAMPLES))
@pytest.mark.parametrize("seed", range(12))
def test_random_games_keep_invariants_and_replay(name: str, seed: int) -> None:
    game = _game(name, turn_cap=12) if name == "pitfall" else _game(name)
    s = random_game(game, seed)
    again = replay(game, seed, [e.action for e in s.log])
    assert fingerprint(again) == fingerprint(s)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_copy_is_independent(name: str) -> None:
    game = _game(name)
    s = game.new_state(3)
    rng = random.Random(3)
    for _ in range(60):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    c = s.copy()
    before = fingerprint_partial(s)
    rng2 = random.Random(4)
    for _ in range(200):
        if c.is_terminal():
            break
        c.apply(rng2.choice(c.legal_actions()))
    assert fingerprint_partial(s) == before
    # Same actions on two copies give the same game (the dice state is copied too).
    a, b = s.copy(), s.copy()
    r1, r2 = random.Random(9), random.Random(9)
    for _ in range(100):
        if a.is_terminal():
            break
        a.apply(r1.choice(a.legal_actions()))
        b.apply(r2.choice(b.legal_actions()))
    assert fingerprint_partial(a) == fingerprint_partial(b)


def fingerprint_partial(s: GameState) -> tuple[Any, ...]:
    return (
        tuple((pc.id, pc.sq, pc.facing, pc.ap) for pc in s.p.values()),
        tuple(s.log),
        tuple(s.stack),
        s.turn,
        s.phase,
    )


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_same_seed_same_game(name: str) -> None:
    game = _game(name, turn_cap=8)
    a = random_game(game, 5, check=False)
    b = random_game(game, 5, check=False)
    assert fingerprint(a) == fingerprint(b)


def test_pitfall_random_setup_differs_per_seed() -> None:
    game = _game("pitfall")
    layouts = {str(game.new_state(seed).features()) for seed in range(10)}
    assert len(layouts) > 5
    f = game.new_state(1).features()
    assert len(f["pitfalls"]) == 6 and len(f["ladder_tops"]) == 2 and len(f["rubble"]) == 2


@pytest.mark.parametrize("first", range(0, 250, 50))
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_many_random_games(name: str, first: int) -> None:
    """250 random games a sample, in runs of 50 so a hang shows within the per-test timeout."""
    game = _game(name)
    for seed in range(first, first + 50):
        s = random_game(game, 1000 + seed, check=seed % 10 == 0)
        assert s.is_terminal()


def test_states_and_copies_leave_no_reference_cycles() -> None:
    """A state's components hold the kernel and each other, never themselves: a finished game (or a discarded
    copy) is freed at once by reference counting, not left for the cycle collector to find in a batch."""
    import gc

    game = _game("pitfall")
    game.new_state(0)  # the Game's own tables, made once
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector finds is kept in gc.garbage, to be looked at
    try:
        for seed in range(3):
            states = played_states(game, seed, 80)  # copies of one game's states, up to its 80th action
            assert len(states) > 40
            del states
        gc.collect()
        # Only the engine's objects count: another test's thread left running in this worker (a GUI test's
        # QThread) may leave cycles of its own, which say nothing about the engine.
        engine_garbage = sorted({type(o).__qualname__ for o in gc.garbage if type(o).__module__.startswith("engine")})
        assert engine_garbage == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
