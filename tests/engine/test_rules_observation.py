"""What each player may see (state.observation), the players reading only that, and chance on copies.

The Marines' observation holds no blip value, no pile order and no face-down Pitfall counter; the shipped players
decide on observations alone (a tripwire on the kernel's blip values fails any Marine decision that reads one,
and scrambling the hidden values under a Marine decision changes nothing); a copy with resampled dice does not
know the real game's next rolls, while a plain copy replays them exactly.
"""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

from engine.ai.base import make_policy, policy_rng
from engine.mission import load_mission
from engine.resources import sample_mission, sample_names
from engine.rules.game import Game
from engine.rules.kernel import Kernel
from engine.rules.observation import HiddenInformationError, Observation
from engine.rules.pieces import Piece

MISSIONS = tuple(sample_names())


def _game(name: str, **options: Any) -> Game:
    return Game(load_mission(str(sample_mission(name))), options)


class _Tripwire(dict[str, int]):
    """The kernel's blip values while a Marine player decides: any read is a leak of hidden information, but
    for the copy a look-ahead game starts from (`Observation.sample`), whose values the rules deal again."""

    def __init__(self, real: dict[str, int]) -> None:
        super().__init__()  # empty: a read that goes round the methods below finds nothing
        self._real = real

    def _leak(self, *args: object) -> Any:
        raise AssertionError("a Marine player read a blip's hidden value")

    def copy(self) -> dict[str, int]:
        if sys._getframe(1).f_code is not Kernel.copy.__code__:
            self._leak()
        return dict(self._real)

    __getitem__ = get = items = values = keys = __iter__ = __contains__ = __len__ = _leak


def _blips_on_board(state: Any) -> list[str]:
    return [pc.id for pc in state.p.values() if pc.kind == "blip"]


def test_the_marines_observation_holds_no_hidden_value() -> None:
    state = _game("pitfall").new_state(seed=3)
    while not _blips_on_board(state):
        state.apply(state.legal_actions()[0])
    obs = state.observation("marines")
    assert isinstance(obs, Observation) and obs is state.observation("marines")  # one live view per state
    assert "value" not in Piece.__slots__
    for pid in _blips_on_board(state):
        assert not hasattr(obs.p[pid], "value")
        with pytest.raises(HiddenInformationError):
            obs.blip_value(pid)
        assert state.observation("genestealers").blip_value(pid) == state.k.blip_value[pid]
    public = {n for n in dir(obs) if not n.startswith("_")}
    assert not public & {"k", "kernel", "dice", "pile", "used", "copy", "apply", "setup_order", "setup_placed"}
    assert obs.pile_size == len(state.k.pile)
    # The blips' view for the Marines says nothing either.
    assert all(b.value is None for b in state.blips("marines"))


def test_face_down_pitfall_counters_stay_hidden_until_turned_up() -> None:
    state = _game("pitfall", random_setup="players").new_state(seed=5)
    fixed = set(state.feat.pit_down)  # the mission's own pitfalls, before any counter is turned up
    placed = 0
    while state.decision() is not None and type(state.decision()).__name__ == "SetupDecision":
        obs = state.observation(state.current_player())  # type: ignore[arg-type]
        assert obs.setup_squares == frozenset(state.k.setup_placed)
        assert set(obs.feat.pit_down) == fixed  # nothing of the placed counters shows
        state.apply(state.legal_actions()[0])
        placed += 1
    assert placed > 0
    obs = state.observation("marines")
    assert set(obs.feat.pit_down) != fixed or obs.feat.ladder or obs.feat.rubble  # now turned up


def _marine_choice_under_tripwire(state: Any, player: Any, rng: random.Random) -> Any:
    k = state.k
    real = k.blip_value
    k.blip_value = _Tripwire(real)
    try:
        return player.choose(state.observation("marines"), state.legal_view(), rng)
    finally:
        k.blip_value = real


@pytest.mark.parametrize("mission", MISSIONS)
@pytest.mark.parametrize("marines", ["heuristic-marines", "novice-marines", "search-marines:games=1"])
def test_marine_players_never_read_a_hidden_value(mission: str, marines: str) -> None:
    """Whole games, the Marine player on its observation with every hidden value behind a tripwire: the same
    game as the simulator plays (the players decide on the observation they would take from the state)."""
    game = _game(mission)
    m, g = make_policy(marines), make_policy("heuristic-genestealers")
    for seed in (1, 2):
        state = game.new_state(seed)
        rm, rg = policy_rng(seed, "marines"), policy_rng(seed, "genestealers")
        ref = game.new_state(seed)
        mr, gr = make_policy(marines), make_policy("heuristic-genestealers")
        rmr, rgr = policy_rng(seed, "marines"), policy_rng(seed, "genestealers")
        n = 0
        while not state.is_terminal() and n < 3000:
            if state.current_player() == "marines":
                a = _marine_choice_under_tripwire(state, m, rm)
                b = mr.choose(ref, ref.legal_view(), rmr)
            else:
                a = g.choose(state.observation("genestealers"), state.legal_view(), rg)
                b = gr.choose(ref, ref.legal_view(), rgr)
            assert a == b  # an observation changes what a player reads, not what it decides
            state.apply(a)
            ref.apply(b)
            n += 1


