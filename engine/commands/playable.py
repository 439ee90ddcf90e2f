"""Commands that play a mission validate it first: a broken mission is reported as `validate` reports it, exit 1."""

from __future__ import annotations

import sys
from typing import Any

from engine.mission.playable import InvalidMission

MAX_LINES = 20


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
