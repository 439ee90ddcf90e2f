"""AI players: the Policy interface, the registry, and the shipped policies (each module registers itself)."""

from __future__ import annotations

from engine.ai.base import (
    SIDES,
    Policy,
    PolicyInfo,
    UnknownPolicyError,
    default_policy,
    make_policy,
    policy_info,
    policy_names,
    policy_rng,
    register,
    resolve_policy,
)

__all__ = [
    "SIDES",
    "Policy",
    "PolicyInfo",
    "UnknownPolicyError",
    "default_policy",
    "make_policy",
    "policy_info",
    "policy_names",
    "policy_rng",
    "register",
    "resolve_policy",
]
