"""Reinforcement rows every Nth turn, and the reinforcement-roll variant (RULES.md §10)."""

from __future__ import annotations

from engine.mission.model import Reinforcement
from engine.rules.decisions import LurkDecision
from engine.rules.game import Game
from engine.rules.options import resolve_options
from engine.rules.testing import build_mission

ROWS = ["###############", "#aaaaaaaaaaaaa#", "###############"]


def lurk_turns(every: int = 1, options: dict[str, object] | None = None, seed: int = 3, turns: int = 8) -> list[int]:
    """The turns on which a blip was placed, Marines and Genestealers passing otherwise."""
    m = build_mission(ROWS, marines=[("m1", 13, 1, "E")], entry_areas=[("W", 1, 1, "W")])
    m.genestealers.reinforcements = [Reinforcement(2, 1, ["W"], None, "unlimited", every)]
    m.genestealers.model_cap = 99
    # Blips that pass stay lurking: no cap on how many lurk at the entry area, so each row's blips are seen.
    game = Game(m, resolve_options(m, {"turn_cap": turns, "max_lurking": 99, **(options or {})}))
    s = game.new_state(seed)
    placed: list[int] = []
    while not s.is_terminal() and s.k.turn <= turns:
        acts = [str(a) for a in s.legal_actions()]
        if isinstance(s.decision(), LurkDecision):
            placed.append(s.k.turn)
            s.apply(acts[0])
        else:
            s.apply("pass" if "pass" in acts else acts[0])
    return placed


def test_a_row_every_second_turn_brings_blips_on_its_first_turn_then_every_other() -> None:
    assert lurk_turns(every=1) == [2, 3, 4, 5, 6, 7, 8]
    assert lurk_turns(every=2) == [2, 4, 6, 8]
    assert lurk_turns(every=3) == [2, 5, 8]


def test_the_reinforcement_roll_is_off_by_default_and_a_die_decides_when_on() -> None:
    assert resolve_options(build_mission(ROWS, marines=[("m1", 13, 1, "E")]))["reinforcement_roll"] is None
    always = lurk_turns(options={"reinforcement_roll": 2}, seed=1)
    rolled = [lurk_turns(options={"reinforcement_roll": 4}, seed=seed) for seed in range(12)]
    assert all(set(r) <= set(range(2, 9)) for r in rolled)
    # On 4+ about half the turns bring blips: some seeds miss turns, none gets more than every turn.
    counts = [len(r) for r in rolled]
    assert min(counts) < 7 and 0 < sum(counts) < 12 * 7
    assert 0.3 < sum(counts) / (12 * 7) < 0.7
    assert len(always) >= 4  # on 2+ most turns bring blips
