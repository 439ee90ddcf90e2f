"""What an export wrote and what it had to leave out."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from engine.mission.model import Mission


@dataclass
class ExportReport:
    """The files an export wrote and what the target could not represent."""

    files: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def slug(text: str, fallback: str = "mission") -> str:
    """A file-name-safe form of a title or level name: lower-case letters, digits, '-' and '_'."""
    cleaned = re.sub(r"[^A-Za-z0-9_-]+", "-", text.strip()).strip("-_").lower()
    return cleaned[:60] or fallback


def level_file_names(m: Mission) -> dict[str, str]:
    """Level id -> the part of a file name that stands for it: its name as a designer reads it (its id when it has
    no name, or when two names would give one file name)."""
    names = {lv.id: slug(lv.name, lv.id) if lv.name else lv.id for lv in m.levels}
    if len(set(names.values())) < len(names):
        return {lid: f"{name}-{lid}" if name != lid else lid for lid, name in names.items()}
    return names
