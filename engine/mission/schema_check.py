"""Checking a document against schemas/mission.schema.json, reported as Issues that name the object."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from jsonschema.exceptions import ValidationError, best_match

from engine.mission.issues import Issue, json_path
from engine.mission.objects import Parts, describe, object_parts, object_place, parse_path
from engine.schema_validator import schema_validator

MAX_SCHEMA_ISSUES = 100
MAX_MESSAGE = 200


def mission_validator() -> Any:
    """The mission schema's validator: ECMA-262 patterns and int-only integers (engine.schema_validator)."""
    return schema_validator("mission.schema.json")


@dataclass(frozen=True)
class SchemaReport:
    """The schema's findings: the issues to show (at most MAX_SCHEMA_ISSUES) and every object they break.

    `broken` holds the JSON path of each object with an error inside it (`$.doors[3]`, `$.levels[0].sections.a`,
    `$.victory[1]`), from all errors, not only those shown: the placement rules skip exactly these.
    """

    issues: list[Issue]
    broken: frozenset[str]


def _message(err: ValidationError) -> str:
    """jsonschema's message, without the whole offending list or text when that is long."""
    value, limit = err.instance, err.validator_value
    if err.validator in ("maxItems", "minItems") and isinstance(value, list) and len(repr(value)) > 60:
        bound = "at most" if err.validator == "maxItems" else "at least"
        return f"has {len(value)} item(s); {bound} {limit} allowed"
    if err.validator in ("maxLength", "minLength") and isinstance(value, str) and len(value) > 40:
        bound = "at most" if err.validator == "maxLength" else "at least"
        return f"is {len(value)} characters long; {bound} {limit} allowed"
    text = str(err.message)
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


def _branches(err: ValidationError) -> list[list[ValidationError]]:
    """The errors of a failed `oneOf`, grouped by the branch they come from."""
    groups: dict[int, list[ValidationError]] = {}
    for sub in err.context or []:
        groups.setdefault(int(sub.schema_path[0]), []).append(sub)
    return list(groups.values())


def _kind_error(err: ValidationError) -> ValidationError | None:
    """For an object whose `kind` matches no branch: one error listing the kinds there are."""
    consts = sorted({e.validator_value for e in err.context or [] if e.validator == "const" and
                     list(e.relative_path) == ["kind"]}, key=str)
    if not consts or not isinstance(err.instance, dict) or "kind" not in err.instance:
        return None
    found = err.instance["kind"]
    return ValidationError(f"{found!r} is not a known kind ({', '.join(map(str, consts))})",
                           path=[*err.absolute_path, "kind"], instance=found, validator="enum")


def _leaves(err: ValidationError) -> list[ValidationError]:
    """The errors to report for one error of iter_errors: a failed `oneOf` is replaced by what went wrong in the
    branch meant ("'win_at' is a required property", not "is not valid under any of the given schemas")."""
    if err.validator != "oneOf" or not err.context:
        return [err]
    branches = _branches(err)
    # The branch meant is the one the object's own `kind` selects: the others fail on that property's `const`.
    meant = [errs for errs in branches if not any(e.validator == "const" and len(e.relative_path) == 1
                                                  for e in errs)]
    if len(meant) != 1:
        kind = _kind_error(err)
        if kind is not None:
            return [kind]
        # No kind to go by: the branch that came closest (fewest errors), else jsonschema's relevance order.
        fewest = min(len(errs) for errs in branches)
        meant = [errs for errs in branches if len(errs) == fewest]
    if len(meant) == 1:
        return [leaf for sub in meant[0] for leaf in _leaves(sub)]
    best = best_match(err.context)
    return [err] if best is None else _leaves(best)


def path_key(path: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key of a JSON path that orders indices as numbers: `levels[9]` before `levels[10]`."""
    return tuple((0, p) if isinstance(p, int) else (1, p) for p in parse_path(path))


def schema_errors(doc: Any) -> Iterator[tuple[Parts, str]]:
    """Each way the document breaks the schema: where (path parts) and jsonschema's own words, in the order
    found. Callers that name the place in their own terms (the Tiled import) read these."""
    for err in mission_validator().iter_errors(doc):
        for leaf in _leaves(err):
            yield tuple(leaf.absolute_path), _message(leaf)


def schema_report(doc: Any) -> SchemaReport:
    """Every way the document breaks the schema, each issue naming its object; ordered by path."""
    out: list[Issue] = []
    broken: set[str] = set()
    for parts, text in schema_errors(doc):
        obj = object_parts(parts)
        if obj is not None:
            broken.add(json_path(obj))
        if len(out) < MAX_SCHEMA_ISSUES:
            level, squares = object_place(doc, parts)
            out.append(Issue("SCHEMA", json_path(parts), describe(doc, parts, text), level, squares))
    out.sort(key=lambda i: path_key(i.path))
    return SchemaReport(out, frozenset(broken))


def schema_issues(doc: Any) -> list[Issue]:
    """Every way the document breaks the schema (at most MAX_SCHEMA_ISSUES), ordered by path."""
    return schema_report(doc).issues
