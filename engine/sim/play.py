"""Play one game between two policies and turn its end state into a GameRecord."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.ai.base import SIDES, Policy, policy_rng
from engine.sim.record import GameRecord, square_counts
from engine.sim.spec import DEFAULT_MAX_ACTIONS


def action_text(action: Any) -> str:
    """The text form of an action (what the log records and parse_action reads back)."""
    text = getattr(action, "text", None)
    if callable(text):
        return str(text())
    return str(action)


StepHook = Callable[[str, Any, Any], None]


def play_out(
    game: Any,
    seed: int,
    policies: Mapping[str, Policy],
    *,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    on_step: StepHook | None = None,
) -> tuple[Any, list[Any], bool]:
    """Play from `seed` to the end: (final state, actions applied, capped); on_step sees each action."""
    state = game.new_state(seed)
    rngs = {side: policy_rng(seed, side) for side in SIDES}
    for policy in {id(p): p for p in policies.values()}.values():
        start = getattr(policy, "start_game", None)
        if start is not None:
            start(state)
    applied: list[Any] = []
    # The loop runs once per action: the state's methods and each side's (policy, rng) are looked up once.
    is_terminal, current_player, apply = state.is_terminal, state.current_player, state.apply
    legal = state.legal_view if hasattr(state, "legal_view") else state.legal_actions
    players = {side: (policies[side].choose, rngs[side]) for side in SIDES if side in policies}
    n = 0
    while not is_terminal():
        if n >= max_actions:
            return state, applied, True
        player = current_player()
        if player is None:
            raise RuntimeError("no player to move in a state that is not terminal")
        actions = legal()
        if not actions:
            raise RuntimeError(f"{player} has no legal action in a state that is not terminal")
        mover = players.get(player)
        if mover is None:
            mover = policies[player].choose, rngs[player]  # the KeyError play_out always raised here
        choose, rng = mover
        action = choose(state, actions, rng)
        apply(action)
        applied.append(action)
        n += 1
        if on_step is not None:
            on_step(player, action, state)
    return state, applied, False


def play_game(
    game: Any,
    seed: int,
    policies: Mapping[str, Policy],
    *,
    index: int = 0,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    keep_actions: bool = False,
) -> GameRecord:
    """Play game `index` from `seed` to the end (or to `max_actions`, a safety net reported as `capped`)."""
    state, applied, capped = play_out(game, seed, policies, max_actions=max_actions)
    return finish_record(state, index, seed, applied, capped, max_actions, keep_actions, marine_ids_of(game))


def marine_ids_of(game: Any) -> list[str]:
    """The ids of the mission's Marines, in squad order."""
    mission = getattr(game, "mission", None)
    if mission is not None:
        return [m.id for m in mission.marines.squad]
    return [str(m) for m in getattr(game, "marine_ids", ())]


def finish_record(
    state: Any,
    index: int,
    seed: int,
    applied: list[Any],
    capped: bool,
    max_actions: int,
    keep_actions: bool,
    marine_ids: list[str],
) -> GameRecord:
    """The GameRecord of a played-out state."""
    record = record_from_state(state, index, seed, marine_ids)
    record.n_actions = len(applied)
    record.capped = capped
    if capped:
        record.winner, record.reason = "draw", f"stopped after {max_actions} actions (safety cap)"
    record.actions = [action_text(a) for a in applied] if keep_actions else None
    return record


def record_from_state(state: Any, index: int, seed: int, marine_ids: list[str]) -> GameRecord:
    """Read the result and the statistics hooks (deaths, escaped, traffic_squares) of a finished state."""
    result = state.result() if state.is_terminal() else None
    escaped = [str(e) for e in state.escaped]
    fates: dict[str, dict[str, Any]] = {m: {"died_turn": None, "escaped": m in escaped} for m in marine_ids}
    marine_sq: list[tuple[str, int, int]] = []
    stealer_sq: list[tuple[str, int, int]] = []
    casualties = {"marines": 0, "genestealers": 0}
    for d in state.deaths:
        is_marine = d.kind == "marine"
        casualties["marines" if is_marine else "genestealers"] += 1
        if is_marine:
            fates.setdefault(str(d.id), {"died_turn": None, "escaped": False})["died_turn"] = int(d.turn)
        if d.level is not None and d.x is not None and d.y is not None:
            (marine_sq if is_marine else stealer_sq).append((str(d.level), int(d.x), int(d.y)))
    traffic = state.traffic_squares()
    return GameRecord(
        index=index,
        seed=seed,
        winner=str(result.winner) if result is not None else "draw",
        turns=int(result.turns) if result is not None else int(getattr(state, "turn", 0)),
        reason=str(result.reason) if result is not None else "",
        casualties=casualties,
        marines_escaped=len(escaped),
        marines=fates,
        marine_deaths=square_counts(marine_sq),
        genestealer_deaths=square_counts(stealer_sq),
        genestealer_traffic=[[str(lv), int(x), int(y), int(n)] for (lv, x, y), n in sorted(traffic.items()) if n],
    )
