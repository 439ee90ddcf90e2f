"""The Genestealer player's scoring terms (docs/ai.md, Genestealers) and the tie-breaks between candidates."""

from __future__ import annotations

from engine.ai.weights import GenestealerWeights
from engine.rules.actions import DIRS, FACES
from engine.rules.board import DIR_VEC, FACE_VEC


def _approach(x: int, charge: bool, stand: float) -> float:
    """The approach term of a square at attack cost x: charging, the cost itself (#1); waiting, the distance
    from the stand-off line, +2 inside it (#6: out of reach of the Marines' AP)."""
    return float(x) if charge else abs(x - stand) + (2.0 if x < stand else 0.0)


# Tie-breaks between candidates of equal score (not playbook terms): fewer AP, then a climb or jump, then a door;
# a move ending facing the way onward.
MOVE_TIE = 0.01


HOLE_TIE = 0.02


DOOR_TIE = 0.03


FACING_TIE = 0.05


def _lurk_score(w: GenestealerWeights, cost: int, locked: bool, waiting: int) -> float:
    """An entry's score for _lurk (the least wins): the map's cost at its square (#3: near the Marines or their
    route ahead), `term_entry_locked` while a Marine within 6 holds it shut, `entry_crowd` per blip waiting at it
    (spread over the entries)."""
    v = float(cost)
    if locked:
        v += term_entry_locked(w, cost)
    v += w.entry_crowd * waiting
    return v


def term_entry_locked(w: GenestealerWeights, cost: int) -> float:
    """A held entry keeps its blip off the board for this turn, which costs the walk the blip would have made in
    it toward the stand-off line (#6), up to `entry_locked`. An entry already at the stand-off line (in the room
    the Marines must reach, on the passage they must take) loses nothing by the wait, the blip would stand there
    anyway; charging it a full turn's walk sends the blip to a free entry far off (another deck, behind a lift)."""
    return min(w.entry_locked, max(0.0, cost - w.standoff))


# -- the terms of the charge (#1, #4): it goes when their sum is 0 or more --------------------------------------
def term_nerve(w: GenestealerWeights) -> float:
    """The overwatch shots a lone charger accepts."""
    return w.shot_tolerance + w.aggression * 2


def term_gathered(w: GenestealerWeights, near: int) -> float:
    """Every friend close by soaks shots (#1, until the bolters jam); a full group soaks them at full value."""
    return max(0, near - 1) * (1.0 if near >= w.group else 0.3)


def term_path_shots(w: GenestealerWeights, shots: float, alpha: bool) -> float:
    """The expected overwatch shots along the way this turn (#4: a jammed Marine is not a watcher); the Alpha's
    count `alpha_shots` each (a shot kills it only with two killing dice: it charges through overwatch)."""
    return shots * w.alpha_shots if alpha else shots


def term_reveal(w: GenestealerWeights, cost: int) -> float:
    """#7, convert before the charge: a blip converts when this is 0 or more (within `reveal_range` of an attack
    square), so its Genestealers act at once and the flamer finds no cluster of blips."""
    return w.reveal_range - cost


# The Marines who win most fights (a hammer's or claws' bonus): #2, go round them.
_STRONG_MELEE = frozenset({"thunder_hammer", "lightning_claws"})


_DIR_IDX = {d: i for i, d in enumerate(DIRS)}


# The facing that best points along a unit step (dx, dy): the max-dot-product rule, ties to the lower
# facing, tabulated once instead of evaluated per candidate move.
_FACING_FOR = {
    (dx, dy): max(range(4), key=lambda f: (FACE_VEC[f][0] * dx + FACE_VEC[f][1] * dy, -f))
    for dx in (-1, 0, 1)
    for dy in (-1, 0, 1)
}


# _FACING_FOR of each direction index's unit step.
_FACING_OF_DIR = tuple(_FACING_FOR[v] for v in DIR_VEC)


# A Genestealer's move toward d from facing f: the (new facing, move-table slot) it may end with, in the legal
# order: keep f (slot 0), then turn right, then left (slot = facing + 1).
_SLOTS = tuple(((f, 0), ((f + 1) % 4, (f + 1) % 4 + 1), ((f + 3) % 4, (f + 3) % 4 + 1)) for f in range(4))


FACE_INDEX = {f: i for i, f in enumerate(FACES)}
