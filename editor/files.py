# mypy: disable-error-code="misc"
# (a mixin: its methods are typed with the window they are mixed into)
"""File handling for the main window: New/Open/Save/Save As, recent files, export, autosave and recovery."""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox

from editor import settings
from editor.dialogs import NewMissionDialog
from editor.document import MissionDocument, read_for_editing
from engine.mission import Issue, MissionFileError, mission_dumps
from engine.mission.io import atomic_write_text

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow

FILTER = "Missions (*.json);;All files (*)"
LISTED = 8  # problems named in a dialog; the Validation dock lists them all


def bullet_list(issues: list[Issue]) -> str:
    lines = [f"• {i.message}" for i in issues[:LISTED]]
    if len(issues) > LISTED:
        lines.append(f"… and {len(issues) - LISTED} more")
    return "\n".join(lines)


class FileActions:
    """Mixed into MainWindow; `self` is the window."""

    doc: MissionDocument

    def init_files(self: MainWindow) -> None:
        self._autosaved_rev = -1
        self.autosave_timer = QTimer(self)
        self.autosave_timer.setInterval(settings.autosave_seconds() * 1000)
        self.autosave_timer.timeout.connect(self.autosave)
        self.autosave_timer.start()

    def make_file_menu(self: MainWindow, menu: QMenu) -> None:
        self._action(menu, "&New…", self.new_document, QKeySequence.StandardKey.New, "Start a new mission")
        self._action(menu, "&Open…", self.open_dialog, QKeySequence.StandardKey.Open, "Open a mission file")
        self.recent_menu = menu.addMenu("Open &recent")
        self.recent_menu.setToolTipsVisible(True)
        self.refresh_recent_menu()
        menu.addSeparator()
        self._action(menu, "&Save", self.save, QKeySequence.StandardKey.Save, "Save the mission (atomic write)")
        self._action(menu, "Save &as…", self.save_as, QKeySequence.StandardKey.SaveAs, "Save under a new name")
        export = menu.addMenu("&Export")
        export.setToolTipsVisible(True)
        for fmt in ("png", "svg", "pdf"):
            self._action(export, f"Export {fmt.upper()}…", lambda f=fmt: self.export_render(f),
                         tip=f"Print-quality {fmt.upper()} of every level (editor.render)")
        self._action(export, "Export to Tiled…", self.export_tiled, tip="A Tiled map (.tmj) of the mission")
        self._action(export, "Export to Derelict…", self.export_derelict, tip="The shown level for Derelict")
        menu.addSeparator()
        self._action(menu, "&Quit", self.close, QKeySequence.StandardKey.Quit, "Close the editor")

    # --- documents ---------------------------------------------------------------------------
    def maybe_save(self: MainWindow) -> bool:
        """Ask before losing changes; True when it is fine to go on."""
        if not self.doc.dirty:
            return True
        answer = QMessageBox.question(
            self, "Unsaved changes", f"Save the changes to {self.doc.display_name()}?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_document(self: MainWindow) -> bool:
        if not self.maybe_save():
            return False
        dialog = NewMissionDialog(self)
        if dialog.exec() != NewMissionDialog.DialogCode.Accepted:
            return False
        self.set_document(MissionDocument(dialog.mission(), None, self))
        return True

    def open_dialog(self: MainWindow) -> bool:
        if not self.maybe_save():
            return False
        start = os.path.dirname(self.doc.path) if self.doc.path else ""
        path, _ = QFileDialog.getOpenFileName(self, "Open mission", start, FILTER)
        return bool(path) and self.open_file(path, ask=False)

    def open_file(self: MainWindow, path: str, ask: bool = True) -> bool:
        """Open a file; a file that fails to load gets a dialog naming the problem and nothing changes."""
        if ask and not self.maybe_save():
            return False
        try:
            doc = MissionDocument.open(path, self)
        except MissionFileError as exc:
            QMessageBox.critical(self, "Cannot open mission", f"The mission could not be opened:\n\n{exc}")
            return False
        self.set_document(doc)
        settings.add_recent_file(path)
        self.refresh_recent_menu()
        self.report_repair()
        return True

    def report_repair(self: MainWindow) -> None:
        """After opening a file that breaks the mission format: say so, and what reading it changed."""
        doc = self.doc
        errors = doc.format_errors()
        if not errors and not doc.read_notes:
            return
        text = (f"{doc.display_name()} does not follow the mission format"
                + (f" in {len(errors)} place(s)" if errors else "") + ". It is open so you can repair it: "
                "every problem is listed in Validation, and clicking one selects what it is about. Until they are "
                "fixed, the simulator will not play it and saving will warn.")
        if errors:
            text += "\n\n" + bullet_list(errors)
        if doc.read_notes:
            text += ("\n\nTo read it, these had to change (they are unsaved changes):\n"
                     + bullet_list(doc.read_notes))
        self.validation_dock.raise_()
        QMessageBox.warning(self, "Opened for repair", text)

    def save(self: MainWindow) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self._save_to(self.doc.path)

    def save_as(self: MainWindow, path: str | None = None) -> bool:
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, "Save mission as", self.doc.path or "mission.json", FILTER)
            if not path:
                return False
        return self._save_to(path)

    def confirm_format(self: MainWindow, path: str) -> bool:
        """Before saving a mission that breaks the format: warn, and save only if the designer says so."""
        self.doc.validate_now()
        errors = self.doc.format_errors()
        if not errors:
            return True
        answer = QMessageBox.warning(
            self, "Save a mission that breaks the format?",
            f"{os.path.basename(path)} will not follow the mission format in {len(errors)} place(s):\n\n"
            f"{bullet_list(errors)}\n\nhulkforge opens such a file again for repair, but the simulator and other "
            "programs will refuse it until these are fixed. Save anyway?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        return answer == QMessageBox.StandardButton.Save

    def _save_to(self: MainWindow, path: str) -> bool:
        if not self.confirm_format(path):
            return False
        try:
            self.doc.save(path)
        except OSError as exc:
            QMessageBox.critical(self, "Cannot save", f"{path}: {exc.strerror or exc}")
            return False
        settings.add_recent_file(path)
        self.refresh_recent_menu()
        self.discard_recovery()
        self.show_status(f"saved {path}", 4000)
        return True

    def refresh_recent_menu(self: MainWindow) -> None:
        self.recent_menu.clear()
        files = settings.recent_files()
        for path in files:
            act = self.recent_menu.addAction(os.path.basename(path))
            act.setToolTip(path)
            act.triggered.connect(lambda _c=False, p=path: self.open_file(p))
        self.recent_menu.setEnabled(bool(files))

    # --- autosave and recovery ---------------------------------------------------------------
    def autosave(self: MainWindow) -> bool:
        """Write unsaved work to the recovery file (only when something changed since the last time)."""
        if not self.doc.dirty or self.doc.revision == self._autosaved_rev:
            return False
        target = settings.recovery_file()
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(target, mission_dumps(self.doc.mission))
        atomic_write_text(settings.recovery_origin_file(), self.doc.path or "")
        self._autosaved_rev = self.doc.revision
        return True

    def discard_recovery(self: MainWindow) -> None:
        for f in (settings.recovery_file(), settings.recovery_origin_file()):
            try:
                f.unlink()
            except FileNotFoundError:
                pass

    def offer_recovery(self: MainWindow) -> bool:
        """After a crash: offer to restore the autosaved mission. True when it was restored."""
        rec = settings.recovery_file()
        if not rec.is_file():
            return False
        answer = QMessageBox.question(
            self, "Recover unsaved work", "hulkforge did not close properly last time. Restore the autosaved mission?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes)
        if answer != QMessageBox.StandardButton.Yes:
            self.discard_recovery()
            return False
        try:
            # Autosave keeps whatever was being edited, broken or not: read it as a repair would.
            mission = read_for_editing(rec).mission
        except MissionFileError as exc:
            QMessageBox.critical(self, "Cannot recover", str(exc))
            self.discard_recovery()
            return False
        origin_file = settings.recovery_origin_file()
        origin = origin_file.read_text(encoding="utf-8").strip() if origin_file.is_file() else ""
        doc = MissionDocument(mission, origin or None, self)
        doc.undo_stack.resetClean()  # restored work is unsaved work
        self.set_document(doc)
        return True

    # --- export -------------------------------------------------------------------------------
    def _lazy(self: MainWindow, module: str, name: str) -> Any:
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError) as exc:
            QMessageBox.warning(self, "Export not available", f"{module}.{name} is not available yet: {exc}")
            return None

    def _export_path(self: MainWindow, title: str, suffix: str) -> str:
        base = os.path.splitext(self.doc.path or "mission.json")[0]
        path, _ = QFileDialog.getSaveFileName(self, title, f"{base}.{suffix}", f"*.{suffix}")
        return path

    def export_render(self: MainWindow, fmt: str, path: str | None = None) -> bool:
        render = self._lazy("editor.render", "render_mission")
        if render is None:
            return False
        per_level = fmt != "pdf" and len(self.doc.mission.levels) > 1
        title = f"Export {fmt.upper()}" + (" (one file per level: NAME-LEVEL." + fmt + ")" if per_level else "")
        path = path or self._export_path(title, fmt)
        return bool(path) and self._run_export(lambda: render(self.doc.mission, path, fmt, dpi=150), path)

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
        path = path or self._export_path("Export to Tiled", "tmj")
        return bool(path) and self._run_export(lambda: fn(self.doc.mission, path), path)

    def export_derelict(self: MainWindow, path: str | None = None) -> bool:
        fn = self._lazy("engine.export.derelict", "export_derelict")
        level = self.current_level()
        if fn is None or level is None or not self._exportable("Derelict"):
            return False
        path = path or self._export_path("Export to Derelict", "json")
        return bool(path) and self._run_export(lambda: fn(self.doc.mission, level, path), path)

    def _run_export(self: MainWindow, job: Any, path: str) -> bool:
        try:
            written = job()
        except Exception as exc:  # an exporter's failure must not take the window down with it
            QMessageBox.critical(self, "Export failed", f"{path}: {exc}")
            return False
        self.last_export = [str(p) for p in written] if isinstance(written, list) and written else [path]
        # Name what was written: a mission of several levels gives one file per level, not the name typed.
        names = ", ".join(os.path.basename(p) for p in self.last_export)
        folder = os.path.dirname(self.last_export[0])
        what = f"{len(self.last_export)} files (one per level): {names}" if len(self.last_export) > 1 else names
        self.show_status(f"exported {what} in {folder}", 8000)
        return True
