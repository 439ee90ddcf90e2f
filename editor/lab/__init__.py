"""The balance lab: run batches from the editor, chart their statistics, heatmaps, compare, sweep, replay."""

from __future__ import annotations

from typing import Any


def install_lab(window: Any) -> Any:
    """Add the lab dock and its menu entry to the editor's main window; returns the dock."""
    from editor.lab.install import install

    return install(window)
