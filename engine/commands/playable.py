"""Commands that play a mission validate it first: a broken mission is reported as `validate` reports it, exit 1."""

from __future__ import annotations

import os
import sys
from typing import Any

from engine.mission import Issue, Mission, MissionFileError, mission_from_dict, read_document

MAX_LINES = 20


class InvalidMission(Exception):
    """A mission file that reads but breaks the schema or a placement rule: no game of it is played."""

    def __init__(self, path: str, errors: list[Issue]) -> None:
        self.path = path
        self.errors = errors
        super().__init__(f"{path}: breaks {len(errors)} rule(s)")


def load_playable(path: str | os.PathLike[str]) -> Mission:
    """The mission of a file that has no validation error (warnings are fine).

    Raises MissionFileError when the file cannot be read, InvalidMission when it breaks a rule: games of a
    broken mission would fail inside the rules engine with messages that say nothing to a designer.
    """
    from engine.mission import validate_document

    doc = read_document(path)
    errors = [i for i in validate_document(doc) if i.severity == "error"]
    if errors:
        raise InvalidMission(str(path), errors)
    return mission_from_dict(doc)


def report_invalid(prog: str, exc: InvalidMission, stream: Any = None) -> int:
    """Print the issues as `hulkforge validate` does (at most MAX_LINES), and a last line; returns exit code 1."""
    out = stream if stream is not None else sys.stderr
    for issue in exc.errors[:MAX_LINES]:
        print(f"{prog}: {issue.line(exc.path)}", file=out)
    if len(exc.errors) > MAX_LINES:
        print(f"{prog}: ... and {len(exc.errors) - MAX_LINES} more", file=out)
    print(f"{prog}: {exc.path}: the mission breaks {len(exc.errors)} rule(s); no game was played "
          f"(see hulkforge validate)", file=out)
    return 1


__all__ = ["InvalidMission", "MissionFileError", "load_playable", "report_invalid"]
