"""The live validation dock: every issue as the designer paints; clicking one shows it on the map."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from editor import palette
from editor.document import MissionDocument
from editor.features import level_name
from engine.mission import Issue, Mission


def where(issue: Issue, mission: Mission | None = None) -> str:
    """'Upper level 12,10' (the level's name), the level alone when the issue has no square, '—' for the mission
    as a whole."""
    if issue.level is None:
        return "—"
    name = level_name(mission, issue.level) if mission is not None else issue.level
    if issue.squares:
        x, y = issue.squares[0]
        return f"{name} {x},{y}"
    return name


class ValidationPanel(QWidget):
    """Lists doc.issues; emits issueActivated when the designer picks one."""

    issueActivated = Signal(object)  # Issue

    def __init__(self, doc: MissionDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel()
        self.summary.setToolTip("Issues found by the schema and the placement rules, refreshed as you edit")
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["", "Rule", "Where", "Message"])
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.setWordWrap(True)
        self.tree.setToolTip("Click an issue to switch to its level, select and zoom to its squares")
        self.tree.setColumnWidth(0, 24)
        self.tree.setColumnWidth(1, 165)
        self.tree.setColumnWidth(2, 85)
        self.tree.itemClicked.connect(self._clicked)
        self.tree.itemActivated.connect(self._clicked)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.summary)
        lay.addWidget(self.tree)
        self.set_document(doc)

    def set_document(self, doc: MissionDocument) -> None:
        self.doc = doc
        doc.issuesChanged.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        issues = self.doc.issues
        self.tree.clear()
        errors = sum(1 for i in issues if i.severity == "error")
        warnings = len(issues) - errors
        if not issues:
            self.summary.setText("✔ No issues: the mission follows every placement rule")
        else:
            self.summary.setText(f"{errors} error(s), {warnings} warning(s)")
        for issue in issues:
            item = QTreeWidgetItem(["●", issue.rule, where(issue, self.doc.mission), issue.message])
            colour = QColor(palette.ERROR if issue.severity == "error" else palette.WARNING)
            item.setForeground(0, colour)
            item.setToolTip(3, f"{issue.message}\n{issue.path} ({issue.severity})")
            item.setData(0, Qt.ItemDataRole.UserRole, issue)
            self.tree.addTopLevelItem(item)

    def _clicked(self, item: QTreeWidgetItem, column: int = 0) -> None:
        issue: Issue = item.data(0, Qt.ItemDataRole.UserRole)
        self.issueActivated.emit(issue)
