"""Faults during a batch lose no finished game: SIGTERM, kill -9, a full disk, a bad or busy output, huge counts."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import engine.sim.batch as batch_module
import engine.tune.evaluate
import engine.tune.strength
import engine.tune.train
from engine.cli import main
from engine.sim.journal import Journal, JournalError, journal_path, read_journal
from engine.sim.outputs import OutputClaim, lock_path
from engine.sim.results import read_results, schema_error

ROOT = Path(__file__).resolve().parents[2]
# Random players and two turns: games of a few milliseconds, so a test plays a handful in well under a second.
FAST = ("--marines", "random", "--genestealers", "random", "--set", "turn_cap=2", "--workers", "1")
WAIT_SECONDS = 120.0  # only how long a broken test may hang; a passing one waits for a condition


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def start_cli(*argv: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "engine.cli", *argv], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def journal_rows(path: Path) -> int:
    """Complete game rows in a journal (the header line excluded)."""
    try:
        return max(0, path.read_bytes().count(b"\n") - 1)
    except FileNotFoundError:
        return 0


def wait_for(condition: Any, proc: subprocess.Popen[str]) -> None:
    """Wait until condition() holds (polling: the condition is a file another process writes)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        assert proc.poll() is None, f"the command ended early: {proc.communicate()}"
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.05)


