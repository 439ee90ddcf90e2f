# mypy: disable-error-code="misc"
# (a mixin: its methods are typed with the window they are mixed into)
"""Help menu: the manual (the project's own docs), the keyboard shortcuts read from the actions, About."""

from __future__ import annotations

import importlib.metadata
import platform
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import PySide6
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QListWidget,
    QMenu,
    QMessageBox,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from engine.compiled import engine_build

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow

CHECKOUT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Page:
    """One page of the manual: a Markdown file of the checkout, or the text the installed package carries."""

    title: str
    path: Path | None = None
    text: str = ""


def _title(path: Path) -> str:
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("#"):
            return line.lstrip("#").strip()
    return path.stem


def manual_pages(root: Path = CHECKOUT) -> list[Page]:
    """The README and docs/*.md of a checkout; installed without one, the README the package's metadata holds."""
    readme = root / "README.md"
    if readme.is_file():
        docs = sorted((root / "docs").glob("*.md")) if (root / "docs").is_dir() else []
        return [Page(_title(p), p) for p in [readme, *docs]]
    try:
        text = importlib.metadata.metadata("hulkforge").get_payload() or ""  # type: ignore[attr-defined]
    except importlib.metadata.PackageNotFoundError:
        text = ""
    return [Page("hulkforge", text=str(text) or "The manual is README.md in the hulkforge sources.")]


class ManualDialog(QDialog):
    """The pages on the left, the page shown as formatted Markdown on the right (its links and pictures work)."""

    def __init__(self, pages: list[Page], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("hulkforge manual")
        self.pages = pages
        self.list = QListWidget()
        self.list.addItems([p.title for p in pages])
        self.list.setMaximumWidth(240)
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)
        row = QHBoxLayout()
        row.addWidget(self.list)
        row.addWidget(self.browser, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout.addWidget(buttons)
        self.list.currentRowChanged.connect(self.show_page)
        self.list.setCurrentRow(0)
        self.resize(1000, 700)

    def show_page(self, row: int) -> None:
        if not 0 <= row < len(self.pages):
            return
        page = self.pages[row]
        if page.path is not None:
            self.browser.setSource(QUrl.fromLocalFile(str(page.path)))  # relative links and pictures resolve
        else:
            self.browser.setMarkdown(page.text)


def shortcut_rows(menus: list[QMenu]) -> list[tuple[str, str, str]]:
    """(menu, command, shortcuts) for every action with a shortcut, read from the menus themselves."""
    rows: list[tuple[str, str, str]] = []

    def walk(menu: QMenu, where: str) -> None:
        for act in menu.actions():
            sub = act.menu()
            if isinstance(sub, QMenu):
                walk(sub, f"{where} › {sub.title().replace('&', '')}")
            elif act.shortcuts() and not act.isSeparator():
                keys = ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in act.shortcuts())
                rows.append((where, act.text().replace("&", "").rstrip("…"), keys))

    for menu in menus:
        walk(menu, menu.title().replace("&", ""))
    return rows


class ShortcutsDialog(QDialog):
    """Every keyboard shortcut of the window's menus, in a table."""

    def __init__(self, rows: list[tuple[str, str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.table = QTableWidget(len(rows), 3)
        self.table.setHorizontalHeaderLabels(["Menu", "Command", "Shortcut"])
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.resizeColumnsToContents()
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout.addWidget(buttons)
        self.resize(620, 640)


def about_text() -> str:
    try:
        version = importlib.metadata.version("hulkforge")
    except importlib.metadata.PackageNotFoundError:
        version = "(not installed)"
    return (f"<b>hulkforge {version}</b><p>A Space Hulk mission editor and Monte Carlo simulator.</p>"
            f"<p>Engine: {engine_build()}. Python {platform.python_version()}, Qt {PySide6.QtCore.qVersion()}, "
            f"PySide6 {PySide6.__version__}. MIT licence.</p>")


class HelpActions:
    """Mixed into MainWindow; `self` is the window."""

    help_dialog: QDialog | None = None

    def make_help_menu(self: MainWindow) -> QMenu:
        menu = self.menuBar().addMenu("&Help")
        menu.setToolTipsVisible(True)
        self._action(menu, "&Manual", self.show_manual, QKeySequence.StandardKey.HelpContents,
                     "The hulkforge manual: README and the docs (rules, balance, Tiled convention)")
        self._action(menu, "&Keyboard shortcuts", self.show_shortcuts, "Ctrl+/",
                     "Every keyboard shortcut of the menus")
        menu.addSeparator()
        self._action(menu, "&About hulkforge", self.show_about, tip="Version, Python and Qt")
        return menu

    def _show(self: MainWindow, dialog: QDialog) -> QDialog:
        if self.help_dialog is not None:
            self.help_dialog.close()
        self.help_dialog = dialog
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        dialog.show()
        return dialog

    def show_manual(self: MainWindow) -> QDialog:
        return self._show(ManualDialog(manual_pages(), self))

    def show_shortcuts(self: MainWindow) -> QDialog:
        menus = [a.menu() for a in self.menuBar().actions() if isinstance(a.menu(), QMenu)]
        return self._show(ShortcutsDialog(shortcut_rows(menus), self))

    def show_about(self: MainWindow) -> None:
        QMessageBox.about(self, "About hulkforge", about_text())


__all__ = ["HelpActions"]
