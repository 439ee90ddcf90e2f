"""Checking the files a command is asked to write, before it writes any: one clear refusal instead of a surprise."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path


class OutputRefused(ValueError):
    """An output path that cannot be used; the message names it and says why."""


def output_file(arg: str, suffixes: tuple[str, ...], what: str) -> Path:
    """The file path given with -o, refused when it names a folder, lies in a missing folder or has another suffix.

    suffixes are the lower-case suffixes allowed (".tmj", ...); what names the content in messages ("a PDF").
    """
    path = file_not_folder(arg, suffixes[0])
    if str(path.parent) and not path.parent.is_dir():
        raise OutputRefused(f"{arg}: folder {path.parent} does not exist")
    if path.suffix.lower() not in suffixes:
        found = f"ends in {path.suffix!r}" if path.suffix else "has no suffix"
        raise OutputRefused(f"{arg}: {found}, but this writes {what}: name it {path.stem}{suffixes[0]}")
    return path


def file_not_folder(arg: str, suffix: str) -> Path:
    """arg as a path, refused when it is empty, ends with a slash or is an existing folder."""
    if not arg:
        raise OutputRefused("-o needs a file name")
    if arg.endswith(("/", os.sep)) or (os.altsep and arg.endswith(os.altsep)):
        raise OutputRefused(f"{arg}: ends with a slash, so it names a folder; give a file name, e.g. {arg}out{suffix}")
    path = Path(arg)
    if path.is_dir():
        raise OutputRefused(f"{arg}: is a folder; give a file name, e.g. {path / ('out' + suffix)}")
    return path


def check_targets(paths: Iterable[Path]) -> None:
    """Refuse when a file the command would write beside -o (a tileset, a page per level) is a folder."""
    for p in paths:
        if p.is_dir():
            raise OutputRefused(f"{p}: is a folder, and this export needs to write a file of that name")
