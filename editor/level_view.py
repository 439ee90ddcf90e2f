"""How levels are shown, as Tiled shows layers: hidden, locked, and how strongly the level below shows through.

This is the window's state, not the mission's: nothing here is saved in the file or goes through undo.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

DEFAULT_BELOW_OPACITY = 0.3


class LevelView(QObject):
    """Hidden and locked levels (by id), and the level-below overlay; `changed` after every change."""

    changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.hidden: set[str] = set()
        self.locked: set[str] = set()
        self.show_below = False
        self.below_opacity = DEFAULT_BELOW_OPACITY

    def reset(self) -> None:
        """A new document: every level shown and unlocked (the overlay settings stay)."""
        self.hidden.clear()
        self.locked.clear()
        self.changed.emit()

    def set_hidden(self, level: str, hidden: bool) -> None:
        (self.hidden.add if hidden else self.hidden.discard)(level)
        self.changed.emit()

    def set_locked(self, level: str, locked: bool) -> None:
        (self.locked.add if locked else self.locked.discard)(level)
        self.changed.emit()

    def set_show_below(self, show: bool) -> None:
        if show != self.show_below:
            self.show_below = show
            self.changed.emit()

    def set_below_opacity(self, opacity: float) -> None:
        opacity = min(1.0, max(0.05, opacity))
        if opacity != self.below_opacity:
            self.below_opacity = opacity
            self.changed.emit()

    def rename(self, old: str, new: str) -> None:
        """A level got another id: it keeps its view state."""
        for group in (self.hidden, self.locked):
            if old in group:
                group.discard(old)
                group.add(new)
        self.changed.emit()
