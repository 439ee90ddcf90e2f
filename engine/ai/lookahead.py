"""Look-ahead players (`search-marines`, `search-genestealers`): flat Monte Carlo over the heuristic's plays.

A *play* is the heuristic player of the side with a handful of weights pushed one way (the Marines: as tuned,
dash, hold back on overwatch, stand and fire, press on; the Genestealers: as tuned, charge now, wait and
gather, ambush ahead). At each decision every play names its action; where they all agree that is the move.
Where they disagree, each distinct action is tried in the same `games` look-ahead games (common random
numbers: the comparison is paired), each drawn from what the player cannot see (`Observation.sample`: other
dice, and for the Marines other blip values): the action, then the play that proposed it for this side and the
heuristic opponent for the other, until this side's next turn begins; the position reached is scored
(`evaluate`) and the action with the best mean score is played. Why this design: docs/ai.md, "Look-ahead
players".

The player reads only its side's observation; every look-ahead game's hidden parts and dice come from seeds
drawn from the policy RNG the simulator hands in, so a game replays from its seed. Policy parameters: `games`
(the budget: look-ahead games per candidate at a decision where the plays disagree, DEFAULT_GAMES; 0 plays the
tuned heuristic) and every weight of the heuristic player of its side (the base the plays start from).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.ai.base import Policy, register
from engine.ai.genestealers import GenestealerPlayer
from engine.ai.marines import MarinePlayer
from engine.ai.situation import Situation, observe
from engine.ai.weights import GenestealerWeights, MarineWeights, defaults
from engine.rules.actions import Action
from engine.rules.game import MARINE_AP
from engine.rules.observation import Observation

# The default budget, both sides (docs/ai.md, "Look-ahead players": at 4 the Marines of The Long Drop and the
# Genestealers of Recover the Relic were not significantly better than the heuristic, at 8 they are).
DEFAULT_GAMES = 8
BUDGET = "games"  # the budget knob's name: search-marines:games=8

# The plays whose choices a decision compares: weight overrides on the player's own weights (the first: none).
MARINE_PLAYS: dict[str, dict[str, float]] = {
    "as-tuned": {},
    "dash": {"dash_below": 99.0, "cp_reserve": 0.0},  # playbook #10: every AP and CP on the way
    "hold": {"dash_below": 0.0, "caution": 1.0},  # #1: overwatch on the threat, let them come
    "fire": {"aggression": 1.0},  # #6: stand and fire now rather than keep the AP of overwatch
    "press": {"gap": 4.0, "carrier_gap": 3.0, "escort_exit": 2.0, "keep_cp_within": 1.0},  # the squad strings out
}
GENESTEALER_PLAYS: dict[str, dict[str, float]] = {
    "as-tuned": {},
    # #4, #8: every Genestealer strikes now, blips convert early
    "charge": {"aggression": 1.0, "shot_tolerance": 4.0, "group": 1.0, "urgent_within": 99.0, "reveal_range": 12.0},
    # #1, #9: wait out of sight and mass up, blips stay blips
    "gather": {"aggression": 0.0, "shot_tolerance": 0.0, "group": 6.0, "standoff": 6.0, "reveal_range": 3.0},
    # #3: mass far ahead on the Marines' route, against the Marines about to win
    "ambush": {"ambush": 1.0, "ambush_ahead": 10.0, "lead_target": 8.0, "flank": 2.0},
}

# The score of a position, in squares of the Marines' way to their goal (evaluate).
WIN = 1000.0  # a finished game
MARINE = 20.0  # a Marine alive (or out)
STEALER = 2.0  # a Genestealer killed, while the brood can always bring more (see stealer_value)
CARRIED = 40.0  # the objective in a Marine's hands
FAR = 60  # a goal distance past this (or unreachable) counts as this
CLOCK = 10.0  # a square the Marines cannot make up before the turn limit
NO_WAY = 500.0  # the Marines can no longer win (the last flamer of a section to burn is dead): all but lost
# A look-ahead game stops here at the latest: a turn and a half of the longest sample is far below it.
MAX_LOOKAHEAD_ACTIONS = 3000

_PHASE = {"marines": "marines", "genestealers": "stealers"}  # the side's action phase, as the rules name it
_OTHER = {"marines": "genestealers", "genestealers": "marines"}


def evaluate(state: Any) -> float:
    """How well the Marines stand in `state` (a look-ahead game: the player's own sample), higher is better.

    A finished game is +-WIN (a draw 0); otherwise MARINE per Marine alive or out, `stealer_value` per Genestealer
    killed, less the Marines' walking cost to their goal (the nearest Marines that must escape, the objective
    then the exit with CARRIED for holding it, the nearest flamer to the section to burn, NO_WAY when none is
    left), each distance capped at FAR, and CLOCK per square they could not make up before the turn limit.
    """
    if state.is_terminal():
        winner = state.result().winner
        return WIN if winner == "marines" else -WIN if winner == "genestealers" else 0.0
    obs: Observation = state.observation("marines")
    sit = Situation(obs, [])
    score = MARINE * (len(sit.marines) + len(obs.escaped))
    score += stealer_value(obs.game) * sum(1 for d in obs.deaths if d.kind != "marine")
    dist = sit.marine_goal_map()
    if dist is None or not sit.marines:
        return score
    return score - _way_left(sit, obs, dist)


def stealer_value(game: Any) -> float:
    """What a Genestealer killed is worth, in the units of `evaluate`: STEALER while the brood can always bring more
    (an unlimited pool, or one counted in blips); when the mission gives the Genestealers a fixed number of
    Genestealers and no more, each is worth as much of the squad's strength as the brood's whole number of them
    makes it (squad size x MARINE / Genestealers in all, STEALER at least): a finite brood that trades a
    Genestealer away has that much less to stop the Marines with."""
    gs = game.mission.genestealers
    limited = gs.limited
    if limited is None or limited.unit != "stealers" or limited.total <= 0:
        return STEALER
    if any(r.pool == "unlimited" for r in gs.reinforcements):
        return STEALER
    squad: int = len(game.mission.marines.squad)
    total: int = limited.total
    return max(STEALER, MARINE * squad / total)


def _way_left(sit: Situation, obs: Observation, dist: list[int]) -> float:
    """What still separates the Marines from their goal, in squares (see `evaluate`)."""
    goal = sit.goal
    movers = sit.marines
    if goal.kind == "flame":
        # Only a flamer can burn the section: the others' distance says nothing, and without him the game is lost.
        movers = [pc for pc in movers if pc.ranged == "heavy_flamer"]
        if not movers:
            return NO_WAY
    away = sorted(min(dist[pc.sq], FAR) if pc.sq >= 0 else FAR for pc in movers)
    if goal.kind == "escape":
        short = away[:max(0, goal.escapes - len(obs.escaped))]
        return sum(short) + _late(sit, short[-1] if short else 0)
    if goal.kind == "carry" and sit.marine_goal_map_is_exit():
        carrier = [min(dist[pc.sq], FAR) for pc in sit.marines if pc.carry == goal.objective and pc.sq >= 0]
        lead = carrier[0] if carrier else FAR
        return lead + _late(sit, lead) - CARRIED
    return away[0] + _late(sit, away[0])


def _late(sit: Situation, lead: int) -> float:
    """CLOCK per square the Marines would still lack at the turn limit, walking every AP of every turn left: a
    mission the Genestealers win on time is lost for the Marines however close they stand."""
    limit = sit.goal.turn_limit
    if limit is None:
        return 0.0
    left = max(limit - sit.state.turn + 1, 0)
    return CLOCK * max(0, lead - MARINE_AP * left)


class LookaheadPlayer:
    """The look-ahead player of one side (see the module's docstring)."""

    def __init__(self, side: str, params: Mapping[str, float]) -> None:
        self.side = side
        self.params = dict(params)
        self.name = f"search-{side}"
        self.games = max(0, int(self.params.get(BUDGET, DEFAULT_GAMES)))
        base = {k: v for k, v in self.params.items() if k != BUDGET}
        plays = MARINE_PLAYS if side == "marines" else GENESTEALER_PLAYS
        self.plays: list[Policy] = [self._heuristic({**base, **extra}) for extra in plays.values()]
        self.play_names = list(plays)
        # The opponent in the look-ahead games: the heuristic player with its default weights.
        self.opponent: Policy = (
            GenestealerPlayer({}) if side == "marines" else MarinePlayer({})
        )
        self._phase = _PHASE[side]
        self.looked = 0  # look-ahead games played so far (what the budget buys)

    def _heuristic(self, params: dict[str, float]) -> Policy:
        return MarinePlayer(params) if self.side == "marines" else GenestealerPlayer(params)

    def choose(self, state: Any, actions: Sequence[Action], rng: random.Random) -> Action:
        """The plays' choices; where they differ, the one that scores best in the look-ahead games."""
        obs = observe(state, self.side)
        picks: list[tuple[Action, int]] = []
        for i, play in enumerate(self.plays):
            a: Action = play.choose(obs, actions, rng)
            if all(a != b for b, _ in picks):
                picks.append((a, i))
        if len(picks) < 2 or self.games <= 0:
            return picks[0][0]
        seeds = [rng.getrandbits(62) for _ in range(self.games)]
        sign = 1.0 if self.side == "marines" else -1.0
        totals = [0.0] * len(picks)
        for seed in seeds:
            for j, (a, i) in enumerate(picks):
                totals[j] += sign * self._look_ahead(obs, seed, a, self.plays[i])
        best = 0
        for j in range(1, len(totals)):
            if totals[j] > totals[best]:
                best = j
        return picks[best][0]

    def _look_ahead(self, obs: Observation, seed: int, first: Action, play: Policy) -> float:
        """In the sampled game `seed`: `first`, then `play` for this side until its next turn begins; the score."""
        self.looked += 1
        world = obs.sample(seed)
        start = (world.turn, world.phase)
        world.apply(first)
        movers = {self.side: play, _OTHER[self.side]: self.opponent}
        rng = random.Random(seed)
        n = 0
        while not world.is_terminal() and n < MAX_LOOKAHEAD_ACTIONS:
            if world.phase == self._phase and (world.turn, world.phase) != start:
                break
            mover = movers[str(world.current_player())]
            world.apply(mover.choose(world, world.legal_view(), rng))
            n += 1
        return evaluate(world)


def search_marines(params: dict[str, float]) -> LookaheadPlayer:
    """Factory for the registry."""
    return LookaheadPlayer("marines", params)


def search_genestealers(params: dict[str, float]) -> LookaheadPlayer:
    """Factory for the registry."""
    return LookaheadPlayer("genestealers", params)


register(
    "search-marines",
    search_marines,
    side="marines",
    defaults={BUDGET: float(DEFAULT_GAMES), **defaults(MarineWeights)},
    description="look-ahead: where the heuristic's plays (as tuned, dash, hold, fire, press) disagree, the move "
    "that scores best in sampled games to the end of the Genestealers' next turn",
)
register(
    "search-genestealers",
    search_genestealers,
    side="genestealers",
    defaults={BUDGET: float(DEFAULT_GAMES), **defaults(GenestealerWeights)},
    description="look-ahead: where the heuristic's plays (as tuned, charge, gather, ambush) disagree, the move "
    "that scores best in sampled games to the end of the Marines' next turn",
)
