"""The legend dock: what each colour and glyph on the map means (colours from editor/palette.py)."""

from __future__ import annotations

from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QWidget

from editor import palette


def swatch(colour: str, size: int = 16) -> QIcon:
    pm = QPixmap(size, size)
    pm.fill(QColor(colour))
    return QIcon(pm)


GLYPHS = {
    "Door (closed)": "bar across the square",
    "Door (open)": "leaf split to the walls",
    "Bulkhead": "grey bar, dashed, 'B' when closed",
    "Entry area": "purple arrow pointing off the board",
    "Exit": "green arrow pointing off the board",
    "Deployment": "blue base, white wedge = facing",
    "Objective": "gold diamond",
    "Pitfall": "black disc with its letter",
    "Pitfall bottom": "dashed circle, lower-case letter (level below)",
    "Ladder": "brown ladder; ▼ top end, ▲ bottom end",
    "Rubble": "grey stones",
    "Disposal chute": "dark red square with a cross",
    "Random-counter zone": "blue hatching over the section",
}


class LegendPanel(QListWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setToolTip("What the colours and symbols on the map mean")
        for name, colour in palette.LEGEND:
            item = QListWidgetItem(swatch(colour), name)
            item.setToolTip(f"{name}: {GLYPHS[name]}" if name in GLYPHS else name)
            self.addItem(item)
        for name, colour in (("Section border", palette.SECTION_EDGE), ("Error square", palette.ERROR),
                             ("Warning square", palette.WARNING), ("Selection", palette.SELECTION)):
            self.addItem(QListWidgetItem(swatch(colour), name))
