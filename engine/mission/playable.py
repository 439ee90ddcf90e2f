"""A mission fit to play: read, validated, refused with its issues when it breaks a rule."""

from __future__ import annotations

import os
from typing import Any

from engine.mission.codec import mission_from_dict
from engine.mission.io import read_document
from engine.mission.issues import Issue
from engine.mission.model import Mission


class InvalidMission(Exception):
    """A mission file that reads but breaks the schema or a placement rule: no game of it is played."""

    def __init__(self, path: str, errors: list[Issue]) -> None:
        self.path = path
        self.errors = errors
        super().__init__(f"{path}: breaks {len(errors)} rule(s)")


def load_playable(path: str | os.PathLike[str]) -> Mission:
    """The mission of a file that has no validation error: see load_playable_document."""
    return load_playable_document(path)[1]


def load_playable_document(path: str | os.PathLike[str]) -> tuple[dict[str, Any], Mission]:
    """The document of a file that has no validation error (warnings are fine), and its mission. A caller that
    needs both reads the file once: it may be a pipe.

    Raises MissionFileError when the file cannot be read, InvalidMission when it breaks a rule: games of a
    broken mission would fail inside the rules engine with messages that say nothing to a designer.
    """
    from engine.mission import validate_document

    doc = read_document(path)
    errors = [i for i in validate_document(doc) if i.severity == "error"]
    if errors:
        raise InvalidMission(str(path), errors)
    return doc, mission_from_dict(doc)
