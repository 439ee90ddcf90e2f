"""`hulkforge odds shoot|assault|table`: exact combat probabilities, optionally beside observed frequencies."""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import Counter
from dataclasses import asdict
from fractions import Fraction
from typing import Any

from engine.rules.combat import MELEE_WEAPONS, RANKS, MarineFighter, assault_casualty, assault_outcome
from engine.rules.dice import Dice
from engine.rules.odds import AssaultSpec, ShotSpec, assault_odds, play_assault, shot_odds

EPILOG = """\
examples:
  hulkforge odds shoot --weapon storm_bolter --overwatch
  hulkforge odds assault --marine sergeant --melee power_sword --guard
  hulkforge odds assault --marine archivist --psi 2 --alpha --empirical 20000 --seed 1
  hulkforge odds table --json

Probabilities are exact fractions found by enumerating every die of the engine's own combat code.
Parry, guard re-roll and psi are played optimally (--parry/--reroll never to switch them off).
Exit 0 on success, 2 on bad arguments."""


class UsageError(Exception):
    """A combination of options that the rules do not allow."""


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "odds", help="exact shooting and close-assault odds",
        description="Exact odds of a shot or a close assault (RULES.md §6-§8), and the standard tables.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    kinds = p.add_subparsers(dest="kind", metavar="KIND", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--ruleset", choices=("4e", "classic"), default="4e", help="rules (default 4e)")
    common.add_argument("--json", action="store_true", help="machine-readable output")
    common.add_argument("--empirical", type=int, metavar="N", default=0,
                        help="also resolve N times with seeded dice and print observed frequencies")
    common.add_argument("--seed", type=int, default=0, metavar="S", help="seed for --empirical (default 0)")

    s = kinds.add_parser("shoot", parents=[common], help="one shot at a Genestealer",
                         description="Odds of one shot: P(kill), P(jam), P(explode).")
    s.add_argument("--weapon", choices=("storm_bolter", "assault_cannon", "heavy_flamer"), default="storm_bolter")
    s.add_argument("--sustained", action="store_true", help="sustained fire bonus")
    s.add_argument("--overwatch", action="store_true", help="overwatch shot (storm bolter doubles jam)")
    s.add_argument("--alpha", action="store_true", help="target is the Genestealer Alpha (two kills needed)")
    s.add_argument("--rubble", type=int, default=0, metavar="N", help="rubble piles crossed [PF], storm bolter")
    s.add_argument("--reloaded", action="store_true", help="assault cannon already reloaded (may explode)")

    a = kinds.add_parser("assault", parents=[common], help="one close assault against a Genestealer",
                         description="Odds of one close assault. Without --attacking the Genestealer attacks; "
                         "--rear: the defender does not face the attacker.")
    a.add_argument("--marine", choices=RANKS, default="marine", help="rank (default marine)")
    a.add_argument("--melee", choices=MELEE_WEAPONS, default=None,
                   help="melee weapon (default power_glove; force_axe for an archivist)")
    a.add_argument("--shield", action="store_true", help="storm shield")
    a.add_argument("--alpha", action="store_true", help="against the Genestealer Alpha")
    a.add_argument("--rear", action="store_true", help="the defender does not face the attacker")
    a.add_argument("--guard", action="store_true", help="the Marine is on guard (defending only)")
    a.add_argument("--attacking", action="store_true", help="the Marine attacks")
    a.add_argument("--psi", type=int, default=0, metavar="N", help="psi points the archivist may spend")
    a.add_argument("--prone", action="store_true", help="the Marine is prone [PF]")
    a.add_argument("--parry", choices=("optimal", "never"), default="optimal", help="parry policy")
    a.add_argument("--reroll", choices=("optimal", "never"), default="optimal", help="guard re-roll policy")
    a.add_argument("--objective", choices=("win", "survive"), default="win",
                   help="what optimal decisions maximise: winning (default) or not dying")

    t = kinds.add_parser("table", help="the standard shooting and close-assault tables",
                         description="Print the standard tables of exact odds.")
    t.add_argument("--ruleset", choices=("4e", "classic"), default="4e", help="rules (default 4e)")
    t.add_argument("--json", action="store_true", help="machine-readable output")
    return p


