"""`hulkforge play the_shaft.json --marines human` fed a scripted game: the person's set-up in the deployment area,
the Marine coming out of the boarding torpedo and the turbo-lift rides reproduce the known heuristic game, and the
view lists the Marine aboard the torpedo as aboard (not lurking like a Genestealer)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from engine.cli import main
from engine.resources import sample_mission
from engine.sim.replay import replay_game
from engine.sim.results import read_results

SEED = "4"


def _log(path: Path) -> tuple[dict[str, object], list[dict[str, object]]]:
    doc = read_results(path)
    return doc["games"][0], replay_game(doc, 0).log()


def test_a_scripted_shaft_game_deploys_enters_and_rides_as_the_known_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    mission = str(sample_mission("the_shaft"))
    known = tmp_path / "known.json"
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", mission, "--seed", SEED, "--record", str(known)]) == 0
    known_row, known_log = _log(known)
    script = [str(e["action"]) for e in known_log if e["player"] == "marines"]
    verbs = {line.split()[0] for line in script}
    assert {"deploy", "face", "enter", "ride"} <= verbs
    capsys.readouterr()

    played = tmp_path / "played.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in script)))
    assert main(["play", mission, "--seed", SEED, "--marines", "human", "--record", str(played)]) == 0
    out = capsys.readouterr().out
    row, log = _log(played)
    assert log == known_log  # every action, die and effect
    for key in ("winner", "turns", "reason"):
        assert row[key] == known_row[key]
    assert "resigned" not in str(row["reason"])
    assert "own   m3     marine     aboard torpedo BT1" in out and "lurking at BT1" not in out
    # The set-up is asked square first (the area's squares listed), then the facing.
    first = out.split("marines> ", 1)[0]
    assert "deploy sgt bridge:3,2" in first and "decision: Set-up in a deployment area" in first

