"""`hulkforge simulate | sweep | replay`: exit codes, --json keys, results files, replays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.sim.results import read_results, schema_error

# Random players keep these tests fast and independent of how the heuristic players evolve.
RANDOM = ("--marines", "random", "--genestealers", "random")
SUMMARY_KEYS = {"games", "seed", "marine_wins", "genestealer_wins", "draws", "marine_win_rate",
                "marine_win_ci95", "mean_turns", "games_per_second", "policies", "options", "versions"}


@pytest.fixture(scope="module")
def results_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sim") / "results.json"
    code = main(["simulate", "tutorial", "--games", "8", "--seed", "21", "--workers", "2", "--out", str(out),
                 "--set", "turn_cap=30", "--json", *RANDOM])
    assert code == 0
    return out


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_simulate_json_summary_and_results_file(results_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = read_results(results_file)
    assert schema_error(doc) is None
    s = doc["summary"]
    assert SUMMARY_KEYS <= set(s)
    assert s["games"] == 8 and s["seed"] == 21
    assert s["marine_wins"] + s["genestealer_wins"] + s["draws"] == 8
    lo, hi = s["marine_win_ci95"]
    assert 0 <= lo <= s["marine_win_rate"] <= hi <= 1
    assert s["options"] == {"turn_cap": 30} and s["options_in_force"]["turn_cap"] == 30
    assert [g["index"] for g in doc["games"]] == list(range(8))
    assert doc["spec"]["mission_doc"]["format"] == "hulkforge-mission"


def test_simulate_is_reproducible_across_worker_counts(results_file: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "one.json"
    code, stdout, _ = run_cli(capsys, "simulate", "tutorial", "--games", "8", "--seed", "21", "--workers", "1",
                              "--set", "turn_cap=30", "--out", str(out), *RANDOM)
    assert code == 0
    assert "Marines win" in stdout and "95% CI" in stdout
    assert read_results(out)["games"] == read_results(results_file)["games"]


def test_simulate_json_prints_only_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, stderr = run_cli(capsys, "simulate", "tutorial", "-n", "3", "--workers", "1", "--json")
    assert code == 0
    summary = json.loads(stdout)
    assert SUMMARY_KEYS <= set(summary)
    assert summary["policies"] == {"marines": "random", "genestealers": "random"} or all(
        v.startswith("heuristic") or v == "random" for v in summary["policies"].values())
    assert "3/3 games" in stderr  # sparse progress lines when stderr is not a terminal


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "/nonexistent/m.json", "-n", "2"], "no such file"),
        (["simulate", "tutorial", "-n", "2", "--set", "turn_cap=0"], "turn_cap"),
        (["simulate", "tutorial", "-n", "2", "--set", "no_such_rule=1"], "unknown rule option"),
        (["simulate", "tutorial", "-n", "2", "--set", "turn_cap"], "NAME=VALUE"),
        (["simulate", "tutorial", "-n", "2", "--marines", "grandmaster"], "unknown policy"),
        (["simulate", "tutorial", "-n", "2", "--param", "orks.waaagh=1"], "--param"),
        (["simulate", "tutorial", "-n", "2", "--param", "marines.waaagh=x"], "not a number"),
        (["simulate", "tutorial", "-n", "-1"], "--games"),
        (["sweep", "tutorial", "-n", "2", "--set", "turn_cap=5,6", "--set", "flamer_range=3,4"], "one parameter"),
        (["sweep", "tutorial", "-n", "2"], "--set NAME=V1"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, stdout, stderr = run_cli(capsys, *argv)
    assert code == 2
    assert message in stderr
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1
    assert stdout == ""


def test_unreadable_mission_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    code, _, stderr = run_cli(capsys, "simulate", str(bad), "-n", "2")
    assert code == 2 and str(bad) in stderr and "line 1" in stderr


def test_sweep_json_and_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, _ = run_cli(capsys, "sweep", "tutorial", "-n", "4", "--workers", "1",
                              "--set", "reinforcements.per_turn=0,2", "--json", *RANDOM)
    assert code == 0
    out: dict[str, Any] = json.loads(stdout)
    assert out["parameter"] == "reinforcements.per_turn" and out["values"] == [0, 2]
    assert len(out["curves"]["marines"]["rate"]) == 2 and len(out["results"]) == 2
    assert out["marine_win_diff_vs_first"][0]["diff"] == 0
    assert all(r["games"] == 4 and r["mission_params"] for r in out["results"])
    code, stdout, _ = run_cli(capsys, "sweep", "tutorial", "-n", "3", "--workers", "1", "--set", "turn_cap=4,8",
                              *RANDOM)
    assert code == 0
    lines = stdout.splitlines()
    assert lines[1].startswith("turn_cap") and lines[2].startswith("4 ") and lines[3].startswith("8 ")


def test_replay_reproduces_the_recorded_winner(results_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, _ = run_cli(capsys, "replay", str(results_file), "--game", "5")
    assert code == 0
    assert "matches the recorded result" in stdout
    assert stdout.splitlines()[0].startswith("T 1")
    code, stdout, _ = run_cli(capsys, "replay", str(results_file), "--game", "2", "--json")
    assert code == 0
    out = json.loads(stdout)
    assert out["matches"] and out["events"] and out["replayed"]["winner"] == out["recorded"]["winner"]


def test_replay_errors(results_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, stderr = run_cli(capsys, "replay", str(results_file), "--game", "99")
    assert code == 2 and "no game 99" in stderr
    code, _, stderr = run_cli(capsys, "replay", str(tmp_path / "none.json"), "--game", "0")
    assert code == 2 and "no such file" in stderr
    doc = json.loads(results_file.read_text())
    row = doc["games"][3]
    row["winner"] = "draw" if row["winner"] != "draw" else "marines"
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(doc))
    code, _, stderr = run_cli(capsys, "replay", str(tampered), "--game", "3")
    assert code == 1 and "but the file records" in stderr


def test_dask_backend_from_the_command_line(results_file: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "dask.json"
    code, _, _ = run_cli(capsys, "simulate", "tutorial", "--games", "8", "--seed", "21", "--backend", "dask",
                         "--workers", "1", "--set", "turn_cap=30", "--out", str(out), *RANDOM)
    assert code == 0
    assert read_results(out)["games"] == read_results(results_file)["games"]


def test_replay_plays_recorded_actions_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "actions.json"
    code, _, _ = run_cli(capsys, "simulate", "tutorial", "-n", "3", "--workers", "1", "--keep-actions",
                         "--out", str(out), *RANDOM)
    assert code == 0
    doc = json.loads(out.read_text())
    assert len(doc["games"][1]["actions"]) == doc["games"][1]["n_actions"] > 0
    code, stdout, _ = run_cli(capsys, "replay", str(out), "--game", "1", "--json")
    assert code == 0 and json.loads(stdout)["replayed"]["actions"] == doc["games"][1]["actions"]
    doc["games"][1]["actions"][0] = "move nobody N"
    out.write_text(json.dumps(doc))
    code, _, stderr = run_cli(capsys, "replay", str(out), "--game", "1")
    assert code == 1 and "not legal there" in stderr


class _Stream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty
        self.text = ""

    def isatty(self) -> bool:
        return self.tty

    def write(self, s: str) -> int:
        self.text += s
        return len(s)

    def flush(self) -> None:
        pass


def test_progress_is_a_bar_on_a_terminal_and_sparse_lines_otherwise() -> None:
    from engine.sim.cli_support import Progress

    log = _Stream(tty=False)
    p = Progress(100, "x: ", stream=log)  # type: ignore[arg-type]
    for _ in range(100):
        p.update()
    p.close()
    lines = log.text.splitlines()
    assert len(lines) == 10 and lines[-1].startswith("x: 100/100 games")
    term = _Stream(tty=True)
    p = Progress(5, "x: ", stream=term)  # type: ignore[arg-type]
    for _ in range(5):
        p.update()
    p.close()
    assert "\r" in term.text and "[" in term.text and "5/5" in term.text and term.text.endswith("\n")
