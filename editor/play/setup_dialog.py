"""PlaytestDialog: which side the person plays (or both, hot-seat), the opponent (any registered policy, or a
trained weights file), the seed and the sand timer."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from engine.ai.base import SIDES, default_policy, policy_names
from engine.sim.sand_timer import DEFAULT_SECONDS
from engine.sim.session import HUMAN

PLAYS = {"marines": "the Marines", "genestealers": "the Genestealers", "both": "both sides (hot-seat)"}


@dataclass(frozen=True)
class PlaytestSetup:
    """What the dialog settles: each side's seat (human or a policy), the seed and the timer (None: off)."""

    seats: dict[str, str]
    seed: int
    timer: float | None


def seats_for(play: str, opponent: str | None = None) -> dict[str, str]:
    """The seats when the person plays `play` (a side or both) against `opponent` (default: the heuristic)."""
    if play == "both":
        return dict.fromkeys(SIDES, HUMAN)
    other = SIDES[1 - SIDES.index(play)]
    return {play: HUMAN, other: opponent or default_policy(other)}


class PlaytestDialog(QDialog):
    """Play › Playtest: the person's side, the opponent, the seed and the timer."""

    def __init__(self, play: str = "marines", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Playtest")
        self.side = QComboBox()
        for key, text in PLAYS.items():
            self.side.addItem(text, key)
        self.side.setCurrentIndex(list(PLAYS).index(play))
        self.opponent = QComboBox()
        self.weights = QLineEdit()
        self.weights.setPlaceholderText("optional: a trained weights file for the opponent")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        wrow = QHBoxLayout()
        wrow.addWidget(self.weights, 1)
        wrow.addWidget(browse)
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.timer_on = QCheckBox("Sand timer on the Marine action phase")
        self.timer_s = QDoubleSpinBox()
        self.timer_s.setRange(5, 3600)
        self.timer_s.setValue(DEFAULT_SECONDS)
        self.timer_s.setSuffix(" s")
        form = QFormLayout(self)
        form.addRow("You play", self.side)
        form.addRow("Opponent", self.opponent)
        form.addRow("Weights", wrow)
        form.addRow("Seed", self.seed)
        form.addRow(self.timer_on)
        form.addRow("Timer length", self.timer_s)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.side.currentIndexChanged.connect(self._fill_opponents)
        self._fill_opponents()

    def _fill_opponents(self) -> None:
        play = self.side.currentData()
        self.opponent.clear()
        if play == "both":
            self.opponent.setEnabled(False)
            return
        other = SIDES[1 - SIDES.index(play)]
        self.opponent.setEnabled(True)
        for name in policy_names(other):  # every registered player of that side (look-ahead players included)
            self.opponent.addItem(name, name)
        default = default_policy(other)
        if default in policy_names(other):
            self.opponent.setCurrentIndex(policy_names(other).index(default))

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Trained weights", "", "Weights (*.json);;All files (*)")
        if path:
            self.weights.setText(path)

    def setup(self) -> PlaytestSetup:
        """The settled choices."""
        play = str(self.side.currentData())
        opponent = self.opponent.currentData()
        if opponent and self.weights.text().strip():
            opponent = f"{opponent}:{self.weights.text().strip()}"
        return PlaytestSetup(seats_for(play, opponent), self.seed.value(),
                             self.timer_s.value() if self.timer_on.isChecked() else None)
