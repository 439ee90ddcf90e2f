"""The play window's game actions: undo, resign, save and resume a game in progress, keep a finished one and open
it in the lab's replay (a mixin of PlayWindow, kept apart so the window module holds the game loop and drawing)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from editor.play.board import board_document
from engine.sim.session_file import SessionFileError, load_session, save_session

if TYPE_CHECKING:
    from PySide6.QtCore import QObject, QTimer
    from PySide6.QtWidgets import QListWidget

    from editor.document import MissionDocument
    from editor.play.decision_dialog import DecisionDialog
    from engine.sim.session import PlaySession


class GameFiles:
    """Mixed into PlayWindow (what it uses of the window is declared here)."""

    session: PlaySession
    doc: MissionDocument
    viewer: str
    selected: str | None
    record_path: str | None
    decision_dialog: DecisionDialog | None
    clock: QTimer
    log: QListWidget
    _ai_pending: bool
    _handed_to: str | None
    _logged: int
    _scenes: dict[str, Any]
    _choice_items: dict[str, Any]
    _features_of: object

    def advance(self) -> None:
        raise NotImplementedError

    def _end_worker(self) -> None:
        raise NotImplementedError

    def _retitle(self) -> None:
        raise NotImplementedError

    def _show_level(self) -> None:
        raise NotImplementedError

    def parent(self) -> QObject:
        raise NotImplementedError

    def _widget(self) -> QWidget:
        return cast(QWidget, self)

    def undo(self) -> None:
        """Take back the last decision a person took (marked in the record)."""
        if self._ai_pending:
            return  # (a policy draws from its RNG on its thread: undo waits for its answer)
        if self.decision_dialog is not None:
            self.decision_dialog.reject()
            self.decision_dialog = None
        if self.session.undo():
            self._handed_to = self.session.to_move()
            self.advance()

    def resign(self) -> None:
        """The person to move (else the first person seated) gives the game up."""
        people = self.session.humans()
        side = self.session.to_move() if self.session.human_to_move() else (people[0] if people else None)
        if side is not None:
            self.session.resign(side)
            self.advance()

    def save_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self._widget(), "Save game in progress", "", "Saved game (*.json)")
        if path:
            self.save_game(path)

    def save_game(self, path: str) -> None:
        self._end_worker()
        try:
            save_session(self.session, path)
        except OSError as exc:
            QMessageBox.warning(self._widget(), "Cannot save", f"{path}: {exc.strerror or exc}")

    def resume_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self._widget(), "Resume a saved game", "", "Saved game (*.json)")
        if path:
            self.resume(path)

    def resume(self, path: str) -> bool:
        """Replace this game by the one saved in `path`; a file that is not one is refused with its reason."""
        try:
            session = load_session(path)
        except SessionFileError as exc:
            QMessageBox.warning(self._widget(), "Cannot resume", str(exc))
            return False
        self._end_worker()
        self._ai_pending = False
        self.session = session
        self.doc = board_document(session, self._widget())
        self._scenes.clear()
        self._choice_items.clear()
        self._features_of = None
        self._logged = 0
        self.log.clear()
        self.selected = None
        self._handed_to = None
        self.viewer = session.humans()[0] if session.humans() else "marines"
        if session.timer is not None:
            self.clock.start()
        self._retitle()
        self._show_level()
        self.advance()
        return True

    def keep_dialog(self) -> None:
        from editor import settings

        folder = settings.settings().value("play/folder")
        start = folder if isinstance(folder, str) else ""
        path, _ = QFileDialog.getSaveFileName(self._widget(), "Keep this game", start, "Played game (*.json)")
        if path:
            settings.settings().setValue("play/folder", os.path.dirname(path))  # where the lab looks for them
            self.keep_game(path)

    def keep_game(self, path: str) -> None:
        """Write the game as a one-game results file (what `replay` and the lab read)."""
        try:
            self.session.write_record(path)
            self.record_path = path
        except OSError as exc:
            QMessageBox.warning(self._widget(), "Cannot write", f"{path}: {exc.strerror or exc}")

    def open_in_lab(self) -> None:
        """Show this game in the balance lab's replay (its record written to a file first if not yet kept)."""
        if self.record_path is None:
            self.keep_dialog()
        if self.record_path is None:
            return
        owner = self.parent()
        lab = getattr(owner, "lab_window", None)
        if lab is None or lab.lab is None:
            QMessageBox.information(self._widget(), "Lab",
                                    f"The game is kept in {self.record_path}; open it in the lab.")
            return
        lab.open()
        if lab.lab.open_results(self.record_path):
            lab.lab.replay.load(0)
