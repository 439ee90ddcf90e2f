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
