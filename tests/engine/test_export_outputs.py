"""Output files: bad -o paths refused before anything is written, and every export written all or nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.cli import main
from engine.export.staging import StagedFiles, staged_files
from engine.export.tiled import export_tiled
from engine.mission import load_mission
from engine.resources import sample_mission


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--to", "derelict", "-o", "existing"], "existing: is a folder; give a file name"),
        (["--to", "tiled", "-o", "newdir/"], "newdir/: ends with a slash, so it names a folder"),
        (["--to", "tiled", "-o", "map.png"], "map.png: ends in '.png', but this writes a Tiled JSON map: name it map"),
        (["--to", "derelict", "-o", "m.tmj"], "but this writes a Derelict mission text: name it m.txt"),
        (["--to", "tiled", "-o", "nope/m.tmj"], "folder nope does not exist"),
    ],
)
def test_export_refuses_output_paths_before_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "existing").mkdir()
    assert main(["export", "pitfall", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert [p.name for p in tmp_path.iterdir()] == ["existing"] and not any((tmp_path / "existing").iterdir())


@pytest.mark.parametrize(
    ("out", "message"), [("dir", "is a folder"), ("new/", "ends with a slash"), ("m.tmj", "name it m.json")]
)
def test_import_refuses_output_paths_before_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], out: str, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    export_tiled(load_mission(sample_mission("tutorial")), tmp_path / "t.tmj")
    (tmp_path / "dir").mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["import", "t.tmj", "-o", out]) == 2
    assert message in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_tiled_export_whose_tileset_cannot_be_written_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "m-terrain.png").mkdir()
    assert main(["export", "tutorial", "--to", "tiled", "-o", str(tmp_path / "m.tmj")]) == 2
    assert [p.name for p in tmp_path.iterdir()] == ["m-terrain.png"]


def test_staged_files_appear_only_on_commit_and_vanish_on_error(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError), staged_files() as out:
        out.write_text(tmp_path / "a.txt", "a")
        assert list(tmp_path.iterdir()) != []  # staged beside the target, under a hidden name
        assert not (tmp_path / "a.txt").exists()
        raise RuntimeError("the second file could not be made")
    assert list(tmp_path.iterdir()) == []
    with staged_files() as out:
        out.write_text(tmp_path / "a.txt", "a")
        out.write_bytes(tmp_path / "b.bin", b"b")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.bin"]
    assert out.files == [tmp_path / "a.txt", tmp_path / "b.bin"]


def test_a_failed_move_puts_back_what_the_commit_had_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = tmp_path / "old.txt"
    old.write_text("before")
    staged = StagedFiles()
    staged.write_text(old, "after")
    staged.write_text(tmp_path / "new.txt", "new")
    staged.write_text(tmp_path / "third.txt", "third")
    real = os.replace

    def third_fails(src: str, dst: str) -> None:
        if str(dst).endswith("third.txt"):
            raise OSError(5, "Input/output error", str(dst))
        real(src, dst)

    monkeypatch.setattr(os, "replace", third_fails)
    with pytest.raises(OSError):
        staged.commit()
    monkeypatch.setattr(os, "replace", real)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.txt"]
    assert old.read_text() == "before"
