"""Every command that reads a mission agrees on what its exit code says: 1 when the mission breaks a rule (its
file format included), 2 when the file cannot be read; nothing is written either way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main

SAMPLE = Path(__file__).resolve().parents[2] / "sample_missions" / "tutorial.json"


def _commands(src: str, out: Path) -> dict[str, list[str]]:
    return {
        "validate": ["validate", src],
        "simulate": ["simulate", src, "-n", "1", "--workers", "1"],
        "sweep": ["sweep", src, "--set", "turn_cap=2,3", "--games", "1", "--workers", "1"],
        "play": ["play", src, "--quiet"],
        "render": ["render", src, "--format", "svg", "-o", str(out / "out.svg")],
        "export-tiled": ["export", src, "--to", "tiled", "-o", str(out / "out.tmj")],
        "export-derelict": ["export", src, "--to", "derelict", "-o", str(out / "out.txt")],
    }


COMMANDS = list(_commands("X", Path()))


@pytest.fixture
def out(tmp_path: Path) -> Path:
    folder = tmp_path / "out"
    folder.mkdir()
    return folder


@pytest.mark.parametrize("command", COMMANDS)
def test_a_mission_that_breaks_the_format_exits_1(command: str, tmp_path: Path, out: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(SAMPLE.read_text(encoding="utf-8"))
    doc["doors"][0]["state"] = "ajar"  # the smallest break of the schema
    src = tmp_path / "ajar.json"
    src.write_text(json.dumps(doc), encoding="utf-8")
    assert main(_commands(str(src), out)[command]) == 1
    text = capsys.readouterr()
    assert "SCHEMA" in text.out + text.err and "Traceback" not in text.err
    assert not list(out.iterdir())


@pytest.mark.parametrize("command", COMMANDS)
def test_a_file_that_cannot_be_read_exits_2(command: str, tmp_path: Path, out: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "broken.json"
    src.write_bytes(b'{"format": ')
    assert main(_commands(str(src), out)[command]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"hulkforge {command.split('-')[0]}: {src}: line 1") and len(err.splitlines()) == 1
    assert not list(out.iterdir())
