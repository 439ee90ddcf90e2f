"""LabWidget: the balance lab — run panel beside tabs of charts, map (heatmaps, replay), compare and sweep.

It owns the one batch job that may run at a time and the worker pool the jobs share.
"""

from __future__ import annotations

import atexit
import time
import weakref
from typing import Any

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from editor.document import MissionDocument
from editor.lab.charts import ChartsView
from editor.lab.compare import ComparePanel
from editor.lab.heatmaps import HeatmapPanel
from editor.lab.jobs import BatchThread
from editor.lab.lab_files import LabFiles
from editor.lab.lab_map import LabMap
from editor.lab.levers_panel import add_levers_tab
from editor.lab.options_table import check_settings, split_settings
from editor.lab.replay import ReplayPanel
from editor.lab.run_panel import RunPanel
from editor.lab.runs import LabRun, format_seconds
from editor.lab.sweep import SweepPanel
from editor.lab.tune_panel import add_tune_tabs
from engine.mission import MissionFileError, mission_from_dict, mission_to_dict, read_document
from engine.mission.schema_check import schema_issues
from engine.sim import BatchSpec, LocalPool

REFRESH_MS = 250
SHUTDOWN_WAIT_MS = 15_000


class LabWidget(LabFiles, QWidget):
    """Everything of the lab in one widget (the dock holds it; tests drive it directly)."""

    jobFinished = Signal(str)  # kind: "batch", "compare" or "sweep"
    progressChanged = Signal(int, int, str)  # games done, games in the job, one line (rate, time left)

    def __init__(self, doc: MissionDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.run: LabRun | None = None
        self.job: BatchThread | None = None
        self.job_kind = ""
        self.job_runs: list[LabRun] = []
        self._pool: LocalPool | None = None
        self._last_job: BatchThread | None = None
        self._dirty = False

        self.run_panel = RunPanel()
        self.charts = ChartsView()
        self.lab_map = LabMap(doc)
        self.heatmaps = HeatmapPanel(self.lab_map)
        self.replay = ReplayPanel(self.lab_map)
        self.compare = ComparePanel()
        self.sweep = SweepPanel()

        side_tabs = QTabWidget()
        side_tabs.addTab(self.heatmaps, "Heatmap")
        side_tabs.addTab(self.replay, "Replay")
        self.side_tabs = side_tabs
        map_split = QSplitter()
        map_split.addWidget(self.lab_map)
        map_split.addWidget(side_tabs)
        map_split.setStretchFactor(0, 3)
        map_split.setStretchFactor(1, 2)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.charts, "Charts")
        self.tabs.addTab(map_split, "Map: heatmaps and replay")
        self.tabs.addTab(self.compare, "Compare")
        self.tabs.addTab(self.sweep, "Sweep")
        add_tune_tabs(self)
        add_levers_tab(self)
        self.map_tab = map_split

        buttons = QHBoxLayout()
        for text, slot in (("Open results…", self._open_results), ("Save results JSON…", self._save_json),
                           ("Save CSV…", self._save_csv),
                           ("Export PNG…", lambda: self._save_picture("png")),
                           ("Export SVG…", lambda: self._save_picture("svg"))):
            b = QPushButton(text)
            b.clicked.connect(slot)
            buttons.addWidget(b)
        buttons.addStretch(1)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.tabs, 1)
        rl.addLayout(buttons)
        scroll = QScrollArea()
        scroll.setWidget(self.run_panel)
        scroll.setWidgetResizable(True)
        scroll.setMinimumWidth(360)
        split = QSplitter()
        split.addWidget(scroll)
        split.addWidget(right)
        split.setStretchFactor(1, 1)
        split.setSizes([400, 1000])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.run_panel.bar)  # Run, Cancel, progress and time left: always in view
        lay.addWidget(split, 1)

        self.run_panel.runRequested.connect(self.start_batch)
        self.run_panel.cancelRequested.connect(self.cancel)
        self.compare.runRequested.connect(self.start_compare)
        self.sweep.runRequested.connect(self.start_sweep)
        doc.missionReplaced.connect(lambda: self.run_panel.overrides.show_mission(doc.mission))
        doc.propertiesChanged.connect(lambda: self.run_panel.overrides.show_mission(doc.mission))
        self.run_panel.overrides.show_mission(doc.mission)
        self.compare.overrides_b.show_mission(doc.mission)
        self._timer = QTimer(self)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self._refresh)
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.shutdown)
        _LIVE.add(self)

    def add_page(self, widget: QWidget, title: str) -> int:
        """Add a page beside Charts, Map, Compare and Sweep (a new kind of study); returns its tab index."""
        return self.tabs.addTab(widget, title)

    # --- specs -----------------------------------------------------------------------------------
    def make_spec(self, settings: dict[str, Any] | None = None, mission_doc: dict[str, Any] | None = None,
                  mission_path: str | None = None) -> BatchSpec:
        """The spec of the form: the mission as edited now (embedded, so replays see what was played)."""
        form = self.run_panel.form()
        settings = form["settings"] if settings is None else settings
        if mission_doc is None:
            mission_doc = mission_to_dict(self.doc.mission)
            mission_path = self.doc.path
        broken = schema_issues(mission_doc)
        if broken:  # a mission open for repair: the rules cannot play what breaks the format
            raise ValueError(f"the mission breaks the file format in {len(broken)} place(s) (first: "
                             f"{broken[0].message}); fix them (see Validation) before playing games")
        check_settings(mission_from_dict(mission_doc), settings)
        options, params = split_settings(settings)
        return BatchSpec(games=form["games"], seed=form["seed"], mission=mission_path, mission_doc=mission_doc,
                         options=options, mission_params=params, policies=dict(form["policies"]))

    def _start(self, kind: str, specs: list[BatchSpec], labels: list[str], values: list[Any] | None = None) -> bool:
        if self.job is not None:
            self.run_panel.show_message("A batch is already running: cancel it first.", error=True)
            return False
        form = self.run_panel.form()
        backend, workers = form["backend"], form["workers"]
        pool = None
        if backend == "local":
            if self._pool is not None and self._pool.workers != workers:
                self._pool.close()
                self._pool = None
            if self._pool is None:
                self._pool = LocalPool(workers)
            pool = self._pool
        self.job_kind = kind
        self.job_runs = [LabRun(spec, label, backend, workers, value=(values[i] if values else None))
                         for i, (spec, label) in enumerate(zip(specs, labels, strict=True))]
        job = BatchThread(specs, backend=backend, workers=workers, scheduler=form["scheduler"], pool=pool)
        job.gamesFinished.connect(self._games)
        job.batchStarted.connect(self._batch_started)
        job.batchFinished.connect(self._batch_finished)
        job.finished.connect(self._job_done)
        self.job = job
        if kind == "batch":
            self.run = self.job_runs[0]
            self.charts.clear()
            self.replay.reset()
        self.run_panel.set_running(True)
        for b in (self.compare.run_button, self.sweep.run_button):
            b.setEnabled(False)
        self.run_panel.progress.setRange(0, max(1, sum(s.games for s in specs)))
        self.run_panel.progress.setValue(0)
        self.run_panel.show_message(f"Starting {len(specs)} batch(es) on {workers} {backend} worker(s)…")
        self.progressChanged.emit(0, sum(s.games for s in specs), self.run_panel.status.text())
        self._timer.start()
        job.start()
        return True

    def start_batch(self) -> bool:
        """Run the batch of the form; charts fill as games finish."""
        try:
            spec = self.make_spec()
        except ValueError as exc:
            self.run_panel.show_message(str(exc), error=True)
            return False
        title = self.doc.display_name()
        pol = spec.policies
        return self._start("batch", [spec], [f"{title} ({pol['marines']} vs {pol['genestealers']})"])

    def start_compare(self) -> bool:
        """Variant A (the form) against variant B on the same seeds."""
        b = self.compare.variant_b()
        try:
            spec_a = self.make_spec()
            if "mission" in b:
                if not b["mission"]:
                    raise ValueError("choose a mission file for variant B")
                doc_b = read_document(b["mission"])
                spec_b = self.make_spec(mission_doc=doc_b, mission_path=b["mission"])
                label_b = b["mission"].rsplit("/", 1)[-1]
            else:
                spec_b = self.make_spec(settings={**self.run_panel.form()["settings"], **b["settings"]})
                label_b = ", ".join(f"{k}={v}" for k, v in b["settings"].items()) or "same settings"
        except (ValueError, MissionFileError) as exc:
            self.compare.result.setText(f"<span style='color:#b71c1c'>{exc}</span>")
            return False
        label_a = ", ".join(f"{k}={v}" for k, v in self.run_panel.form()["settings"].items()) or "as edited"
        self.tabs.setCurrentWidget(self.compare)
        return self._start("compare", [spec_a, spec_b], [label_a, label_b])

    def start_sweep(self) -> bool:
        """One batch per value of the swept setting, all on the same seeds."""
        name, values = self.sweep.sweep()
        base = self.run_panel.form()["settings"]
        try:
            if not values:
                raise ValueError("type the values to sweep, e.g. 0, 1, 2 or 1..4")
            specs = [self.make_spec(settings={**base, name: v}) for v in values]
        except ValueError as exc:
            self.sweep.result.setText(f"<span style='color:#b71c1c'>{exc}</span>")
            return False
        self.tabs.setCurrentWidget(self.sweep)
        return self._start("sweep", specs, [f"{name}={v}" for v in values], values)

    def cancel(self) -> None:
        """Stop the job; games already finished stay in the charts."""
        if self.job is not None:
            self.job.cancel()
            self.run_panel.show_message("Cancelling… (finished games are kept)")

    # --- job signals ---------------------------------------------------------------------------
    def _games(self, i: int, records: list[Any]) -> None:
        self.job_runs[i].add(records)
        self._dirty = True

    def _batch_started(self, i: int) -> None:
        run = self.job_runs[i]
        run.started = time.perf_counter()

    def _batch_finished(self, i: int, status: Any, error: str) -> None:
        self.job_runs[i].finish(status, error or None)
        self._dirty = True

    def _job_done(self) -> None:
        job = self.job
        self.job = None
        self._timer.stop()
        self._dirty = True
        self._refresh()
        kind = self.job_kind
        errors = [r.error for r in self.job_runs if r.error]
        if errors:
            self.run_panel.show_message(errors[0], error=True)
        self.run_panel.set_running(False)
        for b in (self.compare.run_button, self.sweep.run_button):
            b.setEnabled(True)
        runs = self.job_runs
        # The last word of the job for whoever shows its progress (the editor's status bar), as the run panel has it.
        self.progressChanged.emit(sum(r.done for r in runs), sum(r.spec.games for r in runs),
                                  self.run_panel.status.text())
        if job is not None:
            # `finished` arrives while the thread is still unwinding; it must end before it may be freed.
            # Kept (Python owns it) rather than deleteLater'd: a pending deferred delete of a QThread at
            # exit has crashed PySide's teardown.
            job.wait()
            self._last_job = job
        self.jobFinished.emit(kind)

    def _refresh(self) -> None:
        """Redraw what changed since the last tick (at most four times a second)."""
        if not self._dirty:
            return
        self._dirty = False
        began = time.perf_counter()
        self._redraw()
        # Keep redrawing under a fifth of the GUI thread's time, however slow the machine or big the charts.
        spent_ms = 1000 * (time.perf_counter() - began)
        self._timer.setInterval(max(REFRESH_MS, int(5 * spent_ms)))

    def _redraw(self) -> None:
        runs = self.job_runs
        done = sum(r.done for r in runs)
        self.run_panel.progress.setValue(done)
        # The batch being played (else the last that played): its line, and for several batches the total the bar
        # shows, so the bar and the line never tell two stories.
        current = next((r for r in runs if r.running and r.done), None) or next(
            (r for r in reversed(runs) if r.done), runs[0] if runs else None)
        if current is not None:
            prefix = f"{current.label}: " if len(runs) > 1 else ""
            self.run_panel.show_message(self._job_total(runs) + prefix + current.state_text() + self._job_eta(runs))
        if self.job is not None:
            self.progressChanged.emit(done, sum(r.spec.games for r in runs), self.run_panel.status.text())
        if self.job_kind == "batch" and self.run is not None:
            self.show_run(self.run, listing=not self.run.running)
        elif self.job_kind == "compare":
            self.compare.show_runs(runs)
        elif self.job_kind == "sweep":
            self.sweep.show_runs(runs)

    @staticmethod
    def _job_total(runs: list[LabRun]) -> str:
        if len(runs) < 2:
            return ""
        return f"all: {sum(r.done for r in runs)}/{sum(r.spec.games for r in runs)} games — "

    def _job_eta(self, runs: list[LabRun]) -> str:
        if len(runs) < 2 or self.job is None:
            return ""
        total = sum(r.spec.games for r in runs)
        done = sum(r.done for r in runs)
        spent = sum(r.elapsed() for r in runs if r.done)
        if not done:
            return ""
        return f" — all: about {format_seconds(spent / done * (total - done))} left"

    def show_run(self, run: LabRun, listing: bool = True) -> None:
        """Charts, heatmaps and the game list (listing=False while it runs: only new games are appended, as a
        table of thousands of rows is slow to rebuild; the full sorted list comes when it is over)."""
        self.charts.show_run(run)
        self.heatmaps.show_run(run)
        self.replay.show_run(run, live=not listing)

    # --- end -----------------------------------------------------------------------------------
    def shutdown(self) -> None:
        """Cancel a running job, wait for its thread, stop the worker processes."""
        job = self.job
        if job is not None:
            job.cancel()
            job.wait(SHUTDOWN_WAIT_MS)
        loader = self.replay._loader
        if loader is not None:
            loader.wait(SHUTDOWN_WAIT_MS)
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        self._timer.stop()


# Labs still open when Python exits (a script without app.exec(), a test session): their worker processes
# must stop before PySide tears Qt down, or that teardown has been seen to crash. atexit runs handlers in
# reverse order of registration, so this one (registered after PySide's) runs first.
_LIVE: weakref.WeakSet[LabWidget] = weakref.WeakSet()


def _shutdown_all() -> None:
    for lab in list(_LIVE):
        try:
            lab.shutdown()
        except RuntimeError:  # its C++ side is already gone
            pass


atexit.register(_shutdown_all)
