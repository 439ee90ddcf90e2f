"""A playtest saved in the middle of the game, and resumed: a versioned JSON file, written atomically.

The file holds what makes the game (the mission document, options, seed and seats), the decisions taken and who
took each, the decisions taken back, and the policies' decision RNGs (so the game goes on as it would have).
Loading checks every part before anything is built and refuses a file that is not one, is too big, too deep, of
another version, or whose decisions do not apply to its mission, with one line naming the file and the place.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from engine.ai.base import SIDES, UnknownPolicyError
from engine.mission import MissionFileError
from engine.mission.io import atomic_write_text, parse_json_object, read_limited
from engine.mission.playable import InvalidMission
from engine.rules.pieces import IllegalActionError
from engine.sim.sand_timer import Clock, SandTimer
from engine.sim.session import HUMAN, TIMER, PlaySession, Ply, RngState

SESSION_FORMAT = "hulkforge-playtest"
SESSION_VERSION = 1
MAX_SESSION_BYTES = 16 * 1024 * 1024
_MT_WORDS = 625  # a Mersenne Twister state: 624 words and the position


class SessionFileError(MissionFileError):
    """A saved game that cannot be resumed; `str()` names the file and the place."""


def session_json(session: PlaySession) -> dict[str, Any]:
    """The saved form of a game in progress."""
    return {
        "format": SESSION_FORMAT,
        "version": SESSION_VERSION,
        "mission": session.mission_path,
        "mission_doc": session.mission_doc,
        "seed": session.seed,
        "options": dict(session.options),
        "seats": dict(session.seats),
        "timer": None if session.timer is None else {"seconds": session.timer.seconds},
        "plies": [{"action": p.action, "side": p.side, "by": p.by} for p in session.plies],
        "undone": [dict(u) for u in session.undone],
        "resigned": session.resigned,
        "rngs": {side: _rng_json(st) for side, st in session.rng_states().items()},
        "marks": [[i, {s: _rng_json(st) for s, st in m.items()}] for i, m in sorted(session.marks().items())],
    }


def save_session(session: PlaySession, path: str | os.PathLike[str]) -> None:
    """Write the game in progress to `path` (atomically: a crash never leaves half a file)."""
    atomic_write_text(path, json.dumps(session_json(session), separators=(",", ":")) + "\n")


def load_session(path: str | os.PathLike[str], clock: Clock | None = None) -> PlaySession:
    """The game saved in `path`, at the decision it was saved at; raises SessionFileError."""
    data = read_limited(path, what="saved game", error=SessionFileError, max_bytes=MAX_SESSION_BYTES)
    doc = parse_json_object(data, str(path), what="saved game", error=SessionFileError,
                            max_bytes=MAX_SESSION_BYTES)
    return session_from_json(doc, str(path), clock)


def session_from_json(doc: Mapping[str, Any], source: str, clock: Clock | None = None) -> PlaySession:
    """A session from a saved game's document (see load_session)."""
    def bad(where: str, message: str) -> SessionFileError:
        return SessionFileError(source, f"{where}: {message}")

    if doc.get("format") != SESSION_FORMAT:
        raise bad("$.format", f"not a saved game (expected {SESSION_FORMAT!r})")
    version = doc.get("version")
    if version != SESSION_VERSION:
        raise bad("$.version", f"version {version!r} is not one this hulkforge reads ({SESSION_VERSION})")
    mission_doc = doc.get("mission_doc")
    if not isinstance(mission_doc, dict):
        raise bad("$.mission_doc", "expected the mission document (an object)")
    seed = doc.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise bad("$.seed", "expected a whole number from 0")
    options = doc.get("options")
    if not isinstance(options, dict):
        raise bad("$.options", "expected an object")
    seats = doc.get("seats")
    if not isinstance(seats, dict) or set(seats) != set(SIDES) or not all(isinstance(v, str) for v in seats.values()):
        raise bad("$.seats", f"expected a policy name or {HUMAN!r} for each of {', '.join(SIDES)}")
    mission = doc.get("mission", "")
    timer = _timer(doc.get("timer"), clock, bad)
    plies = _plies(doc.get("plies"), seats, bad)
    undone = _undone(doc.get("undone"), bad)
    resigned = doc.get("resigned")
    if resigned is not None and resigned not in SIDES:
        raise bad("$.resigned", f"expected null or one of {', '.join(SIDES)}")
    ai = [s for s in SIDES if seats[s] != HUMAN]
    rngs = _rngs(doc.get("rngs"), ai, "$.rngs", bad)
    marks = _marks(doc.get("marks"), ai, len(plies), bad)
    try:
        session = PlaySession(mission_doc, seats, seed, options, str(mission) if isinstance(mission, str) else "",
                              timer)
    except InvalidMission as exc:
        first = exc.errors[0]
        raise bad("$.mission_doc", f"the mission breaks {len(exc.errors)} rule(s), first: {first.message}") from None
    except (UnknownPolicyError, ValueError) as exc:
        raise bad("$.seats / $.options", str(exc)) from None
    try:
        session.restore(plies, undone, resigned, rngs, marks)
    except (IllegalActionError, ValueError, KeyError) as exc:
        raise bad("$.plies", f"the decisions do not replay on this mission: {exc}") from None
    return session


