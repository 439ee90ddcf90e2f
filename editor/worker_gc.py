"""Cyclic garbage collection kept off the editor's worker threads.

A collection runs in whichever thread happens to allocate when the threshold is reached. Run in a worker thread,
it can destroy a Qt object left for the collector (a closed dialog, a scene from an earlier document) there, and
Qt's destructor then takes the object's connection lock in that thread while waiting for the interpreter's lock,
which the GUI thread may hold while it waits for that same connection lock: the editor froze for good. So while a
worker thread runs, automatic collection is paused; the GUI thread collects once the last worker has finished.
"""

from __future__ import annotations

import functools
import gc
import threading
from collections.abc import Callable
from typing import TypeVar

_lock = threading.Lock()
_running = 0
_was_enabled = True

R = TypeVar("R")


def _pause() -> None:
    global _running, _was_enabled
    with _lock:
        if _running == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _running += 1


def _resume() -> None:
    global _running
    with _lock:
        _running -= 1
        if _running == 0 and _was_enabled:
            gc.enable()  # the next collection comes in the GUI thread, where Qt objects may be destroyed


def no_collection_in_thread(run: Callable[..., R]) -> Callable[..., R]:
    """Wrap a QThread's run(): no automatic cyclic collection while it (and any other wrapped run) is going."""

    @functools.wraps(run)
    def wrapped(*args: object, **kwargs: object) -> R:
        _pause()
        try:
            return run(*args, **kwargs)
        finally:
            _resume()

    return wrapped
