# mypy: disable-error-code="misc"
# (a mixin: its methods are typed with the window they are mixed into)
"""File › Export for the main window: print (PNG/SVG/PDF), Tiled and Derelict, never over a mission file, with
the exporter's warnings shown."""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from editor.file_names import export_target, mission_stem
from engine.export.files import level_file_names

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow

DERELICT_SUFFIX = ".mission.txt"  # the only name Derelict's mission editor lists


class ExportWarnings(QDialog):
    """What an export could not carry over, one line each (non-blocking: the export is already written)."""

    def __init__(self, parent: QWidget, title: str, files: list[str], warnings: list[str]) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.warnings = warnings
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(f"Wrote {', '.join(os.path.basename(f) for f in files)}, with "
                                f"{len(warnings)} warning(s) about what the target cannot show:"))
        self.text = QPlainTextEdit("\n".join(f"• {w}" for w in warnings))
        self.text.setReadOnly(True)
        self.text.setMinimumSize(620, 220)
        layout.addWidget(self.text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout.addWidget(buttons)


class ExportActions:
    """Mixed into MainWindow; `self` is the window."""

    export_warnings: ExportWarnings | None = None

    def make_export_menu(self: MainWindow, menu: QMenu) -> None:
        export = menu.addMenu("&Export")
        export.setToolTipsVisible(True)
        for fmt in ("png", "svg", "pdf"):
            self._action(export, f"Export {fmt.upper()}…", lambda f=fmt: self.export_render(f),
                         tip=f"Print-quality {fmt.upper()} of every level (editor.render)")
        self._action(export, "Export to Tiled…", self.export_tiled, tip="A Tiled map (.tmj) of the mission")
        self._action(export, "Export to Derelict…", self.export_derelict,
                     tip="One level as a Derelict mission (NAME.mission.txt) and its segment library")

    def _lazy(self: MainWindow, module: str, name: str) -> Any:
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as exc:
            QMessageBox.warning(self, "Export not available", f"{module}.{name} is not available yet: {exc}")
            return None

    def _export_path(self: MainWindow, title: str, proposed: str, what: str, suffixes: tuple[str, ...],
                     path: str | None) -> str | None:
        """The file to write: path, or the one picked in a save dialog; refused (with a dialog saying why) when it
        is the open mission or any .json file."""
        if not path:
            pattern = " ".join(f"*{s}" for s in suffixes)
            path, _ = QFileDialog.getSaveFileName(self, title, proposed, f"{what} ({pattern})")
            if not path:
                return None
        target, why = export_target(path, suffixes, self.doc.path)
        if target is None:
            QMessageBox.warning(self, title, f"{why}\n\nNothing was written. Export again and pick another name.")
        return target

    def _stem(self: MainWindow) -> str:
        return mission_stem(self.doc.path, self.doc.mission.meta.title)

    def export_render(self: MainWindow, fmt: str, path: str | None = None) -> bool:
        render = self._lazy("editor.render", "render_mission")
        if render is None:
            return False
        per_level = fmt != "pdf" and len(self.doc.mission.levels) > 1
        title = f"Export {fmt.upper()}" + (" (one file per level: NAME-LEVEL." + fmt + ")" if per_level else "")
        target = self._export_path(title, f"{self._stem()}.{fmt}", fmt.upper(), (f".{fmt}",), path)
        return bool(target) and self._run_export(lambda: render(self.doc.mission, target, fmt, dpi=150), target)

    def _exportable(self: MainWindow, client: str) -> bool:
        """False (and says why) while the mission breaks the file format: another client would be handed a
        mission that it, and our own importer, cannot read."""
        if self.doc.validated_revision != self.doc.revision:
            self.doc.validate_now()
        errors = self.doc.format_errors()
        if errors:
            first = errors[0]
            more = f" (and {len(errors) - 1} more, in the Issues panel)" if len(errors) > 1 else ""
            QMessageBox.warning(self, f"Export to {client}",
                                f"The mission does not follow the mission format yet, so it cannot be exported to "
                                f"{client}. Fix this first:\n\n{first.path}: {first.message}{more}")
            return False
        return True

    def export_tiled(self: MainWindow, path: str | None = None) -> bool:
        fn = self._lazy("engine.export.tiled", "export_tiled")
        if fn is None or not self._exportable("Tiled"):
            return False
        target = self._export_path("Export to Tiled", f"{self._stem()}.tmj", "Tiled map", (".tmj",), path)
        return bool(target) and self._run_export(lambda: fn(self.doc.mission, target), target, "Export to Tiled")

    def choose_derelict_level(self: MainWindow) -> str | None:
        """The level to export: the only one, or the one the designer picks (Derelict shows one level)."""
        levels = self.doc.mission.levels_top_down()
        if len(levels) == 1:
            return levels[0].id
        names = [f"{lv.name or lv.id} (depth {lv.depth})" for lv in levels]
        shown = next((i for i, lv in enumerate(levels) if lv.id == self.current_level()), 0)
        picked, ok = QInputDialog.getItem(self, "Export to Derelict",
                                          "Derelict shows one level. Which level to export?", names, shown, False)
        return levels[names.index(picked)].id if ok and picked in names else None

    def export_derelict(self: MainWindow, path: str | None = None, level: str | None = None) -> bool:
        fn = self._lazy("engine.export.derelict", "export_derelict")
        if fn is None or not self._exportable("Derelict"):
            return False
        level = level or self.choose_derelict_level()
        lv = self.doc.mission.level(level) if level else None
        if lv is None:
            return False
        stem = self._stem()
        if len(self.doc.mission.levels) > 1:
            stem += "-" + level_file_names(self.doc.mission)[lv.id]
        target = self._export_path(f"Export {lv.name or lv.id} to Derelict", stem + DERELICT_SUFFIX,
                                   "Derelict mission", (DERELICT_SUFFIX, ".txt"), path)
        return bool(target) and self._run_export(lambda: fn(self.doc.mission, level, target), target,
                                                 f"Export {lv.name or lv.id} to Derelict")

    def _run_export(self: MainWindow, job: Any, path: str, title: str = "Export") -> bool:
        try:
            written = job()
        except Exception as exc:  # an exporter's failure must not take the window down with it
            QMessageBox.critical(self, "Export failed", f"{path}: {exc}")
            return False
        files = written if isinstance(written, list) else getattr(written, "files", [])
        self.last_export = [str(p) for p in files] or [path]
        # Name what was written: a mission of several levels gives one file per level, not the name typed.
        names = ", ".join(os.path.basename(p) for p in self.last_export)
        folder = os.path.dirname(self.last_export[0])
        what = f"{len(self.last_export)} files (one per level): {names}" if len(self.last_export) > 1 else names
        self.show_status(f"exported {what} in {folder}", 8000)
        warnings = list(getattr(written, "warnings", []))
        if warnings:
            if self.export_warnings is not None:
                self.export_warnings.close()
            self.export_warnings = ExportWarnings(self, f"{title}: warnings", self.last_export, warnings)
            self.export_warnings.show()
        return True


__all__ = ["DERELICT_SUFFIX", "ExportActions"]
