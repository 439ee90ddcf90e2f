"""Checking a document against schemas/mission.schema.json, reported as Issues."""

from __future__ import annotations

from typing import Any

import jsonschema

from engine.mission.issues import Issue, json_path
from engine.schema_validator import schema_validator

MAX_SCHEMA_ISSUES = 100


def mission_validator() -> Any:
    """The mission schema's validator: ECMA-262 patterns and int-only integers (engine.schema_validator)."""
    return schema_validator("mission.schema.json")


def _place(doc: Any, parts: list[str | int]) -> tuple[str | None, tuple[tuple[int, int], ...]]:
    """The level and square of the innermost feature object on the path, when it has them."""
    node = doc
    found: tuple[str | None, tuple[tuple[int, int], ...]] = (None, ())
    for p in parts:
        try:
            node = node[p]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(node, dict):
            lv, x, y = node.get("level"), node.get("x"), node.get("y")
            if isinstance(lv, str):
                square: tuple[tuple[int, int], ...] = ()
                if type(x) is int and type(y) is int:  # bool is an int subclass; a square needs real ints
                    square = ((x, y),)
                found = (lv, square)
            elif isinstance(node.get("id"), str) and isinstance(node.get("rows"), list):
                found = (node["id"], ())
    return found


def _message(err: jsonschema.ValidationError) -> str:
    msg = str(err.message)
    if len(msg) > 200:
        msg = msg[:197] + "..."
    if err.validator == "oneOf" and isinstance(err.instance, dict) and "kind" in err.instance:
        msg = f"not a valid victory condition of kind {err.instance['kind']!r}"
    return msg


def schema_issues(doc: Any) -> list[Issue]:
    """Every way the document breaks the schema (at most MAX_SCHEMA_ISSUES), ordered by path."""
    out: list[Issue] = []
    for err in mission_validator().iter_errors(doc):
        parts = list(err.absolute_path)
        level, squares = _place(doc, parts)
        out.append(Issue("SCHEMA", json_path(parts), _message(err), level, squares))
        if len(out) >= MAX_SCHEMA_ISSUES:
            break
    out.sort(key=lambda i: i.path)
    return out
