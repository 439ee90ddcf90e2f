"""Victory conditions checked after every action and at the end phase."""

from __future__ import annotations

from engine.rules.board import Board
from engine.rules.state_core import G, M, StateCore


class VictoryRules(StateCore):
    """Victory conditions checked after every action and at the end phase."""

    def _check_victory(self, end_phase: bool = False) -> None:
        if self.result_ is not None:
            return
        on_board = [pc for pc in self.p.values() if pc.kind == "marine"]
        for cond in self.game.victory:
            kind = cond["kind"]
            if kind == "escape":
                via = cond.get("via") or ["exit", "chute"]
                n = sum(1 for v in self.escaped_via.values() if v in via)  # type: ignore[operator,misc]
                win_at = int(cond["win_at"])  # type: ignore[call-overload]
                if n >= win_at:
                    self._finish(M, f"{n} Marines escaped")
                    return
                if not on_board:
                    draw_at = cond.get("draw_at")
                    if draw_at is not None and n >= int(draw_at):  # type: ignore[call-overload]
                        self._finish("draw", f"{n} Marine escaped")
                    else:
                        self._finish(G, f"only {n} Marines escaped")
                    return
            elif kind == "marines_eliminated":
                if not on_board and not self.escaped:
                    self._finish(G, "all Marines dead")
                    return
            elif kind == "turn_limit":
                if end_phase and self.turn >= int(cond["turn"]):  # type: ignore[call-overload]
                    self._finish(str(cond.get("result", G)), f"turn limit {cond['turn']}")
                    return
            elif kind == "objective_carried":
                oid = str(cond["objective"])
                dest = self.objective_carried_to.get(oid)
                to = cond.get("to")
                if dest is None and isinstance(to, dict) and "level" in to:
                    b = self.game.board
                    for pc in on_board:
                        if pc.carry == oid and pc.sq >= 0:
                            here = f"sq:{b.name(pc.sq)}"
                            if here == _dest_key(b, to):
                                dest = here
                if dest is not None and (to is None or dest == _dest_key(self.game.board, to)):
                    self._finish(str(cond.get("result", M)), f"objective {oid} carried")
                    return
            elif kind == "section_flamed":
                b = self.game.board
                key = (b.level_index.get(str(cond["level"]), -1), str(cond["section"]))
                if key in self.flamed_sections:
                    self._finish(str(cond.get("result", M)), f"section {cond['section']} flamed")
                    return
            elif kind == "objective_flamed":
                b = self.game.board
                for o in self.game.mission.objectives:
                    if o.id == cond["objective"]:
                        s = b.sq_of(o.level, o.x, o.y)
                        if (s // b.plane, b.section[s]) in self.flamed_sections:
                            self._finish(str(cond.get("result", M)), f"objective {o.id} flamed")
                            return
        if not on_board:
            self._finish(G, "no Marines left on the board")


def _dest_key(b: Board, to: object) -> str:
    if isinstance(to, dict) and "exit" in to:
        return f"exit:{to['exit']}"
    if isinstance(to, dict):
        return f"sq:{b.name(b.sq_of(str(to['level']), int(to['x']), int(to['y'])))}"
    return ""
