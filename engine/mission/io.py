"""Reading JSON files defensively and writing files atomically: missions, and the importers that share the care."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from engine.mission import strict_json
from engine.mission.atomic import AtomicFile
from engine.mission.bounded_read import ReadRefused, read_bounded

MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_NESTING = 32


class MissionFileError(Exception):
    """A mission file that cannot be read as a format-v1 document; the message names the file and the place."""

    def __init__(self, path: str | os.PathLike[str], message: str) -> None:
        self.path = str(path)
        self.detail = message
        super().__init__(f"{self.path}: {message}")


def nesting_depth(value: Any) -> int:
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


def read_limited(
    path: str | os.PathLike[str],
    *,
    what: str = "mission file",
    error: Callable[[str | os.PathLike[str], str], Exception] = MissionFileError,
    max_bytes: int = MAX_FILE_BYTES,
) -> bytes:
    """A file's bytes, never more than max_bytes whatever the file is (a pipe, /dev/zero), never waiting forever
    (a FIFO with no writer): engine.mission.bounded_read. Errors are error(path, message)."""
    try:
        return read_bounded(path, max_bytes, what=what)
    except ReadRefused as exc:
        raise error(path, str(exc)) from None
    except FileNotFoundError:
        raise error(path, "no such file") from None
    except IsADirectoryError:
        raise error(path, f"is a directory, not a {what}") from None
    except OSError as exc:
        raise error(path, f"cannot be read: {exc.strerror or exc}") from None


def parse_json_object(
    data: str | bytes,
    source: str,
    *,
    what: str = "mission file",
    error: type[MissionFileError] = MissionFileError,
    max_bytes: int = MAX_FILE_BYTES,
    max_nesting: int = MAX_NESTING,
    utf8_hint: str = "",
    xml_hint: str = "",
    repairs: list[tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """Decode and parse JSON text that must be an object: size, encoding, syntax, NaN and nesting are checked.

    utf8_hint and xml_hint are appended to the message when the bytes are not UTF-8 or the text looks like XML
    (an importer can point at the format the user probably saved by mistake). repairs: see strict_json.check.
    """
    if isinstance(data, bytes):
        if len(data) > max_bytes:
            raise error(source, f"file is {len(data)} bytes, more than the {max_bytes} allowed")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise error(source, f"not UTF-8 text (byte {exc.start}){utf8_hint}") from None
    else:
        text = data
    if len(text) > max_bytes:
        raise error(source, f"text is longer than the {max_bytes} characters allowed")
    if not text.strip():
        raise error(source, "file is empty")

    try:
        doc = strict_json.loads(text, what)
        strict_json.check(doc, max_nesting=max_nesting, repairs=repairs)
    except json.JSONDecodeError as exc:
        hint = xml_hint if text.lstrip().startswith("<") else ""
        raise error(source, f"line {exc.lineno} column {exc.colno}: not valid JSON: {exc.msg}{hint}") from None
    except RecursionError:
        raise error(source, f"nested more than {max_nesting} levels deep") from None
    except ValueError as exc:  # JSONContentError, or an integer of more digits than Python converts
        raise error(source, str(exc)) from None
    if not isinstance(doc, dict):
        raise error(source, f"$: a {what} is a JSON object, not {type(doc).__name__}")
    return doc


def short_repr(value: Any, limit: int = 60) -> str:
    """repr() cut to a length fit for a one-line message (a hostile file may put megabytes in one field)."""
    text = repr(value) if not isinstance(value, dict | list) else type(value).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_mission_content(
    doc: dict[str, Any], source: str, prefix: tuple[str | int, ...] = (), repairs: list[tuple[str, str]] | None = None
) -> None:
    """Refuse control characters and noncharacters in a mission's text, and turn `9.0` into `9`, in place.

    Whole numbers written as decimals pass the schema's "integer" (JSON Schema counts 9.0 as one) but would
    reach the model as floats; every number of a mission is a whole number, so they are read as what they say.
    prefix: where doc sits in a larger file (a results file embeds the mission it played). repairs: see
    strict_json.check.
    """
    try:
        check_mission_text(doc, prefix, repairs)
    except strict_json.JSONContentError as exc:
        raise MissionFileError(source, str(exc)) from None


def check_mission_text(
    doc: dict[str, Any], prefix: tuple[str | int, ...] = (), repairs: list[tuple[str, str]] | None = None
) -> None:
    """check_mission_content's check, raising strict_json.JSONContentError (its `path` apart from its message)
    for a caller that names the place in its own terms (the Tiled importer: the map's layer and object)."""
    strict_json.check(doc, max_nesting=MAX_NESTING, mission_text=True, integral_floats=True, prefix=prefix,
                      repairs=repairs)


def parse_document(
    text: str | bytes, source: str = "<memory>", repairs: list[tuple[str, str]] | None = None
) -> dict[str, Any]:
    """Parse JSON text into a document object, rejecting what is not a mission of a known version.

    repairs: when given, duplicate keys and refused characters are mended and noted there (strict_json.check)."""
    doc = parse_json_object(text, source, repairs=repairs)
    fmt = doc.get("format")
    if fmt != "hulkforge-mission":
        raise MissionFileError(source, f"$.format is {short_repr(fmt)}, expected 'hulkforge-mission'")
    check_mission_content(doc, source, repairs=repairs)
    version = doc.get("version")
    if type(version) is not int or version != 1:  # True == 1 in Python
        raise MissionFileError(
            source, f"$.version is {short_repr(version)}: this hulkforge reads mission format version 1 only"
        )
    return doc


def read_document(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and parse a mission file; raises MissionFileError naming the file and the problem."""
    return parse_document(read_limited(path), str(path))


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write through a locked temporary file in the same folder and a rename: a crash never leaves half a file.

    Temporary files that killed writers of the same path left behind are removed first; the folder is
    fsynced after the rename (engine.mission.atomic).
    """
    with AtomicFile(path) as out:
        out.file.write(data)
        out.commit()


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write UTF-8 text with LF line ends atomically."""
    atomic_write_bytes(path, text.encode("utf-8"))
