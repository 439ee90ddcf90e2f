"""Combat resolution steps (engine/rules/combat.py) against the rulebook's examples and RULES.md §6-§8."""

from __future__ import annotations

import pytest

from engine.rules.combat import (
    MarineFighter,
    apply_guard,
    apply_parry,
    apply_psi,
    assault_casualty,
    assault_outcome,
    door_attack,
    flamer_attack,
    guard_choices,
    marine_score,
    parry_choices,
    psi_choices,
    ranged_attack,
    roll_assault,
    stealer_score,
)
from engine.rules.dice import ScriptedDice

GLOVE = MarineFighter("power_glove", "marine")
SWORD = MarineFighter("power_sword", "sergeant")


# --- shooting -----------------------------------------------------------------------------------------


def test_storm_bolter_kills_on_any_six_only() -> None:
    assert ranged_attack(ScriptedDice([1, 6]), "storm_bolter").kill
    assert not ranged_attack(ScriptedDice([5, 5]), "storm_bolter").kill


def test_sustained_fire_example_from_the_rulebook() -> None:
    """Seed 003 "Tir Soutenu": 1,3 misses; 5,5 after moving misses; standing still, 1,5 kills."""
    assert not ranged_attack(ScriptedDice([1, 3]), "storm_bolter").kill
    assert not ranged_attack(ScriptedDice([5, 5]), "storm_bolter", sustained=False).kill
    assert ranged_attack(ScriptedDice([1, 5]), "storm_bolter", sustained=True).kill


def test_overwatch_double_jams_but_a_killing_double_kills_first() -> None:
    r = ranged_attack(ScriptedDice([6, 6]), "storm_bolter", overwatch=True)
    assert (r.kill, r.jam) == (True, True)
    r = ranged_attack(ScriptedDice([5, 5]), "storm_bolter", overwatch=True, sustained=True)
    assert (r.kill, r.jam) == (True, True)
    r = ranged_attack(ScriptedDice([3, 3]), "storm_bolter", overwatch=True)
    assert (r.kill, r.jam) == (False, True)
    r = ranged_attack(ScriptedDice([3, 3]), "storm_bolter")
    assert not r.jam  # only overwatch jams


def test_assault_cannon_never_jams_and_explodes_only_when_reloaded() -> None:
    r = ranged_attack(ScriptedDice([5, 5, 5]), "assault_cannon", overwatch=True, ac_reloaded=True)
    assert (r.kill, r.jam, r.explode) == (True, False, True)
    r = ranged_attack(ScriptedDice([2, 2, 2]), "assault_cannon", ac_reloaded=True)
    assert (r.kill, r.explode) == (False, True)
    assert not ranged_attack(ScriptedDice([2, 2, 2]), "assault_cannon").explode
    assert ranged_attack(ScriptedDice([1, 4, 2]), "assault_cannon", sustained=True).kill
    assert not ranged_attack(ScriptedDice([1, 4, 2]), "assault_cannon").kill


def test_alpha_needs_two_killing_dice() -> None:
    assert not ranged_attack(ScriptedDice([6, 1]), "storm_bolter", alpha=True).kill
    assert ranged_attack(ScriptedDice([6, 6]), "storm_bolter", alpha=True).kill
    assert ranged_attack(ScriptedDice([5, 1, 5]), "assault_cannon", alpha=True).kill
    assert flamer_attack(ScriptedDice([6]), alpha=True) == (6, False)


def test_rubble_rolls_only_after_a_kill_and_deflects_on_5_or_6() -> None:
    dice = ScriptedDice([1, 2, 6])
    r = ranged_attack(dice, "storm_bolter", rubble_piles=2)
    assert (r.kill, r.deflections) == (False, ()) and dice.remaining == 1
    r = ranged_attack(ScriptedDice([6, 1, 4, 5]), "storm_bolter", rubble_piles=2)
    assert (r.kill, r.deflections) == (False, (4, 5))
    r = ranged_attack(ScriptedDice([6, 1, 4, 4]), "storm_bolter", rubble_piles=2)
    assert (r.kill, r.deflections) == (True, (4, 4))
    dice = ScriptedDice([5, 1, 1, 6])
    assert ranged_attack(dice, "assault_cannon", rubble_piles=1).deflections == ()  # bolter only
    assert dice.remaining == 1


