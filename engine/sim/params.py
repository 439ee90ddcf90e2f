"""Mission parameters a batch or a sweep may change without editing the mission file."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any

from engine.mission.model import Mission
from engine.sim.paths import is_path, set_parameter


def _int(name: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or int(value) != value:
        raise ValueError(f"mission parameter {name!r}: {value!r} is not an integer")
    v = int(value)
    if not lo <= v <= hi:
        raise ValueError(f"mission parameter {name!r}: {v} is not in {lo}..{hi}")
    return v


def _per_turn(m: Mission, v: Any) -> None:
    n = _int("reinforcements.per_turn", v, 0, 99)
    for row in m.genestealers.reinforcements:
        row.per_turn = n


def _scale(m: Mission, v: Any) -> None:
    if isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v <= 10:
        raise ValueError(f"mission parameter 'reinforcements.scale': {v!r} is not a number in 0..10")
    for row in m.genestealers.reinforcements:
        row.per_turn = max(0, round(row.per_turn * float(v)))


def _starting_blips(m: Mission, v: Any) -> None:
    m.genestealers.starting.blips = _int("genestealers.starting_blips", v, 0, 99)


def _model_cap(m: Mission, v: Any) -> None:
    m.genestealers.model_cap = _int("genestealers.model_cap", v, 1, 999)


def _psi(m: Mission, v: Any) -> None:
    m.marines.psi_points = _int("marines.psi_points", v, 0, 99)


def _count(m: Mission, v: Any) -> None:
    n = _int("marines.count", v, 1, len(m.marines.squad))
    m.marines.squad = m.marines.squad[:n]


# name -> (setter, help). The setters mutate a freshly loaded mission that belongs to one worker.
MISSION_PARAMS: dict[str, tuple[Callable[[Mission, Any], None], str]] = {
    "reinforcements.per_turn": (_per_turn, "sets the per-turn count of every reinforcement row"),
    "reinforcements.scale": (_scale, "multiplies every reinforcement row's per-turn count (rounded)"),
    "genestealers.starting_blips": (_starting_blips, "number of blips placed at the start"),
    "genestealers.model_cap": (_model_cap, "most Genestealer models on the board at once"),
    "marines.psi_points": (_psi, "the Librarian's psi points"),
    "marines.count": (_count, "keep only the first N Marines of the squad, in file order"),
}


def is_mission_param(name: str) -> bool:
    """True if `name` is a mission parameter (as opposed to a rule option): a name above or a path into the
    mission document (engine/sim/paths.py)."""
    return name in MISSION_PARAMS or is_path(name)


def apply_mission_params(mission: Mission, params: Mapping[str, Any]) -> Mission:
    """Apply parameters in place and return the mission; unknown names or bad values raise ValueError.

    The names above first, in order, then the paths, written into the mission's document and read back.
    """
    paths: dict[str, Any] = {}
    for name, value in params.items():
        if name in MISSION_PARAMS:
            MISSION_PARAMS[name][0](mission, value)
        elif is_path(name):
            paths[name] = value
        else:
            raise ValueError(f"unknown mission parameter {name!r} (known: {', '.join(MISSION_PARAMS)}, "
                             f"or a path such as genestealers.limited.total)")
    if paths:
        from engine.mission import mission_from_dict, mission_to_dict

        doc = mission_to_dict(mission)
        for name, value in paths.items():
            set_parameter(doc, name, value)
        changed = mission_from_dict(doc)
        for f in fields(Mission):
            setattr(mission, f.name, getattr(changed, f.name))
    return mission
