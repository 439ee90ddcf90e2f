# mypy: disable-error-code="misc"
# (a mixin: its methods are typed with the window they are mixed into)
"""File handling for the main window: New/Open/Save/Save As, recent files, export, autosave and recovery."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox

from editor import settings
from editor.dialogs import NewMissionDialog
from editor.document import MissionDocument, read_for_editing
from editor.file_names import mission_stem
from engine.export.derelict_import import SegmentsMissing
from engine.export.importing import import_mission, is_derelict, is_importable
from engine.mission import Issue, MissionFileError, mission_dumps
from engine.mission.io import atomic_write_text

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow

FILTER = "Missions (*.json);;All files (*)"
OPEN_FILTER = "Missions (*.json);;Derelict missions (*.txt);;Tiled maps (*.tmj);;All files (*)"  # the last two imported
IMPORT_FILTER = "Derelict missions and Tiled maps (*.txt *.tmj);;Derelict missions (*.txt);;Tiled maps (*.tmj)"
LIBRARY_FILTER = "Derelict segment libraries (*.txt);;All files (*)"
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
        self._action(menu, "&Import…", self.import_dialog, None,
                     "Read a Derelict mission (.txt) or a Tiled map (.tmj) into a new, unsaved mission")
        menu.addSeparator()
        self._action(menu, "&Save", self.save, QKeySequence.StandardKey.Save, "Save the mission (atomic write)")
        self._action(menu, "Save &as…", self.save_as, QKeySequence.StandardKey.SaveAs, "Save under a new name")
        self.make_export_menu(menu)
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
        path, _ = QFileDialog.getOpenFileName(self, "Open mission", start, OPEN_FILTER)
        return bool(path) and self.open_file(path, ask=False)

    def open_file(self: MainWindow, path: str, ask: bool = True) -> bool:
        """Open a file; a file that fails to load gets a dialog naming the problem and nothing changes. A Derelict
        mission or a Tiled map is imported."""
        if ask and not self.maybe_save():
            return False
        if is_importable(path):
            return self.import_file(path)
        try:
            doc = MissionDocument.open(path, self)
        except MissionFileError as exc:
            QMessageBox.critical(self, "Cannot open mission", f"The mission could not be opened:\n\n{exc}")
            return False
        self.set_document(doc)
        settings.add_recent_file(path)
        self.refresh_recent_menu()
        if doc.validated():
            self.report_repair()
        else:  # a big map validates in the worker: what breaks the format is known when it answers
            doc.issuesChanged.connect(self._report_repair_once)
        return True

    def import_dialog(self: MainWindow) -> bool:
        if not self.maybe_save():
            return False
        start = os.path.dirname(self.doc.path) if self.doc.path else ""
        path, _ = QFileDialog.getOpenFileName(self, "Import a mission", start, IMPORT_FILTER)
        return bool(path) and self.import_file(path)

    def import_file(self: MainWindow, path: str) -> bool:
        """Import a Derelict mission or a Tiled map as a new, unsaved mission; say what did not come across. When
        a Derelict mission's segments are in no library beside it, ask for Derelict's segments.txt."""
        segments: list[str] = []
        warnings: list[str] = []
        while True:
            try:
                mission, _issues = import_mission(path, segments, warnings)
                break
            except SegmentsMissing as exc:
                lib, _ = QFileDialog.getOpenFileName(self, f"Segment library for {os.path.basename(path)}",
                                                     os.path.dirname(path), LIBRARY_FILTER)
                if not lib or lib in segments:
                    QMessageBox.critical(self, "Cannot import", f"The mission could not be imported:\n\n{exc}")
                    return False
                segments.append(lib)
            except MissionFileError as exc:
                QMessageBox.critical(self, "Cannot import", f"The mission could not be imported:\n\n{exc}")
                return False
        doc = MissionDocument(mission, None, self)
        doc.undo_stack.resetClean()  # nothing is saved yet: Save asks for a mission file name
        self.set_document(doc)
        what = "Derelict mission" if is_derelict(path) else "Tiled map"
        self.show_status(f"imported the {what} {os.path.basename(path)}; save it as a mission", 6000)
        if warnings:
            QMessageBox.information(
                self, "Imported with changes",
                f"{os.path.basename(path)} was imported as a new, unsaved mission. What did not come across:\n\n"
                + "\n".join(f"• {w}" for w in warnings[:LISTED])
                + (f"\n… and {len(warnings) - LISTED} more" if len(warnings) > LISTED else ""))
        return True

    def _report_repair_once(self: MainWindow) -> None:
        doc = self.sender()
        if isinstance(doc, MissionDocument):
            doc.issuesChanged.disconnect(self._report_repair_once)
            if doc is self.doc:
                self.report_repair()

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
            proposed = self.doc.path or f"{mission_stem(None, self.doc.mission.meta.title)}.json"  # from the title
            path, _ = QFileDialog.getSaveFileName(self, "Save mission as", proposed, FILTER)
            if not path:
                return False
        return self._save_to(path)

    def confirm_format(self: MainWindow, path: str) -> bool:
        """Before saving a mission that breaks the format: warn, and save only if the designer says so."""
        self.doc.wait_validated()
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
