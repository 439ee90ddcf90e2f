"""Tunable weights of the heuristic players: one dataclass per side; every field is a policy parameter.

`hulkforge simulate --param marines.caution=0.8` reaches these through the registry: the registered defaults
are `asdict(MarineWeights())`, and the factory turns the merged params back into the dataclass.
"""

from __future__ import annotations

import os
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
    flamer_alone: float = 3.0  # with no other Marine this close, the flamer burns a lone Genestealer coming at him
    cp_reserve: float = 1.0  # 1: keep command points for the Genestealer turn (reactions); 0: spend them now
    keep_cp_within: float = 3.0  # ...but only while an enemy is this close to the squad (else they buy moves)
    react_range: float = 5.0  # in the Genestealer turn, shoot with CP at a Genestealer this close
    dash_below: float = 1.0  # dash (no overwatch stops) while at most this many enemies are near the squad
    redraw_below: float = 3.0  # with a sergeant, redraw command points of this value or less
    psi_storm_range: float = 3.0  # the Archivist storms a Genestealer this close
    # Scoring terms of a move (engine/ai/marine_terms.py): each is a weight on one consideration.
    progress: float = 10.0  # per square of route gained by the move (#10: keep moving to the objective)
    ap_cost: float = 1.0  # per AP the move and the step it prepares cost (a turn and a step cost 2)
    open_door: float = 1.0  # opening a closed door on an equally short way (#12: open only what the route needs)
    side_door: float = 0.3  # per closed side door beside the square (where a Genestealer bursts in)
    diagonal: float = 0.25  # a diagonal step among equally short ones (straight steps keep the squad's file)
    keep_file: float = 0.05  # per square off the route of the Marine ahead (the squad must not split)
    close_flank: float = 12.0  # closing an open door off the route (#12: cut the approaches on the flanks)
    carrier_gap: float = 1.0  # how far the carrier may walk ahead of the nearest other Marine
    escort_exit: float = 6.0  # an escort leaves by the exit only once the carrier is this close to it
    flank_watch: float = 2.0  # a threatened Marine this close to a door off the way keeps the AP of overwatch
    march_flamer: float = 12.0  # a flamer's step past the front Marine (#3: he travels in the middle, not leading)
    march_melee: float = 0.5  # a strong melee Marine's step past the front Marine (#3: best melee in front)
    dead_end: float = 6.0  # the last Marine with no goal in reach backs into a dead end this close (#11)
    choke: float = 6.0  # a squad with nothing to reach holds a corridor within this many squares of an entry (#9)
    clock_slack: float = 1.0  # the last Marine dashes when watching every turn leaves him this short of the goal


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
    ambush_ahead: float = 3.0  # the ambush takes the Marines' route from this many squares ahead of the leader
    urgent_within: float = 8.0  # once the Marines are this close to their goal, every Genestealer charges
    shot_tolerance: float = 1.5  # overwatch shots a lone charger accepts; each gathered friend adds one
    key_target: float = 3.0  # in a flame mission, extra walking cost to strike any Marine but the flamer
    key_flank: float = 0.0  # in a flame mission, extra cost of the flamer's front square (`flank` for the others)
    lead_target: float = 6.0  # in an escape mission, extra cost to strike a Marine not among those about to win it
    close_doors: float = 1.0  # 1: shut an open door that a Marine on overwatch sees, from out of his sight
    alpha_shots: float = 0.25  # what an overwatch shot on the way counts for the Alpha's charge (two dice kill it)
    entry_locked: float = 6.0  # an entry held shut by a Marine within 6 scores up to this much worse (the walk lost)
    entry_crowd: float = 2.0  # ... and this much per blip already waiting at it (spread over the entries)
    melee_target: float = 2.0  # extra walking cost to strike a Marine with a hammer or claws (#2: go round him)


W = TypeVar("W", MarineWeights, GenestealerWeights)


def weights_from_params(cls: type[W], params: Mapping[str, float]) -> W:
    """The dataclass with the given fields overridden (names not in the dataclass are ignored)."""
    names = {f.name for f in fields(cls)}
    return replace(cls(), **{k: float(v) for k, v in params.items() if k in names})


