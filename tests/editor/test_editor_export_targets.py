"""File › Export never writes over a mission: not the open one, not any .json; Derelict's default name is one its
editor lists, the level is asked for, and the exporter's warnings are shown."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")


@pytest.fixture
def own_copy(window, pitfall_path: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    """The window on a copy of pitfall.json in tmp_path (an export must never touch it)."""
    path = tmp_path / "pitfall.json"
    shutil.copy(pitfall_path, path)
    assert window.open_file(str(path))
    return path


@pytest.fixture
def dialogs(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """The save dialog answers with `answer[0]` and records what it proposed; the level picker picks the lower
    level; warnings are recorded."""
    seen: dict[str, list] = {"save": [], "warning": [], "level": []}  # type: ignore[type-arg]
    answer: list[str] = [""]

    def save(parent, title, proposed, filters, *a, **k):  # type: ignore[no-untyped-def]
        seen["save"].append((proposed, filters))
        return answer[0], filters

    def level(parent, title, label, items, current, editable, *a, **k):  # type: ignore[no-untyped-def]
        seen["level"].append(list(items))
        return items[-1], True

    def warning(parent, title, text, *a, **k):  # type: ignore[no-untyped-def]
        seen["warning"].append(text)
        return QMessageBox.StandardButton.Ok

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    monkeypatch.setattr(QInputDialog, "getItem", level)
    monkeypatch.setattr(QMessageBox, "warning", warning)
    return seen, answer


@pytest.mark.parametrize("kind", ["png", "svg", "pdf", "tiled", "derelict"])
def test_no_export_writes_over_the_open_mission(window, own_copy: Path, dialogs, kind: str) -> None:  # type: ignore[no-untyped-def]
    seen, answer = dialogs
    before = own_copy.read_bytes()
    answer[0] = str(own_copy)  # the designer accepts the mission's own name (and the overwrite prompt)
    export = (lambda: window.export_tiled()) if kind == "tiled" else (lambda: window.export_derelict()) \
        if kind == "derelict" else (lambda: window.export_render(kind))
    assert not export()
    assert own_copy.read_bytes() == before
    assert "open mission" in seen["warning"][-1]
    proposed, filters = seen["save"][-1]
    assert not proposed.endswith(".json") and "*.json" not in filters
    answer[0] = str(own_copy.with_name("other.json"))  # any other .json is refused too
    assert not export()
    assert not own_copy.with_name("other.json").exists()


def test_derelict_asks_the_level_proposes_name_mission_txt_and_lists_the_warnings(  # type: ignore[no-untyped-def]
        window, own_copy: Path, dialogs) -> None:
    seen, answer = dialogs
    answer[0] = str(own_copy.with_name("chosen"))  # typed without a suffix
    assert window.export_derelict()
    assert seen["level"] == [["Upper level (depth 0)", "Lower level (depth 1)"]]
    proposed, filters = seen["save"][-1]
    assert Path(proposed).name == "pitfall-lower-level.mission.txt" and "*.mission.txt" in filters
    assert (own_copy.parent / "chosen.mission.txt").is_file()
    shown = window.export_warnings
    assert shown is not None and shown.isVisible() and len(shown.warnings) >= 2
    assert shown.warnings == [line[2:] for line in shown.text.toPlainText().splitlines()]
