"""The diagonal-step rule (RULES.md §4), defined once for the rules and for the mission's reachability check."""

from __future__ import annotations


def diagonal_step_allowed(side_a_blocked: bool, side_b_blocked: bool) -> bool:
    """A diagonal step passes between the two squares orthogonal to it; it is barred only when both are blocked.

    [4e][2e]: blocked means a wall or a model (the rules also count a closed door); reachability, which treats
    doors as open and sees no models, asks about walls alone.
    """
    return not (side_a_blocked and side_b_blocked)
