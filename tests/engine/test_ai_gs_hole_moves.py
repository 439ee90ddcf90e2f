"""The Genestealer player asks the rules only about climbs and jumps they may offer: every climb or jump the rules
list leaves a square and lands where the player's tables (GameTables.hole_dest, jump_dest) say, on a square that is
neither occupied nor a closed door."""

from __future__ import annotations

from engine.ai.tables import tables
from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.game import Game
from engine.rules.testing import played_states


def test_listed_climbs_and_jumps_pass_the_players_filters() -> None:
    game = Game(load_mission(str(sample_mission("pitfall"))))
    seen = {"climb": 0, "jump": 0}
    for seed in range(3):
        for st in played_states(game, seed, 300):
            gt = tables(game).for_state(st)
            feat = st.feat
            for a in st.legal_actions():
                if a.verb not in seen:
                    continue
                s = st.p[a.args[0]].sq
                if a.verb == "climb":
                    assert s in feat.ladder or s in feat.pit_up
                    t = gt.hole_dest[s]
                else:
                    t = gt.jump_dest.get(s, -1)
                    assert t >= 0
                assert t not in st.occ and t not in st.closed
                seen[a.verb] += 1
    assert seen["climb"] > 20 and seen["jump"] > 5
