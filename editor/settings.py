"""Persistent editor settings (recent files, autosave period) and the crash-recovery file.

HULKFORGE_CONFIG_DIR moves both somewhere else: tests and screenshot scripts point it at a temporary folder.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths

MAX_RECENT = 8
DEFAULT_AUTOSAVE_SECONDS = 60


def config_dir() -> Path:
    env = os.environ.get("HULKFORGE_CONFIG_DIR")
    if env:
        return Path(env)
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppConfigLocation) or str(Path.home())
    return Path(base) / "hulkforge"


def settings() -> QSettings:
    """The editor's settings file (INI, so it is readable and easy to point elsewhere)."""
    return QSettings(str(config_dir() / "editor.ini"), QSettings.Format.IniFormat)


def recent_files() -> list[str]:
    value = settings().value("recent_files", [])
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value] if isinstance(value, list) else []


def add_recent_file(path: str) -> list[str]:
    """Put path first in the recent list (deduplicated, at most MAX_RECENT)."""
    path = os.path.abspath(path)
    files = [path] + [f for f in recent_files() if f != path]
    files = files[:MAX_RECENT]
    s = settings()
    s.setValue("recent_files", files)
    s.sync()
    return files


def autosave_seconds() -> int:
    value = settings().value("autosave_seconds", DEFAULT_AUTOSAVE_SECONDS)
    try:
        return max(5, int(str(value)))
    except (TypeError, ValueError):
        return DEFAULT_AUTOSAVE_SECONDS


def recovery_file() -> Path:
    """Where autosave writes the unsaved mission."""
    return config_dir() / "recovery" / "autosave.json"


def recovery_origin_file() -> Path:
    """Sidecar holding the path of the file the autosaved mission came from (empty when unsaved)."""
    return config_dir() / "recovery" / "autosave.origin"
