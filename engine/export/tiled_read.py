"""Defensive reading of a Tiled JSON map: size limits, typed field access, and layer data without bombs."""

from __future__ import annotations

import base64
import binascii
import math
import os
import zlib
from typing import Any, TypeVar

from engine.mission.io import MissionFileError, parse_json_object, read_limited, short_repr

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_NESTING = 24
MAX_DIM = 200  # the mission format's own limit on a level's width and height
MAX_TILE_PX = 1024
MAX_LAYERS = 400
MAX_OBJECTS = 5000
MAX_PROPERTIES = 200
# Tiled keeps flip and rotation flags in the top four bits of a gid; the tile is the rest.
GID_MASK = 0x0FFFFFFF
MAX_WHOLE_FLOAT = 2**53  # whole numbers past this are not exact as floats; no pixel position comes near it

T = TypeVar("T")
Json = dict[str, Any]


class TiledImportError(MissionFileError):
    """A Tiled map that cannot become a mission; the message names the file and the place in it."""


def read_tmj(path: str | os.PathLike[str]) -> Json:
    """Read and parse a .tmj file, rejecting what is too big, too deep or not a JSON object."""
    data = read_limited(path, what="Tiled map", error=TiledImportError, max_bytes=MAX_FILE_BYTES)
    return parse_json_object(
        data,
        str(path),
        what="Tiled map",
        error=TiledImportError,
        max_bytes=MAX_FILE_BYTES,
        max_nesting=MAX_NESTING,
        utf8_hint="; is this a .tmx? export as JSON",
        xml_hint=" (a .tmx file? save the map as JSON, .tmj)",
    )


class Reader:
    """Typed access to the parsed map that raises TiledImportError naming the file, the Tiled layer or object as
    Tiled shows it, and the JSON path."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._labels: dict[str, str] = {}

    def label(self, place: str, name: str) -> None:
        """Call the element at JSON path place name in messages (e.g. "object 12 'sgt' in layer 'deck/deployment'")."""
        self._labels[place] = name

    def name(self, place: str) -> str:
        """What the element at JSON path place is called in messages, or the path when it has no name."""
        return self._labels.get(place, place)

    def where(self, place: str) -> str:
        """place as a reader finds it in Tiled: the named element holding it, then the exact JSON path."""
        at = place
        while at:
            name = self._labels.get(at)
            if name is not None:
                return f"{name} ({place})"
            cut = max(at.rfind("."), at.rfind("["))
            at = at[:cut] if cut > 0 else ""
        return place

    def fail(self, place: str, message: str) -> TiledImportError:
        return TiledImportError(self.source, f"{self.where(place)}: {message}")

    def get(self, obj: Json, key: str, kind: type[T], place: str, default: T | None = None) -> T:
        """obj[key] checked to be of kind (bool is not an int here); default when absent and one is given."""
        if key not in obj:
            if default is not None:
                return default
            raise self.fail(place, f"missing {key!r}")
        value = obj[key]
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            if abs(value) > MAX_WHOLE_FLOAT:  # float() of an integer of 309 digits or more overflows
                raise self.fail(f"{place}.{key}", f"{short_repr(value)} is beyond any number a map holds")
            value, ok = float(value), True
        if not ok:
            raise self.fail(f"{place}.{key}", f"expected {kind.__name__}, found {type(value).__name__}")
        if isinstance(value, float) and not math.isfinite(value):
            raise self.fail(f"{place}.{key}", "not a finite number")
        return value  # type: ignore[no-any-return]

    def int_in(self, obj: Json, key: str, lo: int, hi: int, place: str, default: int | None = None) -> int:
        value = self.get(obj, key, int, place, default)
        if not lo <= value <= hi:
            raise self.fail(f"{place}.{key}", f"{value} is outside {lo}..{hi}")
        return value

    def properties(self, obj: Json, place: str) -> dict[str, object]:
        """A layer's or object's custom properties as {name: value}."""
        raw = self.get(obj, "properties", list, place, [])
        if len(raw) > MAX_PROPERTIES:
            raise self.fail(f"{place}.properties", f"{len(raw)} properties, more than {MAX_PROPERTIES}")
        out: dict[str, object] = {}
        for i, p in enumerate(raw):
            at = f"{place}.properties[{i}]"
            if not isinstance(p, dict):
                raise self.fail(at, "a property is an object with name, type and value")
            name = self.get(p, "name", str, at)
            if p.get("type") == "class":
                continue  # Tiled 1.9+ custom-class values are objects; none of ours are, so they are not ours
            value = p.get("value")
            if not isinstance(value, (str, int, float, bool)) or (
                isinstance(value, float) and not math.isfinite(value)
            ):
                raise self.fail(f"{at}.value", f"property {name!r} has a value of type {type(value).__name__}")
            out[name] = value
        return out

    def layer_data(self, layer: Json, width: int, height: int, place: str) -> list[int]:
        """The gids of a tile layer, from a JSON array or base64 with optional zlib/gzip, bounded in size."""
        count = width * height
        data = layer.get("data")
        encoding = layer.get("encoding", "csv")
        if isinstance(data, list):
            if len(data) != count:
                raise self.fail(f"{place}.data", f"{len(data)} tiles, the layer is {width}x{height} = {count}")
            for i, g in enumerate(data):
                if not isinstance(g, int) or isinstance(g, bool) or not 0 <= g <= 0xFFFFFFFF:
                    raise self.fail(f"{place}.data[{i}]", f"{g!r} is not a tile gid")
            return [g & GID_MASK for g in data]
        if not isinstance(data, str) or encoding != "base64":
            raise self.fail(f"{place}.data", "expected an array of gids or a base64 string with encoding 'base64'")
        if len(data) > 4 * MAX_FILE_BYTES // 3 + 4:
            raise self.fail(f"{place}.data", "layer data is too long")
        try:
            raw = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raise self.fail(f"{place}.data", "not valid base64") from None
        expected = count * 4
        compression = layer.get("compression", "")
        if compression in ("zlib", "gzip"):
            raw = self._inflate(raw, expected, 15 if compression == "zlib" else 31, f"{place}.data")
        elif compression != "":
            raise self.fail(f"{place}.compression", f"{compression!r} is not supported (use zlib, gzip or none)")
        if len(raw) != expected:
            raise self.fail(f"{place}.data", f"{len(raw)} bytes of tiles, the layer needs {expected}")
        return [int.from_bytes(raw[i : i + 4], "little") & GID_MASK for i in range(0, expected, 4)]

    def _inflate(self, raw: bytes, expected: int, wbits: int, place: str) -> bytes:
        # Inflate at most one byte more than a layer of this size can hold: a bomb stops here, not in memory.
        d = zlib.decompressobj(wbits)
        try:
            out = d.decompress(raw, expected + 1)
        except zlib.error as exc:
            raise self.fail(place, f"compressed data is corrupt ({exc})") from None
        if len(out) > expected or d.unconsumed_tail:
            raise self.fail(place, f"compressed data inflates to more than the {expected} bytes of a layer")
        return out
