"""Strict JSON decoding for files from someone else: duplicate keys, odd numbers and odd characters are refused.

Python's json module keeps the last of two equal keys, reads `1e999` as infinity and `"\\ud800"` as a string that
cannot be printed or written back; `9.0` passes a schema's "integer" (JSON Schema counts it as one) and then
crashes code that indexes with it. Everything here reports the JSON path of what it refuses.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

# Where a mission may hold line breaks and tabs: free text meant to span lines. Everywhere else a control
# character is refused, so none reaches a title printed on a map, an SVG file or a terminal.
MULTILINE_FIELDS: frozenset[tuple[str, ...]] = frozenset({("meta", "description")})
_LINE_CONTROLS = frozenset("\t\n\r\u2028\u2029")


class JSONContentError(ValueError):
    """Valid JSON syntax whose content is refused; `path` is where, `message` why (both safe to print)."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path  # "" when the parser cannot tell where (a number: it has no path yet)
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)


class _DuplicateKeys(dict[str, Any]):
    """An object whose text repeated a key: kept until the walk below knows its path and can say where."""

    duplicate: str = ""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) == len(pairs):
        return d
    seen: set[str] = set()
    out = _DuplicateKeys(d)
    for k, _ in pairs:
        if k in seen:
            out.duplicate = k
            break
        seen.add(k)
    return out


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JSONContentError("", f"the number {text[:40]} is too large")
    return value


def loads(text: str, what: str = "JSON file") -> Any:
    """Parse JSON text; NaN, Infinity and numbers beyond the float range are refused, duplicate keys marked.

    Call `check` on the result: it raises for the first duplicate key with its path. Raises
    json.JSONDecodeError for bad syntax, JSONContentError for a refused number, RecursionError when nested too deep.
    """

    def reject_constant(name: str) -> Any:
        raise JSONContentError("", f"{name} is not allowed in a {what}")

    return json.loads(text, object_pairs_hook=_object, parse_constant=reject_constant, parse_float=_finite_float)


def json_path(parts: list[str | int] | tuple[str | int, ...]) -> str:
    """`$.levels[0]["odd key"]`: keys that are not plain names are quoted with escapes, so paths print safely."""
    out = "$"
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        elif _PLAIN_KEY.match(p):
            out += f".{p}"
        else:
            out += f"[{json.dumps(p)}]"
    return out


def bad_character(text: str, multiline: bool = False) -> str | None:
    """Why text cannot be part of a mission (a control character, a lone surrogate, a noncharacter), or None."""
    if text.isprintable():  # the common case, in C: no control, format, separator or unassigned character
        return None
    for ch in text:
        code = ord(ch)
        if ch in _LINE_CONTROLS and multiline:
            continue
        if 0xD800 <= code <= 0xDFFF:
            return _SURROGATE.format(code)
        if code < 0x20 or 0x7F <= code <= 0x9F:
            name = {0: "NUL", 9: "tab", 10: "line break", 13: "carriage return", 27: "ESC"}.get(code, "")
            return f"control character U+{code:04X}{f' ({name})' if name else ''} is not allowed here"
        if (code & 0xFFFE) == 0xFFFE or 0xFDD0 <= code <= 0xFDEF:
            return f"U+{code:04X} is a Unicode noncharacter"
        if unicodedata.category(ch) in ("Zl", "Zp"):
            return f"line separator U+{code:04X} is not allowed here"
    return None


_SURROGATE = "lone surrogate U+{:04X} (not a character: the text cannot be written as UTF-8)"


def lone_surrogate(text: str) -> str | None:
    """Why text cannot be written as UTF-8 (a lone surrogate, which JSON's \\u escapes can make), or None."""
    if text.isprintable():
        return None
    for ch in text:
        if 0xD800 <= ord(ch) <= 0xDFFF:
            return _SURROGATE.format(ord(ch))
    return None


def check(
    doc: Any,
    *,
    max_nesting: int,
    mission_text: bool = False,
    integral_floats: bool = False,
    prefix: tuple[str | int, ...] = (),
    repairs: list[tuple[str, str]] | None = None,
) -> None:
    """Walk a parsed document (iteratively: a hostile file must not exhaust the stack) and refuse what it holds.

    Always: nesting deeper than max_nesting, a duplicate key, a lone surrogate anywhere. mission_text: also
    control characters and noncharacters, line breaks only in MULTILINE_FIELDS. integral_floats: replace
    floats with no fraction (`9.0`, `1e2`) by the integers they write, in place, as the JSON Schema reading
    of such numbers says. prefix: the path of doc inside a larger document, for messages.

    repairs: when given, a duplicate key keeps its last value and a refused character becomes U+FFFD, in place,
    each noted there as (JSON path, what was done) instead of refused: the editor opens such a file for repair.
    Nesting is refused all the same.
    """

    def refuse(path: tuple[str | int, ...], why: str, done: str) -> None:
        if repairs is None:
            raise JSONContentError(json_path(path), why)
        repairs.append((json_path(path), f"{why}: {done}"))

    # (value, depth, path) with path built as nested tuples, joined only when something is reported.
    stack: list[tuple[Any, int, tuple[str | int, ...]]] = [(doc, 1, prefix)]
    while stack:
        value, depth, path = stack.pop()
        if isinstance(value, dict | list):
            if depth > max_nesting:
                raise JSONContentError(json_path(path), f"nested more than {max_nesting} levels deep")
            children: Iterable[tuple[Any, Any]]
            if isinstance(value, dict):
                if isinstance(value, _DuplicateKeys) and value.duplicate:
                    refuse(path, f"the key {json.dumps(value.duplicate)} appears twice", "the last value was kept")
                    value.duplicate = ""  # mended: a second walk has nothing to say
                for k in list(value):
                    why = _string_problem(k, (*path, k), mission_text, key=True)
                    if why is not None:
                        refuse(path, why, "replaced by U+FFFD")
                        value[_replaced(k, False, mission_text)] = value.pop(k)
                children = value.items()  # values are replaced below, keys no more
            else:
                children = enumerate(value)
            for k, v in children:
                where = (*path, k)
                if integral_floats and isinstance(v, float) and v.is_integer():
                    value[k] = int(v)
                elif isinstance(v, str):
                    why = _string_problem(v, where, mission_text)
                    if why is not None:
                        refuse(where, why, "replaced by U+FFFD")
                        value[k] = _replaced(v, _multiline(where), mission_text)
                elif isinstance(v, dict | list):
                    stack.append((v, depth + 1, where))
        elif isinstance(value, str):  # a document that is a bare string
            why = _string_problem(value, path, mission_text)
            if why is not None:
                raise JSONContentError(json_path(path), why)


def _replaced(text: str, multiline: bool, mission_text: bool) -> str:
    """text with each character _string_problem refuses turned into U+FFFD."""
    if mission_text:
        return "".join("\ufffd" if bad_character(ch, multiline) else ch for ch in text)
    return "".join("\ufffd" if lone_surrogate(ch) else ch for ch in text)


def _string_problem(text: str, path: tuple[str | int, ...], mission_text: bool, key: bool = False) -> str | None:
    if mission_text:
        why = bad_character(text, multiline=not key and _multiline(path))
    else:
        why = lone_surrogate(text)
    return None if why is None else ("in a key: " if key else "") + why


def _multiline(path: tuple[str | int, ...]) -> bool:
    named = tuple(p for p in path if isinstance(p, str))
    return any(named[-len(f):] == f for f in MULTILINE_FIELDS)