def _pct(x: float) -> str:
    return f"{100 * x:6.2f}%"


def _exact_json(p: Fraction) -> dict[str, Any]:
    return {"fraction": str(p), "value": float(p)}


def _shot_spec(args: argparse.Namespace) -> ShotSpec:
    if args.rubble < 0 or args.rubble > 6:
        raise UsageError("--rubble must be between 0 and 6")
    if args.rubble and args.weapon != "storm_bolter":
        raise UsageError("--rubble applies to the storm bolter only (RULES.md §6)")
    if args.reloaded and args.weapon != "assault_cannon":
        raise UsageError("--reloaded applies to the assault cannon only")
    if args.weapon == "heavy_flamer" and (args.sustained or args.overwatch):
        raise UsageError("the heavy flamer has no sustained fire and no overwatch")
    return ShotSpec(args.weapon, args.ruleset, args.sustained, args.overwatch, args.alpha, args.rubble,
                    args.reloaded)


def _assault_spec(args: argparse.Namespace) -> AssaultSpec:
    melee = args.melee or ("force_axe" if args.marine == "archivist" else "power_glove")
    if args.psi < 0 or args.psi > 20:
        raise UsageError("--psi must be between 0 and 20")
    if args.psi and melee != "force_axe":
        raise UsageError("--psi needs the force axe (archivist)")
    if args.prone and args.attacking:
        raise UsageError("a prone Marine cannot start a close assault (RULES.md §11)")
    if args.guard and args.attacking:
        raise UsageError("an attacking Marine is not on guard: any action ends guard (RULES.md §8)")
    fighter = MarineFighter(melee, args.marine, args.shield, args.prone, args.psi)
    return AssaultSpec(fighter, alpha=args.alpha, frontal=not args.rear, marine_attacking=args.attacking,
                       guard=args.guard, ruleset=args.ruleset, parry=args.parry, reroll=args.reroll,
                       objective=args.objective)


def _rows_with_empirical(exact: dict[str, Fraction], counts: Counter[str], n: int) -> list[dict[str, Any]]:
    rows = []
    for name, p in exact.items():
        row: dict[str, Any] = {"name": name, "exact": p}
        if n:
            obs = counts[name] / n
            # Binomial standard error; for psi_spent (a mean, not a rate) this is only a rough guide.
            se = math.sqrt(max(float(p) * (1 - float(p)), 0.0) / n)
            row.update(observed=obs, count=counts[name], se=se)
        rows.append(row)
    return rows


