"""The Marine player's shortcuts answer what the plain computations answer: the lazily worked-out threat map,
the enemies-near count kept as bit masks, the shots asked only when a Genestealer may be seen, the flamer
asked only when an enemy stands where it could reach. The golden games pin the decisions, these the pieces."""

from __future__ import annotations

import random
from typing import Any

from engine.ai.situation import THREAT_LIMIT, Situation, ThreatMap
from engine.ai.tables import INF, dijkstra, tables
from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.game import Game
from engine.rules.testing import played_states


def _played(mission: str, seed: int, plies: int) -> list[Any]:
    """Some states of a random game (fixed seeds: deterministic)."""
    return played_states(Game(load_mission(str(sample_mission(mission)))), seed, plies)


def _played_by_players(mission: str, seed: int, plies: int) -> list[Any]:
    """Some states of a game between the heuristic players (fixed seeds: deterministic)."""
    from engine.ai.base import make_policy

    players = {"marines": make_policy("heuristic-marines"), "genestealers": make_policy("heuristic-genestealers")}
    return played_states(
        Game(load_mission(str(sample_mission(mission)))),
        seed,
        plies,
        lambda state, rng: players[state.current_player()].choose(state, state.legal_view(), rng),
    )


def test_threat_map_answers_like_the_full_map() -> None:
    state = _played("pitfall", 3, 1)[0]
    gt = tables(state.game).for_state(state)
    size = gt.mt.size
    steps = gt.mt.steps
    floor = [s for s in range(size) if steps[s]]
    rng = random.Random(2)
    for limit in (1, 3, 12, THREAT_LIMIT, INF):
        for _ in range(20):
            seeds = [(rng.choice(floor), rng.choice([0, 0, 1])) for _ in range(rng.randrange(1, 9))]
            full = dijkstra(gt.fwd, seeds, size, limit)
            tm = ThreatMap(gt.fwd, seeds, size, limit)
            for _ in range(30):
                s = rng.choice(floor)
                q = rng.randrange(3)
                if q == 0:
                    r = rng.choice([0, 0.5, 2, 3.0, 6, 17.5, 45, float(INF), -1.0])
                    assert tm.within(s, r) == (full[s] <= r)
                elif q == 1:
                    assert tm.value(s) == full[s]
                else:
                    best_t, best_v = -1, full[s]
                    for t in steps[s]:
                        if full[t] < best_v:
                            best_t, best_v = t, full[t]
                    assert tm.toward(s, steps[s]) == best_t
            for s in floor:
                assert tm.value(s) == full[s]
            assert tm.dist == full
            # A first question on a fresh map expands only as far as it needs: then every square answers.
            for r in (0, 1, 2.5, 6.0, 13):
                tm = ThreatMap(gt.fwd, seeds, size, limit)
                assert [s for s in floor if tm.within(s, r)] == [s for s in floor if full[s] <= r]
                tm = ThreatMap(gt.fwd, seeds, size, limit)
                s = rng.choice(floor)
                v = tm.value(s)
                assert v == full[s]
                assert all(tm.dist[t] == full[t] for t in floor if full[t] <= v)


def _marine_phase_states() -> list[Any]:
    out = []
    for mission, seed in (("pitfall", 5), ("pitfall", 8), ("the_long_drop", 4), ("recover_the_relic", 6)):
        out.extend(st for st in _played(mission, seed, 400) if st.phase == "marines" and not st.stack)
    return out


def test_marine_shortcuts_match_the_rules() -> None:
    checked_flames = 0
    for st in _marine_phase_states():
        sit = Situation(st.observation("marines"), st.legal_view())
        b = sit.board
        pic = sit.enemy_picture()
        # The threat map of the picture is the map of the enemies' seeds: their squares, lurkers' entries at 1.
        seeds = [(e.sq, 0) if e.sq >= 0 else (b.entries[e.entry], 1) for e in sit.enemies if e.sq >= 0 or e.entry]
        full = dijkstra(sit.gt.fwd, seeds, b.size, THREAT_LIMIT) if seeds else [INF] * b.size
        assert all(pic.threat.value(s) == v for s, v in enumerate(full) if v < INF or s % 7 == 0)
        for m in sit.marines:
            # Enemies near the squad, counted one by one.
            for r in (1.0, 3.0, 6.0):
                mask = pic.near_mask(b, m.sq, r)
                near = [e for e in sit.enemies if e.sq >= 0 and e.sq // b.plane == m.sq // b.plane]
                near = [e for e in near if b.rng(e.sq, m.sq) <= r]
                assert pic.weight(mask) == sum(2 if e.kind == "blip" else 1 for e in near)
            # The flamer is asked about his targets only when an enemy stands where his arc reaches.
            flames = [a for a in st.legal_actions_of(m.id) if a.verb == "flame"]
            assert sit.actions_of(m.id, "flame") == flames
            if not sit.flame_may_pay(m):
                for a in flames:
                    t = b.parse_sq(a.args[1])
                    assert not any(
                        st.occ.get(s) in sit.state.p and st.p[st.occ[s]].kind != "marine" for s in b.section_squares(t)
                    )
            else:
                checked_flames += 1
    assert checked_flames > 0


def test_psychic_storm_pick_matches_reading_the_whole_list() -> None:
    from engine.ai.marines import MarinePlayer

    player = MarinePlayer()
    picks = 0
    for seed in (1, 2, 3, 4):
        for st in _played_by_players("the_long_drop", seed, 300):
            if st.phase != "marines" or st.stack:
                continue
            sit = Situation(st.observation("marines"), st.legal_view())
            if not sit.marines:
                continue
            # The plain pick: every psychic action of the Archivists' own lists.
            b = sit.board
            best = None
            for m in sit.marines:
                if m.rank != "archivist":
                    continue
                for a in st._own_actions(m.id):
                    if a.verb != "psi" or a.args[0] != "storm":
                        continue
                    q = st.p.get(a.args[1])
                    if q is None or q.kind != "stealer":
                        continue
                    r = min(b.rng(x.sq, q.sq) for x in sit.marines if x.sq // b.plane == q.sq // b.plane)
                    if r <= player.w.psi_storm_range and (best is None or r < best[0]):
                        best = (r, a)
            assert player._psi(sit) == (best[1] if best else None)
            picks += best is not None
    assert picks > 0