def test_classic_storm_bolter_jam_die_overkill_and_no_sustained_on_overwatch() -> None:
    r = ranged_attack(ScriptedDice([6, 6, 1]), "storm_bolter", ruleset="classic", overwatch=True)
    assert (r.dice, r.kill, r.jam, r.overkill) == ((6, 6, 1), True, True, True)
    r = ranged_attack(ScriptedDice([3, 3, 4]), "storm_bolter", ruleset="classic", overwatch=True)
    assert not r.jam  # no double rule in classic
    r = ranged_attack(ScriptedDice([5, 1, 2]), "storm_bolter", ruleset="classic", overwatch=True, sustained=True)
    assert not r.kill
    assert ranged_attack(ScriptedDice([5, 1]), "storm_bolter", ruleset="classic", sustained=True).kill


def test_flamer_4e_and_classic() -> None:
    assert flamer_attack(ScriptedDice([1])) == (1, False)
    assert flamer_attack(ScriptedDice([2])) == (2, True)
    assert flamer_attack(ScriptedDice([5]), ruleset="classic") == (5, True)
    assert flamer_attack(ScriptedDice([6]), ruleset="classic") == (6, False)
    r = ranged_attack(ScriptedDice([2]), "heavy_flamer")
    assert (r.dice, r.kill) == ((2,), True)
    with pytest.raises(ValueError):
        ranged_attack(ScriptedDice([1]), "lascannon")


def test_doors() -> None:
    assert door_attack(ScriptedDice([]), "chain_fist") == ((), True)
    assert door_attack(ScriptedDice([]), "close_assault", marine=MarineFighter("chain_fist", "marine"))[1]
    assert door_attack(ScriptedDice([1, 2, 6]), "close_assault") == ((1, 2, 6), True)
    assert door_attack(ScriptedDice([5]), "close_assault", marine=GLOVE) == ((5,), False)
    assert door_attack(ScriptedDice([1, 6]), "close_assault", marine=MarineFighter("lightning_claws", "marine"))[1]
    assert door_attack(ScriptedDice([5, 1]), "storm_bolter", sustained=True)[1]
    assert door_attack(ScriptedDice([5, 1, 1]), "assault_cannon")[1]


# --- close assault: the rulebook's worked examples ---------------------------------------------------


def test_rulebook_close_assault_example() -> None:
    """Seed 003: the Genestealer rolls 2, 4, 5 (result 5), the Marine a 4: the Marine dies."""
    roll = roll_assault(ScriptedDice([4, 2, 4, 5]), GLOVE)
    assert (marine_score(roll), stealer_score(roll)) == (4, 5)
    assert assault_outcome(roll) == "stealer" and assault_casualty(roll) == "marine"


def test_rulebook_guard_example() -> None:
    """Seed 003: same roll, the Marine on guard re-rolls his 4 and gets a 6: the Genestealer dies."""
    dice = ScriptedDice([4, 2, 4, 5, 6])
    roll = roll_assault(dice, GLOVE, guard=True)
    assert guard_choices(roll) == [0]
    roll = apply_guard(dice, roll, 0)
    assert roll.history == (("guard", 0, 4, 6),)
    assert assault_outcome(roll) == "marine" and assault_casualty(roll) == "stealer"
    assert guard_choices(roll) == []  # one die, once


def test_flank_attack_a_winning_defender_only_turns() -> None:
    """Seed 003: attacked from the flank, a winning Marine does not kill the Genestealer."""
    roll = roll_assault(ScriptedDice([6, 1, 2, 3]), SWORD, frontal=False)
    assert roll.marine_bonus == 0 and parry_choices(roll) == []  # no sergeant bonus, no parry from the side
    assert assault_outcome(roll) == "marine" and assault_casualty(roll) is None


def test_marine_attacking_a_stealer_from_behind() -> None:
    roll = roll_assault(ScriptedDice([2, 5, 1, 1]), SWORD, marine_attacking=True, frontal=False)
    assert roll.marine_bonus == 1  # the attacker faces his target
    assert assault_outcome(roll) == "stealer" and assault_casualty(roll) is None  # the stealer just turns


def test_alpha_adds_best_and_worst_when_facing() -> None:
    """Seed 003: the Alpha rolling 6, 6, 3 scores 9; fewer than three dice: all of them."""
    assert stealer_score(roll_assault(ScriptedDice([6, 6, 6, 3]), SWORD, alpha=True)) == 9
    assert stealer_score(roll_assault(ScriptedDice([6, 6, 6, 3]), SWORD, alpha=True, frontal=False)) == 9
    # attacked from behind by a Marine, the Alpha does not fight "de face"
    assert stealer_score(roll_assault(ScriptedDice([1, 6, 6, 3]), GLOVE, alpha=True, marine_attacking=True,
                                      frontal=False)) == 6
    shield = MarineFighter("power_glove", "marine", storm_shield=True)
    roll = roll_assault(ScriptedDice([1, 4, 5]), shield, alpha=True)
    assert stealer_score(roll) == 9


