"""Tiled export and import: exact round trips, the real Tiled reading our maps, hand-drawn maps by convention."""

from __future__ import annotations

import base64
import gzip
import json
import os
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path
from typing import Any

import pytest

from engine.export.png import png_size
from engine.export.tiled import build_tmj, export_tiled
from engine.export.tiled_import import import_tiled
from engine.export.tileset import terrain_chars, tile_colour
from engine.mission import has_errors, load_mission, mission_to_dict
from engine.resources import sample_missions

SAMPLES = sample_missions()
TILED = shutil.which("tiled")


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.stem)
def test_export_then_import_is_identical(sample: Path, tmp_path: Path) -> None:
    m = load_mission(sample)
    report = export_tiled(m, tmp_path / "map.tmj")
    assert [p.name for p in report.files] == ["map.tmj", "map-terrain.png"]
    back, issues = import_tiled(tmp_path / "map.tmj")
    assert mission_to_dict(back) == mission_to_dict(m)
    assert not has_errors(issues)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.stem)
def test_map_structure(sample: Path, tmp_path: Path) -> None:
    m = load_mission(sample)
    export_tiled(m, tmp_path / "map.tmj")
    tmj = json.loads((tmp_path / "map.tmj").read_text())
    assert [g["name"] for g in tmj["layers"]] == [lv.id for lv in m.levels]
    assert all(g["type"] == "group" for g in tmj["layers"])
    first = tmj["layers"][0]["layers"]
    assert first[0]["type"] == "tilelayer" and first[0]["name"] == "terrain"
    assert {lay["name"] for lay in first[1:]} >= {"doors", "entry_areas", "ladders", "deployment", "chutes"}
    ts = tmj["tilesets"][0]
    assert "source" not in ts  # embedded, not an external .tsx
    assert png_size((tmp_path / ts["image"]).read_bytes()) == (ts["imagewidth"], ts["imageheight"])
    assert ts["imagewidth"] == ts["tilewidth"] * ts["tilecount"]
    ids = [o["id"] for g in tmj["layers"] for lay in g["layers"] for o in lay.get("objects", [])]
    assert len(ids) == len(set(ids)) and tmj["nextobjectid"] > max(ids)


def test_ladder_ends_point_at_each_other(tmp_path: Path) -> None:
    m = load_mission(next(p for p in SAMPLES if p.stem == "the_long_drop"))
    tmj = build_tmj(m, "x.png")
    ends = {
        o["id"]: o for g in tmj["layers"] for lay in g["layers"] if lay["name"] == "ladders" for o in lay["objects"]
    }
    assert len(ends) == 2 * len(m.ladders)
    for oid, o in ends.items():
        partner = next(p["value"] for p in o["properties"] if p["name"] == "partner")
        assert next(p["value"] for p in ends[partner]["properties"] if p["name"] == "partner") == oid
        assert ends[partner]["name"] == o["name"]


