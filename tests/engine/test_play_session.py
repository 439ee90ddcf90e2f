"""PlaySession: a person's decisions and a policy's, undo (marked in the record), save and resume (refusing hostile
files with one line), the sand timer on an injected clock, and the choices a person is shown (AP costs, routes,
exact kill chances)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from engine.ai.base import SIDES, make_policy, policy_rng
from engine.cli import main
from engine.mission import load_mission
from engine.mission.io import read_document
from engine.resources import sample_mission
from engine.rules.game import Game
from engine.rules.odds import ShotSpec, shot_odds
from engine.sim.choices import piece_choices, reach
from engine.sim.play import action_text, play_out
from engine.sim.replay import replay_game
from engine.sim.results import read_results
from engine.sim.sand_timer import ManualClock, SandTimer
from engine.sim.session import HUMAN, TIMER, PlaySession
from engine.sim.session_file import SessionFileError, load_session, save_session, session_json

SEED = 4


def _session(seats: dict[str, str | None], mission: str = "tutorial", timer: SandTimer | None = None) -> PlaySession:
    return PlaySession(read_document(str(sample_mission(mission))), seats, SEED,
                       mission_path=str(sample_mission(mission)), timer=timer)


def _heuristic_person(session: PlaySession, side: str) -> Any:
    policy, rng = make_policy(f"heuristic-{side}"), policy_rng(SEED, side)
    return lambda: policy.choose(session.state, session.state.legal_view(), rng)


def _play(session: PlaySession, person: Any, decisions: int | None = None) -> int:
    n = 0
    while not session.is_over() and (decisions is None or n < decisions):
        if session.human_to_move():
            session.apply(person())
            n += 1
        else:
            session.play_ai()
    return n


def test_a_person_making_the_heuristics_choices_plays_the_heuristic_game() -> None:
    """The session's policy draws from the same decision RNG as `hulkforge play` and batches."""
    session = _session({"genestealers": HUMAN})
    _play(session, _heuristic_person(session, "genestealers"))
    game = Game(load_mission(str(sample_mission("tutorial"))))
    _state, applied, _ = play_out(game, SEED, {s: make_policy(f"heuristic-{s}") for s in SIDES})
    assert session.actions() == [action_text(a) for a in applied]
    assert [p.by for p in session.plies if p.side == "marines"] == ["heuristic-marines"] * sum(
        p.side == "marines" for p in session.plies)


def test_undo_takes_back_the_last_persons_decision_and_the_game_goes_on_as_before(tmp_path: Path) -> None:
    session = _session({"marines": HUMAN})
    person = _heuristic_person(session, "marines")
    _play(session, person, decisions=6)
    kept = list(session.plies)
    last_human = max(i for i, p in enumerate(kept) if p.by == HUMAN)
    log_before = [e.action for e in session.state.log]
    assert session.undo()
    assert session.plies == kept[:last_human]
    assert session.undone == [{"step": last_human, "side": "marines", "action": kept[last_human].action}]
    # Taking the same decision again gives the same game: the policy's RNG was put back too.
    session.apply(kept[last_human].action)
    while not session.human_to_move() and not session.is_over():
        session.play_ai()
    assert session.plies == kept[:len(session.plies)]
    assert [e.action for e in session.state.log][:len(log_before)] == log_before[:len(session.state.log)]
    # The record marks the decision taken back, and replays.
    record = tmp_path / "g.json"
    session.resign("marines")
    session.write_record(str(record))
    doc = read_results(record)
    assert doc["games"][0]["undone"] == session.undone
    assert doc["games"][0]["reason"] == "marines resigned"
    assert replay_game(doc, 0).record.actions == session.actions()
    assert main(["replay", str(record), "--game", "0"]) == 0


