"""Where the schemas and sample missions live, in a checkout and in an installed package alike."""

from __future__ import annotations

import importlib.resources
from pathlib import Path
from typing import Any

_CHECKOUT = Path(__file__).resolve().parent.parent


def _folder(checkout_name: str, package: str) -> Path:
    here = _CHECKOUT / checkout_name
    if here.is_dir():
        return here
    # Installed: the folder is shipped as a data package inside engine (see setup.py).
    return Path(str(importlib.resources.files(package)))


def schemas_dir() -> Path:
    """The folder holding the JSON Schemas."""
    return _folder("schemas", "engine._schemas")


def samples_dir() -> Path:
    """The folder holding the sample missions."""
    return _folder("sample_missions", "engine._samples")


def sample_missions() -> list[Path]:
    """Every sample mission file, sorted by name."""
    return sorted(samples_dir().glob("*.json"))


def sample_names() -> list[str]:
    """Every sample mission's name (its file name without .json), sorted: what tests and benchmarks loop over, so
    a new sample is played by all of them."""
    return [p.stem for p in sample_missions()]


def sample_mission(name: str) -> Path:
    """One sample mission by file name, with or without the .json suffix."""
    stem = name.removesuffix(".json")
    path = samples_dir() / f"{stem}.json"
    if not path.is_file():
        raise FileNotFoundError(f"no sample mission named {name!r} in {samples_dir()}")
    return path


def mission_path(arg: str) -> str:
    """A mission argument of the command line: a file path, or a sample's name ("pitfall" or "pitfall.json") when
    no such file exists here."""
    if Path(arg).exists() or "/" in arg or "\\" in arg:
        return arg
    try:
        return str(sample_mission(arg))
    except FileNotFoundError:
        return arg  # let loading report "no such file" with the name the user typed


def load_schema(name: str) -> dict[str, Any]:
    """A schema by file name, parsed."""
    import json

    with (schemas_dir() / name).open(encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data
