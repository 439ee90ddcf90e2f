"""The set-up's entry choice on a lazily worked-out map (GenestealerPlayer._lurk_lazy) picks what scoring every
option on the full map picks (the route map, or the novice's attack map), ties to the earlier option, unreachable
options included."""

from __future__ import annotations

import random

from engine.ai.genestealer_terms import _lurk_score
from engine.ai.genestealers import GenestealerPlayer
from engine.ai.novice import NoviceGenestealerPlayer
from engine.ai.situation import Situation
from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.game import Game
from engine.rules.testing import played_states


def test_lazy_entry_choice_matches_the_full_map() -> None:
    rng = random.Random(5)
    checked = 0
    for mission, seed in (("pitfall", 1), ("pitfall", 6), ("the_long_drop", 3), ("recover_the_relic", 4)):
        game = Game(load_mission(str(sample_mission(mission))))
        states = played_states(game, seed, 120)
        for st in states[::6]:
            sit = Situation(st.observation("genestealers"), st.legal_actions())
            if not sit.marines:
                continue
            floor = [s for s in range(sit.board.size) if sit.gt.mt.steps[s]]
            walls = [s for s in range(sit.board.size) if not sit.gt.mt.steps[s]]  # no seed reachable: INF
            for player in (GenestealerPlayer(), NoviceGenestealerPlayer()):
                dm = player._route_map(sit, player._attack_map(sit))
                for k in range(5):
                    squares = list(sit.board.entries.values()) + rng.sample(floor, 3) + rng.sample(walls, 2)
                    if k == 4:
                        squares = rng.sample(walls, 3)  # every option unreachable
                    cands = [(t, rng.random() < 0.3, rng.choice([0, 0, 1, 2])) for t in rng.sample(squares, 3)]
                    w = player.w
                    want = min((_lurk_score(w, dm[t], locked, n), i) for i, (t, locked, n) in enumerate(cands))[1]
                    # A fresh player each time, and the same one again (its set-up map kept and expanded further).
                    assert type(player)()._lurk_lazy(sit, cands) == want
                    assert player._lurk_lazy(sit, cands) == want
                    checked += 1
    assert checked > 50
