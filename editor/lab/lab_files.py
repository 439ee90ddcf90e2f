"""The lab's file actions: open saved results, save results as JSON or CSV, export charts and maps."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtWidgets import QFileDialog, QTabWidget, QWidget

from editor.lab import export
from editor.lab.runs import LabRun, run_from_results
from engine.sim.results import ResultsFileError, read_results

if TYPE_CHECKING:
    from editor.lab.charts import ChartsView
    from editor.lab.compare import ComparePanel
    from editor.lab.lab_map import LabMap
    from editor.lab.run_panel import RunPanel
    from editor.lab.sweep import SweepPanel


class LabFiles:
    """Mixed into LabWidget (kept apart so the widget module holds the batch logic only)."""

    # What the mixin uses of LabWidget.
    run: LabRun | None
    job: Any
    job_kind: str
    job_runs: list[LabRun]
    run_panel: RunPanel
    tabs: QTabWidget
    charts: ChartsView
    compare: ComparePanel
    sweep: SweepPanel
    lab_map: LabMap
    map_tab: QWidget

    def show_run(self, run: LabRun, listing: bool = True) -> None:
        """Provided by LabWidget."""
        raise NotImplementedError

    def _parent(self) -> QWidget:
        return cast(QWidget, self)

    def open_results(self, path: str) -> bool:
        """Show a saved results file (from the lab or `hulkforge simulate --out`) as the current batch."""
        if self.job is not None:
            self.run_panel.show_message("Cancel the running batch before opening results.", error=True)
            return False
        try:
            doc = read_results(path)
            run = run_from_results(doc, label=os.path.basename(path))
        except (ResultsFileError, KeyError, TypeError, ValueError) as exc:
            self.run_panel.show_message(f"Cannot open results: {exc}", error=True)
            return False
        self.run = run
        self.job_kind, self.job_runs = "batch", [run]
        self.show_run(run)
        self.run_panel.progress.setRange(0, max(1, run.spec.games))
        self.run_panel.progress.setValue(run.done)
        self.run_panel.show_message(f"Opened {path}: {run.stats.games} games.")
        return True

    def _open_results(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self._parent(), "Open results", "", "Results (*.json)")
        if path:
            self.open_results(path)

    def _save_json(self) -> None:
        if self.run is None:
            return
        path, _ = QFileDialog.getSaveFileName(self._parent(), "Save results", "results.json", "Results (*.json)")
        if path:
            self._write(lambda: export.save_json(self.run, path), path)  # type: ignore[arg-type]

    def _save_csv(self) -> None:
        if self.run is None:
            return
        path, _ = QFileDialog.getSaveFileName(self._parent(), "Save games as CSV", "games.csv", "CSV (*.csv)")
        if path:
            self._write(lambda: export.save_csv(self.run, path), path)  # type: ignore[arg-type]

    def picture_widget(self) -> QWidget:
        """What Export PNG/SVG draws: the chart canvas or the map of the current tab."""
        current = self.tabs.currentWidget()
        widget: QWidget = self.charts.canvas
        if current is self.compare:
            widget = self.compare.canvas
        elif current is self.sweep:
            widget = self.sweep.canvas
        elif current is self.map_tab:
            widget = self.lab_map.view
        return widget

    def _save_picture(self, fmt: str) -> None:
        path, _ = QFileDialog.getSaveFileName(self._parent(), f"Export {fmt.upper()}", f"chart.{fmt}", f"*.{fmt}")
        if not path:
            return
        widget = self.picture_widget()
        self._write(lambda: (export.save_svg if fmt == "svg" else export.save_png)(widget, path), path)

    def _write(self, save: Callable[[], object], path: str) -> None:
        """Run a save; a full disk or a read-only folder becomes a message, not a traceback."""
        try:
            save()
        except OSError as exc:
            self.run_panel.show_message(f"Cannot write {path}: {exc}", error=True)
            return
        self.run_panel.show_message(f"Saved {path}.")