def _tiled(*args: str, cwd: Path) -> None:
    env = {"QT_QPA_PLATFORM": "offscreen", "XDG_RUNTIME_DIR": "/tmp", "HOME": str(cwd), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([str(TILED), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(TILED is None, reason="the `tiled` binary is not installed (Debian package `tiled`)")
def test_real_tiled_reads_every_sample_and_writes_it_back(tmp_path: Path) -> None:
    """Tiled converts each export to TMX and back to JSON; our importer reads Tiled's own output identically."""
    for sample in SAMPLES:
        m = load_mission(sample)
        export_tiled(m, tmp_path / f"{sample.stem}.tmj")
        _tiled("--export-map", "tmx", f"{sample.stem}.tmj", f"{sample.stem}.tmx", cwd=tmp_path)
        tmx = (tmp_path / f"{sample.stem}.tmx").read_text()
        assert f'<image source="{sample.stem}-terrain.png"' in tmx
        assert tmx.count("<group ") == len(m.levels)
        _tiled("--export-map", "json", f"{sample.stem}.tmx", f"{sample.stem}.tiled.tmj", cwd=tmp_path)
        back, _ = import_tiled(tmp_path / f"{sample.stem}.tiled.tmj")
        assert mission_to_dict(back) == mission_to_dict(m), sample.stem


@pytest.mark.skipif(TILED is None or shutil.which("tmxrasterizer") is None, reason="the Debian package `tiled`")
def test_tiled_draws_every_level_of_every_sample_square_for_square(tmp_path: Path) -> None:
    """Each level of each sample, converted to TMX by Tiled and drawn by tmxrasterizer: every square shows the
    tileset colour of its terrain character (wall, floor, its section)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QColor, QImage

    checked = 0
    for sample in SAMPLES:
        m = load_mission(sample)
        export_tiled(m, tmp_path / f"{sample.stem}.tmj")
        _tiled("--export-map", "tmx", f"{sample.stem}.tmj", f"{sample.stem}.tmx", cwd=tmp_path)
        chars = terrain_chars(m)
        for lv in m.levels:
            tree = ET.parse(tmp_path / f"{sample.stem}.tmx")
            for group in tree.getroot().iter("group"):
                group.set("visible", "1" if group.get("name") == lv.id else "0")
            tree.write(tmp_path / "one.tmx", encoding="UTF-8", xml_declaration=True)
            _rasterize("-t", "16", "--no-smoothing", "--show-layer", "terrain", "one.tmx", "one.png", cwd=tmp_path)
            image = QImage(str(tmp_path / "one.png"))
            for y, row in enumerate(lv.rows):
                for x, ch in enumerate(row):
                    want = QColor(tile_colour(ch, chars.index(ch))).rgb()
                    assert image.pixel(x * 16 + 8, y * 16 + 8) == want, f"{sample.stem}/{lv.id} at {x},{y}"
                    checked += 1
    assert checked == sum(len(row) for p in SAMPLES for lv in load_mission(p).levels for row in lv.rows)


def _rasterize(*args: str, cwd: Path) -> None:
    env = {"QT_QPA_PLATFORM": "offscreen", "XDG_RUNTIME_DIR": "/tmp", "HOME": str(cwd), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(["tmxrasterizer", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def _hand_drawn(data: Any, **layer: Any) -> dict[str, Any]:
    """A map as someone would draw it in Tiled: one tileset without our properties, typed objects."""
    terrain = {"type": "tilelayer", "name": "terrain", "width": 6, "height": 4, "data": data, **layer}

    def obj(oid: int, name: str, kind: str, x: int, y: int, **props: Any) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": oid,
            "name": name,
            "type": kind,
            "x": x * 16,
            "y": y * 16,
            "width": 16,
            "height": 16,
        }
        if props:
            out["properties"] = [{"name": k, "type": "string", "value": v} for k, v in props.items()]
        return out

    return {
        "type": "map",
        "orientation": "orthogonal",
        "width": 6,
        "height": 4,
        "tilewidth": 16,
        "tileheight": 16,
        "infinite": False,
        "tilesets": [
            {
                "firstgid": 1,
                "name": "mine",
                "tilecount": 3,
                "tiles": [
                    {"id": 0, "properties": [{"name": "wall", "type": "bool", "value": True}]},
                    {"id": 2, "properties": [{"name": "char", "type": "string", "value": "a"}]},
                ],
            }
        ],
        "properties": [{"name": "title", "type": "string", "value": "Drawn in Tiled"}],
        "layers": [
            {
                "type": "group",
                "name": "Main deck",
                "layers": [
                    terrain,
                    {"type": "objectgroup", "name": "doors", "objects": [obj(1, "", "door", 3, 1)]},
                    {"type": "objectgroup", "name": "entry_areas", "objects": [obj(2, "E1", "", 4, 1)]},
                    {"type": "objectgroup", "name": "exits", "objects": [obj(3, "", "", 1, 2)]},
                    {
                        "type": "objectgroup",
                        "name": "deployment",
                        "objects": [obj(4, "sarge", "sergeant", 1, 1, facing="E"), obj(5, "", "", 2, 1)],
                    },
                    {"type": "objectgroup", "name": "sketch notes", "objects": [obj(6, "x", "", 0, 0)]},
                ],
            }
        ],
    }


# fmt: off
HAND_GIDS = [
    1, 1, 1, 1, 1, 1,
    1, 2, 2, 2, 3, 0,
    1, 2, 1, 1, 3, 1,
    1, 1, 1, 1, 1, 1,
]
# fmt: on


def _write(tmp_path: Path, doc: dict[str, Any]) -> Path:
    p = tmp_path / "drawn.tmj"
    p.write_text(json.dumps(doc))
    return p


def test_hand_drawn_map_follows_the_convention(tmp_path: Path) -> None:
    m, _ = import_tiled(_write(tmp_path, _hand_drawn(HAND_GIDS)))
    lv = m.levels[0]
    assert (lv.id, lv.name, lv.depth) == ("Main_deck", "Main deck", 0)
    assert lv.rows == ["######", "#...a#", "#.##a#", "######"]  # the empty cell (gid 0) is wall
    assert set(lv.sections) == {"a"} and lv.sections["a"].kind == "corridor"
    assert [(d.id, d.x, d.y, d.kind) for d in m.doors] == [("D1", 3, 1, "door")]
    assert [(e.id, e.side) for e in m.entry_areas] == [("E1", "E")]  # side from the nearest edge
    assert [(x.x, x.y, x.side) for x in m.exits] == [(1, 2, "W")]
    assert [(s.id, s.rank, s.facing) for s in m.marines.squad] == [("sarge", "sergeant", "E"), ("m5", "marine", "N")]
    assert m.meta.title == "Drawn in Tiled"


@pytest.mark.parametrize("compression", ["", "zlib", "gzip"])
def test_base64_layer_data_is_read(tmp_path: Path, compression: str) -> None:
    raw = struct.pack(f"<{len(HAND_GIDS)}I", *HAND_GIDS)
    packed = {"": raw, "zlib": zlib.compress(raw), "gzip": gzip.compress(raw)}[compression]
    doc = _hand_drawn(base64.b64encode(packed).decode(), encoding="base64", compression=compression)
    m, _ = import_tiled(_write(tmp_path, doc))
    assert m.levels[0].rows[1] == "#...a#"


def test_flip_flags_do_not_change_the_tile(tmp_path: Path) -> None:
    gids = [g | 0x80000000 if g else 0 for g in HAND_GIDS]
    m, _ = import_tiled(_write(tmp_path, _hand_drawn(gids)))
    assert m.levels[0].rows[1] == "#...a#"


RASTERIZER = shutil.which("tmxrasterizer")


@pytest.mark.skipif(RASTERIZER is None, reason="tmxrasterizer (Debian package `tiled`) is not installed")
def test_tiled_renders_the_map_with_our_tileset(tmp_path: Path) -> None:
    m = load_mission(next(p for p in SAMPLES if p.stem == "recover_the_relic"))
    export_tiled(m, tmp_path / "relic.tmj")
    env = {"QT_QPA_PLATFORM": "offscreen", "XDG_RUNTIME_DIR": "/tmp", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [str(RASTERIZER), "-t", "8", "relic.tmj", "relic.png"], cwd=tmp_path, env=env, capture_output=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert png_size((tmp_path / "relic.png").read_bytes()) == (m.levels[0].width * 8, m.levels[0].height * 8)
