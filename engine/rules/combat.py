"""Combat resolution steps (RULES.md §6-§8, §10, §12): shooting, flamer, doors and close assault.

Every function takes the dice it needs from an injected `Dice` and returns immutable results, so the game
engine can log them and `engine.rules.odds` can enumerate them exactly by running the very same code.
Close assault is split in steps (roll, parry, guard, psi, outcome) because each step is a player decision.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from engine.rules.dice import Dice

Weapon = Literal["storm_bolter", "assault_cannon", "heavy_flamer"]
Ruleset = Literal["4e", "classic"]
Melee = Literal["power_glove", "power_sword", "thunder_hammer", "lightning_claws", "chain_fist", "force_axe"]
Rank = Literal["marine", "sergeant", "archivist"]
DoorWeapon = Literal["storm_bolter", "assault_cannon", "close_assault", "chain_fist"]
Outcome = Literal["marine", "stealer", "tie"]

MELEE_WEAPONS: tuple[str, ...] = (
    "power_glove", "power_sword", "thunder_hammer", "lightning_claws", "chain_fist", "force_axe",
)
RANKS: tuple[str, ...] = ("marine", "sergeant", "archivist")


@dataclass(frozen=True)
class ShotResult:
    """One shot: the dice as rolled (to-hit dice, then the classic jam die), and what they did."""

    dice: tuple[int, ...]
    kill: bool
    jam: bool
    explode: bool
    deflections: tuple[int, ...]
    overkill: bool = False  # [2e] both dice hit: an adjacent target may also die (RULES.md §6)


def _kill_threshold(weapon: str, sustained: bool, ruleset: str) -> int:
    if weapon == "assault_cannon":
        return 4 if sustained else 5  # RULES.md §6: 5+, sustained 4+
    return 5 if sustained else 6  # storm bolter: 6, sustained 5+ ([2e]: the sustained symbol is the 5)


def ranged_attack(
    dice: Dice,
    weapon: str,
    *,
    ruleset: str = "4e",
    sustained: bool = False,
    overwatch: bool = False,
    alpha: bool = False,
    rubble_piles: int = 0,
    ac_reloaded: bool = False,
) -> ShotResult:
    """Resolve one shot at a Genestealer (or a door, which is shot like one: RULES.md §6)."""
    if weapon == "heavy_flamer":
        die, killed = flamer_attack(dice, ruleset=ruleset, alpha=alpha)
        return ShotResult((die,), killed, False, False, ())
    if weapon not in ("storm_bolter", "assault_cannon"):
        raise ValueError(f"unknown ranged weapon {weapon!r}")
    if ruleset == "classic" and overwatch:
        sustained = False  # [2e] seed 004: "There is no sustained fire bonus for overwatch fire."
    n = 3 if weapon == "assault_cannon" else 2
    rolled = dice.roll(n)
    need = _kill_threshold(weapon, sustained, ruleset)
    hits = sum(1 for d in rolled if d >= need)
    # RULES.md §10: the Alpha dies only when at least two dice reach the kill score.
    kill = hits >= (2 if alpha else 1)
    overkill = ruleset == "classic" and weapon == "storm_bolter" and hits == 2
    jam = False
    explode = False
    if weapon == "storm_bolter" and overwatch:
        if ruleset == "classic":
            # [2e] a separate jam die is rolled with every overwatch shot; the summary (seed 004) does not
            # print its faces, so we model it as a d6 that jams on a 1: the same 1/6 rate as a 4e double.
            jam_die = dice.d6()
            rolled = (*rolled, jam_die)
            jam = jam_die == 1
        else:
            # RULES.md §8 [4e]: any double jams; a killing double (6-6, or 5-5 sustained) still kills first.
            jam = rolled[0] == rolled[1]
    if weapon == "assault_cannon" and ac_reloaded:
        # RULES.md §6 [4e]: a reloaded cannon explodes on a triple; the target may still die from the shot.
        explode = rolled[0] == rolled[1] == rolled[2]
    deflections: tuple[int, ...] = ()
    if kill and weapon == "storm_bolter" and rubble_piles > 0:
        # RULES.md §6 [PF]: a killing bolter shot rolls one die per rubble pile; any 5-6 deflects it.
        deflections = dice.roll(rubble_piles)
        if any(d >= 5 for d in deflections):
            kill = False
            overkill = False
    return ShotResult(rolled, kill, jam, explode, deflections, overkill)


def flamer_attack(dice: Dice, *, ruleset: str = "4e", alpha: bool = False) -> tuple[int, bool]:
    """One model (or blip) caught in a flamed section: (die, killed)."""
    die = dice.d6()
    if alpha:
        return die, False  # RULES.md §10: one killing die never kills the Alpha, so the flamer cannot
    if ruleset == "classic":
        return die, die <= 5  # [2e] seed 004: "The Genestealer model only survives on a 6"
    return die, die >= 2  # RULES.md §6 [4e]: 2+


def door_attack(
    dice: Dice, weapon: str, *, sustained: bool = False, marine: MarineFighter | None = None
) -> tuple[tuple[int, ...], bool]:
    """Shoot or assault a closed door: (dice, destroyed)."""
    if weapon == "chain_fist" or (weapon == "close_assault" and marine and marine.melee == "chain_fist"):
        return (), True  # seed 003 "Poing tronçonneur": destroys a door automatically, no roll
    if weapon in ("storm_bolter", "assault_cannon"):
        # RULES.md §6: a door is shot like a Genestealer, sustained fire included.
        rolled = dice.roll(3 if weapon == "assault_cannon" else 2)
        need = _kill_threshold(weapon, sustained, "4e")
        return rolled, any(d >= need for d in rolled)
    if weapon == "close_assault":
        # RULES.md §8: the attacker's usual assault dice, any 6 destroys: 3 for a Genestealer, the Marine's
        # own dice for a Marine (lightning claws: 2, facing the door).
        n = 3 if marine is None else (2 if marine.melee == "lightning_claws" else 1)
        rolled = dice.roll(n)
        return rolled, 6 in rolled
    raise ValueError(f"unknown door weapon {weapon!r}")


# --- close assault -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MarineFighter:
    """What a Marine brings to a close assault: melee weapon, rank, shield, prone, psi points he may spend."""

    melee: str
    rank: str
    storm_shield: bool = False
    prone: bool = False
    psi_available: int = 0


@dataclass(frozen=True)
class AssaultRoll:
    """A close assault in progress: dice, fixed modifiers, decisions taken so far, a log of re-rolls."""

    marine_dice: tuple[int, ...]
    stealer_dice: tuple[int, ...]
    marine_bonus: int  # sergeant/archivist/hammer/claws/prone modifiers, before psi
    alpha_total: bool  # the Alpha fights facing its enemy: best + worst die (RULES.md §10)
    parry: bool  # the Marine may parry (power sword facing the enemy; [2e] sergeant)
    guard: bool  # the Marine is on guard and defending
    psi_max: int  # psi points he may add (force axe facing the enemy), 0 otherwise
    marine_attacking: bool
    frontal: bool  # the defender faces the attacker
    prone: bool
    parry_used: bool = False
    guard_used: bool = False
    psi_spent: int = 0
    psi_done: bool = False
    history: tuple[tuple[str, int, int, int], ...] = ()  # ("parry"/"guard", index, old, new)


def marine_faces_enemy(marine: MarineFighter, *, frontal: bool, marine_attacking: bool) -> bool:
    """The Genestealer is in the Marine's front square (an attacker always faces its target)."""
    return (marine_attacking or frontal) and not marine.prone  # RULES.md §11: prone counts as not facing


