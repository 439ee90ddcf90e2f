"""Properties of one selected feature (as Tiled's object properties): a door, entry area, exit, objective,
ladder, pitfall, chute, rubble or Marine, each field edited in place; every change is one undo step."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QRegularExpression
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from editor.commands import CompoundCommand, ReplaceFeatureCommand
from editor.commands.references import rename_references
from editor.docks.schema_info import feature_enum
from editor.document import MissionDocument
from editor.features import KINDS, describe, feature_list, level_name, places
from engine.mission.kinds import BY_KEY, properties
from engine.mission.kinds import KINDS as REGISTRY
from engine.mission.model import Mission, Square

ID_PATTERN = "[A-Za-z0-9_-]{1,32}"
LETTER_PATTERN = "[A-Z]{1,2}"
MAX_NAME = 80
# The fields a designer edits per kind, in order; the squares (level, x, y) come after them. A kind not named
# here shows its ident, then its other fields but its squares (engine.mission.kinds.properties).
_OWN_FIELDS: dict[str, tuple[str, ...]] = {
    "squad": ("id", "name", "rank", "ranged", "melee", "storm_shield", "facing"),
}
FIELDS: dict[str, tuple[str, ...]] = {
    k.key: _OWN_FIELDS.get(k.key, ((k.ident,) if k.ident else ()) + properties(k)) for k in REGISTRY
}
TEXT_FIELDS = {"id": ID_PATTERN, "letter": LETTER_PATTERN, "name": ""}
# Ids other things refer to: renaming one renames the references in the same step.
REFERENCED = ("entry_areas", "exits", "objectives")
Chosen = tuple[str, int]  # kind, index in its list


def _form_key(kind: str, obj: Any) -> str:
    """What the form's rows depend on: the kind, and how many squares this feature stands on."""
    return f"{kind}/{len(BY_KEY[kind].ends(obj))}"


def _prefix(role: str, n: int, count: int) -> str:
    """The square widgets' name prefix: '' for a one-square feature, 'top' for a ladder's top, 'entrance2'."""
    return role or (f"entrance{n + 1}" if count > 1 else "")


def label(kind: str, obj: Any, m: Mission | None = None) -> str:
    """'door D3 · Upper level 12,4' for the chooser and the header (the level's name when the mission is given)."""
    level, x, y = places(kind, obj)[0]
    level = level_name(m, level) if m is not None else level
    name = "Marine" if kind == "squad" else KINDS[kind]
    ident = getattr(obj, "id", None) or getattr(obj, "letter", None)
    return f"{name} {ident} · {level} {x},{y}" if ident else f"{name} · {level} {x},{y}"


