"""The heuristic and novice players: legal, deterministic, tunable, and much better than random."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from typing import Any

import pytest

from engine.ai.base import make_policy, policy_info, policy_names, policy_rng
from engine.mission import load_mission
from engine.resources import sample_mission, sample_names
from engine.rules.actions import Action
from engine.rules.game import Game
from engine.stats.intervals import wilson

SAMPLES = tuple(sample_names())
AI = ("heuristic-marines", "heuristic-genestealers", "novice-marines", "novice-genestealers")


@cache
def game(name: str) -> Game:
    return Game(load_mission(str(sample_mission(name))))


class Checked:
    """Wraps a policy: asserts every answer is one of the legal actions, counts decisions by frame kind."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.params = inner.params
        self.kinds: Counter[tuple[str, str]] = Counter()

    def choose(self, state: Any, actions: list[Action], rng: random.Random) -> Action:
        a = self.inner.choose(state, actions, rng)
        assert a in actions, f"{self.name} chose illegal {a} among {[str(x) for x in actions]}"
        pending = state.decision()
        kind = type(pending).__name__ if pending is not None else "phase"
        self.kinds[(kind, a.verb)] += 1
        return a


def play(name: str, marines: Any, stealers: Any, seed: int, cap: int = 6000) -> Any:
    g = game(name)
    state = g.new_state(seed)
    pols = {"marines": marines, "genestealers": stealers}
    rngs = {side: policy_rng(seed, side) for side in pols}
    n = 0
    while not state.is_terminal() and n < cap:
        side = state.current_player()
        state.apply(pols[side].choose(state, state.legal_actions(), rngs[side]))
        n += 1
    return state


def test_registered_with_tunable_defaults() -> None:
    names = policy_names()
    for name in AI:
        assert name in names
        info = policy_info(name)
        assert info.side == name.split("-")[1]
        assert "caution" in info.defaults and "aggression" in info.defaults
    with pytest.raises(ValueError):
        make_policy("heuristic-marines", {"no_such_knob": 1.0})


@pytest.mark.parametrize("mission", SAMPLES)
def test_only_legal_actions_and_games_end(mission: str) -> None:
    pairs = [("heuristic-marines", "heuristic-genestealers"), ("novice-marines", "novice-genestealers"),
             ("heuristic-marines", "random"), ("random", "heuristic-genestealers")]
    for i, (mp, gp) in enumerate(pairs):
        m, g = Checked(make_policy(mp)), Checked(make_policy(gp))
        state = play(mission, m, g, seed=100 + i)
        assert state.is_terminal(), f"{mp} vs {gp} on {mission} did not finish"


def test_in_rule_decisions_are_answered_sensibly() -> None:
    m = Checked(make_policy("heuristic-marines"))
    g = Checked(make_policy("heuristic-genestealers"))
    for seed in range(6):
        play("pitfall", m, g, seed)
        play("recover_the_relic", m, g, seed)
    kinds = m.kinds + g.kinds
    # Overwatch is always fired at a Genestealer, never held.
    assert kinds[("OverwatchDecision", "fire")] > 0 and kinds[("OverwatchDecision", "hold")] == 0
    # Placements, facings and reinforcements all came up and were answered with their own verbs.
    assert kinds[("LurkDecision", "lurk")] > 0 and kinds[("FaceDecision", "face")] > 0
    assert sum(v for (k, verb), v in kinds.items() if k == "ParryDecision") > 0
    # The Marines did set overwatch and spent command points in the Genestealer turn.
    assert kinds[("phase", "overwatch")] > 0
    assert sum(v for (k, verb), v in kinds.items() if k == "ReactionDecision" and verb != "pass") > 0


