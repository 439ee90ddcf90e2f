"""BatchThread: runs one or more batches off the GUI thread and streams finished games back by signal.

The games themselves run in worker processes (engine.sim's local pool, or Dask); this thread only
reads their results and hands them over in small bunches so the GUI thread never floods.
"""

from __future__ import annotations

import threading
import time
import traceback

from PySide6.QtCore import QThread, Signal

from editor.worker_gc import no_collection_in_thread
from engine.sim import BatchError, BatchSpec, GameRecord, LocalPool, RunStatus, iter_batch, prepare_spec

EMIT_SECONDS = 0.1


class BatchThread(QThread):
    """Plays `specs` one after the other (a compare or a sweep shares one pool and the same seeds)."""

    batchStarted = Signal(int)  # index into specs
    gamesFinished = Signal(int, list)  # index, [GameRecord]
    batchFinished = Signal(int, object, str)  # index, RunStatus, error ("" when none)

    def __init__(
        self,
        specs: list[BatchSpec],
        *,
        backend: str = "local",
        workers: int | None = None,
        scheduler: str | None = None,
        pool: LocalPool | None = None,
    ) -> None:
        super().__init__()
        self.specs = specs
        self.backend = backend
        self.workers = workers
        self.scheduler = scheduler or None
        self.pool = pool
        self.cancel_event = threading.Event()

    def cancel(self) -> None:
        """Stop soon; games already finished are kept (they have been emitted)."""
        self.cancel_event.set()

    @property
    def cancelled(self) -> bool:
        """True once cancel() was called."""
        return self.cancel_event.is_set()

    @no_collection_in_thread
    def run(self) -> None:
        """Play every spec in turn (the thread body)."""
        for i, spec in enumerate(self.specs):
            if self.cancel_event.is_set():
                self.batchFinished.emit(i, RunStatus(stopped="cancelled"), "")
                continue
            self.batchStarted.emit(i)
            status = RunStatus()
            error = ""
            buffer: list[GameRecord] = []
            last = time.perf_counter()
            try:
                ready = prepare_spec(spec)
                for rec in iter_batch(ready, backend=self.backend, workers=self.workers,
                                      scheduler=self.scheduler, cancel=self.cancel_event, status=status,
                                      pool=self.pool if self.backend == "local" else None):
                    buffer.append(rec)
                    now = time.perf_counter()
                    if now - last >= EMIT_SECONDS:
                        self.gamesFinished.emit(i, buffer)
                        buffer, last = [], now
            except BatchError as exc:
                error = str(exc)
            except Exception as exc:  # any failure must reach the panel, never kill the thread silently
                tb = traceback.extract_tb(exc.__traceback__)[-1:]
                where = f" ({tb[0].filename}:{tb[0].lineno})" if tb else ""
                error = f"{type(exc).__name__}: {exc}{where}"
            if buffer:
                self.gamesFinished.emit(i, buffer)
            if self.cancel_event.is_set() and not status.stopped:
                status.stopped = "cancelled"
            self.batchFinished.emit(i, status, error)
