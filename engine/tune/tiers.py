"""Players of graded skill, as data: the tiers the strength check plays and `train` may train against.

A tier names the policy (and its parameters) that plays each side. Tiers are listed weakest first; the
look-ahead tier names the policies `search-marines` / `search-genestealers`, whose budget parameter is `games`
(look-ahead games per decision). A tier whose policies are not registered is skipped with a note, so a build
without the look-ahead players still runs every other tier.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.ai.base import SIDES, policy_names

SEARCH_BUDGET = "games"  # the look-ahead players' budget parameter


@dataclass(frozen=True)
class Tier:
    """One skill grade: the policy and parameters of each side."""

    name: str
    marines: str
    genestealers: str
    params: Mapping[str, Mapping[str, float]] = field(default_factory=dict)  # by side

    def player(self, side: str) -> tuple[str, dict[str, float]]:
        """(policy, parameters) of `side` at this tier."""
        return (self.marines if side == SIDES[0] else self.genestealers), dict(self.params.get(side, {}))

    def missing(self) -> list[str]:
        """The policies of this tier that are not registered (empty when it can be played)."""
        known = set(policy_names())
        return [p for p in (self.marines, self.genestealers) if p not in known]


TIERS: tuple[Tier, ...] = (
    Tier("random", "random", "random"),
    Tier("novice", "novice-marines", "novice-genestealers"),
    Tier("heuristic", "heuristic-marines", "heuristic-genestealers"),
    Tier("search", "search-marines", "search-genestealers"),  # look-ahead players at their default budget
)
TIER_NAMES = tuple(t.name for t in TIERS)


def search_tier(games: int) -> Tier:
    """The look-ahead tier at a budget of `games` look-ahead games per decision, named "search:GAMES"."""
    budget = {SEARCH_BUDGET: float(games)}
    return Tier(f"search:{games}", "search-marines", "search-genestealers",
                {side: budget for side in SIDES})


def parse_tiers(text: str) -> list[Tier]:
    """'random,novice,heuristic,search,search:32' -> the tiers, in the order given; ValueError naming the bad one."""
    out: list[Tier] = []
    by_name = {t.name: t for t in TIERS}
    for raw in text.split(","):
        name = raw.strip()
        if name in by_name:
            tier = by_name[name]
        elif name.startswith("search:"):
            budget = name.partition(":")[2]
            if not budget.isdigit() or int(budget) < 1:
                raise ValueError(f"tier {name!r}: the look-ahead budget is a whole number of games, at least 1")
            tier = search_tier(int(budget))
        else:
            raise ValueError(f"unknown tier {name!r} (tiers: {', '.join(TIER_NAMES)}, or search:GAMES)")
        if any(t.name == tier.name for t in out):
            raise ValueError(f"tier {name!r} is given twice")
        out.append(tier)
    return out


def playable(tiers: Iterable[Tier]) -> tuple[list[Tier], list[str]]:
    """The tiers that can be played, and one note per tier skipped because its policies are not registered."""
    kept: list[Tier] = []
    notes: list[str] = []
    for t in tiers:
        missing = t.missing()
        if missing:
            notes.append(f"tier {t.name} skipped: {', '.join(missing)} not registered in this build")
        else:
            kept.append(t)
    return kept, notes
