"""The `random` policy: every legal action equally likely. A baseline and a fuzzer for the rules."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.ai.base import register


class RandomPolicy:
    """Uniform choice among the legal actions, from the policy RNG the simulator hands it."""

    name = "random"

    def __init__(self, params: dict[str, float] | None = None) -> None:
        self.params: dict[str, float] = dict(params or {})

    def choose(self, state: Any, actions: Sequence[Any], rng: random.Random) -> Any:
        """One of `actions`, uniformly."""
        if not actions:
            raise ValueError("no legal action to choose from")
        return actions[rng.randrange(len(actions))]


register("random", RandomPolicy, description="every legal action equally likely")
