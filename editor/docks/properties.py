"""Mission properties: metadata, ruleset, rule options and victory conditions; every edit is a command."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from editor.commands import ChangeValueCommand
from editor.docks.feature_panel import FeaturePanel
from editor.docks.genestealers_form import GenestealersForm
from editor.docks.schema_info import rule_options
from editor.docks.squad_form import SquadForm
from editor.document import DELETE, MissionDocument
from engine.rules.options import explain_options

DEFAULT = "(default)"
# One example per victory kind of the schema; the designer edits the numbers in the JSON below.
TEMPLATES: dict[str, dict[str, Any]] = {
    "escape": {"kind": "escape", "via": ["exit"], "win_at": 2, "draw_at": 1},
    "marines_eliminated": {"kind": "marines_eliminated"},
    "turn_limit": {"kind": "turn_limit", "turn": 12, "result": "genestealers"},
    "objective_carried": {"kind": "objective_carried", "objective": "OBJ1", "to": {"exit": "X1"}, "result": "marines"},
    "section_flamed": {"kind": "section_flamed", "level": "upper", "section": "a", "result": "marines"},
    "objective_flamed": {"kind": "objective_flamed", "objective": "OBJ1", "result": "marines"},
}


class MissionForm(QWidget):
    """Title, author, description, source, ruleset and the rule options."""

    def __init__(self, doc: MissionDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self._loading = False
        form = QFormLayout(self)
        self.fields: dict[str, QLineEdit] = {}
        for key, label in (("title", "Title"), ("author", "Author"), ("source", "Source")):
            edit = QLineEdit()
            edit.setToolTip(f"Mission {key}")
            edit.textEdited.connect(lambda text, k=key: self._meta(k, text))
            self.fields[key] = edit
            form.addRow(label, edit)
        self.description = QPlainTextEdit()
        self.description.setToolTip("Briefing shown to the players")
        self.description.setMaximumHeight(90)
        self.description.textChanged.connect(lambda: self._meta("description", self.description.toPlainText()))
        form.addRow("Description", self.description)
        self.ruleset = QComboBox()
        self.ruleset.addItems(["4e", "classic"])
        self.ruleset.setToolTip("Rules edition: 4e (4th edition) or classic (2nd edition)")
        self.ruleset.activated.connect(lambda _i: self._push(self.doc.mission, "ruleset", self.ruleset.currentText()))
        form.addRow("Ruleset", self.ruleset)
        form.addRow(QLabel("<b>Rule options</b> (blank = the ruleset's default)"))
        self.options: dict[str, QWidget] = {}
        for name, spec in rule_options().items():
            widget = self._option_widget(name, spec)
            widget.setToolTip(spec.get("description", name))
            self.options[name] = widget
            form.addRow(name.replace("_", " "), widget)
        form.addRow(QLabel("<b>Rules in force</b> (what a game of this mission plays with, and why)"))
        self.in_force = QTreeWidget()
        self.in_force.setHeaderLabels(["option", "value", "from"])
        self.in_force.setRootIsDecorated(False)
        self.in_force.setMinimumHeight(220)
        self.in_force.setToolTip("Read-only: each option's value in a game of this mission and where it comes "
                                 "from (the ruleset's default, the options above, or what the mission holds: "
                                 "a pitfall makes the Pitfall ladder rule the default)")
        form.addRow(self.in_force)
        doc.propertiesChanged.connect(self.refresh)
        # Features change a default too (a pitfall switches the ladder rule).
        doc.featuresChanged.connect(self.refresh_in_force)
        doc.missionReplaced.connect(self.refresh_in_force)
        self.refresh()

    def _option_widget(self, name: str, spec: dict[str, Any]) -> QWidget:
        if "enum" in spec or spec.get("type") == "boolean":
            combo = QComboBox()
            values = spec.get("enum", [True, False])
            combo.addItem(DEFAULT, DELETE)
            for v in values:
                combo.addItem(str(v).lower() if isinstance(v, bool) else str(v), v)
            combo.activated.connect(lambda i, n=name, c=combo: self._option(n, c.itemData(i)))
            return combo
        spin = QSpinBox()
        spin.setRange(int(spec.get("minimum", 0)) - 1, int(spec.get("maximum", 999)))
        spin.setSpecialValueText(DEFAULT)  # the lowest value means "not set"
        spin.valueChanged.connect(lambda v, n=name, s=spin: self._option(n, DELETE if v == s.minimum() else v))
        return spin

    def refresh(self) -> None:
        m = self.doc.mission
        self._loading = True
        for key, edit in self.fields.items():
            value = getattr(m.meta, key)
            if edit.text() != value:
                edit.setText(value)
        if self.description.toPlainText() != m.meta.description:
            self.description.setPlainText(m.meta.description)
        self.ruleset.setCurrentText(m.ruleset)
        for name, w in self.options.items():
            value = m.options.get(name, DELETE)
            if isinstance(w, QComboBox):
                idx = next((i for i in range(w.count()) if w.itemData(i) is value or
                            (value is not DELETE and w.itemData(i) == value and type(w.itemData(i)) is type(value))), 0)
                w.setCurrentIndex(idx)
            elif isinstance(w, QSpinBox):
                w.setValue(w.minimum() if value is DELETE or value is None else int(value))  # type: ignore[call-overload]
        self._loading = False
        self.refresh_in_force()

    def refresh_in_force(self) -> None:
        """The ruleset and every option in force, with its source (engine.rules.options.explain_options)."""
        m = self.doc.mission
        rows = [("ruleset", m.ruleset, "mission")]
        try:
            rows += [(o.name, o.value, f"{o.source} ({o.why})" if o.why else o.source) for o in explain_options(m)]
        except ValueError as exc:  # an option the schema refuses: the validation list says which
            rows.append(("(options)", "?", str(exc)))
        self.in_force.clear()
        for name, value, source in rows:
            shown = value if isinstance(value, str) else json.dumps(value)
            item = QTreeWidgetItem([name, shown, source])
            item.setToolTip(2, source)
            self.in_force.addTopLevelItem(item)
        for c in range(3):
            self.in_force.resizeColumnToContents(c)

    def _push(self, target: Any, key: str, value: Any) -> None:
        if not self._loading:
            self.doc.undo_stack.push(ChangeValueCommand(self.doc, target, key, value, text=f"Change {key}"))

    def _meta(self, key: str, text: str) -> None:
        if getattr(self.doc.mission.meta, key) != text:
            self._push(self.doc.mission.meta, key, text)

    def _option(self, name: str, value: Any) -> None:
        if self.doc.mission.options.get(name, DELETE) != value:
            self._push(self.doc.mission.options, name, value)


class VictoryForm(QWidget):
    """Victory conditions as JSON (their shapes are a closed set in the schema); Apply makes one undo step."""

    def __init__(self, doc: MissionDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        lay = QVBoxLayout(self)
        hint = QLabel("The list is checked against the schema when applied; add a condition from a template:")
        hint.setWordWrap(True)
        lay.addWidget(hint)
        grid = QGridLayout()
        for i, kind in enumerate(TEMPLATES):
            b = QPushButton(kind.replace("_", " "))
            b.setToolTip(f"Add a '{kind}' condition: {json.dumps(TEMPLATES[kind])}")
            b.clicked.connect(lambda _c=False, k=kind: self.add_template(k))
            grid.addWidget(b, i // 3, i % 3)
        lay.addLayout(grid)
        self.text = QPlainTextEdit()
        self.text.setToolTip("The victory list as JSON; checked against the schema when applied")
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.apply = QPushButton("Apply")
        self.apply.setToolTip("Replace the victory conditions with this list (one undo step)")
        self.apply.clicked.connect(self.apply_text)
        lay.addWidget(self.text)
        lay.addWidget(self.error)
        lay.addWidget(self.apply)
        doc.propertiesChanged.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        self.text.setPlainText(json.dumps(self.doc.mission.victory, indent=2))
        self.error.setText("")

    def add_template(self, kind: str) -> None:
        """Append a condition of this kind, filled with the mission's own ids where it needs one."""
        m = self.doc.mission
        cond = json.loads(json.dumps(TEMPLATES[kind]))
        if "objective" in cond and m.objectives:
            cond["objective"] = m.objectives[0].id
        if kind == "section_flamed" and m.levels:
            lv = m.levels_top_down()[0]
            cond["level"] = lv.id
            cond["section"] = next(iter(sorted(lv.sections)), "a")
        self.doc.undo_stack.push(ChangeValueCommand(self.doc, m, "victory", [*m.victory, cond],
                                                    text=f"Add victory condition {kind}"))

    def apply_text(self) -> bool:
        try:
            value = json.loads(self.text.toPlainText())
        except json.JSONDecodeError as exc:
            self.error.setText(f"not valid JSON: line {exc.lineno}: {exc.msg}")
            return False
        if not isinstance(value, list) or not all(isinstance(v, dict) and "kind" in v for v in value):
            self.error.setText("expected a list of objects, each with a 'kind'")
            return False
        self.doc.undo_stack.push(ChangeValueCommand(self.doc, self.doc.mission, "victory", value,
                                                    text="Change victory conditions"))
        return True


