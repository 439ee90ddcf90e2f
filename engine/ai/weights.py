"""Tunable weights of the heuristic players: one dataclass per side; every field is a policy parameter.

`hulkforge simulate --param marines.caution=0.8` reaches these through the registry: the registered defaults
are `asdict(MarineWeights())`, and the factory turns the merged params back into the dataclass.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import TypeVar


@dataclass(frozen=True)
class MarineWeights:
    """How the Marine player plays. Distances are in squares, AP-ish costs; switches are 0/1."""

    caution: float = 0.5  # 0..1: how near a threat must be before the squad stops dashing and sets overwatch
    aggression: float = 0.5  # 0..1: spend AP shooting now rather than keeping 2 AP for overwatch
    threat_radius: float = 6.0  # enemy within this walking cost of a Marine counts as a threat
    gap: float = 2.0  # how far the leader may run ahead of the Marine behind him
    rear_guard: float = 1.0  # 1: the last Marine faces back on overwatch when the threat comes from behind
    flamer_min: float = 1.4  # expected kills a flamer shot must promise (the mission's own target aside)
    cp_reserve: float = 1.0  # 1: keep command points for the Genestealer turn (reactions); 0: spend them now
    keep_cp_within: float = 3.0  # ...but only while an enemy is this close to the squad (else they buy moves)
    react_range: float = 5.0  # in the Genestealer turn, shoot with CP at a Genestealer this close
    dash_below: float = 1.0  # dash (no overwatch stops) while at most this many enemies are near the squad
    redraw_below: float = 3.0  # with a sergeant, redraw command points of this value or less
    psi_storm_range: float = 3.0  # the Archivist storms a Genestealer this close


@dataclass(frozen=True)
class GenestealerWeights:
    """How the Genestealer player plays."""

    aggression: float = 0.5  # 0..1: willingness to charge through overwatch
    caution: float = 0.5  # 0..1: how strongly squares under overwatch are avoided while closing in
    group: float = 3.0  # models gathered near a Marine before they charge together
    standoff: float = 4.0  # where Genestealers wait when not charging: this walking cost from an attack square
    reveal_range: float = 7.0  # blips convert when this close to an attack square
    flank: float = 1.0  # extra cost of attacking a Marine from his front square (more sends them the long way round)
    ambush: float = 1.0  # 1: blips head for the Marines' route ahead, not only the nearest Marine
    urgent_within: float = 8.0  # once the Marines are this close to their goal, every Genestealer charges
    shot_tolerance: float = 1.5  # overwatch shots a lone charger accepts; each gathered friend adds one
    key_target: float = 3.0  # in a flame mission, extra walking cost to strike any Marine but the flamer


W = TypeVar("W", MarineWeights, GenestealerWeights)


def weights_from_params(cls: type[W], params: Mapping[str, float]) -> W:
    """The dataclass with the given fields overridden (names not in the dataclass are ignored)."""
    names = {f.name for f in fields(cls)}
    return replace(cls(), **{k: float(v) for k, v in params.items() if k in names})


def defaults(cls: type[MarineWeights] | type[GenestealerWeights]) -> dict[str, float]:
    """The default parameters of a weights dataclass, as the registry wants them."""
    return {k: float(v) for k, v in asdict(cls()).items()}
