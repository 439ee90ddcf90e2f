"""Exact odds (engine/rules/odds.py) against hand-derived values, seeded frequencies, and the odds CLI."""

from __future__ import annotations

import json
import math
import random
from dataclasses import fields
from fractions import Fraction as F

import pytest

from engine.cli import main
from engine.rules.combat import AssaultRoll, MarineFighter, assault_outcome, roll_assault
from engine.rules.dice import Dice
from engine.rules.enumerate import distribution
from engine.rules.odds import (
    AssaultSpec,
    ShotSpec,
    assault_odds,
    canonical,
    play_assault,
    shot_odds,
    solver,
)

GLOVE = MarineFighter("power_glove", "marine")
SWORD = MarineFighter("power_sword", "sergeant")


def p_best3(s: int) -> F:
    """P(best of three dice = s) = (s^3 - (s-1)^3) / 216."""
    return F(s**3 - (s - 1) ** 3, 216)


# --- shooting ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "kill", "jam", "explode"),
    [
        (ShotSpec(), F(11, 36), 0, 0),  # 1 - (5/6)^2
        (ShotSpec(sustained=True), F(5, 9), 0, 0),  # 1 - (4/6)^2
        (ShotSpec(overwatch=True), F(11, 36), F(1, 6), 0),  # six doubles out of 36
        (ShotSpec(alpha=True), F(1, 36), 0, 0),  # both dice must be 6
        (ShotSpec(alpha=True, sustained=True), F(1, 9), 0, 0),
        (ShotSpec(rubble_piles=1), F(11, 36) * F(2, 3), 0, 0),  # the kill survives a 1-4
        (ShotSpec(rubble_piles=2), F(11, 36) * F(4, 9), 0, 0),
        (ShotSpec("assault_cannon"), 1 - F(2, 3) ** 3, 0, 0),  # 19/27
        (ShotSpec("assault_cannon", sustained=True), F(7, 8), 0, 0),
        (ShotSpec("assault_cannon", ac_reloaded=True, overwatch=True), F(19, 27), 0, F(1, 36)),  # 6 triples / 216
        (ShotSpec("assault_cannon", alpha=True), 3 * F(1, 9) * F(2, 3) + F(1, 27), 0, 0),  # 7/27
        (ShotSpec("heavy_flamer"), F(5, 6), 0, 0),
        (ShotSpec("heavy_flamer", alpha=True), 0, 0, 0),
        (ShotSpec(ruleset="classic", overwatch=True, sustained=True), F(11, 36), F(1, 6), 0),
        (ShotSpec("heavy_flamer", ruleset="classic"), F(5, 6), 0, 0),
    ],
)
def test_shot_odds_match_hand_derived_values(spec: ShotSpec, kill: F, jam: F, explode: F) -> None:
    o = shot_odds(spec)
    assert (o.kill, o.jam, o.explode) == (kill, jam, explode)


# --- close assault -----------------------------------------------------------------------------------


def test_plain_marine_against_a_genestealer() -> None:
    """The Marine wins when his die m beats the best of three: sum over m of ((m-1)/6)^3 / 6
    = (0 + 1 + 8 + 27 + 64 + 125) / 1296 = 225/1296; a tie has P(best of three = m) for each m, i.e. 1/6."""
    o = assault_odds(AssaultSpec(GLOVE))
    assert (o.marine, o.tie, o.stealer) == (F(225, 1296), F(1, 6), 1 - F(225, 1296) - F(1, 6))
    assert o.marine_dies == o.stealer and o.stealer_dies == o.marine
    rear = assault_odds(AssaultSpec(GLOVE, frontal=False))
    assert rear.marine == o.marine and rear.stealer_dies == 0  # a winner not facing only turns


def test_sergeant_without_parry_and_storm_shield_and_claws() -> None:
    """+1: the Marine wins when best-of-three <= m: sum m^3/216/6 = 441/1296.
    Shield: best of two < m: sum (m-1)^2/36/6 = 55/216.
    Claws: best of two +1 > best of three: sum over t of P(best2 = t) P(best3 <= t)."""
    assert assault_odds(AssaultSpec(SWORD, parry="never")).marine == F(441, 1296)
    shield = MarineFighter("power_glove", "marine", storm_shield=True)
    assert assault_odds(AssaultSpec(shield)).marine == F(55, 216)
    claws = assault_odds(AssaultSpec(MarineFighter("lightning_claws", "marine"))).marine
    assert claws == sum(F(t * t - (t - 1) ** 2, 36) * F(t**3, 216) for t in range(1, 7))


