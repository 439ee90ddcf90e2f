"""`hulkforge validate FILE... [--json]`."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.mission import MissionFileError, read_document, validate_document
from engine.resources import mission_path


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "validate",
        help="check missions against the schema and the placement rules",
        description="Check mission files against schemas/mission.schema.json and the placement rules. "
        "Exit 0: all valid (warnings allowed); 1: a mission breaks a rule; 2: a file cannot be read. "
        "Each issue prints as FILE:LEVEL:X,Y: RULE-ID: message.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="mission files (.json), or sample names such as pitfall")
    p.add_argument("--json", action="store_true", help="print all issues as one JSON array")
    p.add_argument("--quiet", "-q", action="store_true", help="print errors only, not warnings")
    return p


def run(args: argparse.Namespace) -> int:
    worst = 0
    collected: list[dict[str, Any]] = []
    for name in args.files:
        try:
            doc = read_document(mission_path(name))
        except MissionFileError as exc:
            print(f"hulkforge validate: {exc}", file=sys.stderr)
            if args.json:
                collected.append(
                    {
                        "file": name,
                        "rule": "FILE",
                        "path": "$",
                        "level": None,
                        "squares": [],
                        "message": exc.detail,
                        "severity": "error",
                    }
                )
            worst = 2
            continue
        issues = validate_document(doc)
        for issue in issues:
            if args.json:
                collected.append({"file": name, **issue.to_json()})
            elif issue.severity == "error" or not args.quiet:
                line = issue.line(name)
                print(line if issue.severity == "error" else f"{line} (warning)")
        if any(i.severity == "error" for i in issues):
            worst = max(worst, 1)
    if args.json:
        print(json.dumps(collected, indent=2))
    elif worst == 0:
        print(f"{len(args.files)} mission(s) valid", file=sys.stderr)
    return worst
