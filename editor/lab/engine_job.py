"""EngineJob: a QThread that runs one long engine call (a tune, a strength check) with cancel and progress;
JobPanel: a lab tab that runs one such job at a time.

The call gets a `cancel` event and an `on_games(n)` callback; games played reach the GUI at most ten times a
second as `progressed`, the call's return value (or its error) as `done`.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QThread, Signal
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QSplitter, QVBoxLayout, QWidget

from editor.worker_gc import no_collection_in_thread

if TYPE_CHECKING:
    from engine.sim.spec import BatchSpec

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

    @no_collection_in_thread
    def run(self) -> None:
        """The thread body."""
        try:
            result = self.work(cancel=self.cancel_event, on_games=self._on_games)
        except Exception as exc:  # any failure must reach the panel, never kill the thread silently
            self.done.emit(None, f"{type(exc).__name__}: {exc}")
            return
        self.progressed.emit(self._games)
        self.done.emit(result, "")


class JobPanel(QWidget):
    """A lab tab that runs one EngineJob at a time: Run and Cancel buttons, a progress bar, a form beside a chart.

    `spec_source` gives the run panel's batch (mission, players, seed), `run_options` its backend, workers and
    scheduler, which every job of the tab runs with.
    """

    def __init__(self, run_text: str, spec_source: Callable[[], BatchSpec],
                 run_options: Callable[[], dict[str, Any]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec_source = spec_source
        self.run_options = run_options
        self.progress = QProgressBar()
        self.job: EngineJob | None = None
        self._old_jobs: list[EngineJob] = []
        self.run_button = QPushButton(run_text)
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)

    def start(self) -> bool:
        """Start the job of the form (the subclass's)."""
        raise NotImplementedError

    def place(self, form: QWidget, form_width: int) -> None:
        """Lay the form out beside a white chart canvas (self.canvas, its plot self.plot)."""
        from editor.lab.plots import new_layout

        self.canvas = new_layout()
        self.plot = self.canvas.addPlot()
        split = QSplitter()
        split.addWidget(form)
        split.addWidget(self.canvas)
        split.setSizes([form_width, 1120 - form_width])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(split)

    def run_engine(self, work: Callable[..., Any], *args: Any, total: int, **kwargs: Any) -> None:
        """Run `work(*args, **kwargs)` on a worker thread with the run panel's backend, workers and scheduler;
        the progress bar counts its games up to `total`; the end reaches `_done(result, error)`."""
        opts = self.run_options()
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(0)
        job = EngineJob(functools.partial(
            work, *args, backend=opts.get("backend", "local"), workers=opts.get("workers"),
            scheduler=opts.get("scheduler"), **kwargs))
        job.progressed.connect(self.progress.setValue)
        job.done.connect(self._done)
        self.launch(job)

    def _done(self, result: Any, error: str) -> None:
        """The job's end (the subclass's; it calls `job_ended` first)."""
        raise NotImplementedError

    def launch(self, job: EngineJob) -> None:
        """Run `job`; its `done` must reach a slot that calls `job_ended` first."""
        self.job = job
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        job.start()

    def job_ended(self) -> None:
        """The job said done: let its thread end, keep it, free the buttons."""
        job = self.job
        self.job = None
        if job is not None:
            job.wait()
            # Kept (Python owns it) rather than deleteLater'd: see LabWidget._job_done.
            self._old_jobs.append(job)
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def cancel(self) -> None:
        """Ask the running job to stop; what it finished is kept."""
        if self.job is not None:
            self.job.cancel()

    def shutdown(self) -> None:
        """Cancel and wait (the lab is closing)."""
        if self.job is not None:
            self.job.cancel()
            self.job.wait(15_000)


class StatusJobPanel(JobPanel):
    """A JobPanel with a status line under its form: what runs, "Cancelling…", errors in red."""

    def __init__(self, run_text: str, status_text: str, spec_source: Callable[[], BatchSpec],
                 run_options: Callable[[], dict[str, Any]], parent: QWidget | None = None) -> None:
        super().__init__(run_text, spec_source, run_options, parent)
        self.status = QLabel(status_text)
        self.status.setWordWrap(True)

    def cancel(self) -> None:
        """Stop the running job (what it finished stays) and say so."""
        if self.job is not None:
            super().cancel()
            self._message("Cancelling…")

    def _message(self, text: str, error: bool = False) -> None:
        self.status.setText(f"<span style='color:#b71c1c'>{text}</span>" if error else text)
