"""Validators for the project's JSON Schemas, with the semantics the schemas are written in.

JSON Schema patterns are ECMA-262 regular expressions, where `$` ends the string; jsonschema checks them with
Python's `re.search`, whose `$` also matches before a final line break, so `"D1\\n"` would pass `^[A-Za-z0-9]+$`.
Here `pattern`, `patternProperties` and the pattern part of `additionalProperties` use regress (Rust's ECMA
engine, by jsonschema's author). And an "integer" is an int: `9.0` would pass JSON Schema's "integer" and then
crash code that indexes with it (the mission reader turns such numbers into ints before this sees them).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import jsonschema
import regress
from jsonschema.exceptions import ValidationError

from engine.resources import load_schema


@lru_cache(maxsize=64)
def _regex(pattern: str) -> regress.Regex:
    return regress.Regex(pattern)


def ecma_search(pattern: str, text: str) -> bool:
    """Whether the ECMA-262 pattern matches somewhere in text (patterns are not implicitly anchored)."""
    try:
        return _regex(pattern).find(text) is not None
    except UnicodeEncodeError:  # a lone surrogate: not text any pattern of ours accepts
        return False


def _pattern(validator: Any, patrn: str, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not ecma_search(patrn, instance):
        yield ValidationError(f"{instance!r} does not match {patrn!r}")


def _pattern_properties(
    validator: Any, patterns: dict[str, Any], instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for patrn, subschema in patterns.items():
        for k, v in instance.items():
            if ecma_search(patrn, k):
                yield from validator.descend(v, subschema, path=k, schema_path=patrn)


def _extras(instance: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    properties = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    return [k for k in instance if k not in properties and not any(ecma_search(p, k) for p in patterns)]


def _additional_properties(
    validator: Any, additional: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    extras = _extras(instance, schema)
    if validator.is_type(additional, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], additional, path=extra)
    elif not additional and extras:
        names = ", ".join(repr(e) for e in sorted(extras))
        if "patternProperties" in schema:
            verb = "does" if len(extras) == 1 else "do"
            patterns = ", ".join(repr(p) for p in sorted(schema["patternProperties"]))
            yield ValidationError(f"{names} {verb} not match any of the regexes: {patterns}")
        else:
            verb = "was" if len(extras) == 1 else "were"
            yield ValidationError(f"Additional properties are not allowed ({names} {verb} unexpected)")


def _is_integer(checker: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


_TYPES = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer)

StrictValidator: Any = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    validators={
        "pattern": _pattern,
        "patternProperties": _pattern_properties,
        "additionalProperties": _additional_properties,
    },
    type_checker=_TYPES,
)


@lru_cache(maxsize=4)
def schema_validator(name: str) -> Any:
    """The validator of one of schemas/*.json by file name, built once per process."""
    return StrictValidator(load_schema(name))