def test_scrambled_hidden_values_change_no_marine_decision() -> None:
    """Under each Marine decision, other blip values and another pile order give the same choice."""
    game = _game("pitfall")
    state = game.new_state(11)
    players = {"marines": make_policy("heuristic-marines"), "genestealers": make_policy("heuristic-genestealers")}
    rngs = {side: policy_rng(11, side) for side in players}
    scramble = random.Random(0)
    checked = 0
    while not state.is_terminal():
        side = state.current_player()
        if side == "marines" and _blips_on_board(state):
            k = state.k
            real_values, real_pile = dict(k.blip_value), list(k.pile)
            picks = []
            for _ in range(3):
                for pid in k.blip_value:
                    k.blip_value[pid] = scramble.choice((1, 2, 3))
                scramble.shuffle(k.pile)
                picks.append(make_policy("heuristic-marines").choose(
                    state.observation("marines"), state.legal_view(), random.Random(1)))
            k.blip_value.update(real_values)
            k.pile[:] = real_pile
            assert picks[0] == picks[1] == picks[2]
            checked += 1
        state.apply(players[side].choose(state, state.legal_view(), rngs[side]))  # type: ignore[index]
    assert checked > 20


def test_a_plain_copy_replays_the_real_dice_a_resampled_one_does_not() -> None:
    """Over many games, the next roll of a resampled copy agrees with the real next roll at chance level (1 in 6);
    a plain copy agrees always."""
    game = _game("tutorial")
    agree_plain = agree_resampled = 0
    n = 600
    for seed in range(n):
        state = game.new_state(seed)
        plain = state.copy()
        resampled = state.copy(resample_dice=True, seed=10_000 + seed)
        real = state.dice.d6()
        agree_plain += plain.dice.d6() == real
        agree_resampled += resampled.dice.d6() == real
    assert agree_plain == n
    # 1/6 of 600 is 100 (standard deviation 9): well inside 60..140 at chance, far from 600 if it could see.
    assert 60 < agree_resampled < 140


def test_look_ahead_on_copies() -> None:
    """Playing the real game's next actions on a plain copy gives its very dice; on resampled copies, other dice
    (seeded by the caller: the same seed, the same rolls)."""
    game = _game("pitfall")
    state = game.new_state(2)
    players = {"marines": make_policy("heuristic-marines"), "genestealers": make_policy("heuristic-genestealers")}
    rngs = {side: policy_rng(2, side) for side in players}
    for _ in range(60):
        side = state.current_player()
        state.apply(players[side].choose(state, state.legal_view(), rngs[side]))  # type: ignore[index]
    plain = state.copy()
    looks = [state.copy(resample_dice=True, seed=s) for s in (7, 7, 8)]
    actions = []
    while not state.is_terminal() and len(actions) < 400:
        side = state.current_player()
        a = players[side].choose(state, state.legal_view(), rngs[side])  # type: ignore[index]
        state.apply(a)
        actions.append(a)
    real = [e.dice for e in state.log[-len(actions):]]
    plain_dice = []
    for a in actions:
        plain.apply(a)
        plain_dice.append(plain.log[-1].dice)
    assert plain_dice == real

    def dice_of(copy: Any) -> list[tuple[int, ...]]:
        out = []
        for a in actions:
            if copy.is_terminal() or not copy.is_legal(a):
                break  # other dice, another game
            copy.apply(a)
            out.append(copy.log[-1].dice)
        return out

    first, again, other = (dice_of(c) for c in looks)
    assert first == again  # the caller's seed decides
    rolled = [d for d in real[: len(first)] if d]
    assert rolled and [d for d in first if d] != rolled
    assert other != first or not other


def test_a_copy_for_the_marines_deals_the_hidden_values_again() -> None:
    """copy(hidden_from="marines"): the blips' values and the pile dealt again from the caller's seed (the same
    values in all), everything the Marines see unchanged; for the Genestealers only the pile's order changes."""
    state = _game("pitfall").new_state(seed=4)
    while len(_blips_on_board(state)) < 2:
        state.apply(state.legal_actions()[0])
    k = state.k
    hidden = sorted([*k.blip_value.values(), *k.pile])
    changed = 0
    for seed in range(40):
        look = state.copy(seed=seed, hidden_from="marines")
        assert sorted([*look.k.blip_value.values(), *look.k.pile]) == hidden
        assert list(look.k.blip_value) == list(k.blip_value)
        assert [(pc.id, pc.sq, pc.facing, pc.ap) for pc in look.p.values()] == [
            (pc.id, pc.sq, pc.facing, pc.ap) for pc in state.p.values()]
        changed += look.k.blip_value != k.blip_value
        assert look.dice.rng.getstate() == state.dice.rng.getstate()  # the dice only with resample_dice
        again = state.copy(seed=seed, hidden_from="marines")
        assert again.k.blip_value == look.k.blip_value and again.k.pile == look.k.pile
        theirs = state.copy(seed=seed, hidden_from="genestealers")
        assert theirs.k.blip_value == k.blip_value and sorted(theirs.k.pile) == sorted(k.pile)
    assert changed > 10
    assert k.blip_value == state.copy().k.blip_value  # a plain copy keeps them
    # The observation's own look-ahead entry: the same as that copy.
    sampled = state.observation("marines").sample(3)
    look = state.copy(resample_dice=True, seed=3, hidden_from="marines")
    assert sampled.k.blip_value == look.k.blip_value and sampled.dice.rng.getstate() == look.dice.rng.getstate()


def test_a_player_refuses_the_other_sides_observation() -> None:
    state = _game("tutorial").new_state(seed=1)
    with pytest.raises(ValueError, match="marines"):
        make_policy("heuristic-marines").choose(state.observation("genestealers"), state.legal_view(), random.Random(0))