class FeaturePanel(QWidget):
    """The features of the selection in a chooser; the chosen one's fields in a form below."""

    def __init__(self, doc: MissionDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.follow: Callable[[str, int, int], None] = lambda level, x, y: None  # the selection follows a move
        self.candidates: list[Chosen] = []
        self.chosen: Chosen | None = None
        self._loading = False
        self._kind = ""
        self.hint = QLabel("Select a square with a feature (Select tool, V) to edit it here.")
        self.hint.setWordWrap(True)
        self.chooser = QComboBox()
        self.chooser.setToolTip("The features in the selection: pick the one to edit")
        self.chooser.activated.connect(self._picked)
        self.form_host = QWidget()
        self.form = QFormLayout(self.form_host)
        self.message = QLabel()
        self.message.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.addWidget(self.hint)
        lay.addWidget(self.chooser)
        lay.addWidget(self.form_host)
        lay.addWidget(self.message)
        lay.addStretch(1)
        self.widgets: dict[str, QWidget] = {}
        doc.featuresChanged.connect(self.refresh)
        doc.levelsChanged.connect(self._levels_changed)
        self.refresh()

    # --- what is chosen ----------------------------------------------------------------------------
    def set_features(self, features: list[tuple[str, Any]]) -> None:
        """Offer these features (those of the selection); keep the chosen one if it is among them."""
        self.candidates = [(kind, self._index(kind, obj)) for kind, obj in features]
        if self.chosen not in self.candidates:
            self.chosen = self.candidates[0] if self.candidates else None
        self.message.setText("")
        self.refresh()

    def choose(self, kind: str, index: int) -> None:
        """Edit this feature (an issue about it was clicked)."""
        if (kind, index) not in self.candidates:
            self.candidates.append((kind, index))
        self.chosen = (kind, index)
        self.refresh()

    def current(self) -> tuple[str, Any] | None:
        if self.chosen is None:
            return None
        kind, index = self.chosen
        lst = feature_list(self.doc.mission, kind)
        return (kind, lst[index]) if 0 <= index < len(lst) else None

    def _index(self, kind: str, obj: Any) -> int:
        return next(i for i, o in enumerate(feature_list(self.doc.mission, kind)) if o is obj)

    def _picked(self, row: int) -> None:
        self.chosen = self.candidates[row]
        self.refresh()

    def _levels_changed(self) -> None:
        self._kind = ""  # the level choices changed: build the form again
        self.refresh()

    # --- showing it --------------------------------------------------------------------------------
    def refresh(self) -> None:
        self._loading = True
        try:
            self.candidates = [(k, i) for k, i in self.candidates if 0 <= i < len(feature_list(self.doc.mission, k))]
            self.chooser.clear()
            for kind, index in self.candidates:
                self.chooser.addItem(label(kind, feature_list(self.doc.mission, kind)[index], self.doc.mission))
            here = self.current()
            self.chooser.setVisible(len(self.candidates) > 1)
            self.hint.setVisible(here is None)
            self.form_host.setVisible(here is not None)
            if here is None:
                return
            assert self.chosen is not None
            self.chooser.setCurrentIndex(self.candidates.index(self.chosen) if self.chosen in self.candidates else 0)
            kind, obj = here
            if _form_key(kind, obj) != self._kind:
                self._build(kind, obj)
            self._show(kind, obj)
        finally:
            self._loading = False

    def _build(self, kind: str, obj: Any) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self.widgets = {}
        self._kind = _form_key(kind, obj)
        self.title = QLabel()
        self.form.addRow(self.title)
        for name in FIELDS[kind]:
            self.widgets[name] = self._editor(kind, name)
            self.form.addRow(name.replace("_", " "), self.widgets[name])
        ends = BY_KEY[kind].ends(obj)
        levels = self.doc.mission.levels_top_down()
        for end, (role, _sq) in enumerate(ends):
            combo = QComboBox()
            for lv in levels:
                combo.addItem(lv.name or lv.id, lv.id)  # the name shown, the id kept
            combo.setToolTip("The level it stands on")
            combo.activated.connect(lambda _i, e=end, c=combo: self._move(e, level=c.currentData()))
            x, y = QSpinBox(), QSpinBox()
            for axis, spin in (("x", x), ("y", y)):
                spin.setKeyboardTracking(False)  # one step per value typed, not per digit
                spin.setToolTip(f"{axis}: {'column' if axis == 'x' else 'row'} of its square, from 0")
                spin.valueChanged.connect(lambda v, e=end, a=axis: self._move(e, **{a: v}))
            row = QHBoxLayout()
            row.addWidget(combo, 1)
            row.addWidget(QLabel("x"))
            row.addWidget(x)
            row.addWidget(QLabel("y"))
            row.addWidget(y)
            pre = _prefix(role, end, len(ends))
            self.widgets[f"{pre}level"], self.widgets[f"{pre}x"], self.widgets[f"{pre}y"] = combo, x, y
            many = "Entrance" if kind == "lifts" else "Square"
            name = f"{role} square".capitalize() if role else f"{many} {end + 1}" if len(ends) > 1 else "Square"
            self.form.addRow(name, row)

    def _editor(self, kind: str, name: str) -> QWidget:
        if name in TEXT_FIELDS:
            edit = QLineEdit()
            if TEXT_FIELDS[name]:
                edit.setValidator(QRegularExpressionValidator(QRegularExpression(TEXT_FIELDS[name]), edit))
            edit.setMaxLength(MAX_NAME if name == "name" else 32)
            edit.setToolTip({"id": "Its id: letters, digits, - and _ (unique among its kind)",
                             "letter": "The pitfall's letter, A to Z (unique)",
                             "name": "A name shown to players"}[name])
            edit.editingFinished.connect(lambda n=name, e=edit: self._text(n, e.text()))
            return edit
        if name == "storm_shield":
            box = QCheckBox()
            box.setToolTip("A storm shield (with a thunder hammer and no ranged weapon)")
            box.toggled.connect(lambda v: self._set("storm_shield", v))
            return box
        combo = QComboBox()
        combo.setToolTip(f"Its {name.replace('_', ' ')}")
        combo.activated.connect(lambda _i, n=name, c=combo: self._set(n, c.currentData()))
        return combo

    def _show(self, kind: str, obj: Any) -> None:
        self.title.setText(f"<b>{label(kind, obj, self.doc.mission)}</b>")
        for name in FIELDS[kind]:
            widget, value = self.widgets[name], getattr(obj, name)
            if isinstance(widget, QLineEdit):
                if widget.text() != str(value):
                    widget.setText(str(value))
            elif isinstance(widget, QCheckBox):
                widget.setChecked(bool(value))
            elif isinstance(widget, QComboBox):
                widget.clear()
                choices = feature_enum(kind, name)
                for choice in choices:
                    widget.addItem(choice, choice)
                if value not in choices:  # a file being repaired: show what it holds
                    widget.addItem(f"{value} (not allowed)", value)
                widget.setCurrentIndex(widget.findData(value))
        ends = BY_KEY[kind].ends(obj)
        for end, (role, sq) in enumerate(ends):
            pre = _prefix(role, end, len(ends))
            combo = self.widgets[f"{pre}level"]
            assert isinstance(combo, QComboBox)
            if combo.findData(sq.level) < 0:
                combo.addItem(sq.level, sq.level)
            combo.setCurrentIndex(combo.findData(sq.level))
            lv = self.doc.mission.level(sq.level)
            for axis, size in (("x", lv.width if lv else 0), ("y", lv.height if lv else 0)):
                spin = self.widgets[f"{pre}{axis}"]
                assert isinstance(spin, QSpinBox)
                value = getattr(sq, axis)
                spin.setRange(min(0, value), max(size - 1, value))  # a value outside is shown as it is, to fix
                spin.setValue(value)

    # --- editing -----------------------------------------------------------------------------------
    def _replace(self, new: Any, text: str, with_refs: tuple[str, str] | None = None) -> None:
        here = self.current()
        if here is None:
            return
        kind, old = here
        if with_refs is None:
            self.doc.undo_stack.push(ReplaceFeatureCommand(self.doc, kind, old, new, text))
            return
        cmd = CompoundCommand(text)
        ReplaceFeatureCommand(self.doc, kind, old, new, parent=cmd)
        rename_references(self.doc, kind, *with_refs, parent=cmd)
        self.doc.undo_stack.push(cmd)

    def _set(self, name: str, value: Any) -> None:
        here = self.current()
        if self._loading or here is None or getattr(here[1], name) == value:
            return
        kind, obj = here
        self._replace(dataclasses.replace(obj, **{name: value}), f"Change {describe(kind, obj)} {name}")

    def _text(self, name: str, text: str) -> None:
        here = self.current()
        if self._loading or here is None:
            return
        kind, obj = here
        text = text.strip()
        if text == getattr(obj, name):
            return
        problem = self._refuse(kind, obj, name, text)
        if problem:
            self.message.setText(problem)
            self.refresh()
            return
        self.message.setText("")
        refs = (obj.id, text) if name == "id" and kind in REFERENCED else None
        self._replace(dataclasses.replace(obj, **{name: text}), f"Change {describe(kind, obj)} {name}", refs)

    def _refuse(self, kind: str, obj: Any, name: str, text: str) -> str:
        """Why this text cannot be the field's value, or ''."""
        if name == "name":
            return ""
        if not re.fullmatch(TEXT_FIELDS[name], text):
            return f"{text!r} is not a valid {name}"
        if name == "letter":
            m = self.doc.mission
            used = {p.letter for p in m.pitfalls if p is not obj}
            used |= {c.letter for c in (m.random_setup.counters if m.random_setup else []) if c.letter}
            return f"pitfall letter {text} is taken" if text in used else ""
        taken = {o.id for o in feature_list(self.doc.mission, kind) if o is not obj}
        return f"{KINDS[kind]} id {text} is taken" if text in taken else ""

    def _move(self, end: int, **change: Any) -> None:
        """Put the feature (or one end of a ladder, one entrance of a lift) on another square; the selection
        follows it."""
        here = self.current()
        if self._loading or here is None:
            return
        kind, obj = here
        square = BY_KEY[kind].ends(obj)[end][1]
        level = change.get("level", square.level)
        lv = self.doc.mission.level(level)
        x, y = change.get("x", square.x), change.get("y", square.y)
        if lv is not None and "level" in change:  # onto another level: keep it on that level's grid
            x, y = min(max(x, 0), lv.width - 1), min(max(y, 0), lv.height - 1)
        if (level, x, y) == (square.level, square.x, square.y):
            return
        new = BY_KEY[kind].move_end(obj, end, Square(level, x, y))
        self._replace(new, f"Move {describe(kind, obj)}")
        self.follow(level, x, y)
