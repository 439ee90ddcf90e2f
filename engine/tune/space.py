"""The parameters a tune may move: mission parameters (any number or choice of the mission, by its path) and rule
options, each with a range (a choice is searched by its index in its list of values)."""

from __future__ import annotations

import copy
import json
import math
from dataclasses import dataclass
from typing import Any

from engine.rules.options import choice_options, integer_ranges
from engine.sim.params import apply_mission_params, is_mission_param
from engine.sim.paths import ParamInfo, find_parameter, is_path

# Ranges used when `--param NAME` gives none: what a designer would try, inside what the parameter accepts.
DEFAULT_RANGES: dict[str, tuple[float, float]] = {
    "reinforcements.per_turn": (0, 6),
    "reinforcements.scale": (0.0, 3.0),
    "genestealers.starting_blips": (0, 12),
    "genestealers.model_cap": (4, 40),
    "marines.psi_points": (0, 40),
    "marines.count": (1, 20),
}
REAL_PARAMS = frozenset({"reinforcements.scale"})
VALID_RANGES: dict[str, tuple[float, float]] = {
    "reinforcements.per_turn": (0, 99),
    "reinforcements.scale": (0.0, 10.0),
    "genestealers.starting_blips": (0, 99),
    "genestealers.model_cap": (1, 999),
    "marines.psi_points": (0, 99),
    "marines.count": (1, 20),
    **{k: (float(lo), float(hi)) for k, (lo, hi) in integer_ranges().items()},
}


@dataclass(frozen=True)
class TunedParam:
    """One parameter of a tune: its name, the range searched, and whether it takes whole numbers."""

    name: str
    lo: float
    hi: float
    integer: bool = True
    choices: tuple[Any, ...] = ()  # a categorical parameter: searched over the indices lo..hi of these values

    @property
    def is_option(self) -> bool:
        """A rule option (goes into the mission's options) rather than a mission parameter."""
        return not is_mission_param(self.name)

    def value(self, x: float) -> Any:
        """`x` as this parameter takes it: rounded for integer parameters, kept inside the range; the value of a
        categorical parameter."""
        x = min(max(x, self.lo), self.hi)
        if self.choices:
            return self.choices[round(x)]
        return round(x) if self.integer else float(x)

    def coord(self, x: float) -> float:
        """`x` as a number the search compares (a categorical parameter's index)."""
        return float(round(min(max(x, self.lo), self.hi))) if self.choices else float(self.value(x))

    def label(self, v: float) -> str:
        """A value as the path prints it."""
        if self.choices:
            return json.dumps(self.value(v))
        return str(int(v)) if self.integer else f"{v:.3g}"


def tunable_names() -> list[str]:
    """Every name `--param` accepts."""
    return list(VALID_RANGES)


def from_info(info: ParamInfo) -> TunedParam:
    """The TunedParam of a mission parameter over its default range (a choice: over all its values)."""
    if info.kind == "choice":
        return TunedParam(info.name, 0.0, float(len(info.choices) - 1), True, info.choices)
    lo, hi = info.default_range()
    return TunedParam(info.name, float(lo), float(hi))


def parse_param(text: str, doc: dict[str, Any] | None = None) -> TunedParam:
    """'NAME' or 'NAME=LO..HI' -> a TunedParam; a bad name or range raises ValueError with the reason.

    NAME is one of the names above, a rule option, or (given the mission document `doc`) a path into the
    mission (`genestealers.limited.total`); a choice (a Marine's weapon, a boolean) is searched over its values.
    """
    name, sep, rng = text.partition("=")
    name = name.strip()
    if name in choice_options():
        if sep:
            raise ValueError(f"--param {name}: a choice takes no range (its values: "
                             f"{', '.join(json.dumps(c) for c in choice_options()[name])})")
        values = choice_options()[name]
        return TunedParam(name, 0.0, float(len(values) - 1), True, values)
    if name not in VALID_RANGES and is_path(name) and doc is not None:
        info = find_parameter(doc, name)
        if info.kind == "choice":
            if sep:
                raise ValueError(f"--param {name}: a choice takes no range (its values: {info.describe()})")
            return from_info(info)
        dlo, dhi = info.default_range()
        return _ranged(name, sep, rng, True, (float(info.lo or 0), float(info.hi or 0)), (float(dlo), float(dhi)))
    if name not in VALID_RANGES:
        raise ValueError(f"cannot tune {name!r} (tunable: {', '.join(tunable_names())}, or any number of the "
                         f"mission by its path: hulkforge tune --list-params MISSION)")
    integer = name not in REAL_PARAMS
    vlo, vhi = VALID_RANGES[name]
    return _ranged(name, sep, rng, integer, (vlo, vhi), DEFAULT_RANGES.get(name, (vlo, min(vhi, 2 * vlo + 24))))


def _ranged(name: str, sep: str, rng: str, integer: bool, valid: tuple[float, float],
            default: tuple[float, float]) -> TunedParam:
    vlo, vhi = valid
    if sep:
        lo_s, dots, hi_s = rng.partition("..")
        try:
            if not dots:
                raise ValueError
            lo, hi = float(lo_s), float(hi_s)
        except ValueError:
            raise ValueError(f"--param {name}: expected a range LO..HI, got {rng!r}") from None
        if not (math.isfinite(lo) and math.isfinite(hi)) or lo >= hi:
            raise ValueError(f"--param {name}: the range {rng!r} must go from a lower to a higher number")
        if integer and (lo != int(lo) or hi != int(hi)):
            raise ValueError(f"--param {name}: takes whole numbers, not {rng!r}")
        if lo < vlo or hi > vhi:
            raise ValueError(f"--param {name}: {rng!r} goes outside what it accepts ({vlo:g}..{vhi:g})")
    else:
        lo, hi = default
    return TunedParam(name, float(lo), float(hi), integer)


def split_values(params: list[TunedParam], point: tuple[float, ...]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(rule options, mission parameters) of one point."""
    options: dict[str, Any] = {}
    mparams: dict[str, Any] = {}
    for p, x in zip(params, point, strict=True):
        (options if p.is_option else mparams)[p.name] = p.value(x)
    return options, mparams


def tuned_document(doc: dict[str, Any], params: list[TunedParam], point: tuple[float, ...],
                   fixed_options: dict[str, Any] | None = None,
                   fixed_params: dict[str, Any] | None = None) -> dict[str, Any]:
    """The mission document with the fixed settings and the point's values written into it."""
    from engine.mission import mission_from_dict, mission_to_dict

    options, mparams = split_values(params, point)
    options = {**(fixed_options or {}), **options}
    mparams = {**(fixed_params or {}), **mparams}
    mission = apply_mission_params(mission_from_dict(copy.deepcopy(doc)), mparams)
    out = mission_to_dict(mission)
    if options:
        out["options"] = {**out.get("options", {}), **options}
    return out
