"""The Dask backend: the same chunk jobs on a dask.distributed cluster (or a LocalCluster when no address).

dask[distributed] is an optional extra, imported only here and only when this backend is used.

Security: a Dask scheduler runs whatever code a client sends it, and a plain `tcp://` scheduler asks nobody
who they are. Anyone who can reach its port can run code on every worker. On a shared network use TLS with
certificates (`--scheduler tls://host:8786 --dask-security FILE`, docs/dask.md) and keep the port private.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import os
import threading
import time
from collections.abc import Collection, Iterator
from typing import Any

from engine.sim.local import BatchError, RunStatus, chunk_size
from engine.sim.record import GameRecord
from engine.sim.runner import run_chunk
from engine.sim.spec import BatchSpec, game_seed

# How long a batch waits for the cluster to have a worker (at the start, or after all of them left) before it
# stops with a message: a scheduler with no workers holds jobs forever without a word.
DEFAULT_WORKER_WAIT = 60.0
POLL_SECONDS = 0.2
# Jobs submitted ahead per worker thread: enough that no worker waits for the next, few enough that a batch of a
# million games does not hold tens of thousands of futures.
JOBS_PER_THREAD = 4
SECURITY_SECTION = ("distributed", "comm")
_LOG_LEVEL_VAR = "DASK_LOGGING__DISTRIBUTED"


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise BatchError(
            "the dask backend needs dask.distributed, which is not installed: pip install 'hulkforge[dask]'"
        ) from None
    return distributed


def scheduler_address_problem(address: str) -> str | None:
    """Why a --scheduler address cannot name a Dask scheduler (unknown scheme, bad port), or None."""
    _import_distributed()
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    try:
        scheme, location = parse_address(address)
        get_backend(scheme)
        if scheme in ("tcp", "tls", "ws", "wss"):
            parse_host_port(location, default_port=8786)
    except (ValueError, TypeError) as exc:
        return f"--scheduler {address!r} is not a Dask scheduler address ({exc}); e.g. tcp://host:8786"
    return None


def _flatten(prefix: str, value: Any, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else str(k), v, out)
    else:
        out[prefix] = value


def load_security(path: str | os.PathLike[str]) -> Any:
    """A distributed.Security from a Dask configuration file (YAML) holding only `distributed.comm` settings.

    The file is Dask's own format, e.g. `distributed: {comm: {require-encryption: true, tls: {ca-file: ca.pem,
    client: {cert: me.pem, key: me.key}}}}`. Raises BatchError naming the file and the problem.
    """
    _import_distributed()
    import dask
    import yaml
    from distributed.security import Security

    from engine.mission.io import read_limited

    def refused(where: str | os.PathLike[str], message: str) -> BatchError:
        return BatchError(f"{where}: cannot read the Dask security file: {message}")

    raw = read_limited(path, what="Dask security file", error=refused, max_bytes=1 << 20)
    try:
        data = yaml.safe_load(raw.decode("utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise BatchError(f"{path}: not a YAML file: {str(exc).splitlines()[0]}") from None
    flat: dict[str, Any] = {}
    _flatten("", data if isinstance(data, dict) else {"": data}, flat)
    wrong = [k for k in flat if tuple(k.split(".")[:2]) != SECURITY_SECTION]
    if wrong or not flat:
        raise BatchError(f"{path}: a Dask security file holds distributed.comm settings only (TLS files, "
                         f"require-encryption){f', not {wrong[0]!r}' if wrong else ''}")
    try:
        with dask.config.set(flat):
            return Security()  # type: ignore[no-untyped-call]
    except (TypeError, ValueError) as exc:
        raise BatchError(f"{path}: {exc}") from None


def _play_chunk(spec_json: dict[str, Any], indices: list[int]) -> tuple[str, list[dict[str, Any]]]:
    """The Dask job: the chunk's rows, and which worker played them (the summary counts real workers)."""
    import distributed

    try:
        where = str(distributed.get_worker().address)
    except ValueError:  # not inside a worker (a synchronous scheduler in tests)
        where = f"pid {os.getpid()}"
    return where, run_chunk(spec_json, indices)


@contextlib.contextmanager
def _quiet_worker_processes() -> Iterator[None]:
    """Worker processes of our own local cluster log errors only: a batch stopped early cancels their jobs, and
    Dask's warnings about it (cancelled tasks, closed comms) are noise to the person who stopped it."""
    old = os.environ.get(_LOG_LEVEL_VAR)
    os.environ[_LOG_LEVEL_VAR] = "error"  # read by `distributed` when a new worker process imports it
    try:
        yield
    finally:
        if old is None:
            del os.environ[_LOG_LEVEL_VAR]
        else:
            os.environ[_LOG_LEVEL_VAR] = old


def _drop_tracebacks(exc: BaseException | None) -> None:
    seen = 0
    while exc is not None and seen < 16:
        exc.__traceback__ = None
        exc = exc.__cause__ or exc.__context__
        seen += 1


def _connect(distributed: Any, scheduler: str | None, workers: int | None, processes: bool,
             connect_timeout: str, security: Any) -> tuple[Any, Any]:
    cluster = None
    try:
        if scheduler:
            client = distributed.Client(scheduler, timeout=connect_timeout, security=security)
        else:
            import dask

            # A game that kills its worker would kill the next three too (Dask's default) before failing.
            with dask.config.set({"distributed.scheduler.allowed-failures": 1}), _quiet_worker_processes():
                cluster = distributed.LocalCluster(
                    n_workers=workers or 1, threads_per_worker=1, processes=processes, dashboard_address=None
                )
            client = distributed.Client(cluster)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        if cluster is not None:
            cluster.close()
        # A Client whose constructor failed still holds a running event loop; collected later, at a random
        # moment, its __del__ stops that loop while a new cluster starts its own and the two deadlock. Now.
        _drop_tracebacks(exc)  # they hold the half-made Client
        gc.collect()
        raise BatchError(f"cannot reach the Dask scheduler {scheduler or '(local cluster)'}: {exc}") from None
    return client, cluster


def run_dask(
    spec: BatchSpec,
    indices: Collection[int],
    status: RunStatus,
    cancel: threading.Event | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    processes: bool = True,
    connect_timeout: str = "20s",
    worker_wait: float = DEFAULT_WORKER_WAIT,
    security: Any = None,
) -> Iterator[GameRecord]:
    """Play games by index on a cluster, yielding records chunk by chunk as they complete.

    A cluster with no worker for `worker_wait` seconds (none at the start, or all gone mid-batch) stops the
    batch with a message instead of waiting forever; the games that finished are kept. Only a few jobs per
    worker thread are submitted at a time, the next ones as they finish, so memory does not grow with games.
    """
    distributed = _import_distributed()
    client, cluster = _connect(distributed, scheduler, workers, processes, connect_timeout, security)
    where = scheduler or "(local cluster)"
    chunks: dict[Any, list[int]] = {}
    try:
        try:
            client.wait_for_workers(1, timeout=worker_wait)
        except (TimeoutError, OSError) as exc:
            raise BatchError(f"the Dask scheduler {where} has no worker: none joined within {worker_wait:g} s "
                             f"(start one with `dask worker {where}`, or wait longer with --worker-wait)"
                             ) from exc
        spec_json = spec.to_json()
        nthreads = client.nthreads()
        size = chunk_size(len(indices), max(1, len(nthreads)))
        threads = max(1, sum(nthreads.values()))
        fresh = iter(indices)
        in_flight = max(JOBS_PER_THREAD * threads, 8)
        played = 0
        # with_results: the rows are fetched in the background, so a job whose worker left before they were
        # fetched waits there (Dask computes it again when a worker comes) while this loop watches the workers.
        pending = distributed.as_completed([], with_results=True, raise_errors=False)

        def submit_more() -> None:
            while len(chunks) < in_flight:
                chunk = list(itertools.islice(fresh, size))
                if not chunk:
                    return
                fut = client.submit(_play_chunk, spec_json, chunk, pure=False)
                chunks[fut] = chunk
                pending.add(fut)

        submit_more()
        alone_since: float | None = None  # when the cluster was last seen with no worker
        last_look = 0.0
        while not pending.is_empty():
            if cancel is not None and cancel.is_set():
                status.stopped = "cancelled"
                return
            if not pending.has_ready():
                now = time.monotonic()
                if now - last_look >= 1.0:
                    last_look = now
                    try:
                        has_worker = bool(client.nthreads())
                    except OSError:  # the scheduler itself is gone: as good as no worker
                        has_worker = False
                    if has_worker:
                        alone_since = None
                    elif alone_since is None:
                        alone_since = now
                    elif now - alone_since >= worker_wait:
                        msg = (f"the Dask cluster at {where} had no worker for {worker_wait:g} s; "
                               f"stopped with {played} of {len(indices)} games played")
                        status.stopped = "stopped: no Dask worker"
                        status.messages.append(msg)
                        return
                time.sleep(POLL_SECONDS)
                continue
            for fut, outcome in pending.next_batch(block=False):
                for rec in _finish(fut, outcome, chunks, pending, client, spec, spec_json, status):
                    played += 1
                    yield rec
            submit_more()
    finally:
        if chunks:
            client.cancel(list(chunks))
        client.close()
        if cluster is not None:
            cluster.close()


def _finish(fut: Any, outcome: Any, chunks: dict[Any, list[int]], pending: Any, client: Any, spec: BatchSpec,
            spec_json: dict[str, Any], status: RunStatus) -> Iterator[GameRecord]:
    """The records of one finished job; a failed job of several games is split into one job per game."""
    chunk = chunks.pop(fut)
    if isinstance(outcome, BaseException):  # KilledWorker, a lost connection, a crash in the job
        if len(chunk) > 1:
            # Replay the chunk one game per job so only the culprit is lost.
            for item in chunk:
                single = client.submit(_play_chunk, spec_json, [item], pure=False)
                chunks[single] = [item]
                pending.add(single)
            return
        index = chunk[0]
        msg = f"Dask job failed for game {index}: {type(outcome).__name__}: {outcome}"
        status.worker_deaths += 1
        status.messages.append(msg)
        yield GameRecord.failed(index, game_seed(spec.seed, index), msg)
        return
    worker, rows = outcome
    status.workers_seen.add(worker)
    for row in rows:
        yield GameRecord.from_json(row)
