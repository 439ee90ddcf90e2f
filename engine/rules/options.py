"""Named rule options (RULES.md): defaults, per-ruleset changes, mission values and batch overrides."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.mission.model import Mission

# Every option with its 4e default. None for ladder_rule means "pitfall if the mission uses Pitfall features".
DEFAULTS: dict[str, object] = {
    "ladder_rule": None,
    "falling_table": "pitfall",
    "hole_los": "pitfall",
    "fire_module": False,
    "command_points": "chits",
    "marine_activation_cap": None,
    "overwatch_range": 12,
    "flamer_range": 12,
    "flamer_shots": 6,
    "assault_cannon_shots": 10,
    "lurk_radius": 6,
    "max_lurking": 3,
    "overkill": False,
    "overwatch_compulsory": False,
    "sustained_fire": True,
    "turn_cap": 50,
    "random_setup": "random",
    "cp_reactions": True,
    "fire_turns": 1,
}

# What the classic ([2e]) ruleset changes before the mission's own options apply.
CLASSIC: dict[str, object] = {
    "command_points": "d6",
    "overkill": True,
    "overwatch_compulsory": True,
    "flamer_shots": 12,
}

_ENUMS: dict[str, tuple[object, ...]] = {
    "ladder_rule": ("pitfall", "4e", None),
    "falling_table": ("pitfall", "advanced"),
    "hole_los": ("pitfall", "advanced"),
    "command_points": ("chits", "d6"),
    "random_setup": ("random", "players"),
}
_BOOLS = ("fire_module", "overkill", "overwatch_compulsory", "sustained_fire", "cp_reactions")
_INTS: dict[str, tuple[int, int]] = {
    "overwatch_range": (1, 200),
    "flamer_range": (1, 200),
    "flamer_shots": (1, 99),
    "assault_cannon_shots": (1, 99),
    "lurk_radius": (0, 200),
    "max_lurking": (1, 99),
    "turn_cap": (1, 999),
    "fire_turns": (1, 9),
}


def _check(name: str, value: object) -> None:
    if name not in DEFAULTS:
        raise ValueError(f"unknown rule option {name!r}")
    if name in _ENUMS:
        if value not in _ENUMS[name]:
            raise ValueError(f"option {name!r}: {value!r} is not one of {_ENUMS[name]!r}")
    elif name in _BOOLS:
        if not isinstance(value, bool):
            raise ValueError(f"option {name!r}: {value!r} is not a boolean")
    elif name in _INTS:
        lo, hi = _INTS[name]
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ValueError(f"option {name!r}: {value!r} is not an integer in {lo}..{hi}")
    elif name == "marine_activation_cap":
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100):
            raise ValueError(f"option {name!r}: {value!r} is not null or an integer in 1..100")


def resolve_options(mission: Mission, overrides: Mapping[str, object] | None = None) -> dict[str, object]:
    """Ruleset defaults, then the mission's options, then overrides; bad names or values raise ValueError."""
    out: dict[str, Any] = dict(DEFAULTS)
    if mission.ruleset == "classic":
        out.update(CLASSIC)
    for source in (mission.options, overrides or {}):
        for name, value in source.items():
            _check(name, value)
            out[name] = value
    if out["ladder_rule"] is None:
        out["ladder_rule"] = "pitfall" if mission.uses_pitfall_features() else "4e"
    return out
