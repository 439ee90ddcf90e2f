"""The exact odds of an attack offered now: a shot, a flamer's shot at each model, a close assault.

The terms come from the rules' own resolution (`Fire.shot_terms`, `Assault.assault_terms`: sustained fire,
rubble, the Alpha, the facing, guard), the probabilities from `odds` (the dice enumerated, parry, guard and psi
played to win), so what a player is shown is what the dice will be rolled against.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from engine.rules.odds import AssaultSpec, ShotOdds, ShotSpec, assault_odds, shot_odds

if TYPE_CHECKING:
    from engine.rules.state import GameState


def shot_chance(state: GameState, pid: str, target: str, overwatch: bool = False) -> ShotOdds:
    """Kill, jam and explode chances of `pid` shooting at `target` (a model or a door) now."""
    pc = state.k.p[pid]
    terms = state.fire.shot_terms(pc, target, overwatch)
    return shot_odds(ShotSpec(pc.ranged, **terms))


def flame_chance(state: GameState, pid: str, alpha: bool = False) -> Fraction:
    """The chance that `pid`'s heavy flamer kills one Genestealer in the section it burns."""
    return flamer_kill_chance(state.game.ruleset, alpha)


def flamer_kill_chance(ruleset: str, alpha: bool = False) -> Fraction:
    """The chance that a heavy flamer kills one Genestealer (`alpha`: the Alpha) in the section it burns, under
    `ruleset` (a player reads it here rather than restating the roll)."""
    return shot_odds(ShotSpec("heavy_flamer", ruleset, alpha=alpha)).kill


def assault_chance(state: GameState, pid: str, target: str) -> Fraction:
    """The chance that `pid`'s close assault on the model `target` kills it now (the Marine's choices played to
    win)."""
    att, dfn = state.k.p[pid], state.k.p[target]
    _through, terms = state.assault.assault_terms(att, dfn)
    odds = assault_odds(AssaultSpec(**terms))
    return odds.stealer_dies if att.kind == "marine" else odds.marine_dies
