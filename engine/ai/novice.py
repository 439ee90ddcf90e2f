"""The novice players of docs/playbook.md: the heuristic players with the habits that make a side easy to beat.

Novice Marines walk the shortest path with every AP and command point, shoot whatever they see as they go,
burn the first target, keep no rear guard and never hold back. Novice Genestealers place blips at the entry
nearest a Marine, convert at once, and send each Genestealer straight at the nearest Marine.

Each is a small subclass: the weights it plays without (held at 0 whatever the parameters say), and the few
decisions it makes its own way.
"""

from __future__ import annotations

from typing import Any

from engine.ai.base import register
from engine.ai.genestealers import GenestealerPlayer, _Field
from engine.ai.marines import MarinePlayer
from engine.ai.weights import GenestealerWeights, MarineWeights, defaults, weights_from_params
from engine.rules.actions import Action, act

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


def novice_marines(params: dict[str, float]) -> MarinePlayer:
    """Factory for the registry."""
    return MarinePlayer(params, novice=True)


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
