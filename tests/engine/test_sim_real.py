"""The simulator on the real rules engine: reproducible games, batches, replays."""

from __future__ import annotations

import pytest

from engine.ai import make_policy
from engine.mission import load_mission
from engine.resources import sample_mission
from engine.sim.batch import prepare_spec, run_batch
from engine.sim.params import apply_mission_params
from engine.sim.play import play_game
from engine.sim.replay import replay_game, replay_states
from engine.sim.spec import BatchSpec, game_seed

Game = pytest.importorskip("engine.rules.game").Game


def policies() -> dict[str, object]:
    return {"marines": make_policy("random"), "genestealers": make_policy("random")}


def test_same_seed_same_game_and_sane_record() -> None:
    game = Game(load_mission(sample_mission("tutorial")))
    a = play_game(game, 1234, policies(), index=0, keep_actions=True)  # type: ignore[arg-type]
    b = play_game(game, 1234, policies(), index=0, keep_actions=True)  # type: ignore[arg-type]
    assert a.to_json() == b.to_json()
    assert a.winner in ("marines", "genestealers", "draw")
    assert a.n_actions == len(a.actions or []) > 0
    assert set(a.marines) == {m.id for m in game.mission.marines.squad}
    assert a.casualties["marines"] == sum(1 for f in a.marines.values() if f["died_turn"] is not None)
    assert sum(n for *_, n in a.marine_deaths) <= a.casualties["marines"]
    assert a.genestealer_traffic and all(n > 0 for *_, n in a.genestealer_traffic)
    others = {play_game(game, s, policies(), index=0).to_json()["n_actions"] for s in range(5)}  # type: ignore[arg-type]
    assert len(others) > 1  # different seeds, different games


def test_action_cap_is_reported() -> None:
    game = Game(load_mission(sample_mission("tutorial")))
    r = play_game(game, 7, policies(), max_actions=10)  # type: ignore[arg-type]
    assert r.capped and r.n_actions == 10 and r.winner == "draw" and "cap" in r.reason


def test_batch_on_two_workers_matches_one_and_replays_exactly() -> None:
    spec = prepare_spec(BatchSpec(games=6, seed=9, mission=str(sample_mission("tutorial"))))
    assert spec.mission_doc is not None  # workers and replays see the mission as it was
    one = run_batch(spec, workers=1)
    two = run_batch(spec, workers=2)
    assert [r.to_json() for r in one.records] == [r.to_json() for r in two.records]
    assert one.stats.failed == 0
    k = 4
    rep = replay_game(spec, k)
    assert rep.record.seed == game_seed(9, k)
    assert rep.record.winner == one.records[k].winner and rep.record.turns == one.records[k].turns
    log = rep.log()
    assert len(log) == rep.record.n_actions
    assert {"turn", "player", "action", "dice", "effects"} <= set(log[0])
    steps = replay_states(spec, k)
    assert len(steps) == rep.record.n_actions
    event, snapshot = steps[-1]
    assert event["action"] == log[-1]["action"] and event["events"][-1] == log[-1]
    assert snapshot.is_terminal()
    first_event, first_state = steps[0]
    assert not first_state.is_terminal() and first_event["step"] == 0


def test_mission_parameters_change_the_mission() -> None:
    m = load_mission(sample_mission("pitfall"))
    apply_mission_params(m, {"reinforcements.per_turn": 3, "marines.count": 2})
    assert all(r.per_turn == 3 for r in m.genestealers.reinforcements)
    assert len(m.marines.squad) == 2
    with pytest.raises(ValueError, match="unknown mission parameter"):
        apply_mission_params(m, {"marines.morale": 1})
    with pytest.raises(ValueError, match="not an integer"):
        apply_mission_params(m, {"reinforcements.per_turn": "lots"})