def roll_assault(
    dice: Dice,
    marine: MarineFighter,
    *,
    alpha: bool = False,
    frontal: bool = True,
    marine_attacking: bool = False,
    ruleset: str = "4e",
    guard: bool = False,
) -> AssaultRoll:
    """Roll both sides' close-assault dice (Marine first, then Genestealer) with every fixed modifier."""
    if marine.melee not in MELEE_WEAPONS or marine.rank not in RANKS:
        raise ValueError(f"unknown fighter {marine.melee!r}/{marine.rank!r}")
    faces = marine_faces_enemy(marine, frontal=frontal, marine_attacking=marine_attacking)
    # Seed 003 grants the weapon, sergeant and Archivist bonuses only fighting "de face": with the enemy in
    # the Marine's front square, which is always so when he attacks.
    claws = marine.melee == "lightning_claws" and faces  # 2 dice, best +1, only "de face"
    bonus = 0
    if marine.rank == "sergeant" and (faces or ruleset == "classic"):
        bonus += 1  # [2e] seed 004: the sergeant's +1 is not limited to the front; only his parry is
    if marine.rank == "archivist" and faces:
        bonus += 1
    if marine.melee == "thunder_hammer" and faces:
        bonus += 1
    if claws:
        bonus += 1
    if marine.prone:
        bonus -= 1  # RULES.md §11 [PF]
    # Storm shield: "un ennemi l'attaquant par-devant ... lance un dé de moins" (seed 003, RULES.md §8): only a
    # Genestealer attacking him from the front; a Marine who attacks gets no shield die.
    shielded = marine.storm_shield and not marine_attacking and faces
    stealer_n = 3 - (1 if shielded else 0)
    marine_dice = dice.roll(2 if claws else 1)
    stealer_dice = dice.roll(stealer_n)
    # The Alpha fights "de face" when the Marine is in its front square: always when it attacks.
    alpha_faces = alpha and (frontal or not marine_attacking)
    parry = faces and (marine.melee == "power_sword" or (ruleset == "classic" and marine.rank == "sergeant"))
    psi_max = marine.psi_available if faces and marine.melee == "force_axe" else 0
    return AssaultRoll(
        marine_dice=marine_dice,
        stealer_dice=stealer_dice,
        marine_bonus=bonus,
        alpha_total=alpha_faces,
        parry=parry,
        guard=guard and not marine_attacking,  # RULES.md §8: any action (an attack too) ends guard
        psi_max=max(psi_max, 0),
        marine_attacking=marine_attacking,
        frontal=frontal,
        prone=marine.prone,
    )


