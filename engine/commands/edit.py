"""`hulkforge edit [FILE]`: open the mission editor (the GUI is imported only here, lazily)."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Any


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "edit",
        help="open the mission editor",
        description="Open the PySide6 mission editor on FILE (default: the Pitfall sample mission).",
    )
    p.add_argument("file", nargs="?", metavar="FILE", help="mission file (.json) or a sample name such as pitfall")
    p.add_argument("--screenshot", metavar="PNG", help="save a screenshot of the editor window and quit")
    p.add_argument("--playtest", choices=("marines", "genestealers", "both"),
                   help="open the mission as a game to play: the side you play, or both (hot-seat)")
    return p


def run(args: argparse.Namespace) -> int:
    file: str | None = getattr(args, "file", None)
    if file is not None:
        from engine.resources import mission_path

        file = mission_path(file)  # a sample's name, as for every command that reads a mission
    if file is not None and not os.path.isfile(file):
        # A missing file is reported here, before paying for Qt; a broken one gets a dialog in the editor.
        problem = "is not a file" if os.path.exists(file) else "no such file"
        print(f"hulkforge edit: {file}: {problem}", file=sys.stderr)
        return 2
    shot: str | None = getattr(args, "screenshot", None)
    try:
        # Before Qt loads: where it cannot open a window it aborts with a message of its own (exit 134).
        code: int = importlib.import_module("editor.platform_check").check_start("hulkforge edit", bool(shot))
        if code:
            return code
        app = importlib.import_module("editor.app")
    except ImportError as exc:
        print(f"hulkforge edit: the editor needs PySide6: {exc}", file=sys.stderr)
        return 2
    argv = [file] if file else []
    if shot:
        argv += ["--screenshot", shot]
    playtest: str | None = getattr(args, "playtest", None)
    if playtest:
        argv += ["--playtest", playtest]
    code = app.main(argv)
    return code
