"""Exact combat odds: enumerate the dice of `engine.rules.combat` and play parry/guard/psi optimally.

No rule is restated here: shooting and assault odds come from running the resolution functions under
`EnumDice` (engine/rules/enumerate.py). Decisions are solved backwards (psi, then guard, then parry, the
order of seed 003) over the states the dice can reach, with dice sorted since only their values matter.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, partial
from typing import Literal

from engine.rules.combat import (
    AssaultRoll,
    MarineFighter,
    apply_guard,
    apply_parry,
    apply_psi,
    assault_casualty,
    assault_outcome,
    guard_choices,
    parry_choices,
    psi_choices,
    ranged_attack,
    roll_assault,
)
from engine.rules.dice import Dice
from engine.rules.enumerate import distribution, distribution_counts

Policy = Literal["optimal", "never"]
Objective = Literal["win", "survive"]
ZERO = Fraction(0)


@dataclass(frozen=True)
class ShotSpec:
    """One kind of shot (the keyword arguments of combat.ranged_attack)."""

    weapon: str = "storm_bolter"
    ruleset: str = "4e"
    sustained: bool = False
    overwatch: bool = False
    alpha: bool = False
    rubble_piles: int = 0
    ac_reloaded: bool = False

    def run(self, dice: Dice) -> tuple[bool, bool, bool]:
        """Resolve one such shot: (kill, jam, explode)."""
        r = ranged_attack(dice, self.weapon, ruleset=self.ruleset, sustained=self.sustained,
                          overwatch=self.overwatch, alpha=self.alpha, rubble_piles=self.rubble_piles,
                          ac_reloaded=self.ac_reloaded)
        return r.kill, r.jam, r.explode


@dataclass(frozen=True)
class ShotOdds:
    """Exact probabilities of one shot."""

    kill: Fraction
    jam: Fraction
    explode: Fraction


@lru_cache(maxsize=256)
def shot_odds(spec: ShotSpec) -> ShotOdds:
    """P(kill), P(jam), P(explode) of one shot, by enumeration."""
    dist = distribution(spec.run)
    return ShotOdds(
        kill=sum((p for (k, _, _), p in dist.items() if k), ZERO),
        jam=sum((p for (_, j, _), p in dist.items() if j), ZERO),
        explode=sum((p for (_, _, e), p in dist.items() if e), ZERO),
    )


@dataclass(frozen=True)
class AssaultSpec:
    """One kind of close assault (the arguments of combat.roll_assault) and how the Marine decides."""

    marine: MarineFighter
    alpha: bool = False
    frontal: bool = True
    marine_attacking: bool = False
    guard: bool = False
    ruleset: str = "4e"
    parry: Policy = "optimal"
    reroll: Policy = "optimal"  # the guard re-roll
    objective: Objective = "win"

    def roll(self, dice: Dice) -> AssaultRoll:
        """The opening roll of this assault."""
        return roll_assault(dice, self.marine, alpha=self.alpha, frontal=self.frontal,
                            marine_attacking=self.marine_attacking, ruleset=self.ruleset, guard=self.guard)


@dataclass(frozen=True)
class AssaultOdds:
    """Exact probabilities of one close assault (marine/tie/stealer: who wins the roll)."""

    marine: Fraction
    tie: Fraction
    stealer: Fraction
    marine_dies: Fraction
    stealer_dies: Fraction
    psi_spent: Fraction  # expected psi points spent


# A value vector, in integers for speed: (e, (marine wins, tie, stealer wins, marine dies, stealer dies,
# psi spent)), each count out of 6^e, so the expected value is count / 6^e. Fractions only at the end.
Nums = tuple[int, int, int, int, int, int]
Vec = tuple[int, Nums]


Options = list[tuple[int | None, Vec]]  # (decision, value); None = decline


def canonical(roll: AssaultRoll) -> AssaultRoll:
    """The roll with sorted dice and no log: every rule depends on dice values only, not order."""
    md, sd = tuple(sorted(roll.marine_dice)), tuple(sorted(roll.stealer_dice))
    if md == roll.marine_dice and sd == roll.stealer_dice and not roll.history:
        return roll
    # Positional construction (tests check it lists every field): dataclasses.replace is slow here.
    return AssaultRoll(md, sd, roll.marine_bonus, roll.alpha_total, roll.parry, roll.guard, roll.psi_max,
                       roll.marine_attacking, roll.frontal, roll.prone, roll.parry_used, roll.guard_used,
                       roll.psi_spent, roll.psi_done, ())


def _terminal(roll: AssaultRoll) -> Vec:
    out, dead = assault_outcome(roll), assault_casualty(roll)
    return 0, (int(out == "marine"), int(out == "tie"), int(out == "stealer"), int(dead == "marine"),
               int(dead == "stealer"), roll.psi_spent)


def _scaled(v: Vec, e: int) -> Nums:
    k = 6 ** (e - v[0])
    n = v[1]
    return (n[0] * k, n[1] * k, n[2] * k, n[3] * k, n[4] * k, n[5] * k)


def _expect(weighted: list[tuple[int, Vec]], depth: int) -> Vec:
    """Expectation of values weighted by counts out of 6^depth."""
    e = max(v[0] for _, v in weighted)
    acc = [0] * 6
    for n, v in weighted:
        s = _scaled(v, e)
        for i in range(6):
            acc[i] += n * s[i]
    e += depth
    while e > 0 and all(x % 6 == 0 for x in acc):  # keep the integers small
        acc = [x // 6 for x in acc]
        e -= 1
    return e, (acc[0], acc[1], acc[2], acc[3], acc[4], acc[5])


def to_odds(v: Vec) -> AssaultOdds:
    """The exact fractions of a value vector."""
    d = 6 ** v[0]
    return AssaultOdds(*(Fraction(x, d) for x in v[1]))


class AssaultSolver:
    """Optimal Marine decisions for one (parry policy, guard policy, objective), memoised over states."""

    def __init__(self, parry: Policy = "optimal", reroll: Policy = "optimal", objective: Objective = "win"):
        self.parry, self.reroll, self.objective = parry, reroll, objective
        self._memo: dict[tuple[str, AssaultRoll], Vec] = {}

    def _key(self, v: Vec, e: int) -> tuple[int, int]:
        n = _scaled(v, e)
        if self.objective == "survive":
            return (-n[3], n[0])
        return (n[0], -n[2])

    def _best(self, options: Options) -> tuple[int | None, Vec]:
        # The first option wins ties, and options come "do nothing / spend least" first.
        e = max(v[0] for _, v in options)
        best = options[0]
        for opt in options[1:]:
            if self._key(opt[1], e) > self._key(best[1], e):
                best = opt
        return best

    def _after(self, step: Callable[[Dice], AssaultRoll], then: Callable[[AssaultRoll], Vec]) -> Vec:
        counts, depth = distribution_counts(lambda d: canonical(step(d)))
        return _expect([(n, then(r)) for r, n in counts.items()], depth)

    def psi_options(self, roll: AssaultRoll) -> Options:
        """(points, value) for every psi spend, 0 first."""
        if not psi_choices(roll):
            return [(None, _terminal(roll))]
        return [(k, _terminal(apply_psi(roll, k))) for k in [0, *psi_choices(roll)]]

    def guard_options(self, roll: AssaultRoll) -> Options:
        """(die index or None, value) for every guard re-roll, declining first."""
        opts: Options = [(None, self.value_psi(roll))]
        if self.reroll == "optimal":
            for i in guard_choices(roll):
                opts.append((i, self._after(partial(apply_guard, roll=roll, index=i), self.value_psi)))
        return opts

    def parry_options(self, roll: AssaultRoll) -> Options:
        """(die index or None, value) for every parry, declining first."""
        opts: Options = [(None, self.value_guard(roll))]
        if self.parry == "optimal":
            for i in parry_choices(roll):
                opts.append((i, self._after(partial(apply_parry, roll=roll, index=i), self.value_guard)))
        return opts

    def _cached(self, stage: str, roll: AssaultRoll, options: Callable[[AssaultRoll], Options]) -> Vec:
        key = (stage, canonical(roll))
        if key not in self._memo:
            self._memo[key] = self._best(options(key[1]))[1]
        return self._memo[key]

    def value_psi(self, roll: AssaultRoll) -> Vec:
        """Value of a roll whose re-rolls are over."""
        return self._cached("psi", roll, self.psi_options)

    def value_guard(self, roll: AssaultRoll) -> Vec:
        """Value of a roll whose parry is decided."""
        return self._cached("guard", roll, self.guard_options)

    def value(self, roll: AssaultRoll) -> Vec:
        """Value of a freshly rolled assault."""
        return self._cached("parry", roll, self.parry_options)

    def choose_parry(self, roll: AssaultRoll) -> int | None:
        """The Genestealer die to parry, or None."""
        return self._best(self.parry_options(roll))[0]

    def choose_guard(self, roll: AssaultRoll) -> int | None:
        """The Marine die to re-roll on guard, or None."""
        return self._best(self.guard_options(roll))[0]

    def choose_psi(self, roll: AssaultRoll) -> int:
        """Psi points to spend (least among the best)."""
        return self._best(self.psi_options(roll))[0] or 0


@lru_cache(maxsize=8)
def solver(parry: Policy = "optimal", reroll: Policy = "optimal", objective: Objective = "win") -> AssaultSolver:
    """A shared solver (its memo grows with use, bounded by the few thousand reachable states)."""
    return AssaultSolver(parry, reroll, objective)


@lru_cache(maxsize=1024)
def assault_odds(spec: AssaultSpec) -> AssaultOdds:
    """Exact close-assault probabilities with the spec's decision policies."""
    s = solver(spec.parry, spec.reroll, spec.objective)
    counts, depth = distribution_counts(lambda d: canonical(spec.roll(d)), symmetric=True)
    return to_odds(_expect([(n, s.value(r)) for r, n in counts.items()], depth))


def play_assault(dice: Dice, spec: AssaultSpec) -> AssaultRoll:
    """Resolve one assault with real dice, deciding parry, guard and psi by the same optimal rule."""
    s = solver(spec.parry, spec.reroll, spec.objective)
    roll = spec.roll(dice)
    i = s.choose_parry(roll)
    if i is not None:
        roll = apply_parry(dice, roll, i)
    j = s.choose_guard(roll)
    if j is not None:
        roll = apply_guard(dice, roll, j)
    if psi_choices(roll):
        roll = apply_psi(roll, s.choose_psi(roll))
    return roll
