"""A seeded generator of hostile inputs: mission files and Tiled maps that someone else could hand us.

Each input is made from a valid one (the sample missions, the golden passing missions, their Tiled exports) by
one mutation of a known class, so a failure names the class that broke. Same seed, same inputs.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
Json = Any
Path_ = tuple[str | int, ...]


@dataclass(frozen=True)
class Case:
    """One hostile input: a name (its id in the test report), what it is, the bytes, the mutation class."""

    name: str
    kind: str  # "mission", "tiled", "derelict" or "special" (not a regular file: data names what, see SPECIAL_INPUTS)
    data: bytes
    klass: str
    tags: frozenset[str] = field(default_factory=frozenset)
    library: bytes = b""  # a Derelict mission's segment library, written beside it


def _mission_bases() -> list[tuple[str, Json]]:
    out = [(p.stem, json.loads(p.read_text())) for p in sorted((ROOT / "sample_missions").glob("*.json"))]
    for p in sorted((ROOT / "tests" / "golden" / "missions").glob("*/pass.json")):
        out.append((p.parent.name, json.loads(p.read_text())))
    return out


def _tiled_bases() -> list[tuple[str, Json]]:
    from engine.export.tiled import build_tmj
    from engine.mission import mission_from_dict

    return [(name, build_tmj(mission_from_dict(doc), f"{name}-terrain.png")) for name, doc in _mission_bases()[:4]]


# --- walking a document ---------------------------------------------------------------------------------

def _paths(doc: Json, prefix: Path_ = ()) -> Iterator[tuple[Path_, Json]]:
    yield prefix, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*prefix, i))


def _set(doc: Json, path: Path_, value: Json) -> Json:
    if not path:
        return value
    node = doc
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return doc


def _pick(rng: random.Random, doc: Json, want: Callable[[Json], bool]) -> Path_ | None:
    found = [p for p, v in _paths(doc) if p and want(v)]
    return rng.choice(found) if found else None


def _dumps(doc: Json, rng: random.Random) -> bytes:
    ensure_ascii = rng.random() < 0.5
    try:
        return json.dumps(doc, ensure_ascii=ensure_ascii, allow_nan=True).encode("utf-8", "surrogatepass")
    except ValueError:
        return json.dumps(doc, ensure_ascii=True, allow_nan=True).encode()


# --- mutation classes -----------------------------------------------------------------------------------
# Each takes (rng, a fresh copy of a valid document) and returns (bytes, tags).

ODD_TEXT = [
    "\ud800", "deck\udfff", "\x1b[31mred\x1b[0m", "\x00", "a\x00b", "\uffff", "\ufffe", "\U0010ffff", "\u202eevil",
    "\u200b", "e\u0301", "👩\u200d🚀", "\u2028", "\x85", "\x7f", "\t", "\r\n", "\ufeff", "\U000e0001", "\ud83d",
    "A" * 5000, "", " ", "<svg onload=x>", "&amp;&#0;", "]]>", "\\", "'\"", "%s%n", "../../etc/passwd", "第一层",
]


def _malformed(rng: random.Random, doc: Json) -> tuple[bytes, set[str]]:
    text = json.dumps(doc).encode()
    how = rng.choice(["truncate", "flip", "garbage", "bom", "xml", "empty", "latin1", "trailing", "comment"])
    if how == "truncate":
        return text[: rng.randrange(0, len(text))], {how}
    if how == "flip":
        b = bytearray(text)
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b), {how}
    if how == "garbage":
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 400))), {how}
    if how == "bom":
        return rng.choice([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"]) + text, {how}
    if how == "xml":
        return b'<?xml version="1.0"?><map version="1.8"></map>', {how}
    if how == "empty":
        return rng.choice([b"", b"   ", b"\n", b"null", b"[]", b"0", b'"x"', b"true"]), {how}
    if how == "latin1":
        return json.dumps(doc, ensure_ascii=False).replace('"', '"\xe9', 1).encode("latin-1", "replace"), {how}
    if how == "trailing":
        return text + rng.choice([b",", b"}", b" {}", b"\x00", b"garbage"]), {how}
    return b"// a comment\n" + text, {how}


def _wrong_type(rng: random.Random, doc: Json) -> tuple[bytes, set[str]]:
    path = _pick(rng, doc, lambda v: True)
    value = rng.choice(["text", 7, -1, 3.5, True, False, None, [], {}, [1, "a"], {"a": 1}, "9", 0])
    if path is not None:
        _set(doc, path, value)
    return _dumps(doc, rng), {"wrong-type"}


def _huge(rng: random.Random, doc: Json) -> tuple[bytes, set[str]]:
    how = rng.choice(["bigint", "bigfloat", "hugefloat", "longstring", "rows", "features", "file", "negative"])
    if how in ("bigint", "bigfloat", "negative"):
        path = _pick(rng, doc, lambda v: isinstance(v, int) and not isinstance(v, bool))
        literal = {"bigint": "1" + "0" * rng.choice([20, 400, 5000]), "bigfloat": rng.choice(["1.7e308", "1e300"]),
                   "negative": rng.choice(["-1", "-9999999999", "-1.7e308"])}[how]
        marker = "@@HUGE@@"
        if path is not None:
            _set(doc, path, marker)
        return json.dumps(doc).replace(f'"{marker}"', literal).encode(), {how}
    if how == "hugefloat":
        text = json.dumps(doc).replace('"version": 1', f'"version": {rng.choice(["1e999", "-1e999", "1e-999"])}')
        return text.encode(), {how}
    if how == "longstring":
        path = _pick(rng, doc, lambda v: isinstance(v, str))
        if path is not None:
            _set(doc, path, "x" * rng.choice([121, 5000, 300_000]))
        return _dumps(doc, rng), {how}
    if how == "rows" and isinstance(doc.get("levels"), list) and doc["levels"]:
        width = rng.choice([201, 1000])
        doc["levels"][0]["rows"] = ["#" * width] * rng.choice([3, 201])
        return _dumps(doc, rng), {how}
    if how == "features" and isinstance(doc.get("doors"), list) and doc["doors"]:
        doc["doors"] = doc["doors"] * rng.choice([600, 1001])
        return _dumps(doc, rng), {how}
    return b'{"format": "hulkforge-mission", "pad": "' + b"x" * (4 * 1024 * 1024 + 10) + b'"}', {"file"}


def _deep(rng: random.Random, doc: Json) -> tuple[bytes, set[str]]:
    depth = rng.choice([25, 33, 100, 3000, 100_000])
    opener, closer = rng.choice([("[", "]"), ('{"a":', "}")])
    nested = opener * depth + "1" + closer * depth
    path = _pick(rng, doc, lambda v: True)
    marker = "@@DEEP@@"
    if path is not None:
        _set(doc, path, marker)
    return json.dumps(doc).replace(f'"{marker}"', nested).encode(), {"deep"}


def _version(rng: random.Random, doc: Json) -> tuple[bytes, set[str]]:
    how = rng.choice(["version", "format", "missing"])
    if how == "version":
        doc["version"] = rng.choice([0, 2, 99, -1, "1", 1.5, None, [1], True, 2**70])
    elif how == "format":
        doc["format"] = rng.choice(["hulkforge-results", "tiled", "", None, 1, "HULKFORGE-MISSION"])
    else:
        doc.pop(rng.choice(["version", "format"]), None)
    return _dumps(doc, rng), {how}


def _dangling(rng: random.Random, doc: Json) -> tuple[bytes, set[str]]:
    refs = [p for p, v in _paths(doc) if p and p[-1] in ("level", "entry_areas", "via", "section", "objective",
                                                          "exit", "letter", "id") and v is not None]
    if refs:
        path = rng.choice(refs)
        node = doc
        for p in path:
            node = node[p]
        _set(doc, path, ["NOWHERE"] if isinstance(node, list) else rng.choice(["NOWHERE", "Z", "levelX"]))
    else:
        doc.setdefault("doors", []).append({"id": "DX", "level": "missing", "x": 1, "y": 1, "kind": "door",
                                            "state": "closed"})
    return _dumps(doc, rng), {"dangling"}


def _decimals(rng: random.Random, doc: Json) -> tuple[bytes, set[str]]:
    paths = [p for p, v in _paths(doc) if p and isinstance(v, int) and not isinstance(v, bool)]
    marker = "@@NUM@@"
    chosen = rng.sample(paths, min(len(paths), rng.randint(1, 4))) if paths else []
    values = {}
    for i, p in enumerate(chosen):
        node = doc
        for q in p:
            node = node[q]
        values[i] = rng.choice([f"{node}.0", f"{node}.5", f"{node}e0", f"{float(node)!r}", f"{node}.0000001"])
        _set(doc, p, f"{marker}{i}")
    text = json.dumps(doc)
    for i, literal in values.items():
        text = text.replace(f'"{marker}{i}"', literal)
    return text.encode(), {"decimals"}


def _odd_unicode(rng: random.Random, doc: Json) -> tuple[bytes, set[str]]:
    odd = rng.choice(ODD_TEXT)
    if rng.random() < 0.3:
        path = _pick(rng, doc, lambda v: isinstance(v, dict) and bool(v))
        if path is not None:
            node = doc
            for q in path:
                node = node[q]
            key = rng.choice(list(node))
            node[key + odd] = node.pop(key)
            return _dumps(doc, rng), {"odd-key"}
    path = _pick(rng, doc, lambda v: isinstance(v, str))
    if path is not None:
        node = doc
        for q in path:
            node = node[q]
        _set(doc, path, rng.choice([odd, node + odd, odd + node]))
    return _dumps(doc, rng), {"odd-text"}


# Text a mission may hold, however odd it looks: it must reach the renderers and exports and come out intact.
VALID_ODD_TEXT = ["\u202eevil", "\u200b", "e\u0301", "👩\u200d🚀", "\U0010fffd", "第一层", "<svg onload=x>",
                  "&amp;&#0;", "]]>", "\\", "'\"", "%s%n", "Ω" * 80, "ﷺ" * 40, "soft\u00adhyphen",
                  "\U0001f600" * 30, "\u0627\u0644\u0639\u0631\u0628\u064a\u0629"]


def _odd_valid_text(rng: random.Random, doc: Json) -> tuple[bytes, set[str]]:
    targets = [("meta", "title"), ("meta", "description"), ("meta", "author")]
    targets += [("levels", i, "name") for i in range(len(doc.get("levels", [])))]
    targets += [("marines", "squad", i, "name") for i in range(len(doc.get("marines", {}).get("squad", [])))]
    for _ in range(rng.randint(1, 4)):
        path = rng.choice(targets)
        limit = 120 if path[-1] in ("title", "author") else 80
        try:
            _set(doc, path, rng.choice(VALID_ODD_TEXT)[:limit])
        except (KeyError, IndexError, TypeError):
            continue
    return _dumps(doc, rng), {"odd-valid-text"}


def _trailing_newline(rng: random.Random, doc: Json) -> tuple[bytes, set[str]]:
    path = _pick(rng, doc, lambda v: isinstance(v, str) and 0 < len(v) <= 40)
    if path is not None:
        node = doc
        for q in path:
            node = node[q]
        _set(doc, path, node + rng.choice(["\n", "\r\n", " ", "\r"]))
    return _dumps(doc, rng), {"trailing-newline"}


def _duplicate_key(rng: random.Random, doc: Json) -> tuple[bytes, set[str]]:
    path = _pick(rng, doc, lambda v: isinstance(v, dict) and bool(v))
    if path is None:
        return json.dumps(doc).encode(), {"dup"}
    marker = "@@DUP@@"
    node = doc
    for q in path:
        node = node[q]
    key = rng.choice(list(node))
    node[marker] = 0
    other = rng.choice([node[key], "other", 5, None])
    text = json.dumps(doc).replace(f'"{marker}": 0', f"{json.dumps(key)}: {json.dumps(other)}")
    return text.encode(), {"dup"}


def _structure(rng: random.Random, doc: Json) -> tuple[bytes, set[str]]:
    path = _pick(rng, doc, lambda v: True)
    how = rng.choice(["delete", "unknown", "empty", "swap"])
    if path is not None:
        node = doc
        for q in path[:-1]:
            node = node[q]
        last = path[-1]
        if how == "delete":
            del node[last]
        elif how == "unknown" and isinstance(node, dict):
            node[f"unknown_{rng.randrange(100)}"] = {"x": 1}
        elif how == "empty":
            v = node[last]
            node[last] = type(v)() if isinstance(v, list | dict | str) else v
        else:
            other = _pick(rng, doc, lambda v: True)
            if other is not None and other[: len(path)] != path and path[: len(other)] != other:
                src = doc
                for q in other:
                    src = src[q]
                node[last] = json.loads(json.dumps(src))
    return _dumps(doc, rng), {how}


MISSION_CLASSES: dict[str, Callable[[random.Random, Json], tuple[bytes, set[str]]]] = {
    "malformed": _malformed, "wrong-type": _wrong_type, "huge": _huge, "deep": _deep, "version": _version,
    "dangling": _dangling, "decimals": _decimals, "odd-unicode": _odd_unicode, "odd-valid-text": _odd_valid_text,
    "trailing-newline": _trailing_newline, "duplicate-key": _duplicate_key, "structure": _structure,
}

# Tiled maps: the same classes where they make sense, plus what only a map has.
TILED_HUGE = ["1.7e308", "-1.7e308", "1e308", "1e20", "9007199254740993", "-0.0", "1e-320", "1" + "0" * 400]


def _tiled_number(rng: random.Random, doc: Json) -> tuple[bytes, set[str]]:
    objects = [p for p, v in _paths(doc) if len(p) > 1 and p[-2] == "objects" and isinstance(v, dict)]
    tags = {"tiled-number"}
    if objects and rng.random() < 0.5:
        # Several numbers of one object at once: x + width can overflow where neither alone does.
        node = doc
        for q in rng.choice(objects):
            node = node[q]
        pair = rng.choice([("x", "width"), ("y", "height"), ("x", "y"), ("width", "height"), ("x", "rotation")])
        keys = [k for k in pair if k in node]
        markers = {}
        for i, k in enumerate(keys):
            node[k] = f"@@T{i}@@"
            markers[f'"@@T{i}@@"'] = rng.choice(TILED_HUGE[:3] * 2 + TILED_HUGE)
        text = json.dumps(doc)
        for marker, literal in markers.items():
            text = text.replace(marker, literal)
        tags.add("tiled-object-" + "-".join(sorted(keys)))
        return text.encode(), tags
    path = _pick(rng, doc, lambda v: isinstance(v, int | float) and not isinstance(v, bool))
    if path is not None:
        _set(doc, path, "@@T@@")
    return json.dumps(doc).replace('"@@T@@"', rng.choice(TILED_HUGE)).encode(), tags


def _tiled_property(rng: random.Random, doc: Json) -> tuple[bytes, set[str]]:
    props = [p for p, v in _paths(doc) if p and p[-1] == "value" and isinstance(v, str)]
    if props:
        path = rng.choice(props)
        _set(doc, path, rng.choice(["{", "[1,2", '{"a": 1, "a": 2}', '{"kind": "escape", "win_at": 9.0}',
                                    "[" * 200 + "]" * 200, "null", '"\\ud800"', "1e999", "\x1b", "NaN"]))
    return _dumps(doc, rng), {"tiled-property"}


def _tiled_layers(rng: random.Random, doc: Json) -> tuple[bytes, set[str]]:
    how = rng.choice(["no-layers", "renamed", "dup-level", "objects-wrong"])
    layers = doc.get("layers", [])
    if how == "no-layers":
        doc["layers"] = []
    elif how == "renamed" and layers:
        layers[0]["name"] = rng.choice(ODD_TEXT)
    elif how == "dup-level" and layers:
        layers.append(json.loads(json.dumps(layers[0])))
    elif layers:
        for sub in layers[0].get("layers", []):
            if "objects" in sub:
                sub["objects"] = rng.choice([None, "x", [1, 2], [{}]])
                break
    return _dumps(doc, rng), {how}


def _tiled_text(rng: random.Random, doc: Json) -> tuple[bytes, set[str]]:
    """Odd text where a map's text becomes the mission's: its title and author, level and object names."""
    spots = [p for p, v in _paths(doc) if p and p[-1] == "name" and isinstance(v, str)]
    spots += [(*p, "value") for p, v in _paths(doc) if isinstance(v, dict) and v.get("name") in ("title", "author")]
    if spots:
        path = rng.choice(spots)
        _set(doc, path, rng.choice(ODD_TEXT[:20]))
    return _dumps(doc, rng), {"tiled-text"}


TILED_CLASSES: dict[str, Callable[[random.Random, Json], tuple[bytes, set[str]]]] = {
    "malformed": _malformed, "wrong-type": _wrong_type, "deep": _deep, "odd-unicode": _odd_unicode,
    "duplicate-key": _duplicate_key, "structure": _structure, "tiled-number": _tiled_number,
    "tiled-property": _tiled_property, "tiled-layers": _tiled_layers, "tiled-text": _tiled_text,
}


def _derelict_bases() -> list[tuple[str, bytes, bytes]]:
    """(name, mission text, segment library) of the sample levels a Marine starts on, as exported to Derelict."""
    from engine.export.derelict import derelict_texts
    from engine.mission import mission_from_dict

    out = []
    for name, doc in _mission_bases()[:4]:
        m = mission_from_dict(doc)
        for lv in m.levels:
            if any(s.level == lv.id for s in m.marines.squad):
                text, library, _ = derelict_texts(m, lv.id, "map.mission.segments.txt")
                out.append((f"{name}-{lv.id}", text.encode(), library.encode()))
    return out


DERELICT_ODD = ["", "x", "-1", "99999999999999", "(1,2", "pos=(1,1)", "rot=45", "\x00", "\u202e", "#", "é",
                "instances:", "tokens:", "board: 0", "board: 501", "segment a 0x0", "endsegment", "A" * 5000]


def _derelict_case(rng: random.Random, klass: str, text: bytes, library: bytes) -> tuple[bytes, bytes, set[str]]:
    """One mutation of a Derelict mission or of its library: lines, numbers, bytes, tokens, overlaps."""
    lines = text.decode().split("\n")
    lib_lines = library.decode().split("\n")
    target = lib_lines if klass == "dr-library" else lines
    i = rng.randrange(len(target))
    how = rng.choice(["replace", "insert", "delete", "truncate", "numbers"])
    if klass == "dr-bytes":
        b = bytearray(text)
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b), library, {klass}
    if klass == "dr-overlap":
        at = [k for k, ln in enumerate(lines) if ": hf-" in ln]
        k = rng.choice(at)
        lines.insert(k + 1, lines[k].replace("seg-", "dup-"))
        return "\n".join(lines).encode(), library, {klass}
    if klass == "dr-tokens":
        kind = rng.choice(["nothing", "door", "marine", "alien_entry", "lurk", "objective"])
        pos = rng.choice(["(0,0)", "(-5,3)", "(999,1)", "(3,3)", "(1,1)"])
        lines.append(f"  t-x: {kind} pos={pos} rot={rng.choice([0, 90, 180, 270, 360])}")
        return "\n".join(lines).encode(), library, {klass, kind}
    if how == "replace":
        target[i] = rng.choice(DERELICT_ODD)
    elif how == "insert":
        target.insert(i, rng.choice(DERELICT_ODD))
    elif how == "delete":
        del target[i]
    elif how == "truncate":
        del target[i:]
    else:
        import re

        target[i] = re.sub(r"\d+", lambda _m: rng.choice(["0", "1", "-1", "250", "9" * 12]), target[i])
    return "\n".join(lines).encode(), "\n".join(lib_lines).encode(), {klass, how}


DERELICT_CLASSES = ("dr-lines", "dr-library", "dr-bytes", "dr-overlap", "dr-tokens")


def generate_derelict(seed: int, count: int) -> list[Case]:
    """`count` hostile Derelict missions (each with its segment library), the same for the same seed."""
    bases = _derelict_bases()
    out = []
    for i in range(count):
        rng = random.Random(f"{seed}:derelict:{i}")
        klass = DERELICT_CLASSES[i % len(DERELICT_CLASSES)]
        base_name, text, library = rng.choice(bases)
        data, lib, tags = _derelict_case(rng, klass, text, library)
        out.append(Case(f"derelict-{i:04d}-{klass}-{base_name}", "derelict", data, klass, frozenset(tags), lib))
    return out


def generate(seed: int, missions: int, maps: int) -> list[Case]:
    """`missions` hostile mission files and `maps` hostile Tiled maps, the same for the same seed (and input i
    the same whatever the counts)."""
    out: list[Case] = []
    for kind, count, bases, classes in (("mission", missions, _mission_bases(), MISSION_CLASSES),
                                        ("tiled", maps, _tiled_bases() if maps else [], TILED_CLASSES)):
        names = sorted(classes)
        for i in range(count):
            # One generator per input: a small corpus is the start of a larger one with the same seed.
            rng = random.Random(f"{seed}:{kind}:{i}")
            klass = names[i % len(names)]  # every class equally often
            base_name, base = rng.choice(bases)
            data, tags = classes[klass](rng, json.loads(json.dumps(base)))
            out.append(Case(f"{kind}-{i:04d}-{klass}-{base_name}", kind, data, klass, frozenset(tags)))
    if missions:
        out += [Case(f"special-{mode}", "special", mode.encode(), "not-a-file", frozenset({mode}))
                for mode in SPECIAL_INPUTS]
    return out


# Inputs that are not regular files: devices, and FIFOs with no writer, a writer that never stops, a mission.
SPECIAL_INPUTS = ("dev-zero", "dev-urandom", "fifo-no-writer", "fifo-endless", "fifo-mission")
PIPE_WAIT_S = 0.5  # the reader's deadline for a pipe, shortened so a FIFO with no writer costs little here


def start_fifo_writer(path: Path, data: bytes | None) -> threading.Thread:
    """A thread that writes `data` to the FIFO then closes it, or (data None) writes until the reader goes."""

    def write() -> None:
        try:
            with open(path, "wb") as sink:
                if data is not None:
                    sink.write(data)
                    return
                while True:
                    sink.write(b" " * 65536)
        except BrokenPipeError:
            pass

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


def _special_input(mode: str, folder: Path) -> tuple[Path, Callable[[], None]]:
    """The path of a special input, and what to call when done with it (it releases and joins the writer)."""
    import os

    if mode.startswith("dev-"):
        return Path("/dev") / mode.removeprefix("dev-"), lambda: None
    path = folder / "pipe.json"
    os.mkfifo(path)
    if mode == "fifo-no-writer":
        return path, lambda: None
    data = None if mode == "fifo-endless" else (ROOT / "sample_missions" / "tutorial.json").read_bytes()
    writer = start_fifo_writer(path, data)

    def done() -> None:
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))  # a writer still waiting for a reader gets one
        writer.join(10)

    return path, done


# --- running the commands -------------------------------------------------------------------------------

@dataclass
class Run:
    """One command on one input: its exit code, whether it raised or printed a traceback, what it left."""

    case: str
    command: str
    code: int | None
    traceback: bool
    problems: list[str]


def _files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def run_main(argv: list[str]) -> tuple[int | None, str, str, str | None]:
    """The CLI's main() in this process: (exit code, stdout, stderr, the exception that escaped it)."""
    import contextlib
    import io
    import traceback

    from engine.cli import main

    # Streams like a terminal's: UTF-8, strict on stdout (a lone surrogate there crashed `validate`).
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    escaped = None
    code: int | None = None
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
        except Exception:  # what the corpus looks for
            escaped = traceback.format_exc(limit=-3)

    def text(stream: io.TextIOWrapper) -> str:
        stream.flush()
        raw: bytes = stream.buffer.getvalue()  # type: ignore[attr-defined]
        return raw.decode("utf-8", "backslashreplace")

    return code, text(out), text(err), escaped


