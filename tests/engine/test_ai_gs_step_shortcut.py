"""The Genestealer player's shortcut for a Genestealer that cannot step (GenestealerPlayer._may_step) agrees with
_step itself: whenever it says no step, _step chooses none, charging or not."""

from __future__ import annotations

from engine.ai.genestealer_field import _Field
from engine.ai.genestealers import GenestealerPlayer
from engine.ai.situation import Situation
from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.game import Game
from engine.rules.testing import played_states


def test_no_step_means_step_chooses_none() -> None:
    player = GenestealerPlayer()
    shortcut = 0
    for mission, seed in (("pitfall", 1), ("pitfall", 2), ("the_long_drop", 3), ("recover_the_relic", 4)):
        game = Game(load_mission(str(sample_mission(mission))))
        for st in played_states(game, seed, 400):
            if st.phase != "stealers" or st.stack:
                continue
            sit = Situation(st.observation("genestealers"), st.legal_actions())
            if not sit.marines:
                continue
            dm = player._attack_map(sit)
            fld = _Field(sit, dm, player.w.standoff + 3, player)
            for pc in sit.enemies:
                if pc.kind != "stealer" or pc.sq < 0 or dm[pc.sq] >= 9999:
                    continue
                for charge in (True, False):
                    if not player._may_step(pc, fld, player._open_steps(pc, fld, charge)):
                        assert player._step(pc, fld, charge=charge) is None
                        shortcut += 1
    assert shortcut > 20
