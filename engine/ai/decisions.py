"""In-rule decisions (parry, guard re-roll, psi, overwatch fire, placements, facings) answered sensibly.

These are the sub-decisions the rules engine interrupts a phase with (engine/rules/README.md, "who decides");
both heuristic and novice players answer them the same way unless told otherwise, since a human answers
them almost by reflex.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.rules import combat as cb
from engine.rules.actions import Action

PASS_VERB = "pass"


def find(actions: Sequence[Action], verb: str, *args: str) -> Action | None:
    """The first action with this verb whose leading arguments are `args`, or None."""
    n = len(args)
    for a in actions:
        if a.verb == verb and a.args[:n] == args:
            return a
    return None


def parry(roll: cb.AssaultRoll, actions: Sequence[Action]) -> Action:
    """Force a re-roll of the Genestealer's best die when that improves the expected outcome, else decline."""
    dice = roll.stealer_dice
    if not dice:
        return _pass(actions)
    m = cb.marine_score(roll)
    now = _outcome(m, cb.stealer_score(roll))
    i = max(range(len(dice)), key=lambda k: (dice[k], -k))
    rest = dice[:i] + dice[i + 1:]
    after = 0.0
    for face in range(1, 7):
        after += _outcome(m, cb.stealer_score(replace(roll, stealer_dice=(*rest, face))))
    if after / 6 > now:
        a = find(actions, "parry", str(i))
        if a is not None:
            return a
    return _pass(actions)


def _outcome(m: int, s: int) -> int:
    """+1 the Marine wins, 0 a tie, -1 the Genestealer wins."""
    return (m > s) - (m < s)


def _score_with(roll: cb.AssaultRoll, i: int, face: int) -> int:
    d = list(roll.marine_dice)
    d[i] = face
    return max(d) + roll.marine_bonus + roll.psi_spent


def guard_reroll(roll: cb.AssaultRoll, actions: Sequence[Action]) -> Action:
    """Re-roll the Marine's lowest die when the expected outcome improves (win +1, loss -1)."""
    s = cb.stealer_score(roll)
    m = cb.marine_score(roll)
    now = (m > s) - (m < s)
    dice = roll.marine_dice
    i = min(range(len(dice)), key=lambda k: (dice[k], k))
    after = sum(((v > s) - (v < s)) for v in (_score_with(roll, i, f) for f in range(1, 7))) / 6
    if after > now:
        a = find(actions, "guardroll", str(i))
        if a is not None:
            return a
    return _pass(actions)


def psi_points(roll: cb.AssaultRoll, actions: Sequence[Action]) -> Action:
    """Spend the fewest psi points that win the fight (or at least tie it); nothing if that is out of reach."""
    gap = cb.stealer_score(roll) - cb.marine_score(roll)
    if gap < 0:
        return _pass(actions)
    for need in (gap + 1, gap):
        if need > 0:
            a = find(actions, "psipoints", str(need))
            if a is not None:
                return a
    return _pass(actions)


def _pass(actions: Sequence[Action]) -> Action:
    for a in actions:
        if a.verb == PASS_VERB:
            return a
    return actions[0]
