"""engine.rules.moves: every move the rules offer, and only those, each with what applying it does (square,
facing, AP and CP spent), on random games of every sample."""

from __future__ import annotations

import pytest

from engine.mission import load_mission
from engine.resources import sample_mission, sample_names
from engine.rules.game import Game, GameState
from engine.rules.moves import MOVE_VERBS, piece_moves
from engine.rules.testing import played_states

SAMPLES = sample_names()


def _spent(st: GameState, pid: str) -> int:
    pc = st.p[pid]
    return pc.ap + (st.cp if pc.kind == "marine" else 0)


@pytest.mark.parametrize("mission", SAMPLES)
def test_the_moves_are_the_legal_moves_and_cost_what_apply_charges(mission: str) -> None:
    game = Game(load_mission(str(sample_mission(mission))))
    checked = {v: 0 for v in MOVE_VERBS}
    for st in played_states(game, 3, 250):  # (random players)
        if st.decision() is not None:
            continue
        legal = [a for a in st.legal_actions() if a.verb in MOVE_VERBS]
        offered = []
        for pid in list(st.p):
            for m in piece_moves(st, pid):
                offered.append(m.action)
                after = st.copy()
                before = _spent(after, pid)
                after.apply(m.action)
                pc = after.p.get(pid)
                checked[m.verb] += 1
                if pc is None or after.decision() is not None or m.jump or m.verb in ("climb", "jump"):
                    continue  # (gone, or a fall or facing decision comes first)
                assert before - _spent(after, pid) == m.cost, m
                assert (pc.sq, pc.facing) == (m.to, m.facing), m
        assert sorted(map(str, offered)) == sorted(map(str, legal))
    assert checked["move"] > 0 and checked["turn"] > 0
