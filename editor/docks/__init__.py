"""Dock widgets: tools, properties, validation, legend."""
