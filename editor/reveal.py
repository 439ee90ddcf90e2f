"""Showing the designer what a validation issue is about: beyond its squares on the map, the object itself in
the panel that edits it (the feature in Properties › Feature, a reinforcement row, a level, a section)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.mission import Issue
from engine.mission.objects import FEATURE_NAMES, object_parts, parse_path

if TYPE_CHECKING:
    from editor.mainwindow import MainWindow


def reveal(window: MainWindow, issue: Issue) -> None:
    """Bring forward the panel that edits the object at the issue's path, with that object chosen."""
    parts = parse_path(issue.path)
    props = window.properties
    match object_parts(parts):
        case (str(kind), int(i)) if kind in FEATURE_NAMES:
            _feature(window, kind, i)
        case ("marines", "squad", int(i)):
            _feature(window, "squad", i)
            props.squad_form.table.selectRow(i)
        case ("genestealers", "reinforcements", int(i)):
            _raise(window, props.stealer_form)
            props.stealer_form.table.selectRow(i)
        case ("levels", int(i), "sections", str(code)):
            level = window.doc.mission.levels[i].id if i < len(window.doc.mission.levels) else None
            if level is not None:
                window.show_level(level)
                window.tools_panel.choose_section(code)
                window.tools_dock.raise_()
        case ("levels", int(i)):
            if i < len(window.doc.mission.levels):
                window.levels_panel.select(window.doc.mission.levels[i].id)
                window.levels_dock.raise_()
        case _:
            form = {"marines": props.squad_form, "genestealers": props.stealer_form, "victory": props.victory_form,
                    "meta": props.mission_form, "options": props.mission_form, "ruleset": props.mission_form}
            top = parts[0] if parts else None
            if isinstance(top, str) and top in form:
                _raise(window, form[top])


def _raise(window: MainWindow, form: object) -> None:
    window.properties_dock.raise_()
    window.properties.show_form(form)  # type: ignore[arg-type]


def _feature(window: MainWindow, kind: str, index: int) -> None:
    panel = window.properties.feature_panel
    panel.choose(kind, index)
    _raise(window, panel)