def test_guard_reroll_played_optimally() -> None:
    """Best of three = s. If the Marine's m > s he keeps it; otherwise he re-rolls (a win chance (6-s)/6,
    and even at s = 6 re-rolling a losing die can only help; a 6-6 tie is kept). So
    P(win) = sum_s P(s) [(6-s)/6 + (s/6)(6-s)/6]."""
    want = sum(p_best3(s) * (F(6 - s, 6) + F(s, 6) * F(6 - s, 6)) for s in range(1, 7))
    o = assault_odds(AssaultSpec(GLOVE, guard=True))
    assert o.marine == want
    assert assault_odds(AssaultSpec(GLOVE, guard=True, reroll="never")) == assault_odds(AssaultSpec(GLOVE))


@pytest.mark.parametrize("k", [0, 1, 3])
def test_archivist_spends_just_enough_psi(k: int) -> None:
    """With k psi the Archivist (+1) wins whenever m + 1 + k > s, spending s - m points when 1 <= s - m <= k;
    when s - m = k + 1 he cannot win but spends all k to tie rather than lose."""
    o = assault_odds(AssaultSpec(MarineFighter("force_axe", "archivist", psi_available=k)))
    want = sum(p_best3(s) * F(sum(1 for m in range(1, 7) if m + 1 + k > s), 6) for s in range(1, 7))
    assert o.marine == want

    def cost(m: int, s: int) -> int:
        return s - m if 1 <= s - m <= k else k if s - m == k + 1 else 0

    spent = sum(p_best3(s) * F(sum(cost(m, s) for m in range(1, 7)), 6) for s in range(1, 7))
    assert o.psi_spent == spent


def test_optimal_parry_by_brute_force() -> None:
    """Independent check: for every roll, the Marine re-rolls the Genestealer's best die if that can win."""
    total = F(0)
    for m in range(1, 7):
        for a in range(1, 7):
            for b in range(1, 7):
                for c in range(1, 7):
                    dice = sorted((a, b, c))
                    best = max(dice) if m + 1 <= max(dice) else None
                    if best is None:
                        total += 1
                        continue
                    rest = max(dice[:2])
                    total += F(sum(1 for x in range(1, 7) if m + 1 > max(rest, x)), 6)
    assert assault_odds(AssaultSpec(SWORD)).marine == total / 1296
    assert assault_odds(AssaultSpec(SWORD)).marine > assault_odds(AssaultSpec(SWORD, parry="never")).marine


def test_alpha_frontal_is_much_stronger() -> None:
    def brute(alpha_sum: bool) -> F:
        wins = 0
        for m in range(1, 7):
            for a in range(1, 7):
                for b in range(1, 7):
                    for c in range(1, 7):
                        s = max(a, b, c) + min(a, b, c) if alpha_sum else max(a, b, c)
                        wins += m > s
        return F(wins, 1296)

    assert assault_odds(AssaultSpec(GLOVE, alpha=True)).marine == brute(True)
    assert assault_odds(AssaultSpec(GLOVE, alpha=True, marine_attacking=True, frontal=False)).marine == brute(False)


def test_survive_objective_never_dies_more() -> None:
    for m in (GLOVE, SWORD, MarineFighter("lightning_claws", "marine")):
        win = assault_odds(AssaultSpec(m, guard=True))
        live = assault_odds(AssaultSpec(m, guard=True, objective="survive"))
        assert live.marine_dies <= win.marine_dies and win.marine >= live.marine


def test_choices_follow_the_rulebook_guard_example() -> None:
    roll = roll_assault(_Scripted([4, 2, 4, 5]), GLOVE, guard=True)
    assert solver().choose_guard(roll) == 0
    roll = roll_assault(_Scripted([6, 2, 4, 5]), GLOVE, guard=True)
    assert solver().choose_guard(roll) is None  # already winning


