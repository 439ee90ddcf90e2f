"""Stopping a batch from outside: Ctrl-C (SIGINT) and SIGTERM (a cluster scheduler, systemctl) mean the same.

SIGTERM is raised in the main thread as `Terminated`, a KeyboardInterrupt, so every place that keeps the
finished games on Ctrl-C keeps them on SIGTERM too; only the exit code says which signal came.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

INTERRUPTED = "interrupted"  # Ctrl-C
TERMINATED = "terminated"  # SIGTERM
# The shell's convention, 128 + the signal's number, so a job scheduler reads the cause as usual.
EXIT_CODES = {INTERRUPTED: 130, TERMINATED: 143}


_NAMES = {INTERRUPTED: "Ctrl-C", TERMINATED: "SIGTERM"}


def stop_name(stopped: str) -> str:
    """How a message names what stopped a run: "Ctrl-C", "SIGTERM", or the reason ("3 worker processes died")."""
    return _NAMES.get(stopped, stopped.removeprefix("stopped: "))


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: stop like Ctrl-C, keep what finished."""


def stop_reason(exc: BaseException) -> str:
    """"terminated" for SIGTERM, "interrupted" for Ctrl-C."""
    return TERMINATED if isinstance(exc, Terminated) else INTERRUPTED


def stop_exit_code(stopped: str | None) -> int | None:
    """The exit code of a run stopped by a signal (130 Ctrl-C, 143 SIGTERM), None otherwise."""
    return EXIT_CODES.get(stopped or "")


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    # A second SIGTERM while the kept games are being written must not interrupt the writing.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Terminated


def raise_on_sigterm() -> Any:
    """From now on SIGTERM raises Terminated in the main thread; returns the handler it replaced, for
    `restore_sigterm` (None off the main thread, where signals cannot be handled)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _on_sigterm)


def restore_sigterm(old: Any) -> None:
    """Put back the SIGTERM handler that raise_on_sigterm replaced."""
    if old is not None and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, old)


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM until the block ends, so the block finishes, or fails, as a whole: a file written
    and the count of what it holds stay in step. A signal that came meanwhile acts at the end of the block."""
    if threading.current_thread() is not threading.main_thread():
        yield  # no signal handler runs here
        return
    came: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        came.append(signum)

    # (Blocking the signals with pthread_sigmask would not do: the pool's threads would take them.)
    old: dict[int, Any] = {sig: signal.signal(sig, hold) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
        for signum in came[:1]:
            handler = old[signum]
            if callable(handler):
                handler(signum, None)
