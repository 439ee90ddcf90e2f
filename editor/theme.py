"""Light or dark, as the desktop is: Qt's colour scheme (Qt 6.5+), followed live; HULKFORGE_THEME=light|dark
overrides it. The map keeps its own colours (editor/palette.py) in either."""

from __future__ import annotations

import os

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

ENV = "HULKFORGE_THEME"
_R = QPalette.ColorRole


def dark_palette() -> QPalette:
    """Fusion's dark palette: light text on dark grey, a blue highlight, disabled text dimmed."""
    p = QPalette()
    base, window, text = QColor("#232629"), QColor("#31363b"), QColor("#eff0f1")
    for role, colour in ((_R.Window, window), (_R.WindowText, text), (_R.Base, base), (_R.AlternateBase, window),
                         (_R.ToolTipBase, window), (_R.ToolTipText, text), (_R.Text, text), (_R.Button, window),
                         (_R.ButtonText, text), (_R.BrightText, QColor("#ff5252")), (_R.Link, QColor("#64b5f6")),
                         (_R.Highlight, QColor("#3daee9")), (_R.HighlightedText, QColor("#1b1e20")),
                         (_R.PlaceholderText, QColor("#9aa0a6"))):
        p.setColor(role, colour)
    for role in (_R.WindowText, _R.Text, _R.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7f8c8d"))
    return p


def wanted_scheme(app: QGuiApplication) -> Qt.ColorScheme:
    """Dark or light: HULKFORGE_THEME if set, else the desktop's scheme (Unknown counts as light)."""
    forced = os.environ.get(ENV, "").strip().lower()
    if forced in ("dark", "light"):
        return Qt.ColorScheme.Dark if forced == "dark" else Qt.ColorScheme.Light
    hints = app.styleHints()
    return hints.colorScheme() if hasattr(hints, "colorScheme") else Qt.ColorScheme.Unknown


def apply_theme(app: QApplication, scheme: Qt.ColorScheme | None = None) -> bool:
    """Give the application the dark or light palette; True when it is dark."""
    dark = (scheme if scheme is not None else wanted_scheme(app)) == Qt.ColorScheme.Dark
    if not app.property("hulkforge_style"):
        app.setProperty("hulkforge_style", app.style().name())
    if dark:
        app.setStyle("Fusion")  # the one style that draws any palette faithfully
        app.setPalette(dark_palette())
    else:
        app.setStyle(str(app.property("hulkforge_style")))
        app.setPalette(app.style().standardPalette())
    app.setProperty("hulkforge_dark", dark)
    return dark


def follow_desktop(app: QApplication) -> None:
    """Apply the theme now and again whenever the desktop switches (once per application)."""
    apply_theme(app)
    hints = app.styleHints()
    if app.property("hulkforge_follows") or not hasattr(hints, "colorSchemeChanged"):
        return
    hints.colorSchemeChanged.connect(lambda scheme: apply_theme(app, None if os.environ.get(ENV) else scheme))
    app.setProperty("hulkforge_follows", True)
