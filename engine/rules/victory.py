"""Pieces lost or escaped, and the victory conditions they and the rest of the game feed: checked after every action
and at the end phase."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.rules.board import Board
from engine.rules.kernel import G, Kernel, M
from engine.rules.pieces import Death, GameResult, Piece

# One mission condition ready to check: (kind, the condition as written, what it needs, parsed once per Game).
VictoryPlan = tuple[tuple[str, Mapping[str, Any], Any], ...]


def victory_plan(b: Board, conds: Sequence[Mapping[str, Any]], objectives: Sequence[Any]) -> VictoryPlan:
    """The mission's conditions with their numbers, squares and keys worked out once (they never change)."""
    out = []
    for cond in conds:
        kind = cond["kind"]
        arg: Any = None
        if kind == "escape":
            draw_at = cond.get("draw_at")
            arg = (cond.get("via") or ["exit", "chute"], int(cond["win_at"]),
                   None if draw_at is None else int(draw_at))
        elif kind == "turn_limit":
            arg = int(cond["turn"])
        elif kind == "objective_carried":
            to = cond.get("to")
            arg = (str(cond["objective"]), to, _dest_key(b, to), isinstance(to, dict) and "level" in to)
        elif kind == "section_flamed":
            arg = (b.level_index.get(str(cond["level"]), -1), str(cond["section"]))
        elif kind == "objective_flamed":
            squares = [(o.id, b.sq_of(o.level, o.x, o.y)) for o in objectives if o.id == cond["objective"]]
            arg = tuple((oid, (s // b.plane, b.section[s])) for oid, s in squares)
        out.append((kind, cond, arg))
    return tuple(out)


class Victory:
    """Deaths and escapes, and the victory conditions checked after every action and at the end phase."""

    def __init__(self, k: Kernel) -> None:
        self.k = k
        self.game = k.game

    def kill(self, pc: Piece, killer: str | None, cause: str) -> None:
        """pc dies (recorded where it stood, with its killer and the cause)."""
        k = self.k
        b = self.game.board
        lvl = x = y = None
        if pc.sq >= 0:
            li, x, y = b.lxy(pc.sq)
            lvl = b.level_ids[li]
        k.deaths.append(Death(pc.id, pc.kind, lvl, x, y, killer, k.turn, cause))
        k.note(f"{pc.id} dies ({cause})")
        self.take_off(pc, None)

    def take_off(self, pc: Piece, escaped: str | None) -> None:
        """pc leaves play (killed, or escaped by the exit or the chute); a blip's value goes to the used pile."""
        if pc.kind == "blip":
            self.k.used.append(self.k.blip_value[pc.id])
        self.k.remove(pc, escaped)
        self.check()

    def finish(self, winner: str, reason: str) -> None:
        """The game is over: no decision is pending any more."""
        k = self.k
        if k.result is None:
            k.result = GameResult(winner, k.turn, reason)  # type: ignore[arg-type]
            k.stack.clear()
            k.note(f"game over: {winner} ({reason})")

    def check(self, end_phase: bool = False) -> None:
        """Finish the game if a mission condition (or the loss of every Marine) decides it."""
        k = self.k
        if k.result is not None:
            return
        rev = k.vic_rev
        if rev == k.vic_clean and not end_phase:
            # Outside the end phase the conditions read only the Marines in p, escapes, objects carried (by whom,
            # where, to which exit) and sections flamed; each change to those moves the kernel's vic_rev, and none
            # moved since a check that found no winner.
            return
        # Marines only ever come from the mission's squad: the ones still in p are the Marines "on board".
        p = k.p
        on_board = any((pc := p.get(mid)) is not None and pc.kind == "marine" for mid in self.game.marine_ids)
        for kind, cond, arg in self.game.victory_plan:
            decides = _CONDITIONS.get(kind)  # (the mission schema knows no other kind)
            outcome = decides(self, cond, arg, on_board, end_phase) if decides is not None else None
            if outcome is not None:
                self.finish(*outcome)
                return
        if not on_board:
            self.finish(G, "no Marines left on the board")
            return
        # No winner: a later check, outside the end phase, finds none either until vic_rev moves (the end-phase
        # check tests the same conditions and the turn limits besides).
        k.vic_clean = rev

    # Each kind of condition: (winner, reason) when it decides the game now, else None.
    def _escape(self, cond: Mapping[str, Any], arg: Any, on_board: bool, end_phase: bool) -> Outcome:
        via, win_at, draw_at = arg
        escaped_via = self.k.escaped_via
        n = sum(1 for v in escaped_via.values() if v in via) if escaped_via else 0
        if n >= win_at:
            return M, f"{n} Marines escaped"
        if on_board:
            return None
        if draw_at is not None and n >= draw_at:
            return "draw", f"{n} Marine escaped"
        return G, f"only {n} Marines escaped"

    def _marines_eliminated(self, cond: Mapping[str, Any], arg: Any, on_board: bool, end_phase: bool) -> Outcome:
        return (G, "all Marines dead") if not on_board and not self.k.escaped else None

    def _turn_limit(self, cond: Mapping[str, Any], arg: Any, on_board: bool, end_phase: bool) -> Outcome:
        if end_phase and self.k.turn >= arg:
            return str(cond.get("result", G)), f"turn limit {cond['turn']}"
        return None

    def _objective_carried(self, cond: Mapping[str, Any], arg: Any, on_board: bool, end_phase: bool) -> Outcome:
        oid, to, key, to_square = arg
        dest = self.k.objective_carried_to.get(oid)
        if dest is None and to_square:
            b = self.game.board
            for pc in self.k.p.values():
                if pc.kind == "marine" and pc.carry == oid and pc.sq >= 0 and f"sq:{b.name(pc.sq)}" == key:
                    dest = key
        if dest is not None and (to is None or dest == key):
            return str(cond.get("result", M)), f"objective {oid} carried"
        return None

    def _section_flamed(self, cond: Mapping[str, Any], arg: Any, on_board: bool, end_phase: bool) -> Outcome:
        if arg in self.k.flamed_sections:
            return str(cond.get("result", M)), f"section {cond['section']} flamed"
        return None

    def _objective_flamed(self, cond: Mapping[str, Any], arg: Any, on_board: bool, end_phase: bool) -> Outcome:
        for oid, key in arg:
            if key in self.k.flamed_sections:
                return str(cond.get("result", M)), f"objective {oid} flamed"
        return None


Outcome = tuple[str, str] | None
_CONDITIONS: dict[str, Callable[[Victory, Mapping[str, Any], Any, bool, bool], Outcome]] = {
    "escape": Victory._escape,
    "marines_eliminated": Victory._marines_eliminated,
    "turn_limit": Victory._turn_limit,
    "objective_carried": Victory._objective_carried,
    "section_flamed": Victory._section_flamed,
    "objective_flamed": Victory._objective_flamed,
}


def _dest_key(b: Board, to: object) -> str:
    if isinstance(to, dict) and "exit" in to:
        return f"exit:{to['exit']}"
    if isinstance(to, dict):
        return f"sq:{b.name(b.sq_of(str(to['level']), int(to['x']), int(to['y'])))}"
    return ""
