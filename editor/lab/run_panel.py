"""RunPanel: the form of a batch (policies, games, seed, workers, backend, overrides) with Run and Cancel."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from editor.lab.options_table import OverridesTable
from engine.ai import SIDES, default_policy, policy_names
from engine.sim import default_workers
from engine.sim.spec import MAX_GAMES

SIDE_NAMES = {"marines": "Marines", "genestealers": "Genestealers"}


class RunPanel(QWidget):
    """Emits runRequested / cancelRequested; the lab builds the spec from `form()`."""

    runRequested = Signal()
    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.policy: dict[str, QComboBox] = {}
        form = QFormLayout()
        for side in SIDES:
            box = QComboBox()
            box.addItems(policy_names(side))
            box.setCurrentText(default_policy(side))
            box.setToolTip(f"the AI playing the {SIDE_NAMES[side]} (engine.ai registry)")
            self.policy[side] = box
            form.addRow(SIDE_NAMES[side], box)
        self.games = QSpinBox()
        self.games.setRange(1, MAX_GAMES)
        self.games.setValue(500)
        self.games.setSingleStep(100)
        self.games.setToolTip("2,500 games give about ±2% at 95%")
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setValue(1)
        self.seed.setToolTip("same seed, same games — whatever the workers or the backend")
        self.workers = QSpinBox()
        self.workers.setRange(1, 256)
        self.workers.setValue(default_workers())
        self.backend = QComboBox()
        self.backend.addItems(["local", "dask"])
        self.backend.setToolTip("local: worker processes on this machine; dask: a Dask cluster")
        self.scheduler = QLineEdit()
        self.scheduler.setPlaceholderText("tcp://host:8786 (empty: a local Dask cluster)")
        self.scheduler.setEnabled(False)
        self.backend.currentTextChanged.connect(lambda t: self.scheduler.setEnabled(t == "dask"))
        form.addRow("Games", self.games)
        form.addRow("Seed", self.seed)
        form.addRow("Workers", self.workers)
        form.addRow("Backend", self.backend)
        form.addRow("Scheduler", self.scheduler)

        self.overrides = OverridesTable()
        over_box = QGroupBox("Rule options and mission parameters")
        over_lay = QVBoxLayout(over_box)
        over_lay.setContentsMargins(4, 4, 4, 4)
        over_lay.addWidget(self.overrides)

        self.run_button = QPushButton("Run")
        self.run_button.setDefault(True)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.run_button.clicked.connect(self.runRequested)
        self.cancel_button.clicked.connect(self.cancelRequested)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setFormat("%v / %m games")
        self.progress.setMinimumWidth(220)
        self.status = QLabel("Ready.")
        self.status.setToolTip("Games done, games per second and the time left")
        self.status.setWordWrap(True)
        # Run, Cancel, the bar and the time left live in `bar`, which the lab pins above its scrolling form and
        # charts: they must stay in view whatever the window's height.
        self.bar = QWidget()
        bar = QHBoxLayout(self.bar)
        bar.setContentsMargins(4, 2, 4, 2)
        bar.addLayout(buttons)
        bar.addWidget(self.progress)
        bar.addWidget(self.status, 1)

        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(over_box, 1)

    def form(self) -> dict[str, Any]:
        """What the user chose, as plain values."""
        return {
            "policies": {side: box.currentText() for side, box in self.policy.items()},
            "games": self.games.value(),
            "seed": self.seed.value(),
            "workers": self.workers.value(),
            "backend": self.backend.currentText(),
            "scheduler": self.scheduler.text().strip() or None,
            "settings": self.overrides.settings(),
        }

    def set_running(self, running: bool) -> None:
        """Lock the form while a batch runs; Cancel is live only then."""
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)

    def show_message(self, text: str, error: bool = False) -> None:
        """A status line (red for errors)."""
        self.status.setText(text)
        self.status.setStyleSheet("color: #b71c1c;" if error else "")
