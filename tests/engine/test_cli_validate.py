"""`hulkforge validate` as a user meets it: exit codes, one line per issue, JSON, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main
from engine.resources import sample_missions

GOLDEN = Path(__file__).parent.parent / "golden" / "missions"


def test_valid_samples_exit_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", *map(str, sample_missions())]) == 0
    assert "valid" in capsys.readouterr().err


def test_rule_break_exits_one_with_file_level_square_rule(capsys: pytest.CaptureFixture[str]) -> None:
    f = GOLDEN / "pit-door" / "fail.json"
    assert main(["validate", str(f)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{f}:upper:5,2: PIT-DOOR: pitfall A is on a door square"]


def test_an_issue_without_a_square_names_its_json_path(capsys: pytest.CaptureFixture[str]) -> None:
    f = GOLDEN / "victory-unknown-exit" / "fail.json"
    assert main(["validate", str(f)]) == 1
    assert capsys.readouterr().out.splitlines() == [f"{f}:$.victory[2].to.exit: REF-EXIT: exit 'X9' does not exist"]
    assert main(["validate", "--json", str(f)]) == 1
    assert [i["path"] for i in json.loads(capsys.readouterr().out)] == ["$.victory[2].to.exit"]


def test_warnings_alone_exit_zero_and_are_marked(capsys: pytest.CaptureFixture[str]) -> None:
    f = GOLDEN / "hole-no-bottom" / "fail.json"
    assert main(["validate", str(f)]) == 0
    assert capsys.readouterr().out.strip().endswith("(warning)")


def test_json_output_is_an_array_of_issues(capsys: pytest.CaptureFixture[str]) -> None:
    f = GOLDEN / "unreachable-entry-objective" / "fail.json"
    assert main(["validate", "--json", str(f)]) == 1
    issues = json.loads(capsys.readouterr().out)
    assert {i["rule"] for i in issues} == {"REACH-ENTRY", "REACH-OBJECTIVE"}
    assert set(issues[0]) == {"file", "rule", "path", "level", "squares", "message", "severity"}


def test_unreadable_file_exits_two_even_beside_broken_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    broken = GOLDEN / "pit-door" / "fail.json"
    assert main(["validate", str(broken), str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"hulkforge validate: {bad}: line 1 column 2: not valid JSON: Expecting property name enclosed in double quotes"
    ]


@pytest.mark.parametrize("content", [b"", b"\x00\x01\xff", b"[]", b"{" * 100000])
def test_console_script_prints_no_traceback(tmp_path: Path, content: bytes) -> None:
    f = tmp_path / "hostile.json"
    f.write_bytes(content)
    proc = subprocess.run([sys.executable, "-m", "engine.cli", "validate", str(f)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert str(f) in proc.stderr


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out
    assert "validate" in text and "samples" in text


@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "pitfall", "tutorial.json"],
        ["export", "pitfall", "--to", "tiled", "-o", "{tmp}/pitfall.tmj"],
        ["render", "the_long_drop", "-o", "{tmp}/drop.svg"],
        ["play", "tutorial", "--seed", "2", "--quiet"],
    ],
)
def test_every_command_that_reads_a_mission_takes_a_sample_name(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Run from an empty folder, so "pitfall" cannot be a file here: the README promises sample names everywhere.
    monkeypatch.chdir(tmp_path)
    assert main([a.replace("{tmp}", str(tmp_path)) for a in argv]) == 0
    assert "no such file" not in capsys.readouterr().err


def test_an_unknown_name_is_still_no_such_file(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "pitfal"]) == 2
    assert capsys.readouterr().err.strip() == "hulkforge validate: pitfal: no such file"


def _explained(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, dict[str, str]]:
    assert main(["validate", "--explain", "--json", *argv]) == 0
    rules = json.loads(capsys.readouterr().out)["rules"][0]
    return {o["name"]: o for o in rules["options"]} | {"ruleset": rules["ruleset"]}


def test_explain_says_a_pitfall_switched_the_default_ladder_rule(capsys: pytest.CaptureFixture[str]) -> None:
    # The same mission without and with one pitfall (golden pit-door: its passing mission adds pitfall A).
    plain = GOLDEN / "reinforcement-turns" / "pass.json"
    with_pit = GOLDEN / "pit-door" / "pass.json"
    before, after = _explained(capsys, str(plain))["ladder_rule"], _explained(capsys, str(with_pit))["ladder_rule"]
    assert (before["value"], before["source"]) == ("4e", "mission contents")
    assert (after["value"], after["source"]) == ("pitfall", "mission contents")
    assert after["why"] == "the mission has pitfalls"
    assert main(["validate", "--explain", str(with_pit)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{with_pit}: rules in force: ruleset 4e (mission file)"
    assert any(ln.split() == ["ladder_rule", "pitfall", "mission", "contents", "(the", "mission", "has", "pitfalls)"]
               for ln in lines)


def test_explain_names_every_source(capsys: pytest.CaptureFixture[str]) -> None:
    got = _explained(capsys, "pitfall", "--set", "overwatch_range=10")
    assert (got["ladder_rule"]["value"], got["ladder_rule"]["source"]) == ("pitfall", "mission file")
    assert (got["overwatch_range"]["value"], got["overwatch_range"]["source"]) == (10, "override")
    assert got["overwatch_range"]["why"] == "command line"
    assert (got["flamer_range"]["value"], got["flamer_range"]["source"]) == (12, "ruleset default")
    assert got["ruleset"] == {"value": "4e", "source": "mission file"}


def test_explain_of_a_classic_mission_shows_the_classic_defaults(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads((GOLDEN / "reinforcement-turns" / "pass.json").read_text())
    doc["ruleset"] = "classic"
    f = tmp_path / "classic.json"
    f.write_text(json.dumps(doc))
    got = _explained(capsys, str(f))
    assert got["command_points"] == {"name": "command_points", "value": "d6", "source": "ruleset default",
                                     "why": "classic"}


def test_a_bad_set_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--explain", "pitfall", "--set", "no_such_option=1"]) == 2
    assert capsys.readouterr().err.strip() == "hulkforge validate: --set: unknown rule option 'no_such_option'"
