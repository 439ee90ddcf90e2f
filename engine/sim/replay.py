"""Replaying one game of a batch from its seed: the event log, and state snapshots for the editor's viewer."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.ai.base import SIDES, Policy, make_policy
from engine.sim.play import action_text, finish_record, marine_ids_of, play_out
from engine.sim.played import resign, resigned_side
from engine.sim.record import GameRecord
from engine.sim.runner import build_game
from engine.sim.spec import BatchSpec, game_seed


def event_json(event: Any) -> dict[str, Any]:
    """A log event as a plain dict (turn, player, action, dice, effects where the engine provides them)."""
    if dataclasses.is_dataclass(event) and not isinstance(event, type):
        d = dataclasses.asdict(event)
    elif isinstance(event, Mapping):
        d = dict(event)
    else:
        d = {"text": str(event)}
    if isinstance(d.get("dice"), tuple):
        d["dice"] = list(d["dice"])
    return d


def _spec_seed_actions(
    results_or_spec: Mapping[str, Any] | BatchSpec, k: int
) -> tuple[BatchSpec, int, list[str] | None]:
    """The spec, the seed of game k and its recorded action texts (None when the file has none)."""
    if isinstance(results_or_spec, BatchSpec):
        spec = results_or_spec
        return spec, game_seed(spec.seed, k), None
    spec = BatchSpec.from_json(dict(results_or_spec["spec"]))
    for row in results_or_spec.get("games", []):
        if row.get("index") == k:
            actions = row.get("actions")
            return spec, int(row["seed"]), [str(a) for a in actions] if isinstance(actions, list) else None
    if not 0 <= k < spec.games:
        raise IndexError(f"game {k} is not in this batch of {spec.games} games")
    return spec, game_seed(spec.seed, k), None


class ReplayMismatch(ValueError):
    """The recorded actions cannot be played back: the rules or the mission changed since the batch."""


class _Scripted:
    """A policy that plays recorded action texts back, so a replay needs neither the policy nor its version."""

    name = "scripted"

    def __init__(self, texts: list[str]) -> None:
        self.params: dict[str, float] = {}
        self._texts = texts
        self._next = 0

    def choose(self, state: Any, actions: Sequence[Any], rng: random.Random) -> Any:
        if self._next >= len(self._texts):
            raise ReplayMismatch(f"the recorded actions ran out after {len(self._texts)} actions")
        text = self._texts[self._next]
        self._next += 1
        for a in actions:
            if action_text(a) == text:
                return a
        raise ReplayMismatch(f"recorded action {self._next - 1} {text!r} is not legal there: the rules changed")


@dataclasses.dataclass
class Replay:
    """A replayed game: its record, its final state, and one (step, snapshot) per applied action."""

    record: GameRecord
    final_state: Any
    steps: list[tuple[dict[str, Any], Any]]

    def log(self) -> list[dict[str, Any]]:
        """Every event of the game's log, as dicts."""
        return [event_json(e) for e in getattr(self.final_state, "log", [])]


def replay_game(results_or_spec: Mapping[str, Any] | BatchSpec, k: int, snapshots: bool = False) -> Replay:
    """Play game `k` again from its seed with the batch's mission and options.

    When the results recorded the game's actions (simulate --keep-actions) they are played back; otherwise
    the batch's policies decide again from the same seed, which gives the same game while they are unchanged.
    """
    spec, seed, recorded = _spec_seed_actions(results_or_spec, k)
    game = build_game(spec)
    policies: dict[str, Policy]
    if recorded is not None:
        script = _Scripted(recorded)
        policies = dict.fromkeys(SIDES, script)
    else:
        policies = {side: make_policy(spec.policies.get(side, "random"), spec.params.get(side)) for side in SIDES}
    steps: list[tuple[dict[str, Any], Any]] = []
    seen = [0]

    def on_step(player: str, action: Any, state: Any) -> None:
        log = list(getattr(state, "log", []))
        step = {"step": len(steps), "player": player, "action": action_text(action),
                "events": [event_json(e) for e in log[seen[0]:]]}
        seen[0] = len(log)
        steps.append((step, state.copy()))

    # A resigned game (hulkforge play) stops where the resigning side left its decision unanswered.
    resigned = _resigned(results_or_spec, k) if recorded is not None else None
    max_actions = len(recorded) if resigned is not None and recorded is not None else spec.max_actions
    state, applied, capped = play_out(game, seed, policies, max_actions=max_actions,
                                      on_step=on_step if snapshots else None)
    record = finish_record(state, k, seed, applied, capped, spec.max_actions, True, marine_ids_of(game))
    if resigned is not None and capped:
        resign(record, resigned)
    return Replay(record, state, steps)


def _resigned(results: Mapping[str, Any] | BatchSpec, k: int) -> str | None:
    """The side whose resignation ended game k of a results file, or None."""
    if isinstance(results, BatchSpec):
        return None
    for row in results.get("games", []):
        if row.get("index") == k:
            return resigned_side(str(row.get("reason", "")))
    return None


def replay_states(results_or_spec: Mapping[str, Any] | BatchSpec, k: int) -> list[tuple[dict[str, Any], Any]]:
    """[(step, state snapshot after it)] for game k: the editor's replay viewer steps through these."""
    return replay_game(results_or_spec, k, snapshots=True).steps
