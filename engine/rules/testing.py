"""Build small rule scenarios from ASCII maps (for tests and the rulebook's worked examples).

    state = scenario(
        ["#######",
         "#aaaaa#",
         "#######"],
        marines=[("m1", 1, 1, "E")],
        stealers=[("g1", 5, 1, "W")],
        dice=[6, 1],
    )

'#' is wall; any other character is floor, letters name sections. A second level is given with
``lower=[...]`` (it lies directly below). Pieces are placed directly; the state starts in the Marine action
phase (``phase="stealers"`` for the Genestealer action phase) with the given command points, and all further
dice come from ``dice`` (ScriptedDice: running out raises).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.mission.codec import mission_from_dict
from engine.mission.model import Mission
from engine.rules.board import FACE_INDEX
from engine.rules.dice import ScriptedDice
from engine.rules.game import BLIP_AP, MARINE_AP, STEALER_AP, Game, GameState
from engine.rules.pieces import Piece

MarineSpec = tuple[Any, ...]  # (id, x, y, facing[, rank, ranged, melee, storm_shield][, level])


def build_mission(
    rows: Sequence[str],
    *,
    lower: Sequence[str] | None = None,
    marines: Sequence[MarineSpec] = (),
    doors: Sequence[tuple[Any, ...]] = (),
    entry_areas: Sequence[tuple[str, int, int, str]] = (),
    exits: Sequence[tuple[str, int, int, str]] = (),
    pitfalls: Sequence[tuple[str, int, int]] = (),
    ladders: Sequence[tuple[int, int]] = (),
    rubble: Sequence[tuple[int, int]] = (),
    chutes: Sequence[tuple[int, int]] = (),
    objectives: Sequence[tuple[str, int, int]] = (),
    lifts: Sequence[Sequence[tuple[str, int, int]]] = (),
    victory: Sequence[Mapping[str, Any]] | None = None,
    options: Mapping[str, Any] | None = None,
    ruleset: str = "4e",
) -> Mission:
    """A mission dict for a tiny map, decoded by the real codec (levels "upper" and, optionally, "lower")."""

    def level(lid: str, depth: int, rws: Sequence[str]) -> dict[str, Any]:
        codes = sorted({c for r in rws for c in r if c not in "#."})
        return {"id": lid, "depth": depth, "rows": list(rws),
                "sections": {c: {"name": c, "kind": "room"} for c in codes}}

    levels = [level("upper", 0, rows)]
    if lower is not None:
        levels.append(level("lower", 1, lower))
    squad = []
    for spec in marines:
        mid, x, y, f = spec[:4]
        defaults = ["marine", "storm_bolter", "power_glove", False]
        rank, ranged, melee, shield = list(spec[4:8]) + defaults[len(spec[4:8]):]
        lvl = spec[8] if len(spec) > 8 else "upper"
        squad.append({"id": mid, "rank": rank, "ranged": ranged, "melee": melee, "storm_shield": shield,
                      "level": lvl, "x": x, "y": y, "facing": f})
    doc: dict[str, Any] = {
        "format": "hulkforge-mission",
        "version": 1,
        "meta": {"title": "scenario"},
        "ruleset": ruleset,
        "options": dict(options or {}),
        "levels": levels,
        "doors": [{"id": d[0], "level": d[3] if len(d) > 3 else "upper", "x": d[1], "y": d[2], "kind": "door",
                   "state": "closed"} for d in doors],
        "entry_areas": [{"id": e, "level": "upper", "x": x, "y": y, "side": s} for e, x, y, s in entry_areas],
        "exits": [{"id": e, "level": "upper", "x": x, "y": y, "side": s} for e, x, y, s in exits],
        "objectives": [{"id": o, "level": "upper", "x": x, "y": y, "kind": "object"} for o, x, y in objectives],
        "pitfalls": [{"letter": ltr, "level": "upper", "x": x, "y": y} for ltr, x, y in pitfalls],
        "ladders": [{"id": f"L{i}", "top": {"level": "upper", "x": x, "y": y},
                     "bottom": {"level": "lower", "x": x, "y": y}} for i, (x, y) in enumerate(ladders)],
        "rubble": [{"level": "upper", "x": x, "y": y} for x, y in rubble],
        "chutes": [{"id": f"C{i}", "level": "upper", "x": x, "y": y} for i, (x, y) in enumerate(chutes)],
        **({"lifts": [{"id": f"T{i}", "entrances": [{"level": lv, "x": x, "y": y} for lv, x, y in stops]}
                       for i, stops in enumerate(lifts)]} if lifts else {}),
        "marines": {"squad": squad, "psi_points": 20},
        "genestealers": {"pool": {"1": 9, "2": 4, "3": 9}, "starting": {"blips": 0, "entry_areas": []},
                         "reinforcements": [], "model_cap": 22, "alpha": False},
        "victory": list(victory or [{"kind": "turn_limit", "turn": 99, "result": "genestealers"}]),
    }
    return mission_from_dict(doc)


def scenario(
    rows: Sequence[str],
    *,
    marines: Sequence[MarineSpec] = (),
    stealers: Sequence[tuple[Any, ...]] = (),
    blips: Sequence[tuple[Any, ...]] = (),
    dice: Sequence[int] = (),
    phase: str = "marines",
    cp: int = 0,
    game_options: Mapping[str, Any] | None = None,
    **mission_kw: Any,
) -> GameState:
    """A state in an action phase with pieces placed by hand and scripted dice; see the module docstring.

    stealers: (id, x, y, facing[, level[, alpha]]); blips: (id, x, y, value[, level]) — x < 0 puts a blip
    lurking at the entry area named by ``level``.
    """
    mission = build_mission(rows, marines=marines, **mission_kw)
    game = Game(mission, game_options)
    state = game.new_state(0)
    k = state.k
    b = game.board
    # Drop whatever set-up decisions the fresh state holds, then place the pieces by hand.
    k.stack.clear()
    k.phase = phase
    k.turn = 1
    k.cp = k.cp_start = cp
    k.active = None
    for pc in k.p.values():
        pc.ap = MARINE_AP
        pc.st = 0 if phase == "marines" else 2
    for spec in stealers:
        gid, x, y, f = spec[:4]
        lvl = spec[4] if len(spec) > 4 else "upper"
        g = Piece(gid, "stealer")
        g.facing = FACE_INDEX[f]
        g.alpha = bool(spec[5]) if len(spec) > 5 else False
        g.ap = STEALER_AP
        g.st = 0 if phase == "stealers" else 2
        k.add(g)
        k.place(g, b.sq_of(lvl, x, y))
    for spec in blips:
        bid, x, y, value = spec[:4]
        bl = Piece(bid, "blip")
        bl.ap = BLIP_AP
        bl.st = 0 if phase == "stealers" else 2
        k.add(bl, value)
        if x < 0:
            bl.entry = str(spec[4])
        else:
            k.place(bl, b.sq_of(spec[4] if len(spec) > 4 else "upper", x, y))
    k.seq = 100
    state.k.dice = ScriptedDice(dice)
    state.log.clear()
    state.touch()
    return state


def where(state: GameState, pid: str) -> tuple[str, int, int] | None:
    """(level, x, y) of a live piece on the board, else None."""
    pc = state.p.get(pid)
    if pc is None or pc.sq < 0:
        return None
    li, x, y = state.game.board.lxy(pc.sq)
    return state.game.board.level_ids[li], x, y


def play(state: GameState, *actions: str) -> GameState:
    """Apply action texts in order; returns the state for chaining."""
    for a in actions:
        state.apply(a)
    return state


def perft(state: GameState, depth: int) -> int:
    """Leaf count of the legal-action tree to `depth` (a finished game counts as one leaf), as chess perft."""
    acts = state.legal_actions()
    if depth <= 1 or state.is_terminal():
        return len(acts)
    total = 0
    for a in acts:
        child = state.copy()
        child.apply(a)
        total += perft(child, depth - 1) if not child.is_terminal() else 1
    return total


def played_states(
    game: Game, seed: int, plies: int, choose: Callable[[GameState, random.Random], Any] | None = None
) -> list[GameState]:
    """Copies of the states of one game from `seed`, before each of its first `plies` actions.

    `choose(state, rng)` picks each action (default: a uniformly random legal one); rng is seeded with `seed`,
    so the states are the same on every run.
    """
    state = game.new_state(seed)
    rng = random.Random(seed)
    out = []
    for _ in range(plies):
        if state.is_terminal():
            break
        out.append(state.copy())
        state.apply(choose(state, rng) if choose is not None else rng.choice(state.legal_actions()))
    return out
