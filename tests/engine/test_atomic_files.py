"""Atomic saves: a writer killed mid-save leaves a temporary file that the next save removes; live ones stay."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import engine.mission.atomic as atomic
from engine.mission.io import atomic_write_bytes
from engine.sim.results import ResultsWriter

# A writer that starts a save, says so, and waits to be killed in the middle of it.
WRITER = textwrap.dedent("""
    import sys, time
    from engine.mission.atomic import AtomicFile
    out = AtomicFile(sys.argv[1])
    out.file.write(b"half a mission" * 1000)
    out.file.flush()
    print("writing", flush=True)
    time.sleep(60)
""")


def _start_writer(target: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(target)], stdout=subprocess.PIPE, text=True,
                            cwd=Path(__file__).resolve().parents[2])
    assert proc.stdout is not None and proc.stdout.readline().strip() == "writing"
    return proc


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_save_killed_midway_leaves_a_temp_file_the_next_save_removes(tmp_path: Path) -> None:
    target = tmp_path / "mission.json"
    target.write_bytes(b"the old mission")
    proc = _start_writer(target)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert target.read_bytes() == b"the old mission"
    [left] = _temps(tmp_path)
    assert left.startswith(".mission.json.")
    atomic_write_bytes(target, b"the new mission")
    assert target.read_bytes() == b"the new mission"
    assert _temps(tmp_path) == []


@pytest.mark.skipif(atomic.fcntl is None, reason="POSIX locks tell a live writer from a dead one")
def test_a_live_writers_temp_file_is_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "mission.json"
    proc = _start_writer(target)
    try:
        atomic_write_bytes(target, b"mine")
        assert len(_temps(tmp_path)) == 1  # the other writer's, still at work
        assert atomic.remove_stale_temp_files(target) == []
    finally:
        proc.kill()
        proc.wait()
    assert len(atomic.remove_stale_temp_files(target)) == 1
    assert _temps(tmp_path) == []


def test_only_our_temp_files_of_that_target_are_removed(tmp_path: Path) -> None:
    target = tmp_path / "m.json"
    keep = [".other.json.abcdefgh.tmp", ".m.json.abc.tmp", "m.json.abcdefgh.tmp", ".m.json.abcdefgh.tmp.bak"]
    for name in keep:
        (tmp_path / name).write_text("not ours")
    (tmp_path / ".m.json.k3_9zz0a.tmp").write_text("a dead writer's")
    atomic_write_bytes(target, b"x")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*keep, "m.json"])


def test_the_results_writer_cleans_up_after_a_killed_batch_too(tmp_path: Path) -> None:
    target = tmp_path / "results.json"
    proc = _start_writer(target)
    proc.kill()
    proc.wait()
    assert len(_temps(tmp_path)) == 1
    with ResultsWriter(target, {"games": 0}) as writer:
        assert len(_temps(tmp_path)) == 1  # its own, now
        writer.finish({}, {})
    assert _temps(tmp_path) == [] and target.stat().st_mode & 0o777 == 0o644


def test_the_folder_is_synced_after_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []
    real_replace, real_fsync_folder = os.replace, atomic.fsync_folder
    monkeypatch.setattr(atomic.os, "replace", lambda a, b: (events.append("replace"), real_replace(a, b)))
    monkeypatch.setattr(atomic, "fsync_folder", lambda f: (events.append(f"fsync {f}"), real_fsync_folder(f)))
    atomic_write_bytes(tmp_path / "m.json", b"x")
    assert events == ["replace", f"fsync {tmp_path}"]


def test_an_abandoned_write_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    writer = ResultsWriter(target, {"games": 1})
    writer.abort()
    writer.abort()
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(UnicodeEncodeError):
        atomic_write_bytes(target, "\ud800".encode())
    assert list(tmp_path.iterdir()) == []
