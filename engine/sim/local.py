"""The local backend: worker processes that play chunks of games and stream each result back.

Each worker owns one pipe, so the parent always knows which games a worker holds: when a worker dies
(a segfault, the OOM killer, os._exit in a test), the game it was playing is reported as failed, the
rest of its chunk goes back in the queue and a fresh worker takes over. Nothing waits on a dead process.
"""

from __future__ import annotations

import itertools
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Collection, Generator, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from engine.sim.record import GameRecord
from engine.sim.runner import iter_chunk, tune_gc_for_games
from engine.sim.spec import BatchSpec, game_seed

POLL_SECONDS = 0.1
# After reading what the workers sent, the parent waits this long before it looks again, so that it wakes once
# for a few games rather than once a game: its wake-ups took CPU from the workers (halving them took the
# parent of a 2-worker Pitfall batch from 0.7 s to 0.35 s of CPU over 2,500 games). A worker's rows wait in
# its pipe meanwhile; the progress bar and cancelling lag by at most this much.
PACE_SECONDS = 0.02
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class BatchError(RuntimeError):
    """A batch that cannot run at all (the mission or the policies fail to build in the workers)."""


@dataclass
class RunStatus:
    """What happened to a run besides its games: deaths of workers, and why it stopped early."""

    worker_deaths: int = 0
    stopped: str | None = None  # "cancelled", "interrupted" or a reason; None when every game ran
    messages: list[str] = field(default_factory=list)
    workers_seen: set[str] = field(default_factory=set)  # the workers that were given games to play


def _worker_main(conn: Connection) -> None:
    """Loop of one worker process: receive (spec, items), send one row per game, then "done"."""
    # Ctrl-C goes to the whole process group, SIGTERM to a whole job or service: only the parent decides what
    # they mean (it keeps the finished games, then ends its workers).
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)
    tune_gc_for_games()  # this process only plays games
    try:
        conn.send(("ready", None))  # start-up (seconds on a busy machine) does not count against a game
        _serve(conn)
    except (BrokenPipeError, ConnectionResetError, EOFError):
        return  # the parent is gone (killed, or done with this batch): nobody reads what this worker plays


def _serve(conn: Connection) -> None:
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        spec_json, items = msg
        try:
            for row in iter_chunk(spec_json, items):
                conn.send(("game", row))
        except (BrokenPipeError, ConnectionResetError):
            raise
        except Exception as exc:  # building the game failed: every game would fail the same way
            conn.send(("fatal", f"{type(exc).__name__}: {exc}"))
            continue
        conn.send(("done", None))


def _start_ignoring_sigint(proc: Any) -> None:
    """Start a worker that ignores Ctrl-C from its first instruction (an ignored signal survives exec)."""
    # Without this, Ctrl-C during a worker's start-up prints its KeyboardInterrupt traceback. Signal
    # handlers can only be changed from the main thread; from the editor's QThread the window stays.
    # (SIGTERM stays as it is here: ignored in the parent for a moment, one would be lost. Its default action
    # ends a worker still starting without a word, and the parent, which got it too, stops the batch.)
    if threading.current_thread() is not threading.main_thread():
        proc.start()
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        proc.start()
    finally:
        signal.signal(signal.SIGINT, old)


class _Worker:
    def __init__(self, ctx: Any) -> None:
        parent, child = ctx.Pipe(duplex=True)
        self.conn: Connection = parent
        self.proc = ctx.Process(target=_worker_main, args=(child,), daemon=True)
        _start_ignoring_sigint(self.proc)
        child.close()
        self.pending: deque[int] = deque()
        self.last_heard = time.monotonic()
        self.timed_out = False
        self.ready = False

    def give(self, spec_json: dict[str, Any], indices: list[int]) -> None:
        self.pending.extend(indices)
        self.last_heard = time.monotonic()
        self.conn.send((spec_json, indices))

    def stop(self, kill: bool) -> None:
        try:
            if kill:
                self.proc.kill()  # it ignores SIGTERM (see _worker_main)
            else:
                self.conn.send(None)
        except (OSError, ValueError):
            pass
        self.proc.join(timeout=2)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(timeout=2)
        self.conn.close()


# The module a fork server imports before it forks any worker (engine/sim/preload.py).
PRELOAD = "engine.sim.preload"


def start_method() -> str:
    """How the pool starts its workers: forked from a fork server where there is one, else spawned."""
    # A fork server is a fresh interpreter (multiprocessing starts it the way spawn starts a worker, so it holds
    # none of the parent's threads, Qt or NumPy) that imports the rules and the players once; every worker forked
    # from it starts with them in memory, where each spawned worker imported them again (docs/speed.md has the
    # cost). Not on Windows (no fork), and not in the frozen bundle, whose workers are the executable started
    # again (packaging/entry.py).
    if getattr(sys, "frozen", False) or "forkserver" not in mp.get_all_start_methods():
        return "spawn"
    return "forkserver"


def stop_fork_server() -> None:
    """End this process's fork server, if it runs (the next pool starts another).

    Only then do the server's CPU time and that of the workers it forked and reaped count in this process's
    RUSAGE_CHILDREN: benchmarks.sim stops it before reading them. Call it only when no pool of this process has
    workers: they would keep running, but their pool could no longer tell whether they are alive.
    """
    from multiprocessing import forkserver

    # There is no public call; multiprocessing's own tests stop the server this way.
    stop = getattr(getattr(forkserver, "_forkserver", None), "_stop", None)
    if stop is not None:
        stop()