def defaults(cls: type[MarineWeights] | type[GenestealerWeights]) -> dict[str, float]:
    """The default parameters of a weights dataclass, as the registry wants them."""
    return {k: float(v) for k, v in asdict(cls()).items()}


# --- ranges a search may explore --------------------------------------------------------------------------------


@dataclass(frozen=True)
class WeightRange:
    """Where a trainer looks for a weight: lo..hi, in steps of `step` (1 for counts and 0/1 switches), or real."""

    lo: float
    hi: float
    step: float | None = None


# Wide enough to hold every sensible player, narrow enough that a few dozen trials cover them.
SEARCH_RANGES: dict[str, dict[str, WeightRange]] = {
    "marines": {
        "caution": WeightRange(0.0, 1.0),
        "aggression": WeightRange(0.0, 1.0),
        "threat_radius": WeightRange(2.0, 12.0),
        "gap": WeightRange(1.0, 5.0, 1.0),
        "rear_guard": WeightRange(0.0, 1.0, 1.0),
        "flamer_min": WeightRange(0.5, 3.0),
        "flamer_alone": WeightRange(0.0, 8.0, 1.0),
        "cp_reserve": WeightRange(0.0, 1.0, 1.0),
        "keep_cp_within": WeightRange(1.0, 8.0, 1.0),
        "react_range": WeightRange(1.0, 10.0, 1.0),
        "dash_below": WeightRange(0.0, 4.0, 1.0),
        "redraw_below": WeightRange(1.0, 6.0, 1.0),
        "psi_storm_range": WeightRange(1.0, 6.0, 1.0),
        "progress": WeightRange(2.0, 20.0),
        "ap_cost": WeightRange(0.0, 4.0),
        "open_door": WeightRange(0.0, 4.0),
        "side_door": WeightRange(0.0, 2.0),
        "diagonal": WeightRange(0.0, 1.0),
        "keep_file": WeightRange(0.0, 0.5),
        "close_flank": WeightRange(0.0, 20.0),
        "carrier_gap": WeightRange(0.0, 4.0, 1.0),
        "escort_exit": WeightRange(0.0, 12.0, 1.0),
        "clock_slack": WeightRange(0.0, 6.0, 1.0),
        "flank_watch": WeightRange(0.0, 4.0, 1.0),
        "choke": WeightRange(0.0, 12.0, 1.0),
        "dead_end": WeightRange(0.0, 12.0, 1.0),
        "march_flamer": WeightRange(0.0, 20.0),
        "march_melee": WeightRange(0.0, 2.0),
    },
    "genestealers": {
        "aggression": WeightRange(0.0, 1.0),
        "caution": WeightRange(0.0, 1.0),
        "group": WeightRange(1.0, 6.0, 1.0),
        "standoff": WeightRange(1.0, 8.0, 1.0),
        "reveal_range": WeightRange(2.0, 12.0, 1.0),
        "flank": WeightRange(0.0, 4.0),
        "ambush": WeightRange(0.0, 1.0, 1.0),
        "ambush_ahead": WeightRange(0.0, 20.0, 1.0),
        "urgent_within": WeightRange(2.0, 16.0, 1.0),
        "shot_tolerance": WeightRange(0.0, 4.0),
        "key_target": WeightRange(0.0, 8.0),
        "key_flank": WeightRange(0.0, 4.0),
        "close_doors": WeightRange(0.0, 1.0, 1.0),
        "lead_target": WeightRange(0.0, 8.0),
        "melee_target": WeightRange(0.0, 8.0),
        "entry_locked": WeightRange(0.0, 12.0),
        "entry_crowd": WeightRange(0.0, 6.0),
        "alpha_shots": WeightRange(0.0, 1.0),
    },
}

WEIGHT_CLASSES: dict[str, type[MarineWeights] | type[GenestealerWeights]] = {
    "marines": MarineWeights,
    "genestealers": GenestealerWeights,
}

# --- weights files ------------------------------------------------------------------------------------------------

WEIGHTS_FORMAT = "hulkforge-weights"
WEIGHTS_VERSION = 1
_MAX_WEIGHT = 1000.0  # no weight means anything past this; a larger value is a typo or a hostile file
_SWITCHES = frozenset(n for side in SEARCH_RANGES.values() for n, r in side.items() if (r.lo, r.hi) == (0.0, 1.0)
                      and r.step == 1.0)


