"""Missions: the model, reading and writing files, and validation."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from engine.mission.codec import mission_dumps, mission_from_dict, mission_to_dict
from engine.mission.io import MissionFileError, atomic_write_text, parse_document, read_document
from engine.mission.issues import Issue, has_errors
from engine.mission.model import Mission

if TYPE_CHECKING:
    from engine.mission.validation import validate_document, validate_mission

__all__ = [
    "Issue",
    "Mission",
    "MissionFileError",
    "has_errors",
    "load_mission",
    "mission_dumps",
    "mission_from_dict",
    "mission_to_dict",
    "parse_document",
    "read_document",
    "save_mission",
    "validate_document",
    "validate_mission",
]


def load_mission(path: str | os.PathLike[str]) -> Mission:
    """Read a mission file into the model. Raises MissionFileError when it cannot be read or breaks the schema.

    Placement-rule issues do not stop loading (a designer opens a broken mission to fix it); call
    validate_mission for those.
    """
    from engine.mission.schema_check import schema_issues

    doc = read_document(path)
    errors = schema_issues(doc)
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise MissionFileError(path, f"{first.path}: {first.message}{more}")
    return mission_from_dict(doc)


def save_mission(m: Mission, path: str | os.PathLike[str]) -> None:
    """Write the mission atomically in the diff-friendly text form."""
    atomic_write_text(path, mission_dumps(m))


def __getattr__(name: str) -> Any:
    # The validators (jsonschema, networkx) are imported on first use: a batch worker imports this package for
    # the model and the codec only, and would otherwise pay a few tenths of a second of start-up for them.
    if name in ("validate_document", "validate_mission"):
        from engine.mission import validation

        return getattr(validation, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
