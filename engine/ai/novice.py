"""The novice players of docs/playbook.md: the same machinery with the habits that make a side easy to beat.

Novice Marines walk the shortest path with every AP and command point, shoot whatever they see as they go,
burn the first target, keep no rear guard and never hold back. Novice Genestealers place blips at the entry
nearest a Marine, convert at once, and send each Genestealer straight at the nearest Marine.
"""

from __future__ import annotations

from engine.ai.base import register
from engine.ai.genestealers import GenestealerPlayer
from engine.ai.marines import MarinePlayer
from engine.ai.weights import GenestealerWeights, MarineWeights, defaults


def novice_marines(params: dict[str, float]) -> MarinePlayer:
    """Factory for the registry."""
    return MarinePlayer(params, novice=True)


def novice_genestealers(params: dict[str, float]) -> GenestealerPlayer:
    """Factory for the registry."""
    return GenestealerPlayer(params, novice=True)


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
