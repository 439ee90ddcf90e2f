"""`hulkforge export MISSION --to tiled|derelict -o PATH [--level ID] [--strict]`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine.export.derelict import export_derelict
from engine.export.files import ExportReport
from engine.export.loading import ExportRefused, load_for_export
from engine.export.tiled import export_tiled
from engine.resources import mission_path

PROG = "hulkforge export"


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "export",
        help="export a mission to Tiled (.tmj) or to Derelict (mission text + segment library)",
        description="Export a mission for another client. tiled: a Tiled 1.8 JSON map (.tmj) with every level "
        "as a group layer, plus its terrain tileset PNG beside it (see docs/tiled-convention.md). derelict: one "
        "level as a Derelict mission text plus the segment library it needs, beside it; what Derelict cannot "
        "show is listed as warnings on stderr. A mission that breaks placement rules is exported with a "
        "warning, or refused with --strict (exit 1). Exit 2: the mission cannot be read or written.",
    )
    p.add_argument("mission", metavar="MISSION", help="mission file (.json), or a sample name such as pitfall")
    p.add_argument("--to", required=True, choices=("tiled", "derelict"), help="target client")
    p.add_argument("-o", "--output", required=True, metavar="PATH", help="file to write (.tmj or .txt)")
    p.add_argument("--level", metavar="ID", help="derelict only: the level to export (default: the top one)")
    p.add_argument("--strict", action="store_true", help="refuse a mission that breaks a placement rule")
    return p


def run(args: argparse.Namespace) -> int:
    out = Path(args.output)
    if args.level and args.to == "tiled":
        print(f"{PROG}: --level applies to derelict only; a Tiled map holds every level", file=sys.stderr)
        return 2
    if str(out.parent) and not out.parent.is_dir():
        print(f"{PROG}: {out}: folder {out.parent} does not exist", file=sys.stderr)
        return 2
    try:
        m = load_for_export(mission_path(args.mission), PROG, args.strict)
        report: ExportReport
        if args.to == "tiled":
            report = export_tiled(m, out)
        else:
            report = export_derelict(m, args.level, out)
    except ExportRefused as exc:
        print(exc, file=sys.stderr)
        return exc.code
    except ValueError as exc:
        print(f"{PROG}: {args.mission}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"{PROG}: {out}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return 2
    for w in report.warnings:
        print(f"{PROG}: warning: {w}", file=sys.stderr)
    for f in report.files:
        print(f)
    return 0
