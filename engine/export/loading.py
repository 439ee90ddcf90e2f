"""Loading the mission an export command works on: unreadable files stop it, rule breaks only warn."""

from __future__ import annotations

import sys

from engine.mission import Mission, MissionFileError, has_errors, load_mission, validate_mission


class ExportRefused(Exception):
    """The command cannot go on; the message is the one line to print and code the exit status."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def load_for_export(path: str, prog: str, strict: bool) -> Mission:
    """The mission at path; its rule issues are printed as warnings, or refuse it with strict."""
    try:
        m = load_mission(path)
    except MissionFileError as exc:
        raise ExportRefused(f"{prog}: {exc}", 2) from None
    issues = validate_mission(m)
    if has_errors(issues):
        errors = [i for i in issues if i.severity == "error"]
        word = "refusing to export" if strict else "warning: exporting anyway"
        print(f"{prog}: {path} breaks {len(errors)} rule(s); {word}:", file=sys.stderr)
        for issue in errors:
            print(f"  {issue.line(path)}", file=sys.stderr)
        if strict:
            raise ExportRefused(f"{prog}: {path}: not exported (--strict)", 1)
    return m
