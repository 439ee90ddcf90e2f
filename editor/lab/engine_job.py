"""EngineJob: a QThread that runs one long engine call (a tune, a strength check) with cancel and progress.

The call gets a `cancel` event and an `on_games(n)` callback; games played reach the GUI at most ten times a
second as `progressed`, the call's return value (or its error) as `done`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QThread, Signal

EMIT_SECONDS = 0.1


class EngineJob(QThread):
    """Runs `work(cancel=..., on_games=...)` off the GUI thread."""

    progressed = Signal(int)  # games played so far
    done = Signal(object, str)  # the call's result (None on error), the error ("" when none)

    def __init__(self, work: Callable[..., Any]) -> None:
        super().__init__()
        self.work = work
        self.cancel_event = threading.Event()
        self._games = 0
        self._last = 0.0

    def cancel(self) -> None:
        """Ask the call to stop soon; what it finished is kept."""
        self.cancel_event.set()

    def _on_games(self, n: int) -> None:
        self._games += n
        now = time.perf_counter()
        if now - self._last >= EMIT_SECONDS:
            self._last = now
            self.progressed.emit(self._games)

    def run(self) -> None:
        """The thread body."""
        try:
            result = self.work(cancel=self.cancel_event, on_games=self._on_games)
        except Exception as exc:  # any failure must reach the panel, never kill the thread silently
            self.done.emit(None, f"{type(exc).__name__}: {exc}")
            return
        self.progressed.emit(self._games)
        self.done.emit(result, "")