def test_weapon_bonuses_are_frontal() -> None:
    hammer_sgt = MarineFighter("thunder_hammer", "sergeant")
    assert roll_assault(ScriptedDice([1, 1, 1, 1]), hammer_sgt).marine_bonus == 2
    assert roll_assault(ScriptedDice([1, 1, 1, 1]), hammer_sgt, frontal=False).marine_bonus == 0
    claws = MarineFighter("lightning_claws", "marine")
    roll = roll_assault(ScriptedDice([2, 5, 1, 1, 1]), claws)
    assert roll.marine_dice == (2, 5) and marine_score(roll) == 6
    assert roll_assault(ScriptedDice([2, 1, 1, 1]), claws, frontal=False).marine_dice == (2,)
    archivist = MarineFighter("force_axe", "archivist", psi_available=3)
    roll = roll_assault(ScriptedDice([3, 6, 1, 1]), archivist)
    assert marine_score(roll) == 4 and psi_choices(roll) == [1, 2, 3]
    roll = apply_psi(roll, 3)
    assert marine_score(roll) == 7 and assault_outcome(roll) == "marine" and psi_choices(roll) == []
    assert psi_choices(roll_assault(ScriptedDice([3, 6, 1, 1]), archivist, frontal=False)) == []


def test_storm_shield_takes_one_die_from_a_frontal_attacker() -> None:
    shield = MarineFighter("thunder_hammer", "marine", storm_shield=True)
    dice = ScriptedDice([3, 4, 4, 9])
    roll = roll_assault(dice, shield)
    assert roll.stealer_dice == (4, 4) and dice.remaining == 1
    assert len(roll_assault(ScriptedDice([3, 4, 4, 1]), shield, frontal=False).stealer_dice) == 3
    # only an enemy attacking him from the front is blocked (RULES.md §8: "frontal attacker")
    assert len(roll_assault(ScriptedDice([3, 4, 4, 1]), shield, marine_attacking=True).stealer_dice) == 3


def test_prone_marine_minus_one_and_not_facing() -> None:
    prone = MarineFighter("power_sword", "sergeant", prone=True)
    roll = roll_assault(ScriptedDice([5, 1, 2, 4]), prone)
    assert roll.marine_bonus == -1 and parry_choices(roll) == []
    assert assault_outcome(roll) == "tie"
    roll = roll_assault(ScriptedDice([6, 1, 2, 4]), prone)
    assert assault_outcome(roll) == "marine" and assault_casualty(roll) is None


def test_parry_then_guard_and_not_the_other_way() -> None:
    dice = ScriptedDice([3, 6, 2, 1, 1, 5])
    roll = roll_assault(dice, SWORD, guard=True)
    assert parry_choices(roll) == [0, 1, 2] and guard_choices(roll) == [0]
    roll = apply_parry(dice, roll, 0)
    assert roll.stealer_dice == (1, 2, 1) and parry_choices(roll) == []
    roll = apply_guard(dice, roll, 0)
    assert marine_score(roll) == 6 and roll.history == (("parry", 0, 6, 1), ("guard", 0, 3, 5))
    roll = roll_assault(ScriptedDice([3, 6, 2, 1, 1]), SWORD, guard=True)
    roll = apply_guard(ScriptedDice([4]), roll, 0)
    assert parry_choices(roll) == []
    with pytest.raises(ValueError):
        apply_parry(ScriptedDice([1]), roll, 0)


def test_guard_is_lost_by_attacking_and_parry_needs_a_sword() -> None:
    assert guard_choices(roll_assault(ScriptedDice([1, 1, 1, 1]), GLOVE, guard=True, marine_attacking=True)) == []
    assert parry_choices(roll_assault(ScriptedDice([1, 1, 1, 1]), MarineFighter("power_glove", "sergeant"))) == []
    with pytest.raises(ValueError):
        roll_assault(ScriptedDice([1, 1, 1, 1]), MarineFighter("banana", "marine"))


def test_classic_sergeant_bonus_everywhere_and_parry_to_the_front() -> None:
    sgt = MarineFighter("power_glove", "sergeant")
    roll = roll_assault(ScriptedDice([1, 1, 1, 1]), sgt, ruleset="classic", frontal=False)
    assert roll.marine_bonus == 1 and parry_choices(roll) == []
    assert parry_choices(roll_assault(ScriptedDice([1, 1, 1, 1]), sgt, ruleset="classic")) == [0, 1, 2]
