"""`train` keeps its finished rounds and `tune` says what it found when a signal, kill -9 or a full disk stops them."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import engine.mission.io as mission_io
from engine.ai.weights import load_weights_file
from engine.cli import main
from engine.tune.result import Step
from engine.tune.search import narrowed
from engine.tune.space import TunedParam

ROOT = Path(__file__).resolve().parents[2]
WAIT_SECONDS = 120.0  # only how long a broken test may hang; a passing one waits for a condition
# Two-turn games of the heuristic players (whose weights train tunes): 80 games a round, four trials of ten.
TRAIN = ("train", "tutorial", "--side", "marines", "--trial-games", "10", "--check-games", "0",
         "--set", "turn_cap=2", "--workers", "1")
LONG_TRAIN = (*TRAIN, "--games", "8000", "--rounds", "100")  # far longer than any test waits


def start_cli(*argv: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "engine.cli", *argv], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_for_file(path: Path, proc: subprocess.Popen[str]) -> None:
    """Wait until another process has written `path` (polling: it appears by an atomic rename)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not path.exists():
        assert proc.poll() is None, f"the command ended early: {proc.communicate()}"
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.05)


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith((".lock", ".tmp")))


def test_sigterm_keeps_the_finished_rounds_in_a_weights_file_that_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "w.json"
    proc = start_cli(*LONG_TRAIN, "-o", str(out))
    wait_for_file(out, proc)  # written after the first round
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=WAIT_SECONDS)
    assert proc.returncode == 143
    assert "Traceback" not in stderr
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["complete"] is False and doc["rounds"] >= 1
    assert stdout.count("  round ") == doc["rounds"]  # every round printed is in the file, no more
    assert stderr.strip().splitlines() == [
        f"hulkforge train: stopped (SIGTERM) before the end; kept the {doc['rounds']} finished round(s) in {out} "
        "(\"complete\": false; its weights load with --param-file or --start)"]
    assert set(load_weights_file(str(out))) == {"marines"} | ({"genestealers"} if doc["rounds"] > 1 else set())
    assert leftovers(tmp_path) == []
    assert main(["simulate", "tutorial", "--games", "2", "--workers", "1", "--set", "turn_cap=2",
                 "--param-file", str(out)]) == 0
    capsys.readouterr()


def test_a_train_killed_after_a_round_leaves_a_valid_weights_file(tmp_path: Path) -> None:
    out = tmp_path / "w.json"
    proc = start_cli(*LONG_TRAIN, "-o", str(out))
    wait_for_file(out, proc)
    proc.kill()
    proc.communicate(timeout=WAIT_SECONDS)
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["complete"] is False and doc["rounds"] >= 1
    assert "marines" in load_weights_file(str(out))


def test_a_full_disk_keeps_the_previous_round_and_says_so_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "w.json"
    write = mission_io.atomic_write_bytes
    writes = []

    def full_after_one(path: Any, data: bytes) -> None:
        writes.append(path)
        if len(writes) > 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        write(path, data)

    monkeypatch.setattr(mission_io, "atomic_write_bytes", full_after_one)
    code = main([*TRAIN, "--games", "240", "--rounds", "3", "-o", str(out)])
    cap = capsys.readouterr()
    assert code == 2 and len(writes) == 2
    assert cap.err.strip().splitlines() == [
        f"hulkforge train: {out}: cannot write: No space left on device; kept the 1 finished round(s) in {out} "
        "(\"complete\": false; its weights load with --param-file or --start)"]
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["complete"] is False and doc["rounds"] == 1
    assert set(load_weights_file(str(out))) == {"marines"}
    assert leftovers(tmp_path) == []


def test_a_finished_train_writes_a_complete_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "w.json"
    assert main([*TRAIN, "--games", "160", "--rounds", "2", "-o", str(out)]) == 0
    capsys.readouterr()
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["complete"] is True and doc["rounds"] == 2
    assert set(load_weights_file(str(out))) == {"marines", "genestealers"}


