"""Loading the mission an export command works on: unreadable files stop it, rule breaks only warn."""

from __future__ import annotations

import sys

from engine.mission import Mission, MissionFileError, has_errors, mission_from_dict, read_document, validate_mission
from engine.mission.schema_check import schema_issues

MAX_LINES = 20


class ExportRefused(Exception):
    """The command cannot go on; the message is the one line to print and code the exit status."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def load_for_export(path: str, prog: str, strict: bool) -> Mission:
    """The mission at path; its rule issues are printed as warnings, or refuse it with strict."""
    try:
        doc = read_document(path)
    except MissionFileError as exc:
        raise ExportRefused(f"{prog}: {exc}", 2) from None
    # A file that reads but breaks the format breaks a rule (exit 1, as validate and simulate say); it has no
    # model to export, so it is refused whatever --strict says.
    broken = [i for i in schema_issues(doc) if i.severity == "error"]
    if broken:
        for issue in broken[:MAX_LINES]:
            print(f"{prog}: {issue.line(path)}", file=sys.stderr)
        if len(broken) > MAX_LINES:
            print(f"{prog}: ... and {len(broken) - MAX_LINES} more", file=sys.stderr)
        raise ExportRefused(f"{prog}: {path}: the mission breaks the file format ({len(broken)} issue(s)); nothing "
                            "written (see hulkforge validate)", 1)
    m = mission_from_dict(doc)
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
