"""`hulkforge export MISSION --to tiled|derelict -o PATH [--level ID] [--strict]`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine.export.derelict import export_derelict
from engine.export.files import ExportReport
from engine.export.loading import ExportRefused, load_for_export
from engine.export.outputs import OutputRefused, output_file
from engine.export.tiled import export_tiled
from engine.resources import mission_path

PROG = "hulkforge export"


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "export",
        help="export a mission to Tiled (.tmj) or to Derelict (mission text + segment library)",
        description="Export a mission for another client. tiled: a Tiled 1.8 JSON map (.tmj) with every level "
        "as a group layer, plus its terrain tileset PNG beside it (see docs/tiled-convention.md). derelict: one "
        "level as a Derelict mission text plus the segment library it needs, beside it (FILE.segments.txt); "
        "what Derelict cannot show is listed as warnings on stderr. Every file is written, or none. A mission "
        "that breaks placement rules is exported with a warning, or refused with --strict (exit 1); one that breaks "
        "the file format is refused (exit 1). Exit 2: the "
        "mission cannot be read or the files cannot be written (nothing is written then).",
    )
    p.add_argument("mission", metavar="MISSION", help="mission file (.json), or a sample name such as pitfall")
    p.add_argument("--to", required=True, choices=("tiled", "derelict"), help="target client")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="file to write (tiled: .tmj; derelict: .txt)")
    p.add_argument("--level", metavar="ID", help="derelict only: the level to export (default: the top one)")
    p.add_argument(
        "--merge-into",
        metavar="SEGMENTS.txt",
        help="derelict only: also add the segments this mission needs to Derelict's public/assets/segments.txt, "
        "skipping those it already has (appending a library twice makes Derelict refuse every mission)",
    )
    p.add_argument("--strict", action="store_true", help="refuse a mission that breaks a placement rule")
    return p


_SUFFIXES = {"tiled": ((".tmj", ".json"), "a Tiled JSON map"), "derelict": ((".txt",), "a Derelict mission text")}


def run(args: argparse.Namespace) -> int:
    if args.to == "tiled" and (args.level or args.merge_into):
        flag = "--level" if args.level else "--merge-into"
        print(f"{PROG}: {flag} applies to derelict only; a Tiled map holds every level", file=sys.stderr)
        return 2
    try:
        out = output_file(args.output, *_SUFFIXES[args.to])
        if args.merge_into and not Path(args.merge_into).is_file():
            raise OutputRefused(f"{args.merge_into}: no such file (give Derelict's public/assets/segments.txt)")
    except OutputRefused as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    try:
        m = load_for_export(mission_path(args.mission), PROG, args.strict)
        report: ExportReport
        if args.to == "tiled":
            report = export_tiled(m, out)
        else:
            report = export_derelict(m, args.level, out, args.merge_into)
    except ExportRefused as exc:
        print(exc, file=sys.stderr)
        return exc.code
    except OutputRefused as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"{PROG}: {args.mission}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"{PROG}: {exc.filename or out}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return 2
    for w in report.warnings:
        print(f"{PROG}: warning: {w}", file=sys.stderr)
    for f in report.files:
        print(f)
    return 0
