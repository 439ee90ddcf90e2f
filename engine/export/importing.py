"""Which importer reads a file: a Derelict mission is a text file (.txt), a Tiled map is JSON (.tmj, .json)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from engine.export.derelict_import import import_derelict
from engine.export.tiled_import import import_tiled
from engine.mission import Issue, Mission

IMPORT_SUFFIXES = (".txt", ".tmj")


def is_derelict(path: str | os.PathLike[str]) -> bool:
    """True for a Derelict mission, by its name (Derelict's missions are .txt files)."""
    return os.fspath(path).lower().endswith(".txt")


def is_importable(path: str | os.PathLike[str]) -> bool:
    """True for a file an importer reads rather than a mission file (the editor's Open sends it to Import)."""
    return os.fspath(path).lower().endswith(IMPORT_SUFFIXES)


def import_mission(
    path: str | os.PathLike[str], segments: Sequence[str | os.PathLike[str]] = (), warnings: list[str] | None = None
) -> tuple[Mission, list[Issue]]:
    """The mission in a Tiled map or a Derelict mission, and its validation issues; raises MissionFileError.

    segments: Derelict segment libraries (engine/export/derelict_import.py); warnings receives what the file
    holds that the mission cannot."""
    if is_derelict(path):
        return import_derelict(path, segments, warnings)
    return import_tiled(path, warnings)
