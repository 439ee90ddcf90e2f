"""The project's build backend: setuptools', deciding whether the engine is compiled with mypyc (docs/speed.md).

A normal install (`pip install .`) compiles the engine's hot modules when this machine can (a C compiler and the
Python headers) and falls back to plain Python when it cannot or when the compilation fails: the same games, only
slower. HULKFORGE_COMPILE=0 asks for plain Python; HULKFORGE_COMPILE=1 insists on compiling (no fallback: the build
fails). An editable install (`pip install -e .`) is never compiled: compiled modules beside the sources would keep
running after the sources change. setup.py compiles exactly when it finds HULKFORGE_COMPILE=1, which this backend
sets for the one build it decided to compile.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 (every hook setuptools defines, unchanged but the ones below)

# The mypy release the compiled modules are built and checked with (mypyc ships inside mypy).
MYPYC = "mypy==2.4.1"
VARIABLE = "HULKFORGE_COMPILE"


def requested() -> str:
    """'on' (HULKFORGE_COMPILE=1), 'off' (=0) or 'auto' (unset: compile when this machine can)."""
    value = os.environ.get(VARIABLE, "").strip().lower()
    if value in ("1", "yes", "true", "on"):
        return "on"
    if value in ("0", "no", "false", "off"):
        return "off"
    return "auto"


def cannot_compile() -> str | None:
    """Why this machine cannot build C extensions for this Python, or None when it can."""
    cc = sysconfig.get_config_var("CC")
    if not cc:
        return "this Python names no C compiler"
    compiler = os.environ.get("CC", cc).split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) on PATH"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        return f"no Python headers ({headers}; Debian: python3-dev)"
    return None


def compile_wheel() -> bool:
    """Whether a (non-editable) wheel is to be compiled: asked for, or possible and not refused."""
    mode = requested()
    return mode == "on" or (mode == "auto" and cannot_compile() is None)


def _say(message: str) -> None:
    # pip shows a build's output with -v, or when it fails
    print(f"hulkforge build: {message}", file=sys.stderr, flush=True)


@contextmanager
def _setup_compiles(value: bool) -> Iterator[None]:
    """Run setup.py with HULKFORGE_COMPILE set to what it should do, and restore the caller's setting after."""
    before = os.environ.get(VARIABLE)
    os.environ[VARIABLE] = "1" if value else "0"
    try:
        yield
    finally:
        if before is None:
            del os.environ[VARIABLE]
        else:
            os.environ[VARIABLE] = before


def _requires(hook: Callable[[dict[str, Any] | None], list[str]], config_settings: dict[str, Any] | None,
              compiling: bool) -> list[str]:
    # setuptools runs setup.py to list its own requirements, before mypy is in the build: not to compile yet.
    with _setup_compiles(False):
        requirements = hook(config_settings)
    return [*requirements, MYPYC] if compiling else requirements


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _requires(_setuptools.get_requires_for_build_wheel, config_settings, compile_wheel())


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    _refuse_compiled_editable()
    return _requires(_setuptools.get_requires_for_build_editable, config_settings, False)


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    with _setup_compiles(False):  # the metadata is the same either way; mypyc's translation takes a while
        return str(_setuptools.prepare_metadata_for_build_wheel(metadata_directory, config_settings))


def prepare_metadata_for_build_editable(metadata_directory: str,
                                        config_settings: dict[str, Any] | None = None) -> str:
    with _setup_compiles(False):
        return str(_setuptools.prepare_metadata_for_build_editable(metadata_directory, config_settings))


def _refuse_compiled_editable() -> None:
    if requested() == "on":
        # Compiled modules built beside the sources would keep running after the sources are edited.
        raise RuntimeError("HULKFORGE_COMPILE=1 builds a normal install (`pip install .`), not an editable one")


def build_wheel(
    wheel_directory: str, config_settings: dict[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    if not compile_wheel():
        why = "HULKFORGE_COMPILE=0" if requested() == "off" else cannot_compile()
        _say(f"plain-Python engine ({why}); docs/speed.md")
    else:
        try:
            with _setup_compiles(True):
                return str(_setuptools.build_wheel(wheel_directory, config_settings, metadata_directory))
        except (Exception, SystemExit) as error:  # setuptools reports a failed compiler run as SystemExit
            if requested() == "on":
                raise
            _say(f"compiling the engine failed ({error}); installing the plain-Python engine instead")
    with _setup_compiles(False):
        return str(_setuptools.build_wheel(wheel_directory, config_settings, metadata_directory))


def build_editable(
    wheel_directory: str, config_settings: dict[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    _refuse_compiled_editable()
    with _setup_compiles(False):
        return str(_setuptools.build_editable(wheel_directory, config_settings, metadata_directory))
