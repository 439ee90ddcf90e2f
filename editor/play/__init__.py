"""Playtest: play the mission being edited, against any policy or hot-seat (Play › Playtest)."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDialog, QMenu, QMessageBox

from editor.play.play_window import PlayWindow
from editor.play.setup_dialog import PlaytestDialog, PlaytestSetup, seats_for

__all__ = ["PlayWindow", "install_play", "open_played_games", "open_playtest", "seats_for", "start_playtest"]


def install_play(window: Any) -> QMenu:
    """Add the Play menu (Playtest…) to the editor's main window."""
    menu = QMenu("&Play", window)
    help_menu = getattr(window, "help_menu", None)
    if isinstance(help_menu, QMenu):  # Help stays the last menu
        window.menuBar().insertMenu(help_menu.menuAction(), menu)
    else:
        window.menuBar().addMenu(menu)
    act = menu.addAction("&Playtest…")
    act.setShortcut(QKeySequence("Ctrl+Shift+P"))
    act.setToolTip("Play this mission: one side against a policy, or both sides hot-seat")
    act.triggered.connect(lambda _c=False: open_playtest(window))
    games = menu.addAction("Your games beside the players…")
    games.setToolTip("The games you kept of this mission, your win rate per side beside the lab's batch")
    games.triggered.connect(lambda _c=False: open_played_games(window))
    for bar_action in window.menuBar().actions():  # the lab reads them too (Lab menu), when it is installed
        lab_menu = bar_action.menu()
        if bar_action.text() == "&Lab" and isinstance(lab_menu, QMenu):
            lab_menu.addSeparator()
            lab_menu.addAction(games)
    window.play_menu = menu
    return menu


def open_played_games(window: Any) -> QDialog:
    """Show the designer's kept games of this mission beside the players' results."""
    from editor.play.played_panel import PlayedGamesDialog

    dialog = PlayedGamesDialog(window)
    window.played_games_dialog = dialog
    dialog.show()
    return dialog


def open_playtest(window: Any, play: str = "marines") -> PlayWindow | None:
    """Ask who plays what, then open the game (None when cancelled or the mission cannot be played)."""
    dialog = PlaytestDialog(play, window)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return start_playtest(window, dialog.setup())


def start_playtest(window: Any, setup: PlaytestSetup) -> PlayWindow | None:
    """Open a play window on the window's mission as it is now (a snapshot: later edits do not reach the game)."""
    from engine.ai.base import UnknownPolicyError
    from engine.mission import mission_to_dict
    from engine.mission.playable import InvalidMission
    from engine.sim.sand_timer import SandTimer
    from engine.sim.session import PlaySession

    doc = window.doc
    try:
        session = PlaySession(mission_to_dict(doc.mission), setup.seats, setup.seed,
                              mission_path=doc.path or "", timer=SandTimer(setup.timer) if setup.timer else None)
    except InvalidMission as exc:
        first = exc.errors[0]
        QMessageBox.warning(window, "Cannot playtest",
                            f"The mission breaks {len(exc.errors)} rule(s); first: {first.message}")
        return None
    except (UnknownPolicyError, ValueError) as exc:
        QMessageBox.warning(window, "Cannot playtest", str(exc))
        return None
    play = PlayWindow(session, window)
    window.play_window = play
    play.show()
    return play
