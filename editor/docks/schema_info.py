"""Choices the property forms offer, read from schemas/mission.schema.json so they never drift from it."""

from __future__ import annotations

import functools
import json
from typing import Any

from engine.resources import schemas_dir


@functools.cache
def schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((schemas_dir() / "mission.schema.json").read_text(encoding="utf-8"))
    return data


def rule_options() -> dict[str, dict[str, Any]]:
    """The rule options block: option name -> its schema (enum, type, description)."""
    props: dict[str, dict[str, Any]] = schema()["properties"]["options"]["properties"]
    return props


def marine_enum(field: str) -> list[str]:
    """Allowed values of a Marine field ('rank', 'ranged', 'melee')."""
    props = schema()["properties"]["marines"]["properties"]["squad"]["items"]["properties"]
    return list(props[field]["enum"])


def feature_enum(kind: str, field: str) -> list[str]:
    """Allowed values of a feature's field ('doors', 'state' -> ['closed', 'open']; 'squad', 'facing' -> N E S W)."""
    root = schema()
    items = (root["properties"]["marines"]["properties"]["squad"] if kind == "squad" else root["properties"][kind])
    spec: dict[str, Any] = items["items"]["properties"][field]
    ref = spec.get("$ref", "")
    if ref.startswith("#/$defs/"):
        spec = root["$defs"][ref.removeprefix("#/$defs/")]
    return list(spec["enum"])


def _node(path: tuple[str, ...]) -> dict[str, Any]:
    """The schema of the value at path: property names from the root, "[]" for a list's items; $refs followed."""
    root = schema()
    node: dict[str, Any] = root
    for key in (*path, ""):
        ref = node.get("$ref", "")
        if ref.startswith("#/$defs/"):
            node = root["$defs"][ref.removeprefix("#/$defs/")]
        if key:
            node = node["items"] if key == "[]" else node["properties"][key]
    return node


def number_range(*path: str) -> tuple[int, int]:
    """The least and greatest whole number the schema allows at path, e.g. ("genestealers", "model_cap"): the
    forms' spin boxes take their ranges from here."""
    node = _node(path)
    return int(node["minimum"]), int(node["maximum"])


def most_items(*path: str) -> int:
    """How many items the schema allows in the list (or characters in the text) at path."""
    node = _node(path)
    return int(node.get("maxItems", node.get("maxLength", 0)))
