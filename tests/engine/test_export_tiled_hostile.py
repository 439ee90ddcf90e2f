"""Malformed and hostile .tmj files: one line naming the file and the place, exit 2, nothing written."""

from __future__ import annotations

import base64
import gzip
import json
import os
import zlib
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.export.tiled import build_tmj
from engine.mission import load_mission
from engine.resources import sample_mission


def _good() -> dict[str, Any]:
    return build_tmj(load_mission(sample_mission("tutorial")), "t.png")


def _terrain(doc: dict[str, Any]) -> dict[str, Any]:
    layer: dict[str, Any] = doc["layers"][0]["layers"][0]
    return layer


def _bomb(compress: Any) -> dict[str, Any]:
    doc = _good()
    # 16 MB of zeros packs into ~16 KB: it must be refused without ever being inflated whole.
    _terrain(doc).update(
        encoding="base64",
        compression="zlib" if compress is zlib.compress else "gzip",
        data=base64.b64encode(compress(bytes(16 * 1024 * 1024))).decode(),
    )
    return doc


def _mutate(change: Any) -> dict[str, Any]:
    doc = _good()
    change(doc)
    return doc


CASES: dict[str, tuple[Any, str]] = {
    "not json": ("this is not a map {", "not valid JSON"),
    "tmx xml": ('<?xml version="1.0"?><map/>', "save the map as JSON"),
    "top-level list": ("[1, 2, 3]", "a Tiled map is a JSON object"),
    "NaN": ('{"width": NaN}', "NaN is not allowed"),
    "deep nesting": ("[" * 5000 + "]" * 5000, "nested"),
    "width is text": (_mutate(lambda d: d.update(width="14")), "$.width: expected int"),
    "absurd width": (_mutate(lambda d: d.update(width=100000)), "$.width: 100000 is outside 1..200"),
    "negative height": (_mutate(lambda d: d.update(height=-3)), "$.height: -3 is outside"),
    "bool tile width": (_mutate(lambda d: d.update(tilewidth=True)), "$.tilewidth: expected int"),
    "isometric": (_mutate(lambda d: d.update(orientation="isometric")), "only orthogonal"),
    "infinite": (_mutate(lambda d: d.update(infinite=True)), "infinite maps are not supported"),
    "no layers": (_mutate(lambda d: d.pop("layers")), "$: missing 'layers'"),
    "no terrain layer": (_mutate(lambda d: d["layers"][0].update(layers=[])), "has no tile layer named 'terrain'"),
    "short data": (_mutate(lambda d: _terrain(d).update(data=[1, 2, 3])), "3 tiles, the layer is 14x7"),
    "gid is text": (
        _mutate(lambda d: _terrain(d)["data"].__setitem__(5, "1")),
        "layer 'deck/terrain' ($.layers[0].layers[0].data[5]): '1' is not a tile gid",
    ),
    "unknown gid": (_mutate(lambda d: _terrain(d)["data"].__setitem__(0, 999)), "gid 999 belongs to no tileset"),
    "bad base64": (_mutate(lambda d: _terrain(d).update(encoding="base64", data="@@@@")), "not valid base64"),
    "zstd": (_mutate(lambda d: _terrain(d).update(encoding="base64", compression="zstd", data="")), "'zstd' is not"),
    "zlib bomb": (_bomb(zlib.compress), "inflates to more than the 392 bytes"),
    "gzip bomb": (_bomb(gzip.compress), "inflates to more than the 392 bytes"),
    "corrupt zlib": (
        _mutate(
            lambda d: _terrain(d).update(
                encoding="base64", compression="zlib", data=base64.b64encode(b"xx" * 50).decode()
            )
        ),
        "corrupt",
    ),
    "object x is text": (
        _mutate(lambda d: d["layers"][0]["layers"][1]["objects"][0].update(x="9")),
        "object 1 'D1' in layer 'deck/doors' ($.layers[0].layers[1].objects[0].x): expected float",
    ),
    "object far away": (
        _mutate(lambda d: d["layers"][0]["layers"][1]["objects"][0].update(x=1e9)),
        "object 1 'D1' in layer 'deck/doors' ($.layers[0].layers[1].objects[0]): its centre lies far outside the map",
    ),
    "object x and width overflow": (
        _mutate(lambda d: d["layers"][0]["layers"][1]["objects"][0].update(x=1.7e308, width=1.7e308)),
        "object 1 'D1' in layer 'deck/doors' ($.layers[0].layers[1].objects[0]): its centre lies far outside the map",
    ),
    "object one square out": (
        _mutate(lambda d: d["layers"][0]["layers"][1]["objects"][0].update(x=-32)),
        "object 1 'D1' in layer 'deck/doors' ($.layers[0].layers[1].objects[0]): square (-1,3) is outside the map",
    ),
    "property value list": (
        _mutate(lambda d: d["properties"].append({"name": "z", "value": [1]})),
        "property 'z' has a value of type list",
    ),
    "victory not json": (
        _mutate(lambda d: next(p for p in d["properties"] if p["name"] == "victory").update(value="{oops")),
        "map property 'victory' ($.properties.victory): not valid JSON",
    ),
    "schema breaks": (
        _mutate(lambda d: d["layers"][0]["layers"][1]["objects"][0].update(name="a door!")),
        "object 1 'a door!' in layer 'deck/doors' ($.layers[0].layers[1].objects[0]): the map does not make a "
        "valid mission: id: ",
    ),
    "too many objects": (
        _mutate(lambda d: d["layers"][0]["layers"][1].update(objects=[{"id": i, "x": 0, "y": 0} for i in range(6000)])),
        "more than 5000 objects",
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_import_is_refused(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    content, expected = CASES[name]
    src = tmp_path / "evil.tmj"
    src.write_text(content if isinstance(content, str) else json.dumps(content))
    out = tmp_path / "out.json"
    assert main(["import", str(src), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0, err
    assert str(src) in err and expected in err, err
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["evil.tmj"]


def test_huge_file_is_refused_before_reading(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "huge.tmj"
    with src.open("wb") as fh:
        fh.truncate(64 * 1024 * 1024)  # sparse: costs no disk, but stat reports 64 MB
    assert main(["import", str(src), "-o", str(tmp_path / "o.json")]) == 2
    assert "more than the" in capsys.readouterr().err
    assert not (tmp_path / "o.json").exists()


def test_missing_and_directory_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", str(tmp_path / "nope.tmj"), "-o", str(tmp_path / "o.json")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["import", str(tmp_path), "-o", str(tmp_path / "o.json")]) == 2
    assert "is a directory" in capsys.readouterr().err
    assert not (tmp_path / "o.json").exists()


def test_a_good_import_writes_the_mission(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "t.tmj"
    src.write_text(json.dumps(_good()))
    out = tmp_path / "t.json"
    assert main(["import", str(src), "-o", str(out)]) == 0
    assert out.read_text() == sample_mission("tutorial").read_text()
    assert os.stat(out).st_size > 0


def test_random_corruptions_never_escape_as_crashes(tmp_path: Path) -> None:
    """Seeded mutations of a good map (wrong types, missing keys): each imports or fails with the one-line error."""
    import copy
    import random

    from engine.export.tiled_import import import_tiled
    from engine.mission import MissionFileError

    base = build_tmj(load_mission(sample_mission("the_long_drop")), "t.png")
    values: list[Any] = [None, True, 0, -1, 2**40, 1.5, 1e308, "", "x", "#", [], {}, [1], {"a": 1}, 999]

    def paths(o: Any, p: tuple[Any, ...] = ()) -> Any:
        yield p
        items = o.items() if isinstance(o, dict) else enumerate(o[:30]) if isinstance(o, list) else []
        for k, v in items:
            yield from paths(v, (*p, k))

    every = [p for p in paths(base) if p]
    rng = random.Random(20261121)
    src = tmp_path / "m.tmj"
    failures = 0
    for _ in range(250):
        doc = copy.deepcopy(base)
        for _ in range(rng.randint(1, 3)):
            path = rng.choice(every)
            try:
                target = doc
                for k in path[:-1]:
                    target = target[k]
                target[path[-1]] = rng.choice(values)
            except (KeyError, IndexError, TypeError):
                pass
        src.write_text(json.dumps(doc))
        try:
            import_tiled(src)
        except MissionFileError as exc:
            failures += 1
            assert str(src) in str(exc) and "\n" not in str(exc)
    assert failures > 100  # most corruptions must be caught, not silently accepted
