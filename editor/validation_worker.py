"""Validation in a worker process, so the checks of a big map (0.6 s on 200x200) never block the window.

A process, not a thread: the checks are pure Python and would hold the GIL the GUI thread needs. One worker
serves every document of the process; it starts on first use (spawn: safe with the threads Qt and the lab run)
and stops at exit. The mission goes over as a pickle taken on the GUI thread, so later edits cannot reach it.
"""

from __future__ import annotations

import atexit
import multiprocessing as mp
import os
import pickle
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor

from PySide6.QtCore import QCoreApplication, QEventLoop, QTimer

from engine.mission import Issue, Mission
from engine.mission.salvage import Salvage

_executor: ProcessPoolExecutor | None = None
_broken = False


def validate_pickled(blob: bytes) -> tuple[list[Issue], float]:
    """In the worker: the issues of a pickled mission and the CPU milliseconds the checks took."""
    from engine.mission import validate_mission

    t0 = time.process_time()
    issues = validate_mission(pickle.loads(blob))
    return issues, (time.process_time() - t0) * 1000


WORKER_NICENESS = 10


def _lower_priority() -> None:
    """In the worker: yield the CPU to the editor. On a machine with few cores a validation (seconds of CPU on
    the largest map) otherwise takes the core the window needs to follow the mouse; its answer may come later,
    the window answers at once."""
    try:
        os.nice(WORKER_NICENESS)
    except (AttributeError, OSError):  # no nice() on this platform: the worker runs at the editor's priority
        pass


def _start() -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=1, mp_context=mp.get_context("spawn"), initializer=_lower_priority)


def read_pickled(path: str) -> tuple[bytes | None, str | None]:
    """In the worker: a mission file read for repair (engine.mission.salvage), pickled, or the message of the
    MissionFileError that refused it (the exception itself does not survive a pickle)."""
    from engine.mission import MissionFileError
    from engine.mission.salvage import read_for_repair

    try:
        found = read_for_repair(path)
    except MissionFileError as exc:
        return None, exc.detail
    return pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL), None


def read_for_repair_live(path: str) -> Salvage:
    """read_for_repair of a big file in the worker while the event loop keeps the window live (reading and
    checking the largest mission is a quarter of a second of pure Python); on this thread when there is no worker."""
    from engine.mission import MissionFileError
    from engine.mission.salvage import read_for_repair

    global _executor, _broken
    if _broken:
        return read_for_repair(path)
    try:
        if _executor is None:
            _executor = _start()
        job = _executor.submit(read_pickled, os.fspath(path))
    except (OSError, RuntimeError):
        _broken = True
        return read_for_repair(path)
    wait_live(job.done)
    try:
        blob, refused = job.result()
    except Exception:  # the worker died: read here, and validate here from now on
        mark_broken()
        return read_for_repair(path)
    if refused is not None:
        raise MissionFileError(path, refused)
    assert blob is not None
    found: Salvage = pickle.loads(blob)
    return found


def wait_live(done: Callable[[], bool]) -> None:
    """Handle the window's events until done() (checked at least every 10 ms): a wait the designer does not see
    as a frozen window."""
    poll = QTimer()
    poll.start(10)  # wakes the wait below when nothing else happens
    try:
        while not done():
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
    finally:
        poll.stop()


def available() -> bool:
    """False once the worker could not be started or died: callers then validate on their own thread."""
    return not _broken


def _ready() -> bool:
    """In the worker: nothing; its import of the checks is the point."""
    import engine.mission.validation  # noqa: F401

    return True


def warm_up() -> None:
    """Start the worker now (a big map was opened), so its first answer does not wait for a process to start."""
    global _executor, _broken
    if _broken or _executor is not None:
        return
    try:
        _executor = _start()
        _executor.submit(_ready)
    except (OSError, RuntimeError):
        _broken = True


def submit(mission: Mission) -> Future[tuple[list[Issue], float]] | None:
    """Start validating a snapshot of `mission`; None when no worker can be had."""
    global _executor, _broken
    if _broken:
        return None
    blob = pickle.dumps(mission, protocol=pickle.HIGHEST_PROTOCOL)
    try:
        if _executor is None:
            _executor = _start()
        return _executor.submit(validate_pickled, blob)
    except (OSError, RuntimeError):  # no process could be started (limits, interpreter shutting down)
        _broken = True
        return None


def mark_broken() -> None:
    """The worker failed: stop using it for the rest of the session."""
    global _broken
    _broken = True
    shutdown()


def shutdown() -> None:
    """Stop the worker (at exit; a validation under way is abandoned)."""
    global _executor
    if _executor is not None:
        _executor.shutdown(wait=False, cancel_futures=True)
        _executor = None


atexit.register(shutdown)