def test_enumeration_sums_to_one_and_symmetric_matches_ordered() -> None:
    def fn(d: Dice) -> AssaultRoll:
        return canonical(roll_assault(d, SWORD, guard=True))

    ordered, sym = distribution(fn), distribution(fn, symmetric=True)
    assert ordered == sym and sum(ordered.values()) == 1
    with pytest.raises(ValueError):
        distribution(lambda d: d.roll(5), max_dice=4)


def test_canonical_lists_every_field() -> None:
    roll = roll_assault(_Scripted([3, 6, 2, 1]), SWORD, guard=True)
    assert len(fields(AssaultRoll)) == 15  # canonical() builds AssaultRoll positionally
    assert canonical(roll).stealer_dice == (1, 2, 6) and canonical(roll).guard


@pytest.mark.parametrize(
    "spec",
    [AssaultSpec(SWORD, guard=True), AssaultSpec(MarineFighter("force_axe", "archivist", psi_available=2),
                                                 alpha=True)],
)
def test_empirical_frequencies_match_exact_odds(spec: AssaultSpec) -> None:
    n = 4000
    dice = Dice(random.Random(12345))
    outcomes = [assault_outcome(play_assault(dice, spec)) for _ in range(n)]
    o = assault_odds(spec)
    for name, p in (("marine", o.marine), ("tie", o.tie), ("stealer", o.stealer)):
        se = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(outcomes.count(name) / n - float(p)) < 4 * se + 1e-9, name  # type: ignore[arg-type]


def test_empirical_shots_match_exact_odds() -> None:
    spec = ShotSpec(overwatch=True, sustained=True)
    n = 4000
    dice = Dice(random.Random(7))
    kills = sum(spec.run(dice)[0] for _ in range(n))
    p = float(shot_odds(spec).kill)
    assert abs(kills / n - p) < 4 * math.sqrt(p * (1 - p) / n)


class _Scripted(Dice):
    def __init__(self, values: list[int]) -> None:
        super().__init__(random.Random(0))
        self._values = list(values)

    def d6(self) -> int:
        v = self._values.pop(0)
        self._pending.append(v)
        return v


# --- CLI ---------------------------------------------------------------------------------------------


def test_cli_shoot_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "shoot", "--weapon", "storm_bolter", "--overwatch"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "storm_bolter (4e), overwatch"
    assert [line.split()[:3] for line in out[2:]] == [
        ["kill", "30.56%", "11/36"], ["jam", "16.67%", "1/6"], ["explode", "0.00%", "0"]]


def test_cli_assault_json_with_empirical(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", "assault", "--marine", "sergeant", "--melee", "power_sword", "--guard", "--json",
                 "--empirical", "500", "--seed", "3"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    exact = assault_odds(AssaultSpec(SWORD, guard=True))
    assert doc["exact"]["marine_wins"]["fraction"] == str(exact.marine)
    assert doc["empirical"]["n"] == 500 and doc["empirical"]["seed"] == 3
    assert sum(doc["empirical"][k]["count"] for k in ("marine_wins", "tie", "stealer_wins")) == 500
    assert doc["spec"]["marine"]["melee"] == "power_sword"


def test_cli_bad_combinations_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "shoot", "--weapon", "assault_cannon", "--rubble", "1"]) == 2
    assert main(["odds", "assault", "--psi", "2"]) == 2
    assert main(["odds", "assault", "--guard", "--attacking"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("hulkforge odds: ") for line in err)
    with pytest.raises(SystemExit) as exc:
        main(["odds", "shoot", "--weapon", "lasgun"])
    assert exc.value.code == 2


def test_cli_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["odds", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "examples:" in out and "shoot" in out and "assault" in out and "table" in out


def test_cli_table_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "table"]) == 0
    text = capsys.readouterr().out
    assert "storm bolter, overwatch" in text and "sergeant + sword" in text and "archivist, 3 psi" in text
    assert main(["odds", "table", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    first = doc["assault"][0]
    assert first["marine"]["fraction"] == "25/144" and first["situation"] == "defends, facing"
    assert doc["shooting"][0]["kill"]["fraction"] == "11/36"