class WeightsFileError(ValueError):
    """A weights file that cannot be used: `str()` is one line naming the file and the place."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def check_weights(side: str, weights: Mapping[str, object], where: str = "weights") -> dict[str, float]:
    """The weights of one side as floats; an unknown name or a bad value raises ValueError naming `where`."""
    cls = WEIGHT_CLASSES.get(side)
    if cls is None:
        raise ValueError(f"{where}: unknown side {side!r} (marines or genestealers)")
    names = [f.name for f in fields(cls)]
    out: dict[str, float] = {}
    for name, value in weights.items():
        if name not in names:
            raise ValueError(f"{where}.{side}.{name}: unknown weight (known: {', '.join(names)})")
        if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
            raise ValueError(f"{where}.{side}.{name}: {value!r} is not a number")
        v = float(value)
        if not 0.0 <= v <= _MAX_WEIGHT:
            raise ValueError(f"{where}.{side}.{name}: {v:g} is not in 0..{_MAX_WEIGHT:g}")
        if name in _SWITCHES and v not in (0.0, 1.0):
            raise ValueError(f"{where}.{side}.{name}: a switch is 0 or 1, not {v:g}")
        out[name] = v
    return out


def parse_weights_document(doc: object, path: str) -> dict[str, dict[str, float]]:
    """The weights of a weights-file document, by side; raises WeightsFileError naming the place.

    Every other key is information and is ignored here: `mission`, `trained`, `checks`, and `complete` /
    `rounds` of a file that `train` writes after each round (false until the run ends; the weights of an
    unfinished run are the best of its finished rounds and load like any others).
    """
    if not isinstance(doc, dict):
        raise WeightsFileError(path, "not a JSON object")
    if doc.get("format") != WEIGHTS_FORMAT:
        raise WeightsFileError(path, f"$.format: expected {WEIGHTS_FORMAT!r}, got {doc.get('format')!r}")
    if doc.get("version") != WEIGHTS_VERSION:
        raise WeightsFileError(path, f"$.version: expected {WEIGHTS_VERSION}, got {doc.get('version')!r}")
    sides = doc.get("weights")
    if not isinstance(sides, dict) or not sides:
        raise WeightsFileError(path, "$.weights: expected an object with 'marines' and/or 'genestealers'")
    out: dict[str, dict[str, float]] = {}
    for side, weights in sides.items():
        if not isinstance(weights, dict):
            raise WeightsFileError(path, f"$.weights.{side}: expected an object of weights")
        try:
            out[side] = check_weights(side, weights, "$.weights")
        except ValueError as exc:
            raise WeightsFileError(path, str(exc)) from None
    return out


MAX_WEIGHTS_BYTES = 1 << 20


def _weights_error(path: str | os.PathLike[str], message: str) -> WeightsFileError:
    return WeightsFileError(os.fspath(path), message)


def load_weights_file(path: str) -> dict[str, dict[str, float]]:
    """Read and validate a weights file: {side: {weight: value}}; raises WeightsFileError."""
    import json

    from engine.mission.io import read_limited

    data = read_limited(path, what="weights file", error=_weights_error, max_bytes=MAX_WEIGHTS_BYTES)
    try:
        doc = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise WeightsFileError(path, f"not JSON ({exc})") from None
    return parse_weights_document(doc, path)


def weights_document(weights: Mapping[str, Mapping[str, float]], **info: object) -> dict[str, object]:
    """A weights-file document: every side's weights, plus free-form `info` (mission, how it was trained)."""
    for side, w in weights.items():
        check_weights(side, w)
    return {"format": WEIGHTS_FORMAT, "version": WEIGHTS_VERSION, **info,
            "weights": {side: {k: float(v) for k, v in w.items()} for side, w in weights.items()}}


def save_weights_file(path: str, weights: Mapping[str, Mapping[str, float]], **info: object) -> None:
    """Write a weights file atomically."""
    import json

    from engine.mission.io import atomic_write_text

    atomic_write_text(path, json.dumps(weights_document(weights, **info), indent=2) + "\n")
