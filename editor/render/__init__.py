"""Printing: each level as PNG, SVG or a multi-page PDF, drawn from the engine's SVG with QSvgRenderer."""

from editor.render.raster import render_mission

__all__ = ["render_mission"]
