"""The hulkforge mission editor (PySide6). Talks to the engine only through its public API."""

from editor._refcount_guard import make_singletons_immortal

# Before any Qt call: the installed shiboken6 leaks decrements of None/True/False on Python 3.11.
make_singletons_immortal()
