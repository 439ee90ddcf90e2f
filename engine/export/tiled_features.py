"""Turning the objects of a Tiled map's level groups into the mission's feature lists."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.export import tiled_names as N
from engine.export.tiled_read import Json, Reader
from engine.mission.codec import ALWAYS_WRITTEN
from engine.mission.kinds import KINDS, Kind
from engine.mission.model import FACINGS

_RANKS = ("marine", "sergeant", "archivist")


@dataclass
class TiledObject:
    """One Tiled object reduced to what the importer needs: its id, name, type, square and properties."""

    oid: int
    name: str
    kind: str
    x: int
    y: int
    rotation: float
    props: dict[str, object]
    place: str


@dataclass
class LevelLayers:
    """A level group of the map: its terrain rows and its objects by layer name."""

    id: str
    index: int
    place: str
    props: dict[str, object]
    rows: list[str]
    objects: dict[str, list[TiledObject]] = field(default_factory=dict)


class Features:
    """Collects the features of every level, each list in object-id order (the order the exporter wrote)."""

    def __init__(self, reader: Reader, levels: list[LevelLayers], width: int, height: int) -> None:
        self.r = reader
        self.levels = levels
        self.width = width
        self.height = height
        self.origins: dict[str, str] = {}  # mission document path of each feature -> its object's map path
        self.warnings: list[str] = []

    def _put(self, out: list[Json], doc_path: str, entry: Json, o: TiledObject) -> None:
        self.origins[f"{doc_path}[{len(out)}]"] = o.place
        out.append(entry)

    def _all(self, layer: str) -> list[tuple[LevelLayers, TiledObject]]:
        found = [(lv, o) for lv in self.levels for o in lv.objects.get(layer, [])]
        return sorted(found, key=lambda t: t[1].oid)

    def _str(self, o: TiledObject, key: str, default: str) -> str:
        v = o.props.get(key, default)
        if not isinstance(v, str):
            raise self.r.fail(o.place, f"property {key!r} must be a string")
        return v or default

    def _side(self, lv: LevelLayers, o: TiledObject) -> str:
        """The side property, or the map edge nearest the square for a hand-drawn map."""
        side = self._str(o, "side", "")
        if side:
            return side
        w = max((len(r) for r in lv.rows), default=self.width)
        h = len(lv.rows)
        gaps = {"W": o.x, "E": w - 1 - o.x, "N": o.y, "S": h - 1 - o.y}
        return min(gaps, key=lambda k: gaps[k])

    def collect(self) -> Json:
        """Every kind's document list but the squad's (marines()), each read by its entry of READERS."""
        lists = {key: read(self) for key, read in READERS.items() if key != "squad"}
        return {key: lst for key, lst in lists.items() if lst or key in ALWAYS_WRITTEN}

    def _doors(self) -> list[Json]:
        out: list[Json] = []
        for lv, o in self._all(N.DOORS):
            kind = o.kind if o.kind in ("door", "bulkhead") else self._str(o, "kind", "door")
            self._put(
                out,
                "$.doors",
                {
                    "id": o.name or f"D{o.oid}",
                    "level": lv.id,
                    "x": o.x,
                    "y": o.y,
                    "kind": kind,
                    "state": self._str(o, "state", "closed"),
                },
                o,
            )
        return out

    def _generic(self, kind: Kind) -> list[Json]:
        """A one-square kind written from its declaration (tiled._generic): the ident from the object's name (else
        the kind's prefix and the object id), each other field from the custom property of its name, else the
        model's default; a missing or blank 'side' is the map edge nearest the square."""
        defaults = {f.name: f.default for f in dataclasses.fields(kind.model)
                    if f.default is not dataclasses.MISSING}
        out: list[Json] = []
        for lv, o in self._all(N.layer_of(kind)):
            entry: Json = {kind.ident: o.name or f"{kind.prefix}{o.oid}"} if kind.ident else {}
            entry.update({"level": lv.id, "x": o.x, "y": o.y})
            for name in N.object_fields(kind):
                if o.props.get(name, "") != "":  # (Tiled writes a property left blank as "")
                    entry[name] = o.props[name]
                elif name == "side":
                    entry[name] = self._side(lv, o)
                elif name in defaults:
                    entry[name] = defaults[name]
                else:
                    raise self.r.fail(o.place, f"a {kind.label} needs the custom property {name!r}")
            self._put(out, f"$.{kind.key}", entry, o)
        return out

    def _objectives(self) -> list[Json]:
        out: list[Json] = []
        for lv, o in self._all(N.OBJECTIVES):
            self._put(
                out,
                "$.objectives",
                {
                    "id": o.name or f"O{o.oid}",
                    "level": lv.id,
                    "x": o.x,
                    "y": o.y,
                    "name": self._str(o, "title", ""),
                    "kind": self._str(o, "kind", "object"),
                },
                o,
            )
        return out

    def _pitfalls(self) -> list[Json]:
        out: list[Json] = []
        letters = iter("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for lv, o in self._all(N.PITFALLS):
            letter = o.name.upper() if o.name else next(letters, "Z")
            self._put(out, "$.pitfalls", {"letter": letter, "level": lv.id, "x": o.x, "y": o.y}, o)
        return out

    def _ladders(self) -> list[Json]:
        """Pair ladder ends by their 'partner' object property, else by equal names on different levels."""
        ends = self._all(N.LADDERS)
        by_id = {o.oid: (lv, o) for lv, o in ends}
        used: set[int] = set()
        out: list[Json] = []
        for lv, o in ends:
            if o.oid in used:
                continue
            partner = o.props.get("partner")
            match = by_id.get(partner) if isinstance(partner, int) and partner != o.oid else None
            if match is None:
                match = next(
                    (
                        (plv, p)
                        for plv, p in ends
                        if p.oid not in used and p.oid != o.oid and p.name == o.name and o.name and plv.id != lv.id
                    ),
                    None,
                )
            if match is None or match[1].oid in used:
                raise self.r.fail(
                    o.place,
                    f"ladder {o.name or o.oid!r} has no partner end on another level "
                    "(set its 'partner' object property or give both ends the same name)",
                )
            used.update((o.oid, match[1].oid))
            a, b = (lv, o), match
            end = o.props.get("end")
            depth = {x.id: x.props.get("depth", x.index) for x in self.levels}
            if end == "bottom" or (end is None and _num(depth[b[0].id]) < _num(depth[a[0].id])):
                a, b = b, a
            self._put(
                out,
                "$.ladders",
                {
                    "id": a[1].name or b[1].name or f"L{len(out) + 1}",
                    "top": {"level": a[0].id, "x": a[1].x, "y": a[1].y},
                    "bottom": {"level": b[0].id, "x": b[1].x, "y": b[1].y},
                },
                o,
            )
        return out

    def _lifts(self) -> list[Json]:
        """A lift's entrances are the objects of the lifts layers sharing its name, in object-id order."""
        by_name: dict[str, list[Json]] = {}
        for lv, o in self._all(N.LIFTS):
            if not o.name:
                raise self.r.fail(o.place, "a turbo-lift entrance needs the lift's id as its name")
            entrances = by_name.get(o.name)
            if entrances is None:
                entrances = by_name[o.name] = []
                self.origins[f"$.lifts[{len(by_name) - 1}]"] = o.place
            entrances.append({"level": lv.id, "x": o.x, "y": o.y})
        return [{"id": name, "entrances": entrances} for name, entrances in by_name.items()]

    def _deployment_areas(self) -> list[Json]:
        """An area's squares are the objects of the deployment_areas layers sharing its name, on one level."""
        by_name: dict[str, Json] = {}
        for lv, o in self._all(N.DEPLOYMENT_AREAS):
            if not o.name:
                raise self.r.fail(o.place, "a deployment area square needs the area's id as its name")
            area = by_name.get(o.name)
            if area is None:
                area = by_name[o.name] = {"id": o.name, "level": lv.id, "squares": []}
                self.origins[f"$.deployment_areas[{len(by_name) - 1}]"] = o.place
            elif area["level"] != lv.id:
                raise self.r.fail(o.place, f"deployment area {o.name!r} lies on two levels; an area is on one")
            area["squares"].append([o.x, o.y])
        return list(by_name.values())

    def marines(self) -> list[Json]:
        """The squad from the deployment layers; rank from the 'rank' property or the object's type."""
        squad: list[Json] = []
        for lv, o in self._all(N.DEPLOYMENT):
            rank = self._str(o, "rank", o.kind if o.kind in _RANKS else "marine")
            facing = self._facing(o)
            m: Json = {
                "id": o.name or f"m{o.oid}",
                "rank": rank,
                "level": lv.id,
                "x": o.x,
                "y": o.y,
                "facing": facing,
                "name": self._str(o, "title", ""),
            }
            for key in ("ranged", "melee"):
                if key in o.props:
                    m[key] = self._str(o, key, "")
            if "storm_shield" in o.props:
                m["storm_shield"] = o.props["storm_shield"]
            self._put(squad, "$.marines.squad", m, o)
        return squad

    def _facing(self, o: TiledObject) -> str:
        """The 'facing' property, else the rotation to the nearest quarter turn (0 N, 90 E, 180 S, 270 W).

        The property wins: it is written on purpose, while a rotation of 0 is merely Tiled's default. A turned
        object whose rotation says otherwise is reported, so neither is lost unseen."""
        turned = FACINGS[round(o.rotation / 90) % 4]
        if "facing" not in o.props:
            return turned
        facing = self._str(o, "facing", "")
        if o.rotation % 360 != 0 and facing != turned:
            self.warnings.append(
                f"{self.r.name(o.place)}: rotation {o.rotation:g} faces {turned} but its 'facing' "
                f"property says {facing!r}; the property wins (delete it to face the way the object is turned)"
            )
        return facing


# The kinds read otherwise than by Features._generic; every other kind Tiled can hold is read from its declaration.
_READ_OTHERWISE: dict[str, Callable[[Features], list[Json]]] = {
    "doors": Features._doors,
    "objectives": Features._objectives,
    "pitfalls": Features._pitfalls,
    "ladders": Features._ladders,
    "lifts": Features._lifts,
    "deployment_areas": Features._deployment_areas,
    "squad": Features.marines,
}


def _reader(kind: Kind) -> Callable[[Features], list[Json]]:
    return _READ_OTHERWISE.get(kind.key) or (lambda f: f._generic(kind))


# Each kind's reader (engine/mission/kinds.py), in the document's order of lists.
READERS: dict[str, Callable[[Features], list[Json]]] = {k.key: _reader(k) for k in KINDS if isinstance(k.tiled, str)}


def _num(v: object) -> float:
    return float(v) if isinstance(v, (int, float)) and math.isfinite(float(v)) else 0.0