def test_parry_guard_and_psi_rules() -> None:
    from engine.ai import decisions as dec
    from engine.rules import combat as cb
    from engine.rules.actions import PASS, act

    base = dict(marine_bonus=1, alpha_total=False, parry=True, guard=True, psi_max=0, marine_attacking=False,
                frontal=True, prone=False)
    losing = cb.AssaultRoll(marine_dice=(3,), stealer_dice=(2, 6, 1), **base)  # type: ignore[arg-type]
    winning = cb.AssaultRoll(marine_dice=(6,), stealer_dice=(2, 5, 1), **base)  # type: ignore[arg-type]
    parries = [act("parry", str(i)) for i in range(3)] + [PASS]
    assert dec.parry(losing, parries) == act("parry", "1")  # the 6
    assert dec.parry(winning, parries) == PASS
    rerolls = [act("guardroll", "0"), PASS]
    assert dec.guard_reroll(losing, rerolls) == act("guardroll", "0")
    assert dec.guard_reroll(winning, rerolls) == PASS
    psi = cb.AssaultRoll(marine_dice=(3,), stealer_dice=(5, 1, 1), **{**base, "psi_max": 5})  # type: ignore[arg-type]
    assert dec.psi_points(psi, [act("psipoints", str(i)) for i in range(1, 6)] + [PASS]) == act("psipoints", "2")


def _rate(mission: str, mp: str, gp: str, side: str, games: int) -> tuple[float, float]:
    wins = 0
    for seed in range(games):
        st = play(mission, make_policy(mp), make_policy(gp), 1000 + seed)
        wins += st.result().winner == side
    return wilson(wins, games)


def test_heuristic_marines_beat_random_by_a_wide_margin() -> None:
    lo, _ = _rate("pitfall", "heuristic-marines", "random", "marines", 12)
    _, hi = _rate("tutorial", "random", "random", "marines", 12)
    assert lo > 0.6 and hi < lo


def test_heuristic_genestealers_beat_random_by_a_wide_margin() -> None:
    lo, _ = _rate("pitfall", "random", "heuristic-genestealers", "genestealers", 12)
    assert lo > 0.6


def test_deterministic_for_a_seed() -> None:
    a = play("pitfall", make_policy("heuristic-marines"), make_policy("heuristic-genestealers"), 7)
    b = play("pitfall", make_policy("heuristic-marines"), make_policy("heuristic-genestealers"), 7)
    assert [e.action for e in a.log] == [e.action for e in b.log]
    assert a.result() == b.result()


def test_params_change_behaviour() -> None:
    def log(mp: dict[str, float], gp: dict[str, float]) -> list[str]:
        st = play("pitfall", make_policy("heuristic-marines", mp), make_policy("heuristic-genestealers", gp), 3)
        return [e.action for e in st.log]

    base = log({}, {})
    assert log({"caution": 1.0, "threat_radius": 20.0}, {}) != base
    assert log({}, {"reveal_range": 12.0}) != base
    overwatches = sum(a.startswith("overwatch") for a in log({"caution": 1.0, "threat_radius": 30.0}, {}))
    reckless = sum(a.startswith("overwatch") for a in log({"caution": 0.0, "threat_radius": 1.0}, {}))
    assert overwatches > reckless


def test_flamer_reaches_the_section_in_the_long_drop() -> None:
    lo, _ = _rate("the_long_drop", "heuristic-marines", "random", "marines", 16)
    assert lo > 0.5


def test_genestealers_go_for_the_flamer_when_only_he_can_win() -> None:
    """Burn missions: the sergeant is closer, but only the flamer can win, so the Genestealer heads for him."""
    from engine.rules.testing import scenario

    def first_move(key_target: float, victory_kind: str) -> str:
        victory: list[dict[str, Any]] = [{"kind": "marines_eliminated"}]
        if victory_kind == "section_flamed":
            victory.insert(0, {"kind": "section_flamed", "level": "upper", "section": "a", "result": "marines"})
        state = scenario(["###########", "#aaaaaaaaa#", "###########"], phase="stealers", victory=victory,
                         marines=[("sgt", 1, 1, "E", "sergeant", "none", "thunder_hammer", True),
                                  ("m1", 9, 1, "W", "marine", "heavy_flamer", "power_glove")],
                         stealers=[("g1", 4, 1, "N")])
        # (melee_target off: the sergeant's hammer would send the Genestealer round him on its own, #2)
        player = make_policy("heuristic-genestealers", {"key_target": key_target, "melee_target": 0.0})
        return player.choose(state, state.legal_view(), random.Random(1)).text()

    assert first_move(3.0, "section_flamed") == "move g1 E E"
    assert first_move(0.0, "section_flamed") == "move g1 W W"  # the nearer Marine without the priority
    assert first_move(3.0, "marines_eliminated") == "move g1 W W"  # no burn goal: no priority


