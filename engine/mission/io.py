"""Reading mission files defensively and writing them atomically."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_NESTING = 32


class MissionFileError(Exception):
    """A mission file that cannot be read as a format-v1 document; the message names the file and the place."""

    def __init__(self, path: str | os.PathLike[str], message: str) -> None:
        self.path = str(path)
        self.detail = message
        super().__init__(f"{self.path}: {message}")


def _depth(value: Any) -> int:
    """Nesting depth, iteratively: a hostile file must not exhaust the stack here either."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            deepest = max(deepest, d)
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            deepest = max(deepest, d)
            stack.extend((x, d + 1) for x in v)
    return deepest


def parse_document(text: str | bytes, source: str = "<memory>") -> dict[str, Any]:
    """Parse JSON text into a document object, rejecting what is not a mission of a known version."""
    if isinstance(text, bytes):
        if len(text) > MAX_FILE_BYTES:
            raise MissionFileError(source, f"file is {len(text)} bytes, more than the {MAX_FILE_BYTES} allowed")
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise MissionFileError(source, f"not UTF-8 text (byte {exc.start})") from None
    if len(text) > MAX_FILE_BYTES:
        raise MissionFileError(source, f"text is longer than the {MAX_FILE_BYTES} characters allowed")
    if not text.strip():
        raise MissionFileError(source, "file is empty")
    try:
        doc = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise MissionFileError(source, f"line {exc.lineno} column {exc.colno}: not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise MissionFileError(source, f"nested more than {MAX_NESTING} levels deep") from None
    except ValueError as exc:
        raise MissionFileError(source, str(exc)) from None
    if not isinstance(doc, dict):
        raise MissionFileError(source, f"the top level must be a JSON object, not {type(doc).__name__}")
    if _depth(doc) > MAX_NESTING:
        raise MissionFileError(source, f"nested more than {MAX_NESTING} levels deep")
    fmt = doc.get("format")
    if fmt != "hulkforge-mission":
        raise MissionFileError(source, f"$.format is {fmt!r}, expected 'hulkforge-mission'")
    version = doc.get("version")
    if version != 1:
        raise MissionFileError(source, f"$.version is {version!r}: this hulkforge reads mission format version 1 only")
    return doc


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in a mission file")


def read_document(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and parse a mission file; raises MissionFileError naming the file and the problem."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise MissionFileError(path, f"file is {size} bytes, more than the {MAX_FILE_BYTES} allowed")
        data = p.read_bytes()
    except MissionFileError:
        raise
    except IsADirectoryError:
        raise MissionFileError(path, "is a directory, not a mission file") from None
    except FileNotFoundError:
        raise MissionFileError(path, "no such file") from None
    except OSError as exc:
        raise MissionFileError(path, f"cannot be read: {exc.strerror or exc}") from None
    return parse_document(data, str(path))


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write text to path through a temporary file in the same folder and a rename: a crash never leaves half a file."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
