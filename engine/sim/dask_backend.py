"""The Dask backend: the same chunk jobs on a dask.distributed cluster (or a LocalCluster when no address).

dask[distributed] is an optional extra, imported only here and only when this backend is used.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

from engine.sim.local import BatchError, RunStatus, chunk_size
from engine.sim.record import GameRecord
from engine.sim.runner import run_chunk
from engine.sim.spec import BatchSpec, game_seed


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise BatchError(
            "the dask backend needs dask.distributed, which is not installed: pip install 'hulkforge[dask]'"
        ) from None
    return distributed


def run_dask(
    spec: BatchSpec,
    indices: list[int],
    status: RunStatus,
    cancel: threading.Event | None = None,
    scheduler: str | None = None,
    workers: int | None = None,
    processes: bool = True,
    connect_timeout: str = "20s",
) -> Iterator[GameRecord]:
    """Play games by index on a cluster, yielding records chunk by chunk as they complete."""
    distributed = _import_distributed()
    cluster = None
    try:
        if scheduler:
            client = distributed.Client(scheduler, timeout=connect_timeout)
        else:
            import dask

            # A game that kills its worker would kill the next three too (Dask's default) before failing.
            with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
                cluster = distributed.LocalCluster(
                    n_workers=workers or 1, threads_per_worker=1, processes=processes, dashboard_address=None
                )
            client = distributed.Client(cluster)
    except OSError as exc:
        raise BatchError(f"cannot reach the Dask scheduler {scheduler or '(local cluster)'}: {exc}") from None
    spec_json = spec.to_json()
    n_workers = max(1, len(client.scheduler_info().get("workers", {})) or (workers or 1))
    size = chunk_size(len(indices), n_workers)
    chunks: dict[Any, list[int]] = {}
    try:
        for i in range(0, len(indices), size):
            chunk = indices[i:i + size]
            chunks[client.submit(run_chunk, spec_json, chunk, pure=False)] = chunk
        pending = distributed.as_completed(list(chunks))
        for fut in pending:
            if cancel is not None and cancel.is_set():
                status.stopped = "cancelled"
                client.cancel(list(chunks))
                return
            chunk = chunks.pop(fut)
            try:
                rows = fut.result()
            except Exception as exc:  # KilledWorker, a lost connection, a crash in the job
                if len(chunk) > 1:
                    # Replay the chunk one game per job so only the culprit is lost.
                    for item in chunk:
                        single = client.submit(run_chunk, spec_json, [item], pure=False)
                        chunks[single] = [item]
                        pending.add(single)
                    continue
                index = chunk[0]
                msg = f"Dask job failed for game {index}: {type(exc).__name__}: {exc}"
                status.worker_deaths += 1
                status.messages.append(msg)
                yield GameRecord.failed(index, game_seed(spec.seed, index), msg)
                continue
            for row in rows:
                yield GameRecord.from_json(row)
    finally:
        if chunks:
            client.cancel(list(chunks))
        client.close()
        if cluster is not None:
            cluster.close()
