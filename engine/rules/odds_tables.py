"""The standard odds tables: common shots, and every Marine fighter in every close-assault situation."""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules.combat import MarineFighter
from engine.rules.odds import AssaultOdds, AssaultSpec, Policy, ShotOdds, ShotSpec, assault_odds, shot_odds

# (label, fighter, parry policy): the 4e characters of seed 003's close-assault table, plus a sword that
# never parries, to show what the parry is worth.
FIGHTERS: tuple[tuple[str, MarineFighter, Policy], ...] = (
    ("marine (power glove)", MarineFighter("power_glove", "marine"), "optimal"),
    ("chain fist", MarineFighter("chain_fist", "marine"), "optimal"),
    ("sergeant + sword", MarineFighter("power_sword", "sergeant"), "optimal"),
    ("sergeant + sword, no parry", MarineFighter("power_sword", "sergeant"), "never"),
    ("thunder hammer", MarineFighter("thunder_hammer", "marine"), "optimal"),
    ("hammer + shield", MarineFighter("thunder_hammer", "marine", storm_shield=True), "optimal"),
    ("sergeant hammer", MarineFighter("thunder_hammer", "sergeant"), "optimal"),
    ("sergeant hammer + shield", MarineFighter("thunder_hammer", "sergeant", storm_shield=True), "optimal"),
    ("lightning claws", MarineFighter("lightning_claws", "marine"), "optimal"),
    *((f"archivist, {k} psi", MarineFighter("force_axe", "archivist", psi_available=k), "optimal")
      for k in (0, 1, 2, 3)),
)

# (label, marine attacking, defender faces attacker, guard)
SITUATIONS: tuple[tuple[str, bool, bool, bool], ...] = (
    ("defends, facing", False, True, False),
    ("defends, facing, guard", False, True, True),
    ("defends, rear/side", False, False, False),
    ("defends, rear/side, guard", False, False, True),
    ("attacks, foe facing", True, True, False),
    ("attacks, foe's rear/side", True, False, False),
)

SHOTS: tuple[tuple[str, ShotSpec], ...] = (
    ("storm bolter", ShotSpec()),
    ("storm bolter, sustained", ShotSpec(sustained=True)),
    ("storm bolter, overwatch", ShotSpec(overwatch=True)),
    ("storm bolter, overwatch, sustained", ShotSpec(overwatch=True, sustained=True)),
    ("storm bolter, 1 rubble", ShotSpec(rubble_piles=1)),
    ("storm bolter, 2 rubble", ShotSpec(rubble_piles=2)),
    ("storm bolter vs Alpha", ShotSpec(alpha=True)),
    ("storm bolter vs Alpha, sustained", ShotSpec(alpha=True, sustained=True)),
    ("assault cannon", ShotSpec("assault_cannon")),
    ("assault cannon, sustained", ShotSpec("assault_cannon", sustained=True)),
    ("assault cannon, reloaded", ShotSpec("assault_cannon", ac_reloaded=True)),
    ("assault cannon vs Alpha", ShotSpec("assault_cannon", alpha=True)),
    ("assault cannon vs Alpha, sustained", ShotSpec("assault_cannon", alpha=True, sustained=True)),
    ("heavy flamer (per model)", ShotSpec("heavy_flamer")),
    ("heavy flamer vs Alpha", ShotSpec("heavy_flamer", alpha=True)),
)


@dataclass(frozen=True)
class ShotRow:
    """One line of the shooting table."""

    label: str
    spec: ShotSpec
    odds: ShotOdds


@dataclass(frozen=True)
class AssaultRow:
    """One line of the close-assault table."""

    fighter: str
    opponent: str
    situation: str
    spec: AssaultSpec
    odds: AssaultOdds


def shooting_table(ruleset: str = "4e") -> list[ShotRow]:
    """Exact odds of the standard shots."""
    rows = []
    for label, spec in SHOTS:
        spec = ShotSpec(spec.weapon, ruleset, spec.sustained, spec.overwatch, spec.alpha, spec.rubble_piles,
                        spec.ac_reloaded)
        rows.append(ShotRow(label, spec, shot_odds(spec)))
    return rows


def assault_table(ruleset: str = "4e") -> list[AssaultRow]:
    """Exact odds of every standard fighter, against a Genestealer and the Alpha, in every situation."""
    rows = []
    for fighter, marine, parry in FIGHTERS:
        for opponent, alpha in (("Genestealer", False), ("Alpha", True)):
            for situation, attacking, frontal, guard in SITUATIONS:
                spec = AssaultSpec(marine, alpha=alpha, frontal=frontal, marine_attacking=attacking,
                                   guard=guard, ruleset=ruleset, parry=parry)
                rows.append(AssaultRow(fighter, opponent, situation, spec, assault_odds(spec)))
    return rows
