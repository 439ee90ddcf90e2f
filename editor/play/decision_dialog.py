"""DecisionDialog: a decision the rules ask (a reaction, command points, a facing, a placement ...) as a list the
keyboard answers: arrows and Enter, or the number of an answer."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QDialog, QLabel, QListWidget, QVBoxLayout, QWidget

from engine.sim.choices import Choice


class DecisionDialog(QDialog):
    """Lists the answers numbered from 1; `picked` carries the chosen one."""

    picked = Signal(object)  # Choice

    def __init__(self, title: str, question: str, choices: list[Choice], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName("playtest_decision")
        self.choices = choices
        self.question = QLabel(question)
        self.question.setWordWrap(True)
        self.answers = QListWidget()
        for i, c in enumerate(choices, 1):
            label = c.label()
            self.answers.addItem(f"{i}. {c.text}" + (f"   ({label})" if label else ""))
        self.answers.setCurrentRow(0)
        self.answers.itemActivated.connect(lambda _item: self.pick(self.answers.currentRow()))
        hint = QLabel("Enter answers with the highlighted line; a number picks that line.")
        hint.setStyleSheet("color: #666;")
        lay = QVBoxLayout(self)
        lay.addWidget(self.question)
        lay.addWidget(self.answers, 1)
        lay.addWidget(hint)
        self.resize(420, min(520, 120 + 22 * len(choices)))

    def pick(self, row: int) -> None:
        """Answer with line `row` (from 0)."""
        if 0 <= row < len(self.choices):
            choice = self.choices[row]
            self.accept()
            self.picked.emit(choice)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if Qt.Key.Key_1 <= key <= Qt.Key.Key_9:
            self.pick(key - Qt.Key.Key_1)
            return
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.pick(self.answers.currentRow())
            return
        if key == Qt.Key.Key_Escape:
            return  # the rules wait for an answer: a decision cannot be dismissed
        super().keyPressEvent(event)