def test_genestealers_strike_the_flamer_from_the_front_when_only_he_can_win() -> None:
    """A Genestealer one step from the flamer's front square: in a burn mission it takes that square (the walk round
    to his side gives him time to burn the section); otherwise the front costs `flank` and it goes round."""
    from engine.rules.testing import scenario

    def first_move(params: dict[str, float], victory_kind: str) -> str:
        victory: list[dict[str, Any]] = [{"kind": "marines_eliminated"}]
        if victory_kind == "section_flamed":
            victory.insert(0, {"kind": "section_flamed", "level": "upper", "section": "a", "result": "marines"})
        state = scenario(["#########", "#aaaaaaa#", "#aaaaaaa#", "#aaaaaaa#", "#########"], phase="stealers",
                         victory=victory, marines=[("m1", 6, 2, "W", "marine", "heavy_flamer", "power_glove")],
                         stealers=[("g1", 4, 2, "E")])
        player = make_policy("heuristic-genestealers", params)
        return player.choose(state, state.legal_view(), random.Random(1)).text()

    assert first_move({"flank": 3.0}, "section_flamed") == "move g1 E"  # straight at his front
    assert first_move({"flank": 3.0, "key_flank": 3.0}, "section_flamed") == "move g1 NE"  # round to his side
    assert first_move({"flank": 3.0}, "marines_eliminated") == "move g1 NE"  # no burn goal: flank as usual


@pytest.mark.parametrize("mission", SAMPLES)
def test_lazy_legal_actions_and_plain_lists_give_the_same_games(mission: str) -> None:
    """The simulator hands players a lazy LegalActions (per-piece questions); the editor and tests hand
    plain lists. The players take different paths through the rules for each and must decide alike."""
    from engine.sim.play import play_out
    from engine.sim.spec import game_seed

    for i in range(3):
        seed = game_seed(3, i)
        pols = {"marines": make_policy("heuristic-marines"), "genestealers": make_policy("heuristic-genestealers")}
        lazy, applied, _ = play_out(game(mission), seed, pols)
        listed = play(mission, pols["marines"], pols["genestealers"], seed)
        assert [a.text() for a in applied] == [e.action for e in listed.log]
        assert lazy.result() == listed.result()


@pytest.mark.parametrize("activations", [0, 1])
def test_marine_player_spends_the_rules_budget_under_the_activation_cap(activations: int) -> None:
    """marine_activation_cap 1: once a Marine has been activated, a fresh one acts on command points only. With a
    Genestealer close, the player keeps its CP for the Genestealer turn, so the fresh Marine does not shoot (he would,
    with his own AP, while the cap is not reached)."""
    from engine.ai.marines import MarinePlayer
    from engine.rules.actions import PASS, act
    from engine.rules.testing import scenario

    s = scenario(["##########", "#aaaaaaaa#", "##########"], marines=[("m1", 1, 1, "W"), ("m2", 2, 1, "E")],
                 stealers=[("g1", 5, 1, "W")], cp=3, game_options={"marine_activation_cap": 1})
    s.p["m1"].st = 2  # m1 acted this turn (his activation is over)
    s.k.activations = activations
    s.touch()
    assert act("shoot", "m2", "g1") in s.legal_actions()  # (on AP, or on CP once the cap is reached)
    assert s.ap_budget(s.p["m2"], cp=0) == (4 if activations == 0 else 0)
    chosen = MarinePlayer().choose(s, s.legal_view(), random.Random(1))
    assert chosen == (act("shoot", "m2", "g1") if activations == 0 else PASS)
