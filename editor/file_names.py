"""File names the editor proposes: from the mission's file, else its title; never a mission file for an export."""

from __future__ import annotations

import os
from pathlib import Path

from engine.export.files import slug

MISSION_SUFFIX = ".json"


def mission_stem(path: str | None, title: str) -> str:
    """The open file's path without its suffix, or a name made from the mission's title when it has no file."""
    if path:
        return os.path.splitext(path)[0]
    return slug(title)


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str] | None) -> bool:
    """True when a and b name one file (b None: never)."""
    if b is None:
        return False
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def export_target(chosen: str, suffixes: tuple[str, ...], mission_path: str | None) -> tuple[str | None, str]:
    """(path, "") for a file an export may write, or (None, why) for one it may not: the open mission, any .json
    (where missions live), or a suffix the export does not write. A name without a suffix gets suffixes[0]."""
    name = Path(chosen).name
    if same_file(chosen, mission_path):
        return None, f"{name} is the open mission: an export never writes over it."
    if name.lower().endswith(MISSION_SUFFIX):
        return None, f"{name}: a .json file is where missions live; an export never writes one."
    if not any(name.lower().endswith(s) for s in suffixes):
        if "." in name.lstrip("."):
            return None, f"{name}: this export writes {' or '.join(suffixes)} files."
        chosen += suffixes[0]
        if same_file(chosen, mission_path):
            return None, f"{Path(chosen).name} is the open mission: an export never writes over it."
    return chosen, ""
