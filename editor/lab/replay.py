"""ReplayPanel: pick a game of the batch and step through it on the map, with the dice of every action."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QSlider,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.lab.lab_map import LabMap
from editor.lab.options_table import cell
from editor.lab.replay_frames import Frame, ReplayLoader
from editor.lab.runs import LabRun

PLAY_MS = 350
MAX_LISTED_GAMES = 2000
_ESCAPED = re.compile(r"^(only )?(\d+) Marines? escaped$")


def reason_text(reason: str) -> str:
    """A game's end as a person would say it: the engine's records keep their fixed wording ("only 0 Marines
    escaped", "1 Marines escaped"), the list reads "no Marine escaped", "1 Marine escaped"."""
    m = _ESCAPED.match(reason)
    if m is None:
        return reason
    n = int(m.group(2))
    if n == 0:
        return "no Marine escaped"
    return f"{m.group(1) or ''}{n} Marine{'s' if n > 1 else ''} escaped"


class ReplayPanel(QWidget):
    """Game list, transport buttons, step slider, dice of the step and the event list."""

    def __init__(self, lab_map: LabMap, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lab_map = lab_map
        self.run: LabRun | None = None
        self.frames: list[Frame] = []
        self.game_index: int | None = None
        self.position = 0
        self._loader: ReplayLoader | None = None
        self._last_loader: ReplayLoader | None = None
        self._listed = 0  # rows of run.rows already in the table while the batch runs

        self.games = QTableWidget(0, 4)
        self.games.setHorizontalHeaderLabels(["Game", "Winner", "Turns", "Why"])
        self.games.verticalHeader().setVisible(False)
        self.games.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.games.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.games.horizontalHeader().setStretchLastSection(True)
        self.games.cellDoubleClicked.connect(lambda row, _c: self.load(int(cell(self.games, row, 0).text())))
        self.index_box = QSpinBox()
        self.index_box.setRange(0, 0)
        self.load_button = QPushButton("Replay game")
        self.load_button.clicked.connect(lambda: self.load(self.index_box.value()))
        pick = QHBoxLayout()
        pick.addWidget(QLabel("Game #"))
        pick.addWidget(self.index_box)
        pick.addWidget(self.load_button)

        self.first_b = QPushButton("|◀ Start")
        self.back_b = QPushButton("◀ Back")
        self.play_b = QPushButton("▶ Play")
        self.play_b.setCheckable(True)
        self.fwd_b = QPushButton("Forward ▶")
        self.last_b = QPushButton("End ▶|")
        for b in (self.first_b, self.back_b, self.play_b, self.fwd_b, self.last_b):
            b.setEnabled(False)
        self.first_b.clicked.connect(lambda: self.go(0))
        self.back_b.clicked.connect(self.back)
        self.fwd_b.clicked.connect(self.forward)
        self.last_b.clicked.connect(lambda: self.go(len(self.frames) - 1))
        self.clear_b = QPushButton("Clear")
        self.clear_b.setToolTip("Take the replay's models, counters, doors and fire off the map")
        self.clear_b.clicked.connect(self.clear_tokens)
        self.play_b.toggled.connect(self.set_playing)
        transport = QHBoxLayout()
        for b in (self.first_b, self.back_b, self.play_b, self.fwd_b, self.last_b, self.clear_b):
            transport.addWidget(b)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, 0)
        self.slider.valueChanged.connect(self.go)
        self.step_label = QLabel("No game loaded.")
        self.step_label.setWordWrap(True)
        self.dice_label = QLabel("")
        self.dice_label.setTextFormat(Qt.TextFormat.RichText)
        self.events = QListWidget()
        self.events.setStyleSheet("font-family: monospace;")
        self.events.currentRowChanged.connect(self._row_picked)
        self.timer = QTimer(self)
        self.timer.setInterval(PLAY_MS)
        self.timer.timeout.connect(self._tick)

        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("<b>Replay</b> — double-click a game, or pick its number"))
        lay.addWidget(self.games, 1)
        lay.addLayout(pick)
        lay.addLayout(transport)
        lay.addWidget(self.slider)
        lay.addWidget(self.step_label)
        lay.addWidget(self.dice_label)
        lay.addWidget(self.events, 2)

    # --- games ----------------------------------------------------------------------------------
    def show_run(self, run: LabRun, live: bool = False) -> None:
        """List the games of a batch (the first few thousand by index).

        `live`: the batch is still running; only the games that came back since the last call are appended
        (in the order they finished), so the list fills as the batch runs without rebuilding a big table.
        """
        if live and run is self.run and self._listed <= len(run.rows):
            rows = run.rows[self._listed:MAX_LISTED_GAMES]
            start = self.games.rowCount()
        else:
            rows = sorted(run.rows, key=lambda r: r.index)[:MAX_LISTED_GAMES]
            start = 0
        self.run = run
        self.games.setRowCount(start + len(rows))
        for i, r in enumerate(rows, start):
            end = reason_text(r.reason) if r.reason else (r.error or "")
            for col, text in enumerate((str(r.index), r.winner or "failed", str(r.turns), end)):
                self.games.setItem(i, col, QTableWidgetItem(text))
        self._listed = len(run.rows) if live else 0
        if rows and (not live or start == 0):
            self.games.resizeColumnsToContents()
        self.index_box.setRange(0, max(0, run.spec.games - 1))

    def load(self, index: int) -> None:
        """Replay game `index` of the current batch (computed in a thread, then shown from its set-up)."""
        if self.run is None or self._loader is not None:
            return
        self.set_playing(False)
        if self.run.replay_refused:
            self.step_label.setText(f"Game {index} cannot be replayed: {self.run.replay_refused}")
            return
        self.step_label.setText(f"Replaying game {index}…")
        self.load_button.setEnabled(False)
        # A game whose row keeps its actions (a played game) is played back from them, not by the policies.
        row = next((r for r in self.run.rows if r.index == index and r.actions is not None), None)
        loader = ReplayLoader(self.run.spec, index, row)
        loader.loaded.connect(self._loaded)
        loader.failed.connect(self._failed)
        loader.finished.connect(self._loader_done)
        self._loader = loader
        loader.start()

    def _loader_done(self) -> None:
        if self._loader is not None:
            self._loader.wait()  # finished is emitted before the thread has quite ended
        # Kept until the next replay (Python owns it), as LabWidget keeps its last batch thread.
        self._last_loader, self._loader = self._loader, None
        self.load_button.setEnabled(True)

    def _failed(self, index: int, message: str) -> None:
        self.step_label.setText(f"Game {index} cannot be replayed: {message}")

    def _loaded(self, index: int, frames: list[Frame]) -> None:
        self.game_index, self.frames = index, frames
        self.events.blockSignals(True)
        self.events.clear()
        self.events.addItems([f.text() for f in frames])
        self.events.blockSignals(False)
        for b in (self.first_b, self.back_b, self.play_b, self.fwd_b, self.last_b):
            b.setEnabled(True)
        self.slider.blockSignals(True)
        self.slider.setRange(0, len(frames) - 1)
        self.slider.blockSignals(False)
        self.position = -1
        self.go(0)

    # --- stepping -------------------------------------------------------------------------------
    def go(self, position: int) -> None:
        """Show frame `position` (0 is the set-up) on the map."""
        if not self.frames:
            return
        position = max(0, min(len(self.frames) - 1, position))
        if position == self.position:
            return
        self.position = position
        frame = self.frames[position]
        for lv in self.lab_map.level_ids():
            for sc in self.lab_map.scenes_for(lv):
                sc.set_tokens(frame.tokens.get(lv, []))
                sc.set_game_marks(frame.marks.get(lv, []))
        self.slider.blockSignals(True)
        self.slider.setValue(position)
        self.slider.blockSignals(False)
        self.events.blockSignals(True)
        self.events.setCurrentRow(position)
        self.events.blockSignals(False)
        last = len(self.frames) - 1
        what = "set-up" if frame.step < 0 else f"turn {frame.turn}, {frame.player}: {frame.action}"
        self.step_label.setText(f"Game {self.game_index}: step {position} of {last} — {what}")
        self.dice_label.setText(dice_html(frame))
        if position >= last:
            self.set_playing(False)

    def forward(self) -> None:
        """One step forward."""
        self.go(self.position + 1)

    def back(self) -> None:
        """One step back."""
        self.go(self.position - 1)

    def set_playing(self, playing: bool) -> None:
        """Start or stop stepping forward on a timer."""
        if self.play_b.isChecked() != playing:
            self.play_b.setChecked(playing)
            return
        self.play_b.setText("❚❚ Pause" if playing else "▶ Play")
        if playing:
            if self.position >= len(self.frames) - 1:
                self.go(0)
            self.timer.start()
        else:
            self.timer.stop()

    def _tick(self) -> None:
        self.forward()

    def _row_picked(self, row: int) -> None:
        if row >= 0:
            self.go(row)

    def clear_tokens(self) -> None:
        """Remove the tokens and game marks from every scene and forget the position (the game stays loaded)."""
        self.set_playing(False)
        for lv in self.lab_map.level_ids():
            for sc in self.lab_map.scenes_for(lv):
                sc.set_tokens([])
                sc.set_game_marks([])
        self.position = -1

    def reset(self) -> None:
        """Forget the loaded game (a new batch is starting)."""
        self.clear_tokens()
        self.frames, self.game_index = [], None
        self.events.clear()
        self.games.setRowCount(0)
        self._listed = 0
        for b in (self.first_b, self.back_b, self.play_b, self.fwd_b, self.last_b):
            b.setEnabled(False)
        self.step_label.setText("No game loaded.")
        self.dice_label.setText("")

    def current_tokens(self) -> dict[str, list[object]]:
        """Tokens on each level's scene now (tests compare them between steps)."""
        out: dict[str, list[object]] = {}
        for lv in self.lab_map.level_ids():
            sc = self.lab_map.scene(lv)
            if sc is not None:
                out[lv] = list(sc.tokens.tokens)
        return out

    def current_marks(self) -> dict[str, list[object]]:
        """Game marks (counters, doors, fire) on each level's scene now."""
        out: dict[str, list[object]] = {}
        for lv in self.lab_map.level_ids():
            sc = self.lab_map.scene(lv)
            if sc is not None:
                out[lv] = list(sc.game_marks.marks)
        return out


def dice_html(frame: Frame) -> str:
    """The step's dice as boxed numbers, and what they did."""
    if not frame.dice:
        return "<span style='color:#666'>No dice rolled in this step.</span>"
    boxes = " ".join(
        f"<span style='background:#fff; border:1px solid #333; padding:2px 6px; font-weight:bold;"
        f" color:{'#2e7d32' if d >= 5 else '#222'}'>&nbsp;{d}&nbsp;</span>" for d in frame.dice)
    effects = f"<br><span style='color:#333'>{frame.effects}</span>" if frame.effects else ""
    return f"Dice: {boxes}{effects}"
