"""The project's build backend: setuptools', asking for mypy (its mypyc compiler) only when a compiled engine is
wanted (`HULKFORGE_COMPILE=1 pip install .`, docs/speed.md), so a plain install downloads nothing more."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 (every hook setuptools defines, unchanged but the two below)

# The mypy release the compiled modules are built and checked with (mypyc ships inside mypy).
MYPYC = "mypy==2.4.1"


def _compile_wanted() -> bool:
    return os.environ.get("HULKFORGE_COMPILE", "") == "1"


def _requires(hook: Callable[[dict[str, Any] | None], list[str]], config_settings: dict[str, Any] | None) -> list[str]:
    if not _compile_wanted():
        return hook(config_settings)
    # setuptools runs setup.py to list its own requirements, before mypy is in the build: not to compile yet.
    os.environ["HULKFORGE_COMPILE"] = "0"
    try:
        return [*hook(config_settings), MYPYC]
    finally:
        os.environ["HULKFORGE_COMPILE"] = "1"


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _requires(_setuptools.get_requires_for_build_wheel, config_settings)


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _requires(_setuptools.get_requires_for_build_editable, config_settings)


def build_editable(
    wheel_directory: str, config_settings: dict[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    if _compile_wanted():
        # Compiled modules built beside the sources would keep running after the sources are edited.
        raise RuntimeError("HULKFORGE_COMPILE=1 builds a normal install (`pip install .`), not an editable one")
    return str(_setuptools.build_editable(wheel_directory, config_settings, metadata_directory))
