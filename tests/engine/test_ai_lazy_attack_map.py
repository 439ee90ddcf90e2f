"""The Genestealers' attack map worked out only near a square (facing decisions) answers what the full map answers,
and finishing it gives the full map; the attack seeds' memo follows the Marines' poses across states."""

from __future__ import annotations

from engine.ai.genestealers import GenestealerPlayer
from engine.ai.situation import Situation
from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.game import Game
from engine.rules.testing import played_states


def test_facing_from_the_lazy_attack_map_is_the_full_maps() -> None:
    game = Game(load_mission(str(sample_mission("pitfall"))))
    states = played_states(game, 9, 150)
    checked = 0
    for st in states[::5]:
        sit = Situation(st.observation("genestealers"), st.legal_actions())
        if not sit.marines:
            continue
        full = GenestealerPlayer()._attack_map(sit)
        squares = [s for s in range(sit.gt.mt.size) if sit.gt.mt.steps[s]]
        for s in squares[::3]:
            lazy_player = GenestealerPlayer()  # a fresh lazy map for each square: expanded only as far as s needs
            near = lazy_player._attack_map_near(sit, s)
            assert near[s] == full[s]
            assert lazy_player._want_facing(s, near, sit) == GenestealerPlayer()._want_facing(s, full, sit)
            checked += 1
        # Finishing a partly expanded map gives the full one.
        p = GenestealerPlayer()
        p._attack_map_near(sit, squares[0])
        assert p._attack_map(sit) == full
    assert checked > 100


def test_attack_seed_memo_follows_the_poses() -> None:
    """One player over consecutive states (Marines moving, turning) builds the same seeds as a fresh player."""
    game = Game(load_mission(str(sample_mission("the_long_drop"))))
    memo = GenestealerPlayer()
    for st in played_states(game, 4, 150):
        sit = Situation(st.observation("genestealers"), st.legal_actions())
        if sit.marines:
            assert memo._attack_seeds(sit) == GenestealerPlayer()._attack_seeds(sit)
