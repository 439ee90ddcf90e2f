"""Inputs that are not regular files: a device, a FIFO nobody writes to, a FIFO whose writer never stops.

Every command that reads a file stops with one line naming it (exit 2), within the size limit and without
waiting forever. The timeouts below only make a hang show quickly; nothing asserts how long anything takes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hostile_corpus import start_fifo_writer

from engine.cli import main
from engine.mission import bounded_read
from engine.mission.io import MissionFileError, read_limited

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")

SAMPLE = Path(__file__).resolve().parents[2] / "sample_missions" / "pitfall.json"


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    yield path
    # A writer still blocked in open() (the reader never came) is released: open the read end once.
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    os.close(fd)


@pytest.fixture
def no_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounded_read, "PIPE_TIMEOUT_S", 0.2)


@pytest.mark.timeout(20)
def test_a_device_is_refused_without_reading_it() -> None:
    with pytest.raises(MissionFileError, match=r"^/dev/zero: is a device, not a mission file$"):
        read_limited("/dev/zero")


@pytest.mark.timeout(20)
def test_a_fifo_with_no_writer_stops_at_the_deadline(fifo: Path, no_wait: None) -> None:
    with pytest.raises(MissionFileError, match=r"nothing to read within 0\.2 s"):
        read_limited(fifo)


@pytest.mark.timeout(20)
def test_a_fifo_whose_writer_never_stops_is_read_only_to_the_limit(fifo: Path) -> None:
    writer = start_fifo_writer(fifo, None)
    with pytest.raises(MissionFileError, match="more than the 1000 bytes allowed"):
        read_limited(fifo, max_bytes=1000)
    writer.join()  # the writer saw the reader go (a broken pipe): nothing keeps writing


@pytest.mark.timeout(20)
def test_a_fifo_with_a_mission_in_it_reads_like_the_file(fifo: Path) -> None:
    start_fifo_writer(fifo, SAMPLE.read_bytes())
    assert read_limited(fifo) == SAMPLE.read_bytes()


@pytest.mark.timeout(20)
def test_validate_reads_a_mission_from_a_pipe(fifo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    start_fifo_writer(fifo, SAMPLE.read_bytes())
    assert main(["validate", str(fifo)]) == 0


def _commands(src: str, tmp: Path) -> dict[str, list[str]]:
    return {
        "validate": ["validate", src],
        "simulate": ["simulate", src, "-n", "1", "--workers", "1"],
        "sweep": ["sweep", src, "--set", "turn_cap=2,3", "--games", "1", "--workers", "1"],
        "play": ["play", src],
        "render": ["render", src, "--format", "svg", "-o", str(tmp / "out.svg")],
        "export": ["export", src, "--to", "tiled", "-o", str(tmp / "out.tmj")],
        "import": ["import", src, "-o", str(tmp / "mission.json")],
        "replay": ["replay", src, "--game", "0"],
        "param-file": ["simulate", "pitfall", "-n", "1", "--workers", "1", "--param-file", src],
        "edit": ["edit", src],
    }


COMMANDS = list(_commands("X", Path()))


@pytest.mark.timeout(20)
@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_refuses_dev_zero(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_commands("/dev/zero", tmp_path)[command]) == 2
    err = capsys.readouterr().err.strip()
    assert "/dev/zero: " in err and len(err.splitlines()) == 1, err
    assert not list(tmp_path.iterdir())


@pytest.mark.timeout(20)
@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_stops_on_a_fifo_with_nostart_fifo_writer(command: str, tmp_path: Path, fifo: Path, no_wait: None,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    assert main(_commands(str(fifo), out)[command]) == 2
    err = capsys.readouterr().err.strip()
    assert f"{fifo}: " in err and len(err.splitlines()) == 1, err
    assert not list(out.iterdir())


@pytest.mark.timeout(20)
@pytest.mark.parametrize("command", ["validate", "import", "replay", "param-file"])
def test_every_command_stops_reading_an_endless_fifo(command: str, tmp_path: Path, fifo: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    writer = start_fifo_writer(fifo, None)
    assert main(_commands(str(fifo), out)[command]) == 2
    err = capsys.readouterr().err.strip()
    assert f"{fifo}: " in err and "bytes allowed" in err and len(err.splitlines()) == 1, err
    writer.join()
