"""The policy registry and the random policy."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from engine.ai import (
    Policy,
    UnknownPolicyError,
    default_policy,
    make_policy,
    policy_info,
    policy_names,
    policy_rng,
    register,
)
from engine.ai.base import _REGISTRY


class Cautious:
    name = "test-cautious"

    def __init__(self, params: dict[str, float]) -> None:
        self.params = params

    def choose(self, state: Any, actions: Sequence[Any], rng: random.Random) -> Any:
        return actions[0] if self.params["caution"] > 0.5 else actions[-1]


@pytest.fixture
def cautious() -> Any:
    register("test-cautious", Cautious, side="marines", defaults={"caution": 0.8}, description="test")
    yield
    _REGISTRY.pop("test-cautious", None)


def test_random_is_registered_and_is_a_policy() -> None:
    assert "random" in policy_names()
    p = make_policy("random")
    assert isinstance(p, Policy)
    assert default_policy("marines") in policy_names("marines")


def test_parameters_override_defaults_and_unknown_ones_are_refused(cautious: None) -> None:
    assert make_policy("test-cautious").choose(None, [1, 2], random.Random(0)) == 1
    assert make_policy("test-cautious", {"caution": 0.1}).choose(None, [1, 2], random.Random(0)) == 2
    with pytest.raises(ValueError, match="no parameter 'aggression'"):
        make_policy("test-cautious", {"aggression": 1.0})
    assert policy_info("test-cautious").defaults == {"caution": 0.8}
    assert "test-cautious" in policy_names("marines")
    assert "test-cautious" not in policy_names("genestealers")


def test_unknown_policy_names_the_known_ones() -> None:
    with pytest.raises(UnknownPolicyError, match=r"known: .*random"):
        make_policy("grandmaster")
    with pytest.raises(ValueError):
        register("x", Cautious, side="orks")


def test_default_policy_prefers_a_registered_heuristic() -> None:
    had = "heuristic-genestealers" in policy_names()
    register("heuristic-genestealers", Cautious, side="genestealers") if not had else None
    try:
        assert default_policy("genestealers") == "heuristic-genestealers"
    finally:
        if not had:
            _REGISTRY.pop("heuristic-genestealers")


def test_policy_rng_is_reproducible_and_independent_per_side() -> None:
    a = [policy_rng(42, "marines").random() for _ in range(3)]
    b = [policy_rng(42, "marines").random() for _ in range(3)]
    assert a == b
    assert policy_rng(42, "genestealers").random() != a[0]
    assert policy_rng(43, "marines").random() != a[0]


def test_random_policy_picks_every_action_and_only_given_ones() -> None:
    p = make_policy("random")
    rng = random.Random(5)
    picks = [p.choose(None, ["a", "b", "c"], rng) for _ in range(300)]
    assert set(picks) == {"a", "b", "c"}
    assert min(picks.count(x) for x in "abc") > 60
    with pytest.raises(ValueError):
        p.choose(None, [], rng)
