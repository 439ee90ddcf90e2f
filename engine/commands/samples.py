"""`hulkforge samples`: list the sample missions shipped with the package."""

from __future__ import annotations

import argparse
from typing import Any

from engine.resources import sample_missions


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "samples",
        help="list the sample missions and where they are installed",
        description="Print the path of every sample mission shipped with hulkforge, one per line.",
    )
    return p


def run(args: argparse.Namespace) -> int:
    for path in sample_missions():
        print(path)
    return 0