def _print(title: str, spec: Any, rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    if args.json:
        out: dict[str, Any] = {"kind": args.kind, "spec": asdict(spec), "exact": {}}
        for r in rows:
            out["exact"][r["name"]] = _exact_json(r["exact"])
        if args.empirical:
            out["empirical"] = {"n": args.empirical, "seed": args.seed,
                                **{r["name"]: {"observed": r["observed"], "count": r["count"], "se": r["se"]}
                                   for r in rows}}
        print(json.dumps(out, indent=2))
        return
    print(title)
    head = f"  {'':14}{'exact':>9}  {'fraction':<14}"
    if args.empirical:
        head += f"{'observed':>9}  {'±1 s.e.':>8}   (n={args.empirical}, seed={args.seed})"
    print(head.rstrip())
    for r in rows:
        # psi_spent is an expected number of points, not a probability.
        fmt = (lambda x: f"{x:7.3f}") if r["name"] == "psi_spent" else _pct
        line = f"  {r['name']:<14}{fmt(float(r['exact'])):>9}  {r['exact']!s:<14}"
        if args.empirical:
            line += f"{fmt(r['observed']):>9}  {fmt(r['se']):>8}"
        print(line.rstrip())


def _shoot(args: argparse.Namespace) -> None:
    spec = _shot_spec(args)
    o = shot_odds(spec)
    exact = {"kill": o.kill, "jam": o.jam, "explode": o.explode}
    counts: Counter[str] = Counter()
    dice = Dice(random.Random(args.seed))
    for _ in range(args.empirical):
        k, j, e = spec.run(dice)
        counts.update(name for name, hit in (("kill", k), ("jam", j), ("explode", e)) if hit)
    flags = [f for f, on in (("sustained", spec.sustained), ("overwatch", spec.overwatch), ("vs Alpha", spec.alpha),
                             (f"{spec.rubble_piles} rubble", spec.rubble_piles), ("reloaded", spec.ac_reloaded)) if on]
    _print(f"{spec.weapon} ({spec.ruleset}){', ' + ', '.join(flags) if flags else ''}", spec,
           _rows_with_empirical(exact, counts, args.empirical), args)


def _assault(args: argparse.Namespace) -> None:
    spec = _assault_spec(args)
    o = assault_odds(spec)
    exact = {"marine_wins": o.marine, "tie": o.tie, "stealer_wins": o.stealer, "marine_dies": o.marine_dies,
             "stealer_dies": o.stealer_dies}
    if spec.marine.melee == "force_axe":
        exact["psi_spent"] = o.psi_spent  # an expectation, not a probability
    counts: Counter[str] = Counter()
    dice = Dice(random.Random(args.seed))
    for _ in range(args.empirical):
        roll = play_assault(dice, spec)
        counts[{"marine": "marine_wins", "stealer": "stealer_wins", "tie": "tie"}[assault_outcome(roll)]] += 1
        dead = assault_casualty(roll)
        if dead:
            counts[f"{dead}_dies"] += 1
        counts["psi_spent"] += roll.psi_spent
    m = spec.marine
    who = f"{m.rank} with {m.melee}" + (" and storm shield" if m.storm_shield else "") + (
        f", {m.psi_available} psi" if m.psi_available else "") + (", prone" if m.prone else "")
    role = "attacking" if spec.marine_attacking else "defending" + (" on guard" if spec.guard else "")
    facing = "facing" if spec.frontal else "not facing"
    foe = "Genestealer Alpha" if spec.alpha else "Genestealer"
    _print(f"{who}, {role} vs {foe} (defender {facing}), {spec.ruleset}", spec,
           _rows_with_empirical(exact, counts, args.empirical), args)


def run(args: argparse.Namespace) -> int:
    try:
        if not 0 <= getattr(args, "empirical", 0) <= 10_000_000:
            raise UsageError("--empirical must be between 0 and 10000000")
        if args.kind == "shoot":
            _shoot(args)
        elif args.kind == "assault":
            _assault(args)
        else:
            _table(args)
    except UsageError as exc:
        print(f"hulkforge odds: {exc}", file=sys.stderr)
        return 2
    return 0


def _table(args: argparse.Namespace) -> None:
    from engine.rules.odds_tables import assault_table, shooting_table

    shots, assaults = shooting_table(args.ruleset), assault_table(args.ruleset)
    if args.json:
        print(json.dumps({
            "ruleset": args.ruleset,
            "shooting": [{"label": r.label, "spec": asdict(r.spec),
                          **{k: _exact_json(v) for k, v in asdict(r.odds).items()}} for r in shots],
            "assault": [{"fighter": r.fighter, "opponent": r.opponent, "situation": r.situation,
                         "spec": asdict(r.spec), **{k: _exact_json(v) for k, v in asdict(r.odds).items()}}
                        for r in assaults],
        }, indent=2))
        return
    print(f"Shooting ({args.ruleset}): one shot at a Genestealer")
    print(f"  {'shot':<36}{'kill':>9}{'jam':>9}{'explode':>9}")
    for s in shots:
        print(f"  {s.label:<36}{_pct(float(s.odds.kill)):>9}{_pct(float(s.odds.jam)):>9}"
              f"{_pct(float(s.odds.explode)):>9}")
    print()
    print(f"Close assault ({args.ruleset}): parry, guard re-roll and psi played optimally (to win);")
    print("  a guard that never re-rolls is the row without guard. win/tie/lose: the roll; dies: who is removed")
    print(f"  {'fighter':<28}{'vs':<13}{'situation':<27}{'win':>8}{'tie':>8}{'lose':>8}{'M dies':>8}"
          f"{'GS dies':>8}")
    last = ""
    for r in assaults:
        if r.fighter != last and last:
            print()
        last = r.fighter
        o = r.odds
        print(f"  {r.fighter:<28}{r.opponent:<13}{r.situation:<27}" + "".join(
            f"{_pct(float(x)):>8}" for x in (o.marine, o.tie, o.stealer, o.marine_dies, o.stealer_dies)))