def test_save_and_resume_round_trip(tmp_path: Path) -> None:
    session = _session({"marines": HUMAN}, "pitfall")
    person = _heuristic_person(session, "marines")
    _play(session, person, decisions=8)
    session.undo()
    path = tmp_path / "save.json"
    save_session(session, path)
    again = load_session(path)
    assert again.actions() == session.actions() and again.undone == session.undone
    assert again.seats == session.seats and again.to_move() == session.to_move()
    assert session_json(again) == session_json(session)
    # Both go on identically: same policy RNG, same dice.
    for s in (session, again):
        while not s.human_to_move() and not s.is_over():
            s.play_ai()
    assert again.actions() == session.actions()
    # The undo marks survive the file: undo after resuming goes back as far.
    assert again.undo() == session.undo() and again.actions() == session.actions()


def _saved(tmp_path: Path) -> dict[str, Any]:
    session = _session({"marines": HUMAN})
    _play(session, _heuristic_person(session, "marines"), decisions=2)
    return session_json(session)


def _rename_policy(doc: dict[str, Any], name: str) -> None:
    doc["seats"]["genestealers"] = name
    for p in doc["plies"]:
        if p["side"] == "genestealers":
            p["by"] = name


@pytest.mark.parametrize("change, where", [
    (lambda d: d.update(format="hulkforge-results"), "$.format"),
    (lambda d: d.update(version=2), "$.version"),
    (lambda d: d.update(seed=-1), "$.seed"),
    (lambda d: d.update(seats={"marines": "human"}), "$.seats"),
    (lambda d: d["plies"].append({"action": "fly sgt home", "side": "marines", "by": "human"}), "$.plies"),
    (lambda d: d["plies"].append({"action": "pass", "side": "aliens", "by": "human"}), ".side: expected one of"),
    (lambda d: d.update(rngs={"genestealers": [1, 2, 3]}), "$.rngs.genestealers"),
    (lambda d: d.update(timer={"seconds": "forever"}), "$.timer.seconds"),
    (lambda d: d["mission_doc"].update(levels=[]), "$.mission_doc"),
    (lambda d: _rename_policy(d, "no-such-player"), "unknown policy 'no-such-player'"),
])
def test_a_hostile_or_broken_saved_game_is_refused_with_one_line(tmp_path: Path, change: Any, where: str) -> None:
    doc = _saved(tmp_path)
    change(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(SessionFileError) as err:
        load_session(path)
    message = str(err.value)
    assert message.startswith(f"{path}: ") and where in message and "\n" not in message


@pytest.mark.parametrize("text", ["", "[]", "{", '{"a": NaN}', "[" * 100 + "]" * 100])
def test_not_a_saved_game_at_all(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(SessionFileError):
        load_session(path)


def test_saving_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = _session({"marines": HUMAN})
    path = tmp_path / "save.json"
    path.write_text("the old save")

    def broken(*_a: Any, **_k: Any) -> str:
        raise RuntimeError("disk full")

    monkeypatch.setattr("engine.sim.session_file.json.dumps", broken)
    with pytest.raises(RuntimeError):
        save_session(session, path)
    assert path.read_text() == "the old save"


def test_the_sand_timer_ends_the_marine_action_phase_the_action_under_way_completing() -> None:
    clock = ManualClock()
    session = _session({"marines": HUMAN}, "pitfall", timer=SandTimer(120, clock))
    while not session.human_to_move():
        session.play_ai()
    assert not session.timer.running  # type: ignore[union-attr]  # not before the command phase ends
    while session.state.decision() is not None:  # cp keep / redraw
        session.apply(session.legal()[0])
    assert session.timer.running and session.marine_action_phase()  # type: ignore[union-attr]
    clock.advance(119)
    assert session.timer_check() == []
    session.apply(next(a for a in session.legal() if a.verb == "move"))
    clock.advance(1)
    turn = session.state.turn
    events = session.timer_check()
    assert [e.action for e in events] == ["pass"] and session.plies[-1].by == TIMER
    assert session.state.phase != "marines" or session.state.turn > turn
    assert not session.timer.running  # type: ignore[union-attr]
    # The next Marine turn turns it again, full.
    while not session.is_over() and not session.marine_action_phase():
        session.play_ai() if not session.human_to_move() else session.apply(session.legal()[0])
    assert session.timer.left() == 120  # type: ignore[union-attr]


def test_choices_price_moves_and_give_the_exact_kill_chance() -> None:
    session = _session({"marines": HUMAN}, "pitfall")
    person = _heuristic_person(session, "marines")
    found_shot = False
    for _ in range(300):
        if session.is_over():
            break
        if session.human_to_move() and session.state.decision() is None:
            for pid in [p.id for p in session.state.k.p.values() if p.kind == "marine" and p.sq >= 0]:
                for c in piece_choices(session.state, pid):
                    assert session.state.is_legal(c.action)
                    if c.verb == "shoot" and c.action.args[1] in session.state.k.p:
                        pc = session.state.k.p[pid]
                        spec = ShotSpec(pc.ranged, **session.state.fire.shot_terms(pc, c.action.args[1], False))
                        assert c.kill == shot_odds(spec).kill and isinstance(c.kill, Fraction)
                        found_shot = True
                routes = reach(session.state, pid)
                for route in routes.values():  # every route walks legally to its square at its cost
                    trial = session.state.copy()
                    ap = trial.ap_budget(trial.piece(pid))
                    for a in route.actions:
                        trial.apply(a)
                    assert trial.piece(pid).sq == route.square  # type: ignore[union-attr]
                    assert ap - trial.ap_budget(trial.piece(pid)) == route.cost
        if session.human_to_move():
            session.apply(person())
        else:
            session.play_ai()
    assert found_shot


def test_undo_in_the_terminal_takes_back_the_persons_decision(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    first = _session({"marines": HUMAN})
    while not first.human_to_move():
        first.play_ai()
    actions = [a.text() for a in first.legal()]
    record = tmp_path / "g.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("undo\n2\nundo\n1\n"))
    assert main(["play", "tutorial", "--seed", str(SEED), "--marines", "human", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "nothing to undo" in out and "undone: back to turn 1, marines to decide" in out
    row = read_results(record)["games"][0]
    assert row["undone"] == [{"step": len(row["actions"]) - 1, "side": "marines", "action": actions[1]}]
    assert row["actions"][-1] == actions[0] and row["reason"] == "marines resigned"


def test_an_overwatch_decision_shows_each_shots_exact_chance() -> None:
    from engine.sim.choices import decision_choices

    found = 0
    for seed in range(2):
        session = PlaySession(read_document(str(sample_mission("pitfall"))), {"marines": HUMAN}, seed)
        policy, rng = make_policy("heuristic-marines"), policy_rng(seed, "marines")
        while not session.is_over() and not found:
            if session.human_to_move():
                d = session.state.decision()
                for c in decision_choices(session.state):
                    if c.verb == "fire":
                        pc = session.state.k.p[c.action.args[0]]
                        terms = session.state.fire.shot_terms(pc, d.genestealer, True)  # type: ignore[union-attr]
                        assert c.kill == shot_odds(ShotSpec(pc.ranged, **terms)).kill
                        found += 1
                session.apply(policy.choose(session.state, session.state.legal_view(), rng))
            else:
                session.play_ai()
    assert found


def test_hot_seat_turns_the_timer_again_when_the_marine_player_sits_down() -> None:
    clock = ManualClock()
    session = _session(dict.fromkeys(SIDES, HUMAN), "pitfall", timer=SandTimer(100, clock))
    while not session.marine_action_phase():
        session.apply(session.legal()[0])
    clock.advance(30)  # the curtain is up, the Marine player not yet at the table
    assert session.turn_timer_again() and session.timer.left() == 100  # type: ignore[union-attr]
    session.apply(next(a for a in session.legal() if a.verb in ("move", "turn")))
    clock.advance(30)
    assert not session.turn_timer_again() and session.timer.left() == 70  # type: ignore[union-attr]