def leftovers(folder: Path) -> list[str]:
    """What a batch must not leave behind: journals, locks, temporary files."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith((".journal", ".lock", ".tmp")))


def test_sigterm_keeps_the_finished_games_in_a_valid_results_file(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    proc = start_cli("simulate", "tutorial", "-n", "5000", "--out", str(out), *FAST)
    wait_for(lambda: journal_rows(journal_path(out)) >= 3, proc)
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=WAIT_SECONDS)
    assert proc.returncode == 143
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr
    kept = [line for line in stderr.splitlines() if "stopped (SIGTERM)" in line]
    assert len(kept) == 1 and f"of 5000 in {out}" in kept[0] and "--resume" in kept[0]
    doc = read_results(out)  # the format, the version and the results schema
    games = doc["summary"]["games"] + doc["summary"]["failed_games"]
    assert games >= 3 and f"kept the {games} finished games" in kept[0]
    assert len(doc["games"]) == games and doc["summary"]["stopped"] == "terminated"
    assert [g["index"] for g in doc["games"]] == sorted(g["index"] for g in doc["games"])
    assert "results written to" in stdout
    assert leftovers(tmp_path) == []


def test_a_killed_batch_leaves_its_journal_to_resume_from(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    proc = start_cli("simulate", "tutorial", "-n", "5000", "--out", str(out), *FAST)
    wait_for(lambda: journal_rows(journal_path(out)) >= 2, proc)
    proc.kill()
    proc.communicate()
    kept = journal_rows(journal_path(out))
    assert kept >= 2 and not out.exists()
    # Without --resume the journal is not thrown away.
    code, _, stderr = run_cli(capsys, "simulate", "tutorial", "-n", "5000", "--out", str(out), *FAST)
    assert code == 2 and f"holds {kept} finished games" in stderr and "--resume" in stderr
    # A different batch cannot resume it.
    code, _, stderr = run_cli(capsys, "simulate", "tutorial", "-n", "5000", "--seed", "2", "--out", str(out),
                              "--resume", *FAST)
    assert code == 2 and "another batch" in stderr
    assert journal_rows(journal_path(out)) == kept


def test_a_full_disk_keeps_the_journal_and_resume_finishes_identically(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, straight = tmp_path / "r.json", tmp_path / "straight.json"
    add = Journal.add

    def add_until_full(self: Journal, row: dict[str, Any]) -> None:
        if self.rows >= 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        add(self, row)

    monkeypatch.setattr(Journal, "add", add_until_full)
    code, stdout, stderr = run_cli(capsys, "simulate", "tutorial", "-n", "8", "--out", str(out), *FAST)
    assert code == 2 and stdout == ""
    lines = stderr.strip().splitlines()
    assert "No space left on device" in lines[-1] and f"the 3 finished games are kept in {out}.journal" in lines[-1]
    assert "Traceback" not in stderr and not out.exists()
    assert leftovers(tmp_path) == ["r.json.journal"]
    monkeypatch.setattr(Journal, "add", add)
    code, _, stderr = run_cli(capsys, "simulate", "tutorial", "-n", "8", "--out", str(out), "--resume", *FAST)
    assert code == 0, stderr
    assert leftovers(tmp_path) == []
    code, _, _ = run_cli(capsys, "simulate", "tutorial", "-n", "8", "--out", str(straight), *FAST)
    assert code == 0
    resumed = read_results(out)
    assert resumed["games"] == read_results(straight)["games"]
    assert resumed["summary"]["games"] == 8 and schema_error(resumed) is None


def test_a_journal_torn_mid_line_loses_that_line_only(tmp_path: Path) -> None:
    path = tmp_path / "r.json.journal"
    spec = {"games": 3, "seed": 1}
    j = Journal.start(path, spec)
    row = {"index": 1, "seed": 0, "winner": "draw"}
    from engine.sim.spec import game_seed

    row["seed"] = game_seed(1, 1)
    j.add(row)
    j.close()
    with open(path, "ab") as fh:
        fh.write(b'{"index": 2, "se')  # the process died while writing this row
    contents = read_journal(path)
    assert contents.rows == 1 and list(contents.done) == [0, 1, 0]
    Journal.reopen(contents).close()
    assert path.read_bytes().endswith(b"}\n")  # the torn line is gone before anything is appended
    with open(path, "ab") as fh:
        fh.write(json.dumps({"index": 0, "seed": 5, "winner": "draw"}).encode() + b"\n")
    with pytest.raises(JournalError, match=r"line 3: .*seed is not game 0's seed"):
        read_journal(path)


@pytest.mark.parametrize("where", ["folder", "missing folder"])
@pytest.mark.parametrize("command", [
    ("simulate", "tutorial", "-n", "4", *FAST),
    ("simulate", "tutorial", "-n", "4", "--strength-check", "--diagonal", "--workers", "1"),
    ("tune", "tutorial", "--target", "0.5", "--param", "turn_cap=2..4", "--workers", "1"),
    ("train", "tutorial", "--side", "marines", "--games", "400", "--workers", "1"),
])
def test_an_output_that_cannot_be_written_is_refused_before_the_first_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, where: str,
    command: tuple[str, ...]
) -> None:
    def no_game(*_a: Any, **_k: Any) -> Iterator[Any]:
        raise AssertionError("a game was played")

    for module in (batch_module, engine.tune.strength, engine.tune.evaluate, engine.tune.train):
        monkeypatch.setattr(module, "iter_batch", no_game)
    monkeypatch.chdir(tmp_path)
    target = "." if where == "folder" else str(Path("no") / "r.json")
    code, stdout, stderr = run_cli(capsys, *command, "--out", target)
    assert code == 2 and stdout == ""
    assert len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr
    assert ("is a folder" if where == "folder" else "does not exist") in stderr
    assert list(tmp_path.iterdir()) == []


def test_a_second_writer_of_the_same_output_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    with OutputClaim(out):
        code, stdout, stderr = run_cli(capsys, "simulate", "tutorial", "-n", "2", "--out", str(out), *FAST)
        assert code == 2 and stdout == ""
        assert f"another hulkforge (pid {os.getpid()}) is writing it" in stderr
        assert len(stderr.strip().splitlines()) == 1
        code, _, stderr = run_cli(capsys, "train", "tutorial", "--side", "marines", "--games", "400", "-o", str(out))
        assert code == 2 and "is writing it" in stderr
    assert not lock_path(out).exists() and not out.exists()


def test_the_lock_of_a_dead_writer_is_taken_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    lock_path(out).write_text(dead.stdout)  # left by a writer killed with -9: no process holds it
    code, _, stderr = run_cli(capsys, "simulate", "tutorial", "-n", "2", "--out", str(out), *FAST)
    assert code == 0, stderr
    assert read_results(out)["summary"]["games"] == 2 and leftovers(tmp_path) == []


@pytest.mark.parametrize("argv", [
    ("simulate", "tutorial", "--games", str(10**20)),
    ("simulate", "tutorial", "--games", str(10**8)),
    ("simulate", "tutorial", "--games", str(10**8), "--strength-check"),
    ("sweep", "tutorial", "--games", str(10**8), "--set", "turn_cap=2,3"),
    ("tune", "tutorial", "--target", "0.5", "--param", "turn_cap=2..4", "--budget", str(10**20)),
    ("train", "tutorial", "--side", "marines", "--games", str(10**20), "-o", "w.json"),
])
def test_game_counts_past_the_maximum_are_usage_errors(capsys: pytest.CaptureFixture[str],
                                                       argv: tuple[str, ...]) -> None:
    code, stdout, stderr = run_cli(capsys, *argv)
    assert code == 2 and stdout == ""
    assert "between" in stderr and "1,000,000" in stderr and len(stderr.strip().splitlines()) == 1


class CountingGames:
    """The indices 0..n-1, counting how many a backend has read."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.read = 0

    def __len__(self) -> int:
        return self.n

    def __iter__(self) -> Iterator[int]:
        for i in range(self.n):
            self.read += 1
            yield i

    def __contains__(self, i: object) -> bool:
        return isinstance(i, int) and 0 <= i < self.n