def marine_score(roll: AssaultRoll) -> int:
    """The Marine's result: best die plus every modifier and spent psi."""
    return max(roll.marine_dice) + roll.marine_bonus + roll.psi_spent


def stealer_score(roll: AssaultRoll) -> int:
    """The Genestealer's result: best die; an Alpha facing its enemy adds best and worst (all if < 3)."""
    if roll.alpha_total:
        d = roll.stealer_dice
        return sum(d) if len(d) < 3 else max(d) + min(d)
    return max(roll.stealer_dice)


def parry_choices(roll: AssaultRoll) -> list[int]:
    """Indices of Genestealer dice a parry may force to re-roll ([] when no parry is left)."""
    if not roll.parry or roll.parry_used or roll.guard_used or roll.psi_done:
        return []
    return list(range(len(roll.stealer_dice)))


def apply_parry(dice: Dice, roll: AssaultRoll, index: int) -> AssaultRoll:
    """Force the Genestealer to re-roll die `index`; the new roll stands."""
    if index not in parry_choices(roll):
        raise ValueError(f"cannot parry die {index}")
    old = roll.stealer_dice[index]
    new = dice.d6()
    d = (*roll.stealer_dice[:index], new, *roll.stealer_dice[index + 1:])
    return replace(roll, stealer_dice=d, parry_used=True, history=(*roll.history, ("parry", index, old, new)))


def guard_choices(roll: AssaultRoll) -> list[int]:
    """Indices of the Marine's own dice guard may re-roll (one die, once; [] off guard)."""
    if not roll.guard or roll.guard_used or roll.psi_done:
        return []
    return list(range(len(roll.marine_dice)))


def apply_guard(dice: Dice, roll: AssaultRoll, index: int) -> AssaultRoll:
    """Re-roll the Marine's die `index` (after any parry, RULES.md §8); the new roll stands."""
    if index not in guard_choices(roll):
        raise ValueError(f"cannot re-roll die {index} on guard")
    old = roll.marine_dice[index]
    new = dice.d6()
    d = (*roll.marine_dice[:index], new, *roll.marine_dice[index + 1:])
    return replace(roll, marine_dice=d, guard_used=True, history=(*roll.history, ("guard", index, old, new)))


def psi_choices(roll: AssaultRoll) -> list[int]:
    """Psi points the Archivist may add now, after all re-rolls (1..available; [] when none)."""
    if roll.psi_done or roll.psi_max <= 0:
        return []
    return list(range(1, roll.psi_max + 1))


def apply_psi(roll: AssaultRoll, points: int) -> AssaultRoll:
    """Spend `points` psi (0 = decline) on the force axe: +1 each; no more re-rolls after this."""
    if points < 0 or points > roll.psi_max or (roll.psi_done and points):
        raise ValueError(f"cannot spend {points} psi")
    return replace(roll, psi_spent=roll.psi_spent + points, psi_done=True)


def assault_outcome(roll: AssaultRoll) -> Outcome:
    """Who wins the comparison of results (a tie harms nobody)."""
    m, s = marine_score(roll), stealer_score(roll)
    return "marine" if m > s else "stealer" if s > m else "tie"


def assault_casualty(roll: AssaultRoll) -> Literal["marine", "stealer"] | None:
    """Who dies: the loser, unless the loser attacked a defender who does not face him (RULES.md §8)."""
    winner = assault_outcome(roll)
    if winner == "tie":
        return None
    defender_faces = roll.frontal and not (roll.prone and not roll.marine_attacking)
    if winner == "marine":
        return "stealer" if roll.marine_attacking or defender_faces else None
    return "marine" if not roll.marine_attacking or defender_faces else None
