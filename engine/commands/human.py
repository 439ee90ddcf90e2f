"""A person playing one side of `hulkforge play` in the terminal: the side's view, a prompt per decision.

The person sees only the side's observation (`GameState.observation`): the pieces on the board, the blips as
blips for the Marines (their values only for the Genestealers), the turn, phase, command points and the pending
decision, and the numbered legal actions. An answer is an action's text form or its number in that list; `?`
lists the actions again; `undo` takes back the person's last decision (marked in the record); end of input
resigns.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from engine.rules.board import FACE_NAMES
from engine.rules.observation import Observation
from engine.sim.session import HUMAN

UNDO = "undo"  # (no action's text: every action starts with its verb, and no verb is "undo")
# Listed at each decision when there are at most this many actions (a reaction, command points, a facing);
# a longer list (a whole action phase) is shown on `?`.
SHORT_LIST = 12


class Resigned(Exception):
    """The person's input ended: the side resigns."""


class UndoAsked(Exception):
    """The person typed `undo`: take back their last decision (PlaySession.undo)."""


def _square(obs: Observation, sq: int, entry: str, kind: str = "") -> str:
    if sq < 0 and kind == "marine" and entry in obs.game.board.ramps:
        return f"aboard torpedo {entry}"  # off the board until he comes out onto its ramp (`enter ID`)
    return obs.game.board.name(sq) if sq >= 0 else f"lurking at {entry}" if entry else "off the board"


def _facing(f: int) -> str:
    return FACE_NAMES[f] if 0 <= f < len(FACE_NAMES) else "-"


def view_lines(obs: Observation) -> list[str]:
    """The situation as `obs.player` may know it: read from the observation alone."""
    side = obs.player
    lines = [f"-- turn {obs.turn}, {obs.phase} phase; command points {obs.cp}; {side} to decide --"]
    for pc in obs.p.values():
        own = (pc.kind == "marine") == (side == "marines")
        where = _square(obs, pc.sq, pc.entry, pc.kind)
        if pc.kind == "blip":
            # (the value only for the Genestealers: Observation.blip_value refuses the Marines)
            what = f"blip ({obs.blip_value(pc.id)})" if side == "genestealers" else "blip"
            lines.append(f"  {'own' if own else 'enemy':5s} {pc.id:6s} {what:10s} {where}")
            continue
        what = "marine" if pc.kind == "marine" else "stealer"
        line = f"  {'own' if own else 'enemy':5s} {pc.id:6s} {what:10s} {where} facing {_facing(pc.facing)}"
        if own:
            line += f", {pc.ap} AP"
            if pc.ow:
                line += ", overwatch"
            if pc.guard:
                line += ", guard"
        lines.append(line)
    decision = obs.decision()
    if decision is not None:
        # (the decision's docstring says what it asks: its first paragraph)
        about = " ".join((type(decision).__doc__ or "").strip().split("\n\n")[0].split())
        lines.append(f"  decision: {about or type(decision).__name__}")
    return lines


def action_lines(actions: Sequence[Any]) -> list[str]:
    """The legal actions numbered from 1, as the prompt accepts them."""
    return [f"  {i:3d}. {a.text()}" for i, a in enumerate(actions, 1)]


class HumanPlayer:
    """Reads one side's decisions from `source` (standard input by default) and prints to `out`."""

    name = HUMAN

    def __init__(self, side: str, source: TextIO | None = None, out: TextIO | None = None) -> None:
        self.side = side
        self.params: dict[str, float] = {}
        self._source = source
        self._out = out

    def _print(self, text: str) -> None:
        print(text, file=self._out if self._out is not None else sys.stdout)

    def _read(self) -> str:
        source = self._source if self._source is not None else sys.stdin
        out = self._out if self._out is not None else sys.stdout
        print(f"{self.side}> ", end="", file=out, flush=True)
        line = source.readline()
        if not line:
            print(file=out)
            raise Resigned(self.side)
        if not source.isatty():
            print(line.strip(), file=out)  # a scripted game's transcript shows each answer after its prompt
        return line.strip()

    def choose(self, state: Any, actions: Sequence[Any], rng: random.Random) -> Any:
        """The action the person names (by text or number); raises Resigned when the input ends."""
        obs = state.observation(self.side)
        for line in view_lines(obs):
            self._print(line)
        by_text = {a.text(): a for a in actions}
        if len(actions) <= SHORT_LIST:
            for line in action_lines(actions):
                self._print(line)
        else:
            self._print(f"  {len(actions)} legal actions: type ? to list them")
        while True:
            answer = " ".join(self._read().split())
            if answer == "?":
                for line in action_lines(actions):
                    self._print(line)
                continue
            if answer == UNDO:
                raise UndoAsked(self.side)
            if answer.isdigit():
                n = int(answer)
                if 1 <= n <= len(actions):
                    return actions[n - 1]
                self._print(f"no action {n}: the list runs from 1 to {len(actions)} (? lists them)")
                continue
            if not answer:
                continue
            action = by_text.get(answer)
            if action is not None:
                return action
            self._print(f"{answer!r} is not a legal action now (? lists them)")