@pytest.mark.parametrize("backend", ["local", "dask"])
def test_a_batch_reads_its_game_indices_as_it_deals_them(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from engine.sim.spec import BatchSpec

    spec = BatchSpec(games=1_000_000, seed=1, runner="fake")
    games = CountingGames(spec.games)
    cancel = threading.Event()
    if backend == "dask":
        pytest.importorskip("distributed")
        from engine.sim import dask_backend

        real = dask_backend.run_dask
        monkeypatch.setattr(dask_backend, "run_dask", lambda *a, **k: real(*a, **{**k, "processes": False}))
    got = []
    for rec in batch_module.iter_batch(spec, backend=backend, workers=1, indices=games, cancel=cancel):
        got.append(rec.index)
        if len(got) == 5:
            cancel.set()
    assert len(got) >= 5
    assert games.read <= 1_000  # a few chunks, not a list of a million games


def test_sigterm_stops_a_sweep_with_the_table_of_what_finished(tmp_path: Path) -> None:
    proc = start_cli("sweep", "tutorial", "-n", "300", "--set", "reinforcements.per_turn=0,1", *FAST)
    assert proc.stderr is not None
    line = proc.stderr.readline()  # the first progress line: 60 of the 600 games have finished
    assert line.startswith("sweep: "), line
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=WAIT_SECONDS)
    assert proc.returncode == 143
    assert "Traceback" not in stderr and "BrokenPipeError" not in stderr
    assert "hulkforge sweep: stopped (SIGTERM) at reinforcements.per_turn=" in stderr
    assert stdout.splitlines()[2].startswith("0 ")  # the first value's row of the table


def test_sigterm_keeps_the_strength_pairings_played(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.commands.strength as strength_command
    from engine.sim.cli_support import Progress
    from engine.sim.stopping import Terminated

    class TerminatedMidway(Progress):
        def update(self, n: int = 1) -> None:
            super().update(n)
            if self.done == 6:  # two pairings of 3 games and none of the third
                raise Terminated

    monkeypatch.setattr(strength_command, "Progress", TerminatedMidway)
    out = tmp_path / "s.json"
    code, _, stderr = run_cli(capsys, "simulate", "tutorial", "-n", "3", "--strength-check", "--diagonal",
                              "--set", "turn_cap=2", "--workers", "1", "--out", str(out))
    assert code == 143
    assert f"strength check stopped (SIGTERM): kept the 2 pairings played in {out}" in stderr
    doc = json.loads(out.read_text())
    assert doc["complete"] is False and doc["cancelled"] is True
    assert [c["games"] for c in doc["cells"]] == [3, 3]
    assert leftovers(tmp_path) == []


def test_a_batch_stopped_by_ctrl_c_resumes_from_its_results_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import engine.commands.simulate as simulate_command
    from engine.sim.cli_support import Progress

    class CtrlCMidway(Progress):
        def update(self, n: int = 1) -> None:
            super().update(n)
            if self.done == 3:
                raise KeyboardInterrupt

    out = tmp_path / "r.json"
    monkeypatch.setattr(simulate_command, "Progress", CtrlCMidway)
    code, _, stderr = run_cli(capsys, "simulate", "tutorial", "-n", "8", "--out", str(out), *FAST)
    assert code == 130 and "stopped (Ctrl-C): kept the 3 finished games of 8" in stderr
    stopped = read_results(out)
    assert stopped["summary"]["stopped"] == "interrupted" and len(stopped["games"]) == 3
    assert leftovers(tmp_path) == []
    monkeypatch.setattr(simulate_command, "Progress", Progress)
    code, _, stderr = run_cli(capsys, "simulate", "tutorial", "-n", "8", "--out", str(out), "--resume", *FAST)
    assert code == 0, stderr
    resumed = read_results(out)
    assert [g["index"] for g in resumed["games"]] == list(range(8)) and resumed["summary"]["stopped"] is None
    assert [g for g in resumed["games"] if g["index"] in {g["index"] for g in stopped["games"]}] == stopped["games"]
