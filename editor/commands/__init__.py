"""One QUndoCommand per kind of edit (Orange's `<Verb><Noun>Command` style): old value captured in
`__init__`, short redo/undo that call the document's `apply_*` helpers."""

from editor.commands.base import CompoundCommand
from editor.commands.features import (
    AddFeatureCommand,
    MoveFeatureCommand,
    RemoveFeatureCommand,
    ReplaceFeatureCommand,
    SetRandomSetupCommand,
)
from editor.commands.levels import AddLevelCommand, RemoveLevelCommand, ReplaceMissionCommand, SetSectionCommand
from editor.commands.terrain import PaintTerrainCommand
from editor.commands.values import ChangeValueCommand

__all__ = [
    "AddFeatureCommand",
    "AddLevelCommand",
    "ChangeValueCommand",
    "CompoundCommand",
    "MoveFeatureCommand",
    "PaintTerrainCommand",
    "RemoveFeatureCommand",
    "RemoveLevelCommand",
    "ReplaceFeatureCommand",
    "ReplaceMissionCommand",
    "SetRandomSetupCommand",
    "SetSectionCommand",
]
