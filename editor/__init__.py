"""The hulkforge mission editor (PySide6). Talks to the engine only through its public API."""
