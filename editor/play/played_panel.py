"""PlayedGamesDialog: the designer's games against the players for this mission, beside the players' own results
in the balance lab's current batch (engine.sim.played_games reads and counts them)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor import settings
from engine.mission import mission_to_dict
from engine.sim.played_games import PlayedGame, person_results, read_played_games

SIDE_NAMES = {"marines": "Marines", "genestealers": "Genestealers", "both": "both (hot-seat)"}


def ai_line(window: Any) -> str:
    """The players' results for the same mission: the lab's current batch, when it has one of this mission."""
    lab_window = getattr(window, "lab_window", None)
    lab = getattr(lab_window, "lab", None)
    run = getattr(lab, "run", None)
    if run is None or not run.stats.games:
        return "The players: run a batch in the balance lab (Lab › Run batch) to see theirs beside yours."
    stats = run.stats
    pol = run.spec.policies
    lo, hi = stats.interval("marines")
    return (f"The players ({pol.get('marines', '?')} vs {pol.get('genestealers', '?')}), {stats.games} games in the "
            f"lab: the Marines win {stats.rate('marines'):.0%} (95%: {lo:.0%}–{hi:.0%}), the Genestealers "
            f"{stats.rate('genestealers'):.0%}.")


class PlayedGamesDialog(QDialog):
    """A table of the kept games of this mission and the person's win rate per side beside the players'."""

    def __init__(self, window: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent if parent is not None else window if isinstance(window, QWidget) else None)
        self.setWindowTitle("Your games beside the players")
        self.window_ = window
        self.paths: list[str] = []
        self.games: list[PlayedGame] = []
        self.skipped: list[str] = []
        self.table = QTableWidget(0, 6)
        self.table.setHorizontalHeaderLabels(["File", "You played", "Against", "Winner", "Turns", "Undone"])
        self.table.horizontalHeader().setStretchLastSection(True)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        add_files = QPushButton("Add games…")
        add_files.clicked.connect(self._add_files)
        add_folder = QPushButton("Add a folder…")
        add_folder.clicked.connect(self._add_folder)
        buttons = QHBoxLayout()
        buttons.addWidget(add_files)
        buttons.addWidget(add_folder)
        buttons.addStretch(1)
        lay = QVBoxLayout(self)
        lay.addLayout(buttons)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.summary)
        self.resize(820, 420)
        folder = settings.settings().value("play/folder")
        if isinstance(folder, str) and folder:
            self.add([folder])
        else:
            self.refresh()

    def _add_files(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Played games", "", "Played game (*.json)")
        if paths:
            self.add(paths)

    def _add_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Folder of played games")
        if folder:
            settings.settings().setValue("play/folder", folder)
            self.add([folder])

    def add(self, paths: list[str]) -> None:
        """Read more played games (files or folders) and show them."""
        self.paths.extend(p for p in paths if p not in self.paths)
        self.refresh()

    def refresh(self) -> None:
        """Read the games of this mission again and redraw the table and the summary."""
        mission_doc = mission_to_dict(self.window_.doc.mission)
        self.games, self.skipped = read_played_games(self.paths, mission_doc)
        self.table.setRowCount(len(self.games))
        for i, g in enumerate(self.games):
            cells = (g.path, SIDE_NAMES.get(g.side, g.side), g.opponent, SIDE_NAMES.get(g.winner, g.winner),
                     str(g.turns), str(g.undone))
            for col, text in enumerate(cells):
                self.table.setItem(i, col, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        lines = []
        for r in person_results(self.games):
            lo, hi = r.interval
            lines.append(f"You as the {SIDE_NAMES[r.side]}: {r.wins} won of {r.games} ({r.rate:.0%}, "
                         f"95%: {lo:.0%}–{hi:.0%}).")
        if not lines:
            lines.append("No game of this mission played against a player yet (Play › Playtest, then Game › Keep).")
        lines.append(ai_line(self.window_))
        if self.skipped:
            lines.append(f"{len(self.skipped)} file(s) skipped: {self.skipped[0]}")
        self.summary.setText("\n".join(lines))
