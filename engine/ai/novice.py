"""The novice players of docs/playbook.md: the heuristic players with the habits that make a side easy to beat.

Novice Marines walk the shortest path with every AP and command point, shoot whatever they see as they go,
burn the first target, keep no rear guard and never hold back. Novice Genestealers place blips at the entry
nearest a Marine, convert at once, and send each Genestealer straight at the nearest Marine.

Each is a small subclass: the weights it plays without (held at 0 whatever the parameters say), and the few
decisions it makes its own way.
"""

from __future__ import annotations

from typing import Any

from engine.ai import decisions as dec
from engine.ai.base import register
from engine.ai.genestealer_field import _Field
from engine.ai.genestealers import GenestealerPlayer
from engine.ai.marine_squad import _Route, _Squad
from engine.ai.marines import MarinePlayer
from engine.ai.situation import Situation
from engine.ai.tables import INF
from engine.ai.weights import GenestealerWeights, MarineWeights, defaults, weights_from_params
from engine.rules.actions import PASS, Action, act

# The Genestealer habits a novice lacks: flanks (#2), the key targets (#8), the Marines about to win (#3), going
# round a strong fighter (#2), ambushes (#3), spreading over the entries, closing doors (#5).
NOVICE_GENESTEALERS_OFF = ("flank", "key_target", "key_flank", "lead_target", "melee_target", "ambush",
                           "entry_locked", "entry_crowd", "close_doors")


class NoviceGenestealerPlayer(GenestealerPlayer):
    """Nearest entry, convert at once, straight at the nearest Marine, blind to overwatch."""

    name = "novice-genestealers"

    @staticmethod
    def _weights(params: dict[str, float]) -> GenestealerWeights:
        return weights_from_params(GenestealerWeights, {**params, **dict.fromkeys(NOVICE_GENESTEALERS_OFF, 0.0)})

    def _overwatch_weight(self) -> float:
        return 0.0

    def _blip(self, pc: Any, fld: _Field) -> Action | None:
        return None if pc.acted else act("reveal", pc.id)

    def _may_enter(self, t: int, fld: _Field) -> bool:
        return True

    def _advance(self, pc: Any, fld: _Field) -> Action | None:
        return self._step(pc, fld, charge=True)

    def _better_flank(self, pc: Any, marine: Any, fld: _Field) -> bool:
        return False


# The Marine habits a novice lacks: keeping command points (#5), a rear guard (#4), a flamer that waits for a group
# (#8), closing flank doors (#12), a marching order (#3).
NOVICE_MARINES_SET = {"cp_reserve": 0.0, "rear_guard": 0.0, "flamer_min": 0.5, "close_flank": 0.0,
                      "march_flamer": 0.0, "march_melee": 0.0}


class NoviceMarinePlayer(MarinePlayer):
    """Every AP and CP along the shortest path, shoots and burns whatever it sees, no overwatch kept, no rear guard,
    no cohesion, no reactions; shoots doors on overwatch, never redraws command points."""

    name = "novice-marines"
    burn_marine: float | None = -4.0  # a Marine in the section lowers the shot's worth, but may be burned
    watch_a_wall = True

    @staticmethod
    def _weights(params: dict[str, float]) -> MarineWeights:
        return weights_from_params(MarineWeights, {**params, **NOVICE_MARINES_SET})

    def _command(self, pending: Any, sit: Situation) -> Action | None:
        return act("cp", "keep")

    def _door_overwatch(self, pending: Any, sit: Situation) -> Action | None:
        return dec.find(sit.actions, "fire")

    def _react(self, sit: Situation, gid: str) -> Action | None:
        return PASS

    def _behind_schedule(self, sit: Situation, sq: _Squad) -> bool:
        return False

    def _psi(self, sit: Situation) -> Action | None:
        return None

    def _carrier_near(self, sq: _Squad) -> bool:
        return True  # an escort leaves by the exit at once

    @staticmethod
    def _melee_first(pc: Any) -> bool:
        return True

    def _shoot_now(self, pc: Any, near: int, ap: int) -> bool:
        return True

    @staticmethod
    def _fuel_kept(pc: Any) -> float:
        return 0.0

    def _hold_route(self, pc: Any, sq: _Squad) -> _Route | None:
        return None

    def _reserve(self, pc: Any, sq: _Squad, role: str) -> int:
        return 0

    def _allowed(self, pc: Any, sq: _Squad, D: list[int], idx: int) -> float:
        return -INF

    def _watch_facing(self, pc: Any, sq: _Squad, ap: int) -> int | None:
        return None


def novice_marines(params: dict[str, float]) -> MarinePlayer:
    """Factory for the registry."""
    return NoviceMarinePlayer(params)


def novice_genestealers(params: dict[str, float]) -> GenestealerPlayer:
    """Factory for the registry."""
    return NoviceGenestealerPlayer(params)


register(
    "novice-marines",
    novice_marines,
    side="marines",
    defaults=defaults(MarineWeights),
    description="walks the shortest path, moves and fires, spends CP at once, no rear guard (playbook novice)",
)
register(
    "novice-genestealers",
    novice_genestealers,
    side="genestealers",
    defaults=defaults(GenestealerWeights),
    description="nearest entry, converts at once, straight at the nearest Marine (playbook novice)",
)
