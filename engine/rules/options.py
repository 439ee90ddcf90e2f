"""Named rule options (RULES.md): defaults, per-ruleset changes, mission values and batch overrides.

The values an option may take are the mission schema's (`schemas/mission.schema.json`, `options`): a mission's
options block and a batch's overrides are checked against the same description. The rules read the options
through `RuleOptions`, a frozen record with one typed field per option.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from engine.mission.model import Mission


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Every option in force for a game, typed (see DEFAULTS for what each means)."""

    ladder_rule: str = "4e"  # "pitfall" | "4e" (resolved: never None here)
    falling_table: str = "pitfall"  # "pitfall" | "advanced"
    hole_los: str = "pitfall"  # "pitfall" | "advanced"
    fire_module: bool = False
    command_points: str = "chits"  # "chits" | "d6"
    marine_activation_cap: int | None = None
    overwatch_range: int = 12
    flamer_range: int = 12
    flamer_shots: int = 6
    assault_cannon_shots: int = 10
    lurk_radius: int = 6
    max_lurking: int = 3
    overkill: bool = False
    overwatch_compulsory: bool = False
    sustained_fire: bool = True
    turn_cap: int = 50
    random_setup: str = "random"  # "random" | "players"
    cp_reactions: bool = True
    fire_turns: int = 1
    reinforcement_roll: int | None = None


# Every option with its 4e default. None for ladder_rule means "pitfall if the mission uses Pitfall features".
DEFAULTS: dict[str, object] = {f.name: f.default for f in fields(RuleOptions)}
DEFAULTS["ladder_rule"] = None

# What the classic ([2e]) ruleset changes before the mission's own options apply.
CLASSIC: dict[str, object] = {
    "command_points": "d6",
    "overkill": True,
    "overwatch_compulsory": True,
    "flamer_shots": 12,
}


@cache
def _schema_options() -> dict[str, dict[str, Any]]:
    """The mission schema's description of each option (its enum, or its type and range)."""
    from engine.resources import load_schema

    props: dict[str, dict[str, Any]] = load_schema("mission.schema.json")["properties"]["options"]["properties"]
    return props


def integer_ranges() -> dict[str, tuple[int, int]]:
    """The whole-number options and the range the schema allows each (for tools that search over them)."""
    return {name: (int(spec["minimum"]), int(spec["maximum"])) for name, spec in _schema_options().items()
            if "minimum" in spec and "maximum" in spec and name in DEFAULTS}


def choice_options() -> dict[str, tuple[Any, ...]]:
    """The options that take one of a few values (an enum or a boolean), with those values."""
    out: dict[str, tuple[Any, ...]] = {}
    for name, spec in _schema_options().items():
        if name not in DEFAULTS:
            continue
        if "enum" in spec:
            out[name] = tuple(spec["enum"])
        elif spec.get("type") == "boolean":
            out[name] = (False, True)
    return out


def _check(name: str, value: object) -> None:
    spec = _schema_options().get(name)
    if spec is None or name not in DEFAULTS:
        raise ValueError(f"unknown rule option {name!r}")
    if "enum" in spec:
        allowed = tuple(spec["enum"]) + ((None,) if DEFAULTS[name] is None else ())
        if value not in allowed:
            raise ValueError(f"option {name!r}: {value!r} is not one of {allowed!r}")
        return
    types = spec["type"] if isinstance(spec["type"], list) else [spec["type"]]
    if "boolean" in types:
        if not isinstance(value, bool):
            raise ValueError(f"option {name!r}: {value!r} is not a boolean")
        return
    if value is None and "null" in types:
        return
    lo, hi = int(spec["minimum"]), int(spec["maximum"])
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        head = "null or an integer" if "null" in types else "an integer"
        raise ValueError(f"option {name!r}: {value!r} is not {head} in {lo}..{hi}")


@dataclass(frozen=True)
class OptionInForce:
    """One option as a game of the mission plays it, and where the value comes from: `source` is one of
    RULESET, MISSION_FILE, MISSION_CONTENTS, OVERRIDE; `why` says more (which ruleset, which features)."""

    name: str
    value: object
    source: str
    why: str = ""


RULESET, MISSION_FILE, MISSION_CONTENTS, OVERRIDE = "ruleset default", "mission file", "mission contents", "override"


def explain_options(
    mission: Mission, overrides: Mapping[str, object] | None = None, override_label: str = "command line"
) -> list[OptionInForce]:
    """Every option in force, in DEFAULTS order, with its source: the ruleset's defaults, then the mission's
    options, then overrides (`override_label` names who set them); bad names or values raise ValueError."""
    ruleset = mission.ruleset
    out: dict[str, OptionInForce] = {n: OptionInForce(n, v, RULESET, ruleset) for n, v in DEFAULTS.items()}
    if ruleset == "classic":
        out.update((n, OptionInForce(n, v, RULESET, ruleset)) for n, v in CLASSIC.items())
    for source, label, why in ((mission.options, MISSION_FILE, ""), (overrides or {}, OVERRIDE, override_label)):
        for name, value in source.items():
            _check(name, value)
            out[name] = OptionInForce(name, value, label, why)
    if out["ladder_rule"].value is None:
        # The one default read from the mission's contents: adding a pitfall switches it.
        features = mission.pitfall_features()
        out["ladder_rule"] = OptionInForce(
            "ladder_rule",
            "pitfall" if features else "4e",
            MISSION_CONTENTS,
            f"the mission has {', '.join(features)}" if features else "the mission has no Pitfall feature",
        )
    return list(out.values())


def resolve_options(mission: Mission, overrides: Mapping[str, object] | None = None) -> dict[str, object]:
    """Ruleset defaults, then the mission's options, then overrides; bad names or values raise ValueError."""
    return {o.name: o.value for o in explain_options(mission, overrides)}


def rule_options(resolved: Mapping[str, Any]) -> RuleOptions:
    """The typed record of options resolved by resolve_options."""
    return RuleOptions(**resolved)
