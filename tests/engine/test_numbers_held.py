"""Numbers the program cannot hold: the schema bounds every number, the reader for repair replaces one far past
any bound with a placeholder and a note, and the Tiled importer refuses one that no float holds."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.export.tiled import build_tmj
from engine.mission import mission_from_dict, mission_to_dict
from engine.mission.salvage import HOLDABLE, RULE, salvage_document
from engine.resources import schemas_dir

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_missions" / "tutorial.json"
HUGE = 10**20


def _doc() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(SAMPLE.read_text(encoding="utf-8"))
    return doc


def _walk(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _walk(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _walk(v, (*path, i))


def test_every_number_of_the_schema_has_bounds_the_program_holds() -> None:
    schema = json.loads((schemas_dir() / "mission.schema.json").read_text(encoding="utf-8"))
    def types(node: dict[str, Any]) -> set[str]:
        kind = node.get("type", [])
        return set(kind) if isinstance(kind, list) else {kind}

    numbers = [(p, n) for p, n in _walk(schema) if isinstance(n, dict) and {"integer", "number"} & types(n)]
    assert len(numbers) > 15
    for path, node in numbers:
        assert "minimum" in node and "maximum" in node, path
        assert -HOLDABLE <= node["minimum"] <= node["maximum"] <= HOLDABLE, path


def test_a_door_far_off_the_map_is_read_for_repair_with_a_placeholder() -> None:
    doc = _doc()
    doc["doors"][0]["x"] = HUGE
    found = salvage_document(doc)
    assert found.mission.doors[0].x == -1
    assert [n.path for n in found.notes if n.rule == RULE] == ["$.doors[0].x"]
    assert "100000000000000000000 is beyond any number of a mission (at most 999); set to -1" in found.notes[0].message


def test_a_limited_total_past_any_bound_is_read_for_repair_with_a_placeholder() -> None:
    doc = _doc()
    doc["genestealers"]["limited"] = {"unit": "stealers", "total": 10**12}
    found = salvage_document(doc)
    assert found.mission.genestealers.limited is not None and found.mission.genestealers.limited.total == -1
    assert [n.path for n in found.notes] == ["$.genestealers.limited.total"]


def test_a_number_within_reach_stays_for_validation_to_flag() -> None:
    doc = _doc()
    doc["doors"][0]["x"] = 500
    found = salvage_document(doc)
    assert found.mission.doors[0].x == 500 and not found.notes


@pytest.mark.parametrize("sign", [1, -1])
def test_no_number_read_for_repair_is_past_what_the_program_holds(sign: int) -> None:
    base = _doc()
    for path, value in list(_walk(base)):
        if type(value) is not int:
            continue
        doc = _doc()
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = sign * HUGE
        held = mission_to_dict(salvage_document(doc).mission)
        big = [p for p, v in _walk(held) if type(v) is int and abs(v) > HOLDABLE]
        assert not big, (path, big)


def test_import_of_a_tiled_object_at_a_huge_y_names_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tmj = build_tmj(mission_from_dict(_doc()), "terrain.png")
    obj = next(v for _, v in _walk(tmj) if isinstance(v, dict) and "objects" in v and v["objects"])["objects"][0]
    obj["y"] = "@@"
    src = tmp_path / "map.tmj"
    src.write_text(json.dumps(tmj).replace('"@@"', "1" + "0" * 400), encoding="utf-8")
    out = tmp_path / "mission.json"
    assert main(["import", str(src), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"hulkforge import: {src}: object ") and ".y): 1000" in err
    assert err.endswith("is beyond any number a map holds") and len(err.splitlines()) == 1
    assert not out.exists()
