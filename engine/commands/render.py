"""`hulkforge render MISSION --format png|svg|pdf -o FILE [--dpi N] [--level ID]`."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path
from typing import Any

from engine.export.loading import ExportRefused, load_for_export
from engine.export.outputs import OutputRefused, file_not_folder, output_file
from engine.export.svg import PAPERS
from engine.resources import mission_path

PROG = "hulkforge render"


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "render",
        help="print a mission's levels as PNG, SVG or PDF",
        description="Print each level: title, map with square coordinates, section letters and counters, legend, "
        "squad and sections; the first sheet also carries the description, victory conditions, Genestealer "
        "forces and reinforcements and the random counter mix. PNG and SVG: one file per level, named "
        "FILE-LEVEL.ext (LEVEL: the level's name) when the mission has several levels; PDF: one page per level, "
        "titled with the mission's "
        "title. Every file is written, or none. PNG and PDF need Qt (PySide6) and run headless; SVG needs "
        "nothing. Exit 1: the mission breaks the file format (or, with --strict, a placement rule). Exit 2: the "
        "mission cannot be read or the files cannot be written (nothing is written then).",
    )
    p.add_argument("mission", metavar="MISSION", help="mission file (.json), or a sample name such as pitfall")
    p.add_argument("--format", choices=("png", "svg", "pdf"), help="output format (default: from -o's suffix)")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="file to write")
    p.add_argument("--dpi", type=int, default=150, help="PNG resolution, dots per inch (default 150)")
    p.add_argument(
        "--paper",
        choices=(*PAPERS, "fit"),
        default="a4",
        help="page size: a4 or letter (the map scaled to fit, landscape when that shows it larger) or fit "
        "(a page as large as the map at 8 mm a square); default a4",
    )
    p.add_argument("--level", action="append", metavar="ID", help="only this level (repeatable)")
    p.add_argument("--strict", action="store_true", help="refuse a mission that breaks a placement rule")
    return p


def run(args: argparse.Namespace) -> int:
    try:
        file_not_folder(args.output, f".{args.format or 'pdf'}")
    except OutputRefused as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    fmt = args.format or Path(args.output).suffix.lower().lstrip(".")
    if fmt not in ("png", "svg", "pdf"):
        print(f"{PROG}: {args.output}: give --format png, svg or pdf (the suffix does not say)", file=sys.stderr)
        return 2
    if not 10 <= args.dpi <= 1200:
        print(f"{PROG}: --dpi {args.dpi} is outside 10..1200", file=sys.stderr)
        return 2
    try:
        out = output_file(args.output, (f".{fmt}",), f"a {fmt.upper()}")
    except OutputRefused as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    try:
        m = load_for_export(mission_path(args.mission), PROG, args.strict)
    except ExportRefused as exc:
        print(exc, file=sys.stderr)
        return exc.code
    try:
        if fmt == "svg":
            from engine.export.svg import export_svg

            files = export_svg(m, out, args.level, paper=args.paper)
        else:
            if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
                os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
            # engine must not import Qt statically: the renderer lives in the editor package.
            render = importlib.import_module("editor.render")
            files = render.render_mission(m, out, fmt, dpi=args.dpi, levels=args.level, paper=args.paper)
    except ImportError as exc:
        print(f"{PROG}: PNG and PDF need PySide6 ({exc}); SVG works without it", file=sys.stderr)
        return 2
    except OutputRefused as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"{PROG}: {args.mission}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"{PROG}: {exc.filename or out}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return 2
    for f in files:
        print(f)
    return 0