class PropertiesPanel(QTabWidget):
    """Feature (the selected one), Mission, Squad, Genestealers and Victory tabs.

    A form is made when its tab is first shown or the form first asked for: an Open of a big mission then builds
    and lays out the Mission tab only, not five forms in the same stall as the map's first picture.
    """

    _TABS = (
        ("feature_panel", "Feature", "The selected door, entry area, exit, objective, ladder, pitfall, chute, "
                                     "rubble or Marine: its own fields"),
        ("mission_form", "Mission", "Title, briefing, ruleset and rule options"),
        ("squad_form", "Squad", "Marines: ranks, weapons, deployment"),
        ("stealer_form", "Genestealers", "Blip pool, starting blips, reinforcement schedule"),
        ("victory_form", "Victory", "Victory conditions"),
    )

    def __init__(self, doc: MissionDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self._forms: dict[str, QWidget] = {}
        for _name, title, tip in self._TABS:
            area = QScrollArea()
            area.setWidgetResizable(True)
            self.addTab(area, title)
            self.setTabToolTip(self.count() - 1, tip)
        self.currentChanged.connect(self._make_shown)
        self.setCurrentIndex(1)  # the mission, until a feature is selected

    def _make_shown(self, index: int) -> None:
        if 0 <= index < len(self._TABS):
            self._form(self._TABS[index][0])

    def _form(self, name: str) -> QWidget:
        form = self._forms.get(name)
        if form is None:
            makers: dict[str, Callable[[MissionDocument], QWidget]] = {
                "feature_panel": FeaturePanel, "mission_form": MissionForm, "squad_form": SquadForm,
                "stealer_form": GenestealersForm, "victory_form": VictoryForm}
            form = self._forms[name] = makers[name](self.doc)
            area = self.widget([n for n, _, _ in self._TABS].index(name))
            assert isinstance(area, QScrollArea)
            area.setWidget(form)
        return form

    @property
    def feature_panel(self) -> FeaturePanel:
        form = self._form("feature_panel")
        assert isinstance(form, FeaturePanel)
        return form

    @property
    def mission_form(self) -> MissionForm:
        form = self._form("mission_form")
        assert isinstance(form, MissionForm)
        return form

    @property
    def squad_form(self) -> SquadForm:
        form = self._form("squad_form")
        assert isinstance(form, SquadForm)
        return form

    @property
    def stealer_form(self) -> GenestealersForm:
        form = self._form("stealer_form")
        assert isinstance(form, GenestealersForm)
        return form

    @property
    def victory_form(self) -> VictoryForm:
        form = self._form("victory_form")
        assert isinstance(form, VictoryForm)
        return form

    def show_form(self, form: QWidget) -> None:
        """Bring the tab holding this form to the front."""
        for i in range(self.count()):
            area = self.widget(i)
            if isinstance(area, QScrollArea) and area.widget() is form:
                self.setCurrentIndex(i)