def _rng_json(state: RngState) -> list[int]:
    return [int(x) for x in state[1]]


def _rng_state(value: object, where: str, bad: Any) -> RngState:
    if (not isinstance(value, list) or len(value) != _MT_WORDS
            or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 2**32 for x in value)
            or value[-1] > _MT_WORDS - 1):
        raise bad(where, f"expected a decision RNG state ({_MT_WORDS} words)")
    return (3, tuple(value), None)


def _rngs(value: object, sides: list[str], where: str, bad: Any) -> dict[str, RngState]:
    if not isinstance(value, dict) or set(value) != set(sides):
        raise bad(where, f"expected the decision RNG of each policy's side ({', '.join(sides) or 'none'})")
    return {s: _rng_state(value[s], f"{where}.{s}", bad) for s in sides}


def _marks(value: object, sides: list[str], n: int, bad: Any) -> dict[int, dict[str, RngState]]:
    if not isinstance(value, list):
        raise bad("$.marks", "expected a list")
    out: dict[int, dict[str, RngState]] = {}
    for i, item in enumerate(value):
        where = f"$.marks[{i}]"
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int) and 0 <= item[0] < n):
            raise bad(where, "expected [decision number, RNG states]")
        out[item[0]] = _rngs(item[1], sides, f"{where}[1]", bad)
    return out


def _timer(value: object, clock: Clock | None, bad: Any) -> SandTimer | None:
    if value is None:
        return None
    seconds = value.get("seconds") if isinstance(value, dict) else None
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or not 0 < seconds <= 86400:
        raise bad("$.timer.seconds", "expected a number of seconds from 0 to 86400")
    return SandTimer(float(seconds)) if clock is None else SandTimer(float(seconds), clock)


def _plies(value: object, seats: Mapping[str, str], bad: Any) -> list[Ply]:
    if not isinstance(value, list):
        raise bad("$.plies", "expected a list of decisions")
    out: list[Ply] = []
    for i, item in enumerate(value):
        where = f"$.plies[{i}]"
        if not isinstance(item, dict):
            raise bad(where, "expected an object")
        action, side, by = item.get("action"), item.get("side"), item.get("by")
        if not isinstance(action, str) or not action or len(action) > 200:
            raise bad(f"{where}.action", "expected an action's text")
        if side not in SIDES:
            raise bad(f"{where}.side", f"expected one of {', '.join(SIDES)}")
        if by not in (HUMAN, TIMER, seats[str(side)]):
            raise bad(f"{where}.by", f"expected {HUMAN!r}, {TIMER!r} or the side's policy")
        out.append(Ply(action, str(side), str(by)))
    return out


def _undone(value: object, bad: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise bad("$.undone", "expected a list")
    out: list[dict[str, Any]] = []
    for i, item in enumerate(value):
        if not (isinstance(item, dict) and isinstance(item.get("step"), int) and item.get("side") in SIDES
                and isinstance(item.get("action"), str)):
            raise bad(f"$.undone[{i}]", "expected {step, side, action}")
        out.append({"step": item["step"], "side": item["side"], "action": item["action"]})
    return out