def run_subprocess(argv: list[str], timeout: float = 45) -> tuple[int | None, str, str, str | None]:
    """The CLI in a fresh interpreter (what a user runs); a negative code is a signal (a segfault is -11)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-m", "engine.cli", *argv], capture_output=True, text=True,
                          errors="backslashreplace", timeout=timeout, cwd=ROOT, env=env)
    return done.returncode, done.stdout, done.stderr, None


# Classes whose inputs are mostly valid missions: the commands that play or draw a mission get those, since
# any other input stops at reading (which validate already covers).
MOSTLY_VALID = ("decimals", "odd-valid-text")


def commands_for(case: Case, index: int, every: dict[str, int]) -> list[str]:
    """Which commands this input goes through: validate/import always, the others for every n-th input
    (simulate and render-png: every n-th input of the mostly valid classes)."""
    if case.kind in ("tiled", "derelict"):
        return ["import"]
    if case.kind == "special":
        return ["validate", "import", "render-svg", "export-tiled", "simulate", "repair"]
    chosen = ["validate", "repair"]
    for command, n in every.items():
        if command in ("simulate", "render-png"):
            if n and case.klass in MOSTLY_VALID and (index // len(MISSION_CLASSES)) % n == 0:
                chosen.append(command)
        elif n and index % n == 0:
            chosen.append(command)
    return chosen


WRITES = {"render-svg": "out.svg", "render-png": "out.png", "export-tiled": "out.tmj", "export-derelict": "out.txt",
          "simulate": "results.json", "import": "mission.json"}


def argv_for(command: str, src: Path, out: Path) -> list[str]:
    target = str(out / WRITES.get(command, ""))
    return {
        "validate": ["validate", str(src)],
        "render-svg": ["render", str(src), "--format", "svg", "-o", target],
        "render-png": ["render", str(src), "--format", "png", "--dpi", "20", "-o", target],
        "export-tiled": ["export", str(src), "--to", "tiled", "-o", target],
        "export-derelict": ["export", str(src), "--to", "derelict", "-o", target],
        "simulate": ["simulate", str(src), "-n", "2", "--workers", "1", "--marines", "random",
                     "--genestealers", "random", "--set", "turn_cap=3", "--out", target],
        "import": ["import", str(src), "-o", target],
    }[command]


def run_repair(path: Path) -> tuple[int | None, str, str, str | None]:
    """What the editor reads for repair: exit 0 when read, 2 when refused; a number past what the program holds
    (engine.mission.salvage.HOLDABLE) in the model is reported as an escaped problem."""
    import traceback

    from engine.mission import MissionFileError, mission_to_dict
    from engine.mission.salvage import HOLDABLE, read_for_repair

    try:
        model = mission_to_dict(read_for_repair(path).mission)
    except MissionFileError as exc:
        return 2, "", str(exc), None
    except Exception:
        return None, "", "", traceback.format_exc(limit=-3)
    big = [p for p, v in _paths(model) if type(v) is int and abs(v) > HOLDABLE]
    return 0, "", "", f"numbers past {HOLDABLE} in the model: {big[:3]}" if big else None


def run_case(case: Case, command: str, folder: Path, subprocess_: bool = False) -> Run:
    """Run one command on one input in a fresh folder and check the promises: exit 0/1/2, no traceback,
    nothing written on error, no temporary file left, and a mission that import wrote reads back."""
    work = folder / f"{case.name}-{command}"
    inputs, out = work / "in", work / "out"
    inputs.mkdir(parents=True)
    out.mkdir()
    done: Callable[[], None] = lambda: None  # noqa: E731
    if case.kind == "special":
        src, done = _special_input(case.data.decode(), inputs)
    else:
        src = inputs / {"tiled": "map.tmj", "derelict": "map.mission.txt"}.get(case.kind, "mission.json")
        src.write_bytes(case.data)
        if case.library:
            (inputs / "map.mission.segments.txt").write_bytes(case.library)
    from engine.mission import bounded_read

    wait, bounded_read.PIPE_TIMEOUT_S = bounded_read.PIPE_TIMEOUT_S, PIPE_WAIT_S
    try:
        if command == "repair":
            code, _stdout, stderr, escaped = run_repair(src)
        else:
            runner = run_subprocess if subprocess_ else run_main
            code, _stdout, stderr, escaped = runner(argv_for(command, src, out))
    finally:
        bounded_read.PIPE_TIMEOUT_S = wait
        done()
    problems: list[str] = []
    traceback = escaped is not None or "Traceback (most recent call last)" in stderr
    if escaped is not None:
        problems.append(f"exception escaped main(): {escaped.strip().splitlines()[-1]}")
    elif traceback:
        problems.append(f"traceback printed: {stderr.strip().splitlines()[-1]}")
    if code is not None and code < 0:
        problems.append(f"killed by signal {-code}")
    elif code not in (0, 1, 2) and escaped is None:
        problems.append(f"exit code {code}")
    written = _files(out)
    temps = [f for f in written | _files(inputs) if f.endswith(".tmp")]
    if temps:
        problems.append(f"temporary files left: {sorted(temps)}")
    may_write = code == 0 or (code == 1 and command in ("import", "validate"))
    if written and not may_write:
        problems.append(f"exit {code} but wrote {sorted(written)}")
    if command == "import" and code in (0, 1) and (out / "mission.json").exists():
        again, _, err2, esc2 = run_main(["validate", str(out / "mission.json")])
        if again not in (0, 1) or esc2:
            last = (esc2 or err2).strip().splitlines()[-1:] or [""]
            problems.append(f"the imported mission does not read back (validate exit {again}): {last[0]}")
    if case.kind == "mission" and command == "validate" and code is not None and code > 2:
        problems.append(f"exit code {code}")
    return Run(case.name, command, code, traceback, problems)


def table(runs: list[Run]) -> str:
    """Inputs per command and what came out: exit codes, tracebacks, signals, files left behind."""
    commands = sorted({r.command for r in runs})
    lines = [f"{'command':<16}{'inputs':>7}{'exit 0':>8}{'exit 1':>8}{'exit 2':>8}{'other':>7}"
             f"{'tracebacks':>12}{'signals':>9}{'files left':>12}"]
    for c in commands:
        rs = [r for r in runs if r.command == c]
        codes = [r.code for r in rs]
        signals = sum(1 for r in rs if r.code is not None and r.code < 0)
        files = sum(1 for r in rs if any("left" in p or "wrote" in p for p in r.problems))
        other = sum(1 for x in codes if x not in (0, 1, 2)) - signals
        lines.append(f"{c:<16}{len(rs):>7}{codes.count(0):>8}{codes.count(1):>8}{codes.count(2):>8}{other:>7}"
                     f"{sum(r.traceback for r in rs):>12}{signals:>9}{files:>12}")
    return "\n".join(lines)


def main() -> None:
    """python tests/engine/hostile_corpus.py [--seed S] [--missions N] [--maps M] [--derelicts D]: run a corpus,
    print the table."""
    import argparse
    import sys
    import tempfile
    import time

    sys.path.insert(0, str(ROOT))
    p = argparse.ArgumentParser(description=main.__doc__)
    p.add_argument("--seed", type=int, default=16)
    p.add_argument("--missions", type=int, default=1200)
    p.add_argument("--maps", type=int, default=400)
    p.add_argument("--derelicts", type=int, default=200, help="Derelict missions (each with its segment library)")
    p.add_argument("--every", default="render-svg=4,export-tiled=6,export-derelict=6,simulate=5,render-png=10",
                   help="COMMAND=N: send every N-th mission through COMMAND too")
    p.add_argument("--show", type=int, default=30, help="print at most this many problems")
    args = p.parse_args()
    every = {k: int(v) for k, v in (item.split("=") for item in args.every.split(",") if item)}
    start = time.perf_counter()
    cases = generate(args.seed, args.missions, args.maps) + generate_derelict(args.seed, args.derelicts)
    runs: list[Run] = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, case in enumerate(cases):
            for command in commands_for(case, i, every):
                runs.append(run_case(case, command, Path(tmp), subprocess_=command == "render-png"))
    print(table(runs))
    bad = [r for r in runs if r.problems]
    print(f"{len(cases)} inputs, {len(runs)} runs, {len(bad)} with problems, {time.perf_counter() - start:.0f} s")
    for r in bad[: args.show]:
        print(f"  {r.case} {r.command}: {'; '.join(r.problems)}")


if __name__ == "__main__":
    main()
