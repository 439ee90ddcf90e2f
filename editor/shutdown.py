"""SIGTERM (a session logging out, `kill`, systemd) ends the editor without losing unsaved work.

Qt's event loop runs no Python between events, so a Python signal handler would wait for the next mouse
move: a short timer gives the interpreter a turn. The handler writes the recovery file (the same one autosave
writes, offered at the next start) and leaves the event loop with 143, the shell's code for SIGTERM, without
asking anything: nobody is there to answer a dialog.
"""

from __future__ import annotations

import signal
from types import FrameType
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

SIGTERM_EXIT = 143
WAKE_MS = 250  # how late at most the handler runs


def on_sigterm(app: QApplication, window: Any) -> None:
    """Keep the unsaved work for recovery and leave the event loop."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second SIGTERM while writing must not interrupt it
    try:
        window.autosave()
    finally:
        app.exit(SIGTERM_EXIT)


def quit_on_sigterm(app: QApplication, window: Any) -> QTimer:
    """Install the handler; returns the timer that lets it run (keep a reference to it)."""

    def handler(signum: int, frame: FrameType | None) -> None:
        on_sigterm(app, window)

    signal.signal(signal.SIGTERM, handler)
    wake = QTimer(app)
    wake.timeout.connect(lambda: None)
    wake.start(WAKE_MS)
    return wake
