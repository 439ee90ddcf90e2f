"""Help: the manual from the project's docs, the keyboard shortcuts read from the actions, About; the random-zone
tool's icon is no question mark."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QAction, QImage
from PySide6.QtWidgets import QMessageBox

from editor.help import CHECKOUT, manual_pages
from editor.tool_icons import tool_icon

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")


def test_help_is_the_last_menu_with_manual_shortcuts_and_about(qtbot, pitfall_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from editor.app import create_main_window

    w = create_main_window(str(pitfall_path), with_lab=True, tell=False)
    qtbot.addWidget(w)
    w.autosave_timer.stop()
    titles = [a.text().replace("&", "") for a in w.menuBar().actions()]
    assert titles[-1] == "Help" and "Lab" in titles
    help_items = [a.text().replace("&", "") for a in w.help_menu.actions() if not a.isSeparator()]
    assert help_items == ["Manual", "Keyboard shortcuts", "About hulkforge"]

    dialog = w.show_shortcuts()
    table = dialog.table
    listed = {(table.item(r, 1).text(), table.item(r, 2).text()) for r in range(table.rowCount())}
    # Every action with a shortcut anywhere in the window's menus, the lab's too, is in the table.
    for act in w.findChildren(QAction):
        if act.shortcuts() and any(act in m.actions() for m in w.findChildren(type(w.help_menu))):
            assert any(name == act.text().replace("&", "").rstrip("…") for name, _ in listed), act.text()
    assert ("Balance lab", "Ctrl+L") in listed and ("Brush", "B") in listed and ("Save", "Ctrl+S") in listed
    assert any(name.startswith("Redo") and "Ctrl+Y" in keys for name, keys in listed)

    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "about", lambda parent, title, text: shown.append(text))
    w.show_about()
    assert shown and "hulkforge" in shown[0] and "Qt" in shown[0] and "Engine: plain Python" in shown[0]
    w.close()


def test_the_manual_shows_the_readme_and_the_docs(window) -> None:  # type: ignore[no-untyped-def]
    dialog = window.show_manual()
    pages = [p.title for p in dialog.pages]
    assert len(pages) >= 3 and dialog.pages[0].path == CHECKOUT / "README.md"
    assert "hulkforge" in dialog.browser.toPlainText()
    dialog.list.setCurrentRow(len(pages) - 1)
    assert dialog.browser.source().toLocalFile().endswith(".md")


def test_installed_without_a_checkout_the_manual_is_the_packaged_readme(tmp_path: Path) -> None:
    pages = manual_pages(tmp_path)
    assert len(pages) == 1 and pages[0].path is None and pages[0].text


def test_the_random_zone_icon_is_not_a_question_mark(qapp) -> None:  # type: ignore[no-untyped-def]
    img = tool_icon("Random zone").pixmap(32, 32).toImage().convertToFormat(QImage.Format.Format_ARGB32)
    # A die: dark pips at its centre and corners; a "?" leaves the centre pip's square blank.
    centre = img.pixelColor(16, 16)
    assert centre.alpha() > 200 and centre.lightness() < 100