def test_sigterm_stops_a_tune_with_the_closest_value_and_the_command_to_go_on(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    proc = start_cli("tune", "tutorial", "--target", "0.4", "--param", "reinforcements.per_turn=0..4",
                     "--set", "turn_cap=4", "--workers", "1", "-o", str(out))
    assert proc.stdout is not None
    rows = []
    while len(rows) < 3:  # both ends of the range and a value between them
        line = proc.stdout.readline()
        assert line, f"the tune ended early: {proc.communicate()}"
        if line[:6].strip().isdigit():
            rows.append(line.split())
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=WAIT_SECONDS)
    assert proc.returncode == 143
    (line,) = stderr.strip().splitlines()
    assert line.startswith("hulkforge tune: stopped (SIGTERM) before an answer; ")
    assert "closest so far: reinforcements.per_turn=" in line and "%] over " in line
    assert "nothing written" in line and not out.exists()
    again = line.split("go on with: ")[1]
    assert again.startswith("hulkforge tune tutorial --target 0.4 --param reinforcements.per_turn=")
    assert again.endswith(f"--set turn_cap=4 --seed 1 -o {out}")
    assert leftovers(tmp_path) == []


def step(x: float, rate: float, games: int = 400) -> Step:
    return Step((x,), games, rate, rate - 0.05, rate + 0.05, "unsure", games)


def test_a_stopped_tune_goes_on_between_the_values_either_side_of_the_target() -> None:
    p = TunedParam("reinforcements.per_turn", 0, 8)
    steps = [step(0, 0.7), step(8, 0.1), step(4, 0.45), step(6, 0.2), step(5, 0.38)]
    assert narrowed([p], steps, 0.4) == [(4, 5)]
    assert narrowed([p], steps[:2], 0.4) == [(0, 8)]
    assert narrowed([p], [step(0, 0.7), step(8, 0.6)], 0.4) == [(0, 8)]  # nothing brackets it: the full range


def test_ctrl_c_in_a_tune_names_the_narrowed_range_to_go_on_with(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import engine.tune.search as search

    def three_looks_then_ctrl_c(*_a: Any, on_step: Any, **_k: Any) -> Any:
        for s in (step(0, 0.55, 100), step(4, 0.2, 100), step(2, 0.35, 200)):
            on_step(s)
        raise KeyboardInterrupt

    monkeypatch.setattr(search, "tune", three_looks_then_ctrl_c)
    out = tmp_path / "m.json"
    code = main(["tune", "tutorial", "--target", "0.4", "--param", "reinforcements.per_turn=0..4",
                 "--marines", "random", "--workers", "1", "-o", str(out)])
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert code == 130 and not out.exists()
    assert line == (
        "hulkforge tune: stopped (Ctrl-C) before an answer; 3 looks, 200 games; closest so far: "
        "reinforcements.per_turn=2 at 35.0% [30.0%–40.0%] over 200 games; nothing written; go on with: "
        "hulkforge tune tutorial --target 0.4 --param reinforcements.per_turn=0..2 --marines random --seed 1 "
        f"-o {out}")


def test_a_tuned_mission_a_full_disk_cannot_hold_is_one_line_with_the_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import engine.tune.search as search
    from engine.tune.result import HIT, TuneResult

    def a_hit(_base: Any, params: list[TunedParam], **_k: Any) -> TuneResult:
        best = Step((1.0,), 2400, 0.4, 0.38, 0.42, "hit", 2600)
        return TuneResult(params, 0.4, 0.02, HIT, "reinforcements.per_turn=1 gives 40.0%", [best], best, 2600)

    def full(*_a: Any) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(search, "tune", a_hit)
    monkeypatch.setattr(mission_io, "atomic_write_bytes", full)
    out = tmp_path / "m.json"
    code = main(["tune", "tutorial", "--target", "0.4", "--param", "reinforcements.per_turn=0..4", "--workers", "1",
                 "-o", str(out)])
    cap = capsys.readouterr()
    assert code == 2 and not out.exists()
    assert cap.err.strip().splitlines() == [
        f"hulkforge tune: {out}: cannot write: No space left on device; nothing written; found: "
        "reinforcements.per_turn=1 gives 40.0%"]
