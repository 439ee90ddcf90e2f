"""The Dask backend against real (in-process) clusters: no workers, workers gone, bad addresses, TLS."""

from __future__ import annotations

import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.sim.batch import BatchError, run_batch
from engine.sim.spec import BatchSpec

distributed = pytest.importorskip("distributed")

FAKE = {"runner": "fake", "runner_args": {}}


def _spec(games: int) -> BatchSpec:
    return BatchSpec(games=games, seed=3, **FAKE)  # type: ignore[arg-type]


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_a_scheduler_with_no_worker_stops_with_a_message_instead_of_hanging() -> None:
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        with pytest.raises(BatchError, match=r"has no worker: none joined within 0\.5 s"):
            run_batch(_spec(4), backend="dask", scheduler=cluster.scheduler_address,
                      dask_options={"worker_wait": 0.5})


# The worker runs in this process (processes=False) and finds these by reference: a closure over an Event
# could not be sent to it.
_TOLD_TO_LEAVE = threading.Event()
_HELD: dict[str, Any] = {}


def _held_chunk(spec_json: dict[str, Any], indices: list[int]) -> Any:
    """Chunks after the first wait until the only worker is told to leave, so it is busy when it goes."""
    _HELD["chunks"].append(len(indices))
    if len(_HELD["chunks"]) > 1:
        _TOLD_TO_LEAVE.wait(timeout=60)
    return _HELD["play"](spec_json, indices)


def test_workers_gone_mid_batch_stop_it_and_keep_what_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    import engine.sim.dask_backend as backend

    _HELD["play"] = backend._play_chunk
    _HELD["chunks"] = []
    _TOLD_TO_LEAVE.clear()
    monkeypatch.setattr(backend, "_play_chunk", _held_chunk)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        gone: list[bool] = []

        def first_result(_rec: Any) -> None:
            if not gone:  # the only worker leaves after the first chunk: nobody is left to play the rest
                gone.append(True)
                cluster.scale(0)
                _TOLD_TO_LEAVE.set()

        result = run_batch(_spec(400), backend="dask", scheduler=cluster.scheduler_address,
                           dask_options={"worker_wait": 1.0}, on_result=first_result)
    assert result.status.stopped == "stopped: no Dask worker"
    assert "had no worker for 1 s" in result.status.messages[-1]
    assert 0 < result.stats.games < 400
    assert result.workers == 1  # the one that played, not the number asked for


def test_the_summary_counts_the_workers_that_played() -> None:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        one = run_batch(_spec(1), backend="dask", scheduler=cluster.scheduler_address)
    assert one.stats.games == 1 and one.workers == 1
    assert run_batch(_spec(0), backend="local", workers=4).workers == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--backend", "dask", "--scheduler", "bogus://x"], "not a Dask scheduler address"),
        (["--backend", "dask", "--scheduler", "tcp://host:port"], "not a Dask scheduler address"),
        (["--scheduler", "tcp://127.0.0.1:8786"], "--scheduler applies to --backend dask only"),
        (["--backend", "dask", "--worker-wait", "0"], "--worker-wait must be a positive number"),
        (["--backend", "dask", "--dask-security", "x.yaml"], "--dask-security needs --scheduler"),
        (["--backend", "dask", "--scheduler", "tls://h:1", "--dask-security", "/nonexistent.yaml"],
         "cannot read the Dask security file"),
    ],
)
def test_bad_dask_arguments_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                 message: str) -> None:
    code, stdout, stderr = run_cli(capsys, "simulate", "tutorial", "-n", "2", *argv)
    assert (code, stdout) == (2, "")
    assert message in stderr and len(stderr.strip().splitlines()) == 1 and "Traceback" not in stderr


def test_a_security_file_must_hold_only_tls_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "security.yaml"
    f.write_text("distributed:\n  scheduler:\n    allowed-failures: 99\n")
    code, _, stderr = run_cli(capsys, "simulate", "tutorial", "-n", "2", "--backend", "dask",
                              "--scheduler", "tls://h:1", "--dask-security", str(f))
    assert code == 2 and "distributed.comm settings only" in stderr
    f.write_text("distributed: [unclosed\n")
    code, _, stderr = run_cli(capsys, "simulate", "tutorial", "-n", "2", "--backend", "dask",
                              "--scheduler", "tls://h:1", "--dask-security", str(f))
    assert code == 2 and "not a YAML file" in stderr


def _self_signed(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                    "/CN=hulkforge-test", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command to make certificates")
def test_a_tls_scheduler_needs_the_security_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from distributed.security import Security

    cert, key = _self_signed(tmp_path)
    files = {"tls_ca_file": str(cert), "tls_scheduler_cert": str(cert), "tls_scheduler_key": str(key),
             "tls_worker_cert": str(cert), "tls_worker_key": str(key), "tls_client_cert": str(cert),
             "tls_client_key": str(key)}
    security = tmp_path / "security.yaml"
    security.write_text(
        "distributed:\n  comm:\n    require-encryption: true\n    tls:\n"
        f"      ca-file: {cert}\n      client:\n        cert: {cert}\n        key: {key}\n"
    )
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tls://",
                                  security=Security(require_encryption=True, **files),
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tls://")
        code, stdout, _ = run_cli(capsys, "simulate", "tutorial", "-n", "3", "--backend", "dask",
                                  "--scheduler", address, "--dask-security", str(security),
                                  "--marines", "random", "--genestealers", "random", "--json")
        assert code == 0
        assert '"workers": 1' in stdout
        # Without the certificates the client cannot even speak to it.
        code, stdout, stderr = run_cli(capsys, "simulate", "tutorial", "-n", "3", "--backend", "dask",
                                       "--scheduler", address, "--marines", "random", "--genestealers", "random")
        assert code == 1 and "cannot reach the Dask scheduler" in stderr and "Traceback" not in stderr