def default_workers() -> int:
    """One worker per CPU this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def chunk_size(games: int, workers: int) -> int:
    """Games per job: several jobs per worker so the tail balances, few enough that dispatch is cheap."""
    return max(1, min(32, games // (workers * 6) or 1))


class LocalPool:
    """Worker processes reused across batches (a sweep runs all its values on one pool)."""

    def __init__(self, workers: int | None = None, method: str | None = None) -> None:
        self.workers = workers or default_workers()
        # Neither method copies the parent, so both are safe when it has threads (the editor runs batches from a
        # QThread).
        self._ctx = mp.get_context(method or start_method())
        if self._ctx.get_start_method() == "forkserver":
            # The server is one per process and starts with the first worker; by default it would import the
            # parent's __main__ (the editor, for one).
            self._ctx.set_forkserver_preload([PRELOAD])
        self._idle: list[_Worker] = []
        self.max_replacements = max(8, 2 * self.workers)
        # A game that runs this long without ending is stuck (a rules bug looping inside one action):
        # its worker is stopped and the game reported as failed, so a batch never hangs.
        self.game_timeout: float | None = 600.0

    def __enter__(self) -> LocalPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop every worker."""
        for w in self._idle:
            w.stop(kill=False)
        self._idle.clear()

    def run(
        self,
        spec: BatchSpec,
        indices: Collection[int],
        status: RunStatus,
        cancel: threading.Event | None = None,
    ) -> Iterator[GameRecord]:
        """Play games by index, yielding records in completion order until done or cancelled.

        `indices` is read a chunk at a time (a `range` of a million games costs nothing up front).
        """
        spec_json = spec.to_json()
        size = chunk_size(len(indices), self.workers)
        fresh = iter(indices)
        queue: deque[list[int]] = deque()  # chunks to deal before fresh ones: games of a worker that died
        left = len(indices)  # games not dealt yet
        busy: list[_Worker] = []
        replacements = 0

        def has_more() -> bool:
            if not queue:
                chunk = list(itertools.islice(fresh, size))
                if chunk:
                    queue.append(chunk)
            return bool(queue)

        def dispatch(w: _Worker) -> bool:
            nonlocal left
            if not has_more():
                return False
            chunk = queue.popleft()
            # Chunks shrink as the queue empties (at most a third of a worker's share of what is left), so the
            # workers run out together: at the end a worker waits for a game or two, not for a whole chunk.
            n = max(1, min(len(chunk), left // (3 * self.workers)))
            if n < len(chunk):
                queue.appendleft(chunk[n:])
                chunk = chunk[:n]
            left -= n
            w.give(spec_json, chunk)
            status.workers_seen.add(f"pid {w.proc.pid}")
            busy.append(w)
            return True

        try:
            while len(busy) < self.workers and has_more():
                dispatch(self._idle.pop() if self._idle else _Worker(self._ctx))
            while busy:
                if cancel is not None and cancel.is_set():
                    status.stopped = "cancelled"
                    return
                wait([w.conn for w in busy] + [w.proc.sentinel for w in busy], timeout=POLL_SECONDS)
                for w in list(busy):
                    state = yield from self._drain(w)
                    if state == "done":
                        busy.remove(w)
                        if not dispatch(w):
                            self._idle.append(w)
                        continue
                    if state == "open" and w.proc.is_alive():
                        waited = time.monotonic() - w.last_heard
                        if not w.ready or self.game_timeout is None or waited < self.game_timeout:
                            continue
                        w.timed_out = True
                        w.proc.kill()
                    # Dead, or dying: its last rows may have landed after the poll above; read them first,
                    # so that the game blamed for the death is the one it was really playing.
                    if state == "open":
                        state = yield from self._drain(w)
                        if state == "done":  # it finished its chunk, then died: no game is lost
                            state = "eof"
                    if w in busy:
                        busy.remove(w)
                        w.proc.join(timeout=1)
                        code = w.proc.exitcode
                        w.conn.close()
                        status.worker_deaths += 1
                        if w.pending:
                            index = w.pending.popleft()
                            msg = (f"game {index} ran over {self.game_timeout:g} s; its worker was stopped"
                                   if w.timed_out else
                                   f"worker process died (exit code {code}) while playing game {index}")
                            status.messages.append(msg)
                            yield GameRecord.failed(index, game_seed(spec.seed, index), msg)
                            if w.pending:
                                queue.appendleft(list(w.pending))
                                left += len(w.pending)
                        if replacements >= self.max_replacements:
                            status.stopped = f"stopped: {status.worker_deaths} worker processes died"
                            return
                        if has_more():
                            replacements += 1
                            dispatch(_Worker(self._ctx))
                if busy:
                    time.sleep(PACE_SECONDS)
        finally:
            # Workers still busy hold games of a run nobody reads any more: end them, the pool makes new ones.
            for w in busy:
                w.stop(kill=True)

    @staticmethod
    def _drain(w: _Worker) -> Generator[GameRecord, None, str]:
        """Yield the rows waiting on a worker's pipe; returns "done" (chunk finished), "eof" or "open"."""
        while True:
            try:
                if not w.conn.poll():
                    return "open"
                kind, payload = w.conn.recv()
            except (EOFError, OSError):
                return "eof"
            w.last_heard = time.monotonic()
            if kind == "game":
                rec = GameRecord.from_json(payload)
                if w.pending and w.pending[0] == rec.index:
                    w.pending.popleft()
                yield rec
            elif kind == "done":
                return "done"
            elif kind == "ready":
                w.ready = True
            elif kind == "fatal":
                raise BatchError(f"the workers cannot build the game: {payload}")
