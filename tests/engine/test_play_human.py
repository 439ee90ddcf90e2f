"""`hulkforge play --marines human` / `--genestealers human`: a person's decisions read from standard input.

A scripted person who types what the heuristic player chose reproduces the heuristic game exactly (and its
record replays); `?` lists the legal actions, a number picks one, an unknown or illegal answer is refused and
asked again, end of input resigns (exit 0, the other side wins, the record replays to the resignation); the
Marine person's view reads no blip value (a tripwire on the kernel's values while the person decides).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.ai.base import make_policy, policy_rng
from engine.cli import main
from engine.commands.human import HumanPlayer
from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.game import Game
from engine.sim.replay import replay_game
from engine.sim.results import read_results

MISSION = "tutorial"
SEED = 4


def _play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], script: str,
          *args: str) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    code = main(["play", MISSION, "--seed", str(SEED), *args])
    return code, capsys.readouterr().out


def _events(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    doc = read_results(path)
    return doc["games"][0], replay_game(doc, 0).log()


def _ai_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The known game: both sides played by the default (heuristic) players, recorded and replayed."""
    known = tmp_path / "known.json"
    code, _ = _play(monkeypatch, capsys, "", "--record", str(known))
    assert code == 0
    return _events(known)


@pytest.mark.parametrize("side", ["marines", "genestealers"])
def test_a_scripted_person_reproduces_the_known_game(
    side: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    known_row, known_log = _ai_game(tmp_path, monkeypatch, capsys)
    script = "".join(f"{e['action']}\n" for e in known_log if e["player"] == side)
    assert script  # the side had decisions to make
    played = tmp_path / "played.json"
    code, out = _play(monkeypatch, capsys, script, f"--{side}", "human", "--record", str(played))
    assert code == 0
    row, log = _events(played)
    assert log == known_log  # every action, die and effect
    for key in ("winner", "turns", "reason", "casualties", "marines", "actions"):
        assert row[key] == known_row[key]
    assert "resigned" not in row["reason"]
    assert f"result: {known_row['winner']} after {known_row['turns']} turns" in out
    assert json.loads(played.read_text())["spec"]["policies"][side] == "human"
    assert main(["replay", str(played), "--game", "0"]) == 0


def _first_marine_decision() -> list[str]:
    """The legal actions at the Marines' first decision of the game (the Genestealers heuristic before it)."""
    state = Game(load_mission(str(sample_mission(MISSION)))).new_state(SEED)
    gs, rng = make_policy("heuristic-genestealers"), policy_rng(SEED, "genestealers")
    while state.current_player() != "marines":
        state.apply(gs.choose(state, state.legal_actions(), rng))
    return [a.text() for a in state.legal_actions()]


def test_question_mark_lists_the_actions_and_a_number_picks_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    actions = _first_marine_decision()
    assert len(actions) >= 2
    code, out = _play(monkeypatch, capsys, "?\n2\n", "--marines", "human", "--record", str(tmp_path / "g.json"))
    assert code == 0
    listed = out.split("marines> ?\n", 1)[1].split("marines> 2\n", 1)[0]
    assert listed.splitlines() == [f"  {i:3d}. {text}" for i, text in enumerate(actions, 1)]
    row, log = _events(tmp_path / "g.json")
    assert [e["action"] for e in log if e["player"] == "marines"] == [actions[1]]
    assert row["reason"] == "marines resigned"


def test_an_unknown_or_illegal_answer_is_refused_and_asked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    actions = _first_marine_decision()
    script = f"fly sgt home\n0\n{len(actions) + 1}\n{actions[-1]}\n"
    code, out = _play(monkeypatch, capsys, script, "--marines", "human", "--record", str(tmp_path / "g.json"))
    assert code == 0
    assert "'fly sgt home' is not a legal action now (? lists them)" in out
    assert f"no action {len(actions) + 1}: the list runs from 1 to {len(actions)}" in out
    assert "no action 0" in out
    # Each refusal asks again, and the action typed after them is played.
    assert out.count("marines> ") >= 5
    _, log = _events(tmp_path / "g.json")
    assert [e["action"] for e in log if e["player"] == "marines"] == [actions[-1]]


@pytest.mark.parametrize("side", ["marines", "genestealers"])
def test_end_of_input_resigns_with_exit_0_and_the_result(
    side: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "g.json"
    code, out = _play(monkeypatch, capsys, "", f"--{side}", "human", "--record", str(record))
    assert code == 0
    other = "genestealers" if side == "marines" else "marines"
    assert f"result: {other} after 1 turns ({side} resigned)" in out
    row, log = _events(record)
    assert (row["winner"], row["reason"], row["capped"]) == (other, f"{side} resigned", False)
    assert all(e["player"] != side for e in log)  # resigned at the side's first decision
    assert main(["replay", str(record), "--game", "0"]) == 0  # the replay stops at the resignation
    assert "matches the recorded result" in capsys.readouterr().out


class _Tripwire(dict[str, int]):
    """The kernel's blip values while the Marine person decides: any read is a leak of hidden information."""

    def _leak(self, *args: object) -> Any:
        raise AssertionError("the Marine person's view read a blip's hidden value")

    __getitem__ = get = items = values = keys = __iter__ = __contains__ = __len__ = copy = _leak


def test_the_marine_persons_view_reads_no_blip_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, known_log = _ai_game(tmp_path, monkeypatch, capsys)
    blips_seen = []
    choose = HumanPlayer.choose

    def guarded(self: HumanPlayer, state: Any, actions: Any, rng: Any) -> Any:
        if self.side != "marines":
            return choose(self, state, actions, rng)
        k = state.k
        blips_seen.append(any(pc.kind == "blip" for pc in k.p.values()))
        real, k.blip_value = k.blip_value, _Tripwire()
        try:
            return choose(self, state, actions, rng)
        finally:
            k.blip_value = real

    monkeypatch.setattr(HumanPlayer, "choose", guarded)
    script = "".join(f"{e['action']}\n" for e in known_log if e["player"] == "marines")
    code, out = _play(monkeypatch, capsys, script, "--marines", "human")
    assert code == 0 and "resigned" not in out
    assert any(blips_seen)  # blips were in play while the person decided
    assert "blip (" not in out  # the view shows blips as blips
    # The Genestealer person sees its own blips' values.
    script = "".join(f"{e['action']}\n" for e in known_log if e["player"] == "genestealers")
    code, out = _play(monkeypatch, capsys, script, "--genestealers", "human")
    assert code == 0
    assert re.search(r"own +b\d+ +blip \([1-3]\)", out)
