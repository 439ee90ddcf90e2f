"""Numbers the editor cannot hold: a file with one far past any bound opens for repair with a placeholder (no
OverflowError from a 32-bit widget or the marks' grid), and the forms' ranges are the schema's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from editor.docks.schema_info import most_items, number_range

ROOT = Path(__file__).resolve().parents[2]


def _open(tmp_path: Path, text: str, monkeypatch: pytest.MonkeyPatch, qtbot):  # type: ignore[no-untyped-def]
    from editor.app import create_main_window

    f = tmp_path / "m.json"
    f.write_text(text, encoding="utf-8")
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text, *a, **k: shown.append(text))
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: pytest.fail("refused a parseable file"))
    w = create_main_window(str(f), with_lab=False)
    w.autosave_timer.stop()
    qtbot.waitUntil(lambda: bool(shown))
    return w, shown[0]


def _tutorial() -> dict[str, object]:
    doc: dict[str, object] = json.loads((ROOT / "sample_missions" / "tutorial.json").read_text(encoding="utf-8"))
    return doc


def test_a_door_at_x_1e20_opens_for_repair(config_dir, tmp_path, monkeypatch, qtbot) -> None:  # type: ignore[no-untyped-def]
    doc = _tutorial()
    doc["doors"][0]["x"] = "@@"  # type: ignore[index]
    w, shown = _open(tmp_path, json.dumps(doc).replace('"@@"', str(10**20)), monkeypatch, qtbot)
    assert w.doc.mission.doors[0].x == -1
    assert "is beyond any number of a mission" in shown
    w.doc.validate_now()
    assert any(i.path == "$.doors[0].x" and i.rule == "SCHEMA" for i in w.doc.issues)  # still flagged to fix
    w.doc.undo_stack.setClean()
    w.close()


def test_a_limited_total_of_1e12_opens_for_repair(config_dir, tmp_path, monkeypatch, qtbot) -> None:  # type: ignore[no-untyped-def]
    doc = _tutorial()
    doc["genestealers"]["limited"] = {"unit": "stealers", "total": 10**12}  # type: ignore[index]
    w, shown = _open(tmp_path, json.dumps(doc), monkeypatch, qtbot)
    limited = w.doc.mission.genestealers.limited
    assert limited is not None and limited.total == -1 and "is beyond any number of a mission" in shown
    w.doc.undo_stack.setClean()
    w.close()


def test_the_forms_take_the_schemas_ranges(window) -> None:  # type: ignore[no-untyped-def]
    from editor.dialogs import NewMissionDialog

    # A form is made when its tab is first shown or it is first asked for.
    form = window.properties.stealer_form
    squad = window.properties.squad_form
    assert (form.cap.minimum(), form.cap.maximum()) == number_range("genestealers", "model_cap")
    assert (form.limit_total.minimum(), form.limit_total.maximum()) == number_range("genestealers", "limited", "total")
    assert (form.start_blips.minimum(), form.start_blips.maximum()) == number_range("genestealers", "starting", "blips")
    assert all((s.minimum(), s.maximum()) == number_range("genestealers", "pool", str(n)) for n, s in form.pool.items())
    assert (squad.psi.minimum(), squad.psi.maximum()) == number_range("marines", "psi_points")
    dialog = NewMissionDialog(window)
    assert dialog.levels.maximum() == most_items("levels") == 8
    assert dialog.width_.maximum() == dialog.height_.maximum() == 200
