"""First impressions: the save name comes from the title, the window fits a 150%-scaled screen, the theme follows
the desktop's light or dark scheme."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QFileDialog

from editor.dialogs import new_mission
from editor.document import MissionDocument
from editor.theme import apply_theme, follow_desktop

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")


def test_the_default_save_name_comes_from_the_title(window, monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    proposed: list[str] = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda parent, title, start, flt: (proposed.append(start),
                                                                                           ("", ""))[1])
    window.set_document(MissionDocument(new_mission("Hold the Line!", 20, 12, 1), None, window))
    assert not window.save_as()
    assert proposed == ["hold-the-line.json"]


def test_the_first_window_fits_a_1280x720_screen(window) -> None:  # type: ignore[no-untyped-def]
    # 1920×1080 at 150% scaling is 1280×720 logical pixels; a title bar and a panel take some 60 of them.
    need = window.minimumSizeHint().expandedTo(window.minimumSize())
    assert need.width() <= 1280 and need.height() <= 660, need


def test_the_theme_follows_the_desktop(qapp, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("HULKFORGE_THEME", raising=False)
    app = QApplication.instance()
    try:
        assert apply_theme(app, Qt.ColorScheme.Dark)
        assert app.palette().color(QPalette.ColorRole.Window).lightness() < 100
        assert not apply_theme(app, Qt.ColorScheme.Light)
        assert app.palette().color(QPalette.ColorRole.Window).lightness() > 150
        follow_desktop(app)  # and when the desktop switches, the editor does too
        hints = app.styleHints()
        hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)  # what the platform sends when the desktop switches
        assert app.property("hulkforge_dark")
        hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
        assert not app.property("hulkforge_dark")
        monkeypatch.setenv("HULKFORGE_THEME", "dark")
        assert apply_theme(app)
    finally:
        apply_theme(app, Qt.ColorScheme.Light)
