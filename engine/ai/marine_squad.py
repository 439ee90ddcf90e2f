"""What the Marine player reads a decision against: the squad picture (order, threats, tempo) and one
Marine's route and the limits on his moves."""

from __future__ import annotations

from engine.ai.situation import EnemyPicture, Situation
from engine.ai.tables import INF
from engine.rules.moves import DOOR_COST, GUARD_COST, OVERWATCH_COST
from engine.rules.pieces import Piece

_STRONG_MELEE = frozenset({"thunder_hammer", "lightning_claws"})


WATCH_COST = max(OVERWATCH_COST, GUARD_COST)  # what a Marine keeps to end on overwatch or guard


class _Squad:
    """Per-decision squad picture shared by every Marine considered."""

    __slots__ = (
        "D", "_cheapest", "carry_out", "cp_now", "hurry", "order", "pic", "radius", "reach", "rear", "sit", "tm",
    )

    def __init__(self, sit: Situation, D: list[int] | None, pic: EnemyPicture, radius: float, cp_now: int) -> None:
        self.sit = sit
        self.D = D
        self.pic = pic
        self.tm = pic.threat
        ms = sit.marines
        if D is not None:
            # Front to back by (distance to the goal, id): decorated in one list (no key call per Marine); ids
            # are unique, so the pieces themselves are never compared.
            self.order = [x[2] for x in sorted([(D[pc.sq], pc.id, pc) for pc in ms])]
        else:
            self.order = list(ms)
        self.radius = radius
        self.cp_now = cp_now
        self.rear = self.order[-1] if len(self.order) > 1 else None
        self.hurry = False
        self.reach = False  # the goal is within this turn's reach
        self.carry_out = sit.marine_goal_map_is_exit()  # the objective is in a Marine's hands, on its way out
        self._cheapest = -1

    def cheapest(self, pc: Piece) -> int:
        """The AP of a Marine's cheapest move (a quarter turn, a door), by the rules' costs; the same for all."""
        c = self._cheapest
        if c < 0:
            c = self._cheapest = min(DOOR_COST, self.sit.state.turn_cost(pc, (pc.facing + 1) % 4))
        return c

    def on_way(self, t: int) -> bool:
        """Door square t lies on some Marine's shortest way to the goal (then it is not a flank door): the route
        he saves through it is as long as the walk to it, the door's opening included."""
        D = self.D
        if D is None:
            return False
        b = self.sit.board
        lvl = t // b.plane
        rng = b.rng
        dt = D[t]
        for pc in self.order:
            s = pc.sq
            if s // b.plane == lvl and D[s] - dt >= rng(s, t) + DOOR_COST:
                return True
        return False


class _Route:
    """What a Marine's moves are ranked against: his route map and the limits on his moves this decision."""

    __slots__ = ("D", "allowed", "back_ok", "front", "guide", "here", "kit", "reserve")

    def __init__(self, D: list[int], here: int, allowed: float, reserve: int, back_ok: bool, guide: int) -> None:
        self.D = D
        self.here = here
        self.allowed = allowed  # the least route distance he may reach (he must not run ahead of the squad)
        self.reserve = reserve  # AP kept for overwatch or guard
        self.back_ok = back_ok  # the rear guard may step backwards
        self.guide = guide  # the square of the Marine ahead (-1: none)
        self.front = -INF  # the route distance of the front Marine but him, in a squad of three or more
        self.kit = 0  # his place in the marching order (#3): 1 leads (strong melee), -1 not in front (flamer)


def _set_march(r: _Route, pc: Piece, order: list[Piece]) -> None:
    """His place in the marching order (#3): 1 for the best melee Marines (in front), -1 for the flamer (kept
    in the middle), 0 for the others; and the route distance of the front Marine but him."""
    r.kit = -1 if pc.ranged == "heavy_flamer" else (1 if pc.melee in _STRONG_MELEE else 0)
    if r.kit:
        D = r.D
        r.front = min(D[o.sq] for o in order if o is not pc)
