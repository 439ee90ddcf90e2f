"""Nothing is played from a file before it is checked: simulate/sweep/play validate the mission, replay the results."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.resources import sample_mission
from engine.sim.results import ResultsFileError, read_results

RANDOM = ("--marines", "random", "--genestealers", "random")
BROKEN = Path(__file__).resolve().parents[1] / "golden" / "missions" / "pit-door" / "fail.json"


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


@pytest.mark.parametrize("command", [["simulate", "-n", "2"], ["sweep", "-n", "2", "--set", "turn_cap=5,6"],
                                     ["play", "--quiet"]])
def test_a_mission_that_breaks_a_rule_is_not_played(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    command: list[str]) -> None:
    out = tmp_path / "r.json"
    extra = ["--out", str(out)] if command[0] == "simulate" else []
    code, stdout, stderr = run_cli(capsys, command[0], str(BROKEN), *command[1:], *extra)
    assert (code, stdout) == (1, "")
    lines = stderr.strip().splitlines()
    assert lines[0] == f"hulkforge {command[0]}: {BROKEN}:upper:5,2: PIT-DOOR: pitfall A is on a door square"
    assert lines[-1].endswith("the mission breaks 1 rule(s); no game was played (see hulkforge validate)")
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_a_schema_error_is_a_broken_mission_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(sample_mission("tutorial").read_text())
    doc["doors"][0]["state"] = "ajar"
    f = tmp_path / "m.json"
    f.write_text(json.dumps(doc))
    code, _, stderr = run_cli(capsys, "simulate", str(f), "-n", "2", *RANDOM)
    assert code == 1 and f"{f}:deck:9,3: SCHEMA:" in stderr


def test_play_refuses_an_unknown_policy_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, stderr = run_cli(capsys, "play", "tutorial", "--marines", "grandmaster")
    assert code == 2 and "unknown policy 'grandmaster'" in stderr and len(stderr.splitlines()) == 1


# --- replay: the results file is someone else's --------------------------------------------------------

@pytest.fixture(scope="module")
def results_doc(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("replay") / "results.json"
    assert main(["simulate", "tutorial", "-n", "3", "--workers", "1", "--out", str(out), *RANDOM]) == 0
    doc: dict[str, Any] = json.loads(out.read_text())
    return doc


def _tampered(tmp_path: Path, doc: dict[str, Any], change: Any) -> Path:
    d = json.loads(json.dumps(doc))
    change(d)
    f = tmp_path / "tampered.json"
    f.write_text(json.dumps(d))
    return f


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda d: d["spec"].update(runner="fake", runner_args={}),
         "$.spec.runner is 'fake': only games of the rules engine can be replayed"),
        (lambda d: d["spec"].update(mission_doc=None), "$.spec.mission_doc is missing"),
        (lambda d: d["spec"]["mission_doc"]["doors"][0].update(x=0),
         "$.spec.mission_doc.doors[0]: ON-FLOOR:"),
        (lambda d: d["spec"]["mission_doc"]["doors"][0].update(id="D1\n"),
         "$.spec.mission_doc.doors[0].id: control character U+000A"),
        (lambda d: d["spec"]["mission_doc"]["levels"][0].update(rows=["#"]), "$.spec.mission_doc"),
        (lambda d: d["spec"]["mission_doc"].update(version=2), "$.spec.mission_doc.version: SCHEMA"),
        (lambda d: d["spec"]["policies"].update(marines="grandmaster"),
         "$.spec.policies.marines: unknown policy 'grandmaster'"),
        (lambda d: d["spec"].update(options={"no_such_rule": 1}), "cannot rebuild the game: unknown rule option"),
    ],
)
def test_replay_checks_the_file_before_playing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              results_doc: dict[str, Any], change: Any, fragment: str) -> None:
    f = _tampered(tmp_path, results_doc, change)
    code, stdout, stderr = run_cli(capsys, "replay", str(f), "--game", "1")
    assert (code, stdout) == (2, "")
    assert fragment in stderr and len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr


def test_a_whole_number_written_as_a_decimal_in_the_embedded_mission_replays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], results_doc: dict[str, Any]) -> None:
    text = json.dumps(results_doc).replace('"x": 9, "y": 3', '"x": 9.0, "y": 3', 1)
    f = tmp_path / "decimal.json"
    f.write_text(text)
    code, _, _ = run_cli(capsys, "replay", str(f), "--game", "2")
    assert code == 0


@pytest.mark.parametrize(
    ("old", "new", "fragment"),
    [
        ('"format": "hulkforge-results"', '"format": "hulkforge-results", "format": "x"',
         'the key "format" appears twice'),
        ('"version": 1,', '"version": 1e999,', "too large"),
        ('"version": 1,', '"version": true,', "$.version is True"),
    ],
)
def test_results_files_are_read_strictly(tmp_path: Path, results_doc: dict[str, Any], old: str, new: str,
                                         fragment: str) -> None:
    text = json.dumps(results_doc)
    assert old in text
    f = tmp_path / "bad.json"
    f.write_text(text.replace(old, new, 1))
    with pytest.raises(ResultsFileError, match=re.escape(fragment)):
        read_results(f)


# --- Ctrl-C and output that cannot be encoded -----------------------------------------------------------

@pytest.mark.parametrize("where", ["build_parser", "import_module"])
def test_ctrl_c_during_start_up_is_one_line_and_exit_130(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str], where: str) -> None:
    import importlib
    import signal

    import engine.cli as cli

    def interrupted(*_args: Any, **_kwargs: Any) -> Any:
        raise KeyboardInterrupt

    if where == "build_parser":
        monkeypatch.setattr(cli, "build_parser", interrupted)
    else:
        real = importlib.import_module
        monkeypatch.setattr(importlib, "import_module",
                            lambda name, *a: interrupted() if name == "engine.commands.validate" else real(name, *a))
    old = signal.getsignal(signal.SIGINT)
    try:
        code, stdout, stderr = run_cli(capsys, "validate", "tutorial")
    finally:
        signal.signal(signal.SIGINT, old)  # main ignores a second Ctrl-C while the process ends
    assert (code, stdout, stderr) == (130, "", "hulkforge: interrupted\n")


def test_a_file_name_that_is_not_text_prints_escaped(tmp_path: Path) -> None:
    """An output stream that refuses what it cannot encode (PYTHONIOENCODING=utf-8:strict) gets escapes instead."""
    name = os.fsencode(tmp_path) + b"/bad-\xff.json"  # a file name that is not UTF-8
    with open(name, "wb") as fh:
        fh.write(BROKEN.read_bytes())
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "PYTHONUTF8": "0"}
    done = subprocess.run([sys.executable, "-m", "engine.cli", "validate", os.fsdecode(name)], env=env,
                          capture_output=True, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 1 and b"Traceback" not in done.stderr
    assert b"bad-\\udcff.json:upper:5,2: PIT-DOOR" in done.stdout
