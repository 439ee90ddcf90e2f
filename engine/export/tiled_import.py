"""Import a Tiled JSON map (.tmj) as a mission: our own exports exactly, hand-drawn maps by convention."""

from __future__ import annotations

import difflib
import json
import math
import os
import re
from collections.abc import Iterable, Set
from pathlib import Path
from typing import Any

from engine.export import tiled_names as N
from engine.export.tiled_features import Features, LevelLayers, TiledObject
from engine.export.tiled_read import (
    MAX_DIM,
    MAX_LAYERS,
    MAX_OBJECTS,
    MAX_TILE_PX,
    Json,
    Reader,
    read_tmj,
)
from engine.mission import Issue, Mission, mission_from_dict, strict_json, validate_document
from engine.mission.io import MAX_NESTING as MISSION_MAX_NESTING
from engine.mission.io import check_mission_text, nesting_depth
from engine.mission.issues import json_path
from engine.mission.kinds import KINDS
from engine.mission.model import UNSECTIONED, WALL
from engine.mission.schema_check import path_key, schema_errors

_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_TERRAIN = re.compile(r"^[#.A-Za-z0-9]$")


def import_tiled(path: str | os.PathLike[str], warnings: list[str] | None = None) -> tuple[Mission, list[Issue]]:
    """Read a .tmj map into a mission and its validation issues; raises TiledImportError when it cannot.

    warnings, when given, receives what the map holds that the import does not use (layers and custom properties
    it does not know) or reads against another part of the map (a facing property against the rotation), each
    naming the Tiled layer or object."""
    tmj = read_tmj(path)
    importer = _Importer(str(path), tmj)
    doc = importer.document(Path(path).stem)
    # What the mission reader refuses (control characters in a name or title), refused here too: otherwise the
    # import would write a mission that cannot be opened again.
    try:
        check_mission_text(doc)
    except strict_json.JSONContentError as exc:
        origin, field = importer.origin_of(exc.path)
        what = f"{field}: " if field else ""
        raise importer.r.fail(origin, f"{what}{exc.message}") from None
    # The schema's own words, placed by the Tiled layer or object they came from: the mission's object names
    # and paths mean nothing to someone editing the map in Tiled.
    schema = sorted(((json_path(parts), text) for parts, text in schema_errors(doc)), key=lambda e: path_key(e[0]))
    if schema:
        path_, text = schema[0]
        origin, field = importer.origin_of(path_)
        what = f"{field}: " if field else ""
        raise importer.r.fail(origin, f"the map does not make a valid mission: {what}{text}")
    issues = validate_document(doc)
    if warnings is not None:
        warnings += importer.warnings + importer.unused_properties()
    return mission_from_dict(doc), issues


# Custom properties the convention gives a meaning to (docs/tiled-convention.md), by where they stand.
_MAP_PROPS = frozenset({"format", *N.META_KEYS, "ruleset", "psi_points", *N.JSON_PROPS})
_GROUP_PROPS = frozenset({"depth", "level_name", "sections"})
_TILE_PROPS = frozenset({"char", "wall"})
_OBJECT_PROPS = {
    **{N.layer_of(k): set(N.object_fields(k)) for k in KINDS},  # (as tiled._generic writes them)
    N.DOORS: {"state", "kind"},
    N.OBJECTIVES: {"title", "kind"},
    N.LADDERS: {"end", "partner"},
    N.DEPLOYMENT: {"rank", "facing", "title", "ranged", "melee", "storm_shield"},
}
# Where a part of the mission document came from in the map, when it is no feature (JSON paths of the map).
_DOC_ORIGINS = {
    "$.meta.title": "$.properties.title",
    "$.meta.author": "$.properties.author",
    "$.meta.description": "$.properties.description",
    "$.meta.source": "$.properties.source",
    "$.ruleset": "$.properties.ruleset",
    "$.marines.psi_points": "$.properties.psi_points",
    **{f"$.{k}": f"$.properties.{k}" for k in N.JSON_PROPS},
}


