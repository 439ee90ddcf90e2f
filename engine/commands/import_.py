"""`hulkforge import FILE.tmj|FILE.mission.txt [--segments LIBRARY] -o MISSION.json`."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from engine.export.importing import import_mission, is_derelict
from engine.export.outputs import OutputRefused, output_file
from engine.mission import MissionFileError, has_errors, save_mission

PROG = "hulkforge import"


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "import",
        help="turn a Tiled map (.tmj) or a Derelict mission (.txt) into a mission",
        description="Read a Tiled 1.8 JSON map (.tmj): a map exported by hulkforge comes back exactly; a map "
        "drawn in Tiled follows the layer naming of docs/tiled-convention.md. Or read a Derelict mission (a file "
        "ending in .txt): each segment instance becomes a section, with its doors, alien entries, Marines and "
        "objective tokens; what has no counterpart is named in a warning. The mission is validated: "
        "exit 0 valid (warnings allowed), 1 written but it breaks a placement rule (issues printed), "
        "2 the file cannot be read or does not make a mission (nothing is written).",
    )
    p.add_argument("file", metavar="FILE", help="Tiled JSON map (.tmj) or Derelict mission (.txt)")
    p.add_argument("-o", "--output", required=True, metavar="MISSION.json", help="mission file to write")
    p.add_argument(
        "--segments", action="append", default=[], metavar="LIBRARY",
        help="Derelict segment library (e.g. Derelict's public/assets/segments.txt; repeatable); default: the "
        "file the mission's 'segments:' line names beside it, else FILE-STEM.segments.txt",
    )
    return p


def run(args: argparse.Namespace) -> int:
    try:
        out = output_file(args.output, (".json",), "a mission file")
    except OutputRefused as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    if args.segments and not is_derelict(args.file):
        print(f"{PROG}: --segments is for a Derelict mission (a .txt file), not {args.file}", file=sys.stderr)
        return 2
    unused: list[str] = []
    try:
        mission, issues = import_mission(args.file, args.segments, unused)
    except MissionFileError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    try:
        save_mission(mission, out)
    except OSError as exc:
        print(f"{PROG}: {out}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return 2
    for note in unused:
        print(f"{PROG}: {args.file}: warning: {note}", file=sys.stderr)
    for issue in issues:
        line = issue.line(str(out))
        print(line if issue.severity == "error" else f"{line} (warning)", file=sys.stderr)
    print(out)
    return 1 if has_errors(issues) else 0
