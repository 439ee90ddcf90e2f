"""File › Import… and Open read a Derelict mission into a new, unsaved mission and say what did not come across;
when its segments are in no library beside it, the editor asks for one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")

DERELICT = Path(__file__).resolve().parents[1] / "engine" / "derelict"


def _file_menu_action(window, text: str):  # type: ignore[no-untyped-def]
    menu = next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "File")
    return next(a for a in menu.actions() if a.text().replace("&", "") == text)


def test_file_import_reads_a_derelict_mission(window, reply, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    shown = reply("information", None)
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda *a, **k: (str(DERELICT / "cross_deck.mission.txt"), ""))
    _file_menu_action(window, "Import…").trigger()
    doc = window.doc
    assert doc.mission.meta.title == "Cross Deck" and doc.path is None and doc.dirty
    assert len(doc.mission.levels[0].sections) == 6 and len(doc.mission.marines.squad) == 3
    assert len(shown) == 1 and "blip_2" in shown[0] and "drop_marine" in shown[0]
    assert not [i for i in doc.validate_now() if i.severity == "error"]


def test_open_recognises_a_derelict_mission_and_asks_for_its_segments(  # type: ignore[no-untyped-def]
    window, reply, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reply("information", None)
    src = tmp_path / "cross.mission.txt"
    src.write_text((DERELICT / "cross_deck.mission.txt").read_text().replace("segments: lib_segments.txt\n", ""))
    lib = tmp_path / "library" / "segments.txt"
    lib.parent.mkdir()
    shutil.copy(DERELICT / "lib_segments.txt", lib)
    asked: list[str] = []

    def pick(parent, title, *args, **kwargs):  # type: ignore[no-untyped-def]
        asked.append(title)
        return str(lib), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", pick)
    assert window.open_file(str(src), ask=False)
    assert asked == ["Segment library for cross.mission.txt"]
    assert window.doc.mission.meta.title == "Cross Deck"


def test_a_malformed_derelict_mission_is_a_dialog_and_nothing_changes(window, reply, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    shown = reply("critical", None)
    before = window.doc
    bad = tmp_path / "bad.mission.txt"
    bad.write_text("board: 20\ninstances:\n  S1: corridor_4 pos=(1,x) rot=0\n")
    assert not window.open_file(str(bad), ask=False)
    assert window.doc is before
    assert len(shown) == 1 and f"{bad}: line 3:" in shown[0]


def test_open_offers_derelict_and_tiled_but_save_offers_missions_only(  # type: ignore[no-untyped-def]
    window, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    filters: dict[str, str] = {}

    def remember(which: str):  # type: ignore[no-untyped-def]
        def dialog(parent, title, start, wanted, *args, **kwargs):  # type: ignore[no-untyped-def]
            filters[which] = wanted
            return "", ""
        return dialog

    monkeypatch.setattr(QFileDialog, "getOpenFileName", remember("open"))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", remember("save"))
    window.doc.undo_stack.setClean()
    window.open_dialog()
    window.save_as()
    assert "*.txt" in filters["open"] and "*.tmj" in filters["open"]
    assert "*.txt" not in filters["save"] and "*.json" in filters["save"]


def test_open_imports_a_tiled_map_too(window, reply, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from engine.cli import main

    reply("information", None)
    tmj = tmp_path / "pitfall.tmj"
    assert main(["export", str(window.doc.path), "--to", "tiled", "-o", str(tmj)]) == 0
    original = window.doc.mission
    assert window.open_file(str(tmj), ask=False)
    assert window.doc.path is None and window.doc.mission.levels[0].rows == original.levels[0].rows