class _Importer:
    def __init__(self, source: str, tmj: Json) -> None:
        self.r = Reader(source)
        self.tmj = tmj
        self.layer_count = 0
        self.object_count = 0
        self.origins: dict[str, str] = dict(_DOC_ORIGINS)  # mission document path -> map JSON path
        self.unused: dict[tuple[str, str], int] = {}  # (where, property name) -> how many times
        self.warnings: list[str] = []  # what the map holds that the import read otherwise or not at all
        self.known: dict[str, Set[str]] = {}  # where -> the property names the convention gives a meaning there

    def _note_unused(self, props: dict[str, object], known: Set[str], where: str) -> None:
        self.known[where] = known
        for name in props:
            if name not in known:
                self.unused[(where, name)] = self.unused.get((where, name), 0) + 1

    def unused_properties(self) -> list[str]:
        """One line per custom property the import ignored, naming where it stands in the map."""
        out = []
        for (where, name), n in self.unused.items():
            times = f" ({n} times)" if n > 1 else ""
            hint = _did_you_mean(name, self.known.get(where, frozenset()))
            out.append(f"{where}: custom property {name!r} is not used by hulkforge{hint}{times}")
        return out

    def _unread_layer(self, name: str, kind: str, layer: Json, terrain_is: str | None) -> None:
        """Warn about a layer the import passes over, with what it holds, so no object goes missing unseen."""
        what = {"objectgroup": "object layer", "tilelayer": "tile layer", "group": "group layer"}.get(kind, kind)
        objects = layer.get("objects")
        count = len(objects) if kind == "objectgroup" and isinstance(objects, list) else 0
        if kind == "objectgroup":
            hint = _did_you_mean(name.rsplit("/", 1)[-1], N.OBJECT_LAYERS + N.LATER_LAYERS)
            held = f"its {count} object{'s' if count != 1 else ''} {'are' if count != 1 else 'is'} not imported"
            if count == 0:
                held = "it is empty"
            self.warnings.append(f"{what} '{name}' is not one hulkforge reads{hint}: {held}")
        elif kind == "tilelayer" and terrain_is is not None:
            self.warnings.append(f"{what} '{name}' is not read: the level's terrain is layer '{terrain_is}'")
        else:
            self.warnings.append(f"{what} '{name}' is not read by hulkforge")

    def origin_of(self, doc_path: str) -> tuple[str, str]:
        """(the map's JSON path that made doc_path, what inside it) for naming a schema error in Tiled's terms."""
        at = doc_path
        while at:
            if at in self.origins:
                return self.origins[at], doc_path[len(at) :].lstrip(".")
            cut = max(at.rfind("."), at.rfind("["))
            at = at[:cut] if cut > 0 else ""
        return "$", doc_path

    def document(self, stem: str) -> Json:
        r, m = self.r, self.tmj
        if m.get("type", "map") != "map":
            raise r.fail("$.type", f"{m.get('type')!r}: not a Tiled map")
        orientation = r.get(m, "orientation", str, "$")
        if orientation != "orthogonal":
            raise r.fail("$.orientation", f"{orientation!r}: only orthogonal maps have square grids")
        if r.get(m, "infinite", bool, "$", False):
            raise r.fail("$.infinite", "infinite maps are not supported (Map > Map Properties > Infinite off)")
        self.width = r.int_in(m, "width", 1, MAX_DIM, "$")
        self.height = r.int_in(m, "height", 1, MAX_DIM, "$")
        self.tw = r.int_in(m, "tilewidth", 1, MAX_TILE_PX, "$")
        self.th = r.int_in(m, "tileheight", 1, MAX_TILE_PX, "$")
        self.chars = self._tile_chars()
        levels = self._levels()
        props = r.properties(m, "$")
        for key in props:
            r.label(f"$.properties.{key}", f"map property {key!r}")
        self._note_unused(props, _MAP_PROPS, "map properties")
        return self._assemble(levels, props, stem)

    # -- tiles -------------------------------------------------------------------------------------
    def _tile_chars(self) -> list[tuple[int, int, dict[int, str]]]:
        """(firstgid, tile count, {local id: terrain char}) per tileset, highest firstgid first."""
        r = self.r
        out: list[tuple[int, int, dict[int, str]]] = []
        sets = r.get(self.tmj, "tilesets", list, "$", [])
        if len(sets) > 64:
            raise r.fail("$.tilesets", f"{len(sets)} tilesets, more than 64")
        for i, ts in enumerate(sets):
            at = f"$.tilesets[{i}]"
            if not isinstance(ts, dict):
                raise r.fail(at, "a tileset is an object")
            ts_name = ts.get("name") if isinstance(ts.get("name"), str) else str(i + 1)
            r.label(at, f"tileset {ts_name!r}")
            first = r.int_in(ts, "firstgid", 1, 0x0FFFFFFF, at)
            count = r.int_in(ts, "tilecount", 0, 0x0FFFFFFF, at, 0x0FFFFFFF)
            chars: dict[int, str] = {}
            tiles = r.get(ts, "tiles", list, at, [])
            if len(tiles) > 65536:
                raise r.fail(f"{at}.tiles", "too many tiles")
            for j, tile in enumerate(tiles):
                tat = f"{at}.tiles[{j}]"
                if not isinstance(tile, dict):
                    raise r.fail(tat, "a tile is an object")
                tid = r.int_in(tile, "id", 0, 0x0FFFFFFF, tat)
                props = r.properties(tile, tat)
                self._note_unused(props, _TILE_PROPS, f"tiles of tileset {ts_name!r}")
                ch = props.get("char")
                if ch is not None:
                    if not isinstance(ch, str) or not _TERRAIN.match(ch):
                        raise r.fail(f"{tat}.properties", f"char {ch!r} is not '#', '.', a letter or a digit")
                    chars[tid] = ch
                elif props.get("wall") is True:
                    chars[tid] = WALL
            # An external tileset (.tsx) is not opened: its tiles count as plain floor.
            out.append((first, count, chars))
        return sorted(out, key=lambda t: -t[0])

    def _char(self, gid: int, place: str) -> str | None:
        if gid == 0:
            return None
        for first, count, chars in self.chars:
            if first <= gid < first + count:
                return chars.get(gid - first, UNSECTIONED)
            if gid >= first:
                break
        raise self.r.fail(place, f"tile gid {gid} belongs to no tileset")

    # -- layers ------------------------------------------------------------------------------------
    def _levels(self) -> list[LevelLayers]:
        r = self.r
        top = r.get(self.tmj, "layers", list, "$")
        groups = [(i, g) for i, g in enumerate(top) if isinstance(g, dict) and g.get("type") == "group"]
        levels: list[LevelLayers] = []
        if groups:
            # Beside level groups, a top-level layer belongs to no level: say so rather than drop it unseen.
            for i, layer in enumerate(top):
                if isinstance(layer, dict) and layer.get("type") != "group":
                    name = layer.get("name") if isinstance(layer.get("name"), str) else str(i + 1)
                    self._unread_layer(str(name), str(layer.get("type")), layer, None)
        if not groups:
            # A single-level map drawn without groups: the top-level layers are that level.
            levels.append(self._level("deck", 0, {}, top, "$.layers", ""))
        for n, (i, g) in enumerate(groups):
            at = f"$.layers[{i}]"
            name = r.get(g, "name", str, at, "")
            r.label(at, f"group layer {name!r}")
            lid = name if _ID.match(name) else re.sub(r"[^A-Za-z0-9_-]", "_", name)[:32] or f"level{n + 1}"
            props = r.properties(g, at)
            self._note_unused(props, _GROUP_PROPS, f"group layer {name!r}")
            if name != lid:
                props.setdefault("level_name", name)
            place = f"{at}.layers"
            levels.append(self._level(lid, n, props, r.get(g, "layers", list, at), place, f"{name}/"))
            self.origins[f"$.levels[{n}]"] = at
        seen: set[str] = set()
        for lv in levels:
            if lv.id in seen:
                raise r.fail(lv.place, f"two levels are named {lv.id!r}")
            seen.add(lv.id)
        if len(levels) > 8:
            raise r.fail("$.layers", f"{len(levels)} levels, a mission has at most 8")
        return levels

    def _level(
        self, lid: str, index: int, props: dict[str, object], layers: list[Any], place: str, group: str
    ) -> LevelLayers:
        r = self.r
        self.layer_count += len(layers)
        if self.layer_count > MAX_LAYERS:
            raise r.fail(place, f"more than {MAX_LAYERS} layers")
        rows: list[str] | None = None
        terrain_name = ""
        objects: dict[str, list[TiledObject]] = {}
        passed_over: list[tuple[str, str, Json]] = []
        for i, layer in enumerate(layers):
            at = f"{place}[{i}]"
            if not isinstance(layer, dict):
                raise r.fail(at, "a layer is an object")
            kind = r.get(layer, "type", str, at)
            name = r.get(layer, "name", str, at, "")
            r.label(at, f"layer '{group}{name}'")
            if kind == "tilelayer" and (name == N.TERRAIN_LAYER or rows is None):
                if rows is not None:  # a first tile layer read as terrain gives way to the one named terrain
                    passed_over.append((terrain_name, kind, {}))
                rows, terrain_name = self._rows(layer, at), name
                self._note_unused(r.properties(layer, at), frozenset(), f"layer '{group}{name}'")
            elif kind == "objectgroup" and name in N.OBJECT_LAYERS + N.LATER_LAYERS:
                objects.setdefault(name, []).extend(self._objects(layer, at, f"{group}{name}", name))
                self._note_unused(r.properties(layer, at), frozenset(), f"layer '{group}{name}'")
            else:
                passed_over.append((name, kind, layer))
        for name, kind, layer in passed_over:
            self._unread_layer(f"{group}{name}", kind, layer, f"{group}{terrain_name}")
        if rows is None:
            raise r.fail(place.removesuffix(".layers"), f"level {lid!r} has no tile layer named {N.TERRAIN_LAYER!r}")
        return LevelLayers(lid, index, place, props, rows, objects)

    def _rows(self, layer: Json, place: str) -> list[str]:
        r = self.r
        w = r.int_in(layer, "width", 1, MAX_DIM, place, self.width)
        h = r.int_in(layer, "height", 1, MAX_DIM, place, self.height)
        gids = r.layer_data(layer, w, h, place)
        rows: list[str] = []
        for y in range(h):
            cells = [self._char(gids[y * w + x], f"{place}.data[{y * w + x}]") for x in range(w)]
            while cells and cells[-1] is None:
                cells.pop()
            rows.append("".join(WALL if c is None else c for c in cells))
        while rows and not rows[-1]:
            rows.pop()
        if not rows:
            raise r.fail(f"{place}.data", "the terrain layer is empty")
        # Empty cells at a row's end are wall too; the level is as wide as its widest row.
        width = max(len(row) for row in rows)
        return [row.ljust(width, WALL) for row in rows]

    def _objects(self, layer: Json, place: str, label: str, kind_of_layer: str) -> list[TiledObject]:
        r = self.r
        raw = r.get(layer, "objects", list, place, [])
        self.object_count += len(raw)
        if self.object_count > MAX_OBJECTS:
            raise r.fail(f"{place}.objects", f"more than {MAX_OBJECTS} objects")
        out: list[TiledObject] = []
        for i, o in enumerate(raw):
            at = f"{place}.objects[{i}]"
            if not isinstance(o, dict):
                raise r.fail(at, "an object is a JSON object")
            oid = r.int_in(o, "id", 0, 0x7FFFFFFF, at)
            name = r.get(o, "name", str, at, "")
            r.label(at, f"object {oid}" + (f" {name!r}" if name else "") + f" in layer '{label}'")
            col, row = self._square(o, at)
            kind = r.get(o, "type", str, at, "") or r.get(o, "class", str, at, "")
            props = r.properties(o, at)
            self._note_unused(props, _OBJECT_PROPS[kind_of_layer], f"objects in layer '{label}'")
            out.append(TiledObject(oid, name, kind, col, row, r.get(o, "rotation", float, at, 0.0), props, at))
        return out

    def _square(self, o: Json, at: str) -> tuple[int, int]:
        """The square under the object's centre, found the way Tiled draws it (rotated about its x, y)."""
        r = self.r
        x, y = r.get(o, "x", float, at), r.get(o, "y", float, at)
        w, h = r.get(o, "width", float, at, 0.0), r.get(o, "height", float, at, 0.0)
        turn = math.radians(r.get(o, "rotation", float, at, 0.0))
        points = o.get("polygon") or o.get("polyline")
        if o.get("point") is True:
            dx, dy = 0.0, 0.0
        elif isinstance(points, list) and points:
            corners = [(r.get(p, "x", float, at), r.get(p, "y", float, at)) for p in points if isinstance(p, dict)]
            xs, ys = [c[0] for c in corners] or [0.0], [c[1] for c in corners] or [0.0]
            dx, dy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
        elif "gid" in o:
            dx, dy = w / 2, -h / 2  # a tile object stands on its bottom-left corner
        else:
            dx, dy = w / 2, h / 2  # a rectangle, ellipse or text hangs from its top-left corner
        # Tiled turns an object clockwise (y points down) about (x, y); its centre turns with it.
        cx = x + dx * math.cos(turn) - dy * math.sin(turn)
        cy = y + dx * math.sin(turn) + dy * math.cos(turn)
        limit = MAX_DIM * max(self.tw, self.th)
        if not (math.isfinite(cx) and math.isfinite(cy) and -limit <= cx <= 2 * limit and -limit <= cy <= 2 * limit):
            raise r.fail(at, "its centre lies far outside the map (check its x, y, width and height)")
        col, row = math.floor(cx / self.tw), math.floor(cy / self.th)
        if not (0 <= col < MAX_DIM and 0 <= row < MAX_DIM):
            raise r.fail(at, f"square ({col},{row}) is outside the map")
        return col, row

    # -- the mission document ----------------------------------------------------------------------
    def _json(self, props: dict[str, object], key: str, default: Any) -> Any:
        if key not in props:
            return default
        text = props[key]
        if not isinstance(text, str):
            raise self.r.fail(f"$.properties.{key}", "expected JSON text")
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            raise self.r.fail(f"$.properties.{key}", "not valid JSON text") from None
        if nesting_depth(value) > MISSION_MAX_NESTING:
            raise self.r.fail(f"$.properties.{key}", "nested too deep")
        return value

    def _assemble(self, levels: list[LevelLayers], props: dict[str, object], stem: str) -> Json:
        meta = {k: props[k] for k in N.META_KEYS if isinstance(props.get(k), str) and props[k]}
        meta.setdefault("title", stem[:120] or "Imported map")
        doc: Json = {"format": "hulkforge-mission", "version": 1, "meta": meta}
        doc["ruleset"] = props.get("ruleset", "4e")
        doc["options"] = self._json(props, "options", {})
        doc["levels"] = [self._level_doc(lv) for lv in levels]
        feats = Features(self.r, levels, self.width, self.height)
        doc.update(feats.collect())
        rs = self._json(props, "random_setup", None)
        if rs is not None:
            doc["random_setup"] = rs
        psi = props.get("psi_points", 20)
        doc["marines"] = {"squad": feats.marines(), "psi_points": psi}
        self.origins.update(feats.origins)
        self.warnings += feats.warnings
        doc["genestealers"] = self._json(props, "genestealers", {"reinforcements": []})
        doc["victory"] = self._json(props, "victory", [{"kind": "marines_eliminated"}])
        return doc

    def _level_doc(self, lv: LevelLayers) -> Json:
        depth = lv.props.get("depth", lv.index)
        sections = self._json(lv.props, "sections", None) if "sections" in lv.props else None
        if sections is None:
            sections = _guess_sections(lv.rows)
        name = lv.props.get("level_name", "")
        return {"id": lv.id, "name": name, "depth": depth, "rows": lv.rows, "sections": sections}


def _did_you_mean(name: str, known: Iterable[str]) -> str:
    """' (did you mean 'doors'?)' when name looks like a misspelling of a known name, else ''."""
    close = difflib.get_close_matches(name.lower(), sorted(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _guess_sections(rows: list[str]) -> dict[str, dict[str, str]]:
    """Declare every section code a hand-drawn map uses: a room if its squares span 2+ rows and columns."""
    spans: dict[str, tuple[set[int], set[int]]] = {}
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if c not in (WALL, UNSECTIONED):
                xs, ys = spans.setdefault(c, (set(), set()))
                xs.add(x)
                ys.add(y)
    return {
        c: {"name": "", "kind": "room" if len(xs) > 1 and len(ys) > 1 else "corridor"}
        for c, (xs, ys) in sorted(spans.items())
    }
