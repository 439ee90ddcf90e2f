"""Exporters and importers for other clients: Tiled maps, Derelict missions, and the printable SVG."""
