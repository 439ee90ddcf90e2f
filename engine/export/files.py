"""What an export wrote and what it had to leave out."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class ExportReport:
    """The files an export wrote and what the target could not represent."""

    files: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
