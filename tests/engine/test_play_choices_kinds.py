"""The choices a person is shown for the feature kinds of The Shaft: a Marine on a turbo-lift entrance is offered a
ride to each other entrance, placed on it and priced 2 AP; a set-up's squares are the deployment area's and a
facing points at the square it looks at; a Marine aboard a boarding torpedo comes out onto its ramp for 1 AP."""

from __future__ import annotations

from engine.ai.base import make_policy, policy_rng
from engine.mission.io import read_document
from engine.resources import sample_mission
from engine.rules.board import FACE_INDEX, FACE_VEC
from engine.sim.choices import decision_choices, piece_choices
from engine.sim.session import HUMAN, PlaySession

SEED = 4


def _session() -> PlaySession:
    path = str(sample_mission("the_shaft"))
    return PlaySession(read_document(path), {"marines": HUMAN}, SEED, mission_path=path)


def test_a_marine_on_a_lift_entrance_is_offered_each_ride_with_its_far_entrance_and_2_ap() -> None:
    session = _session()
    b = session.game.board
    doc = session.mission_doc
    entrances = {e["level"]: b.sq_of(e["level"], e["x"], e["y"]) for e in doc["lifts"][0]["entrances"]}
    policy, rng = make_policy("heuristic-marines"), policy_rng(SEED, "marines")
    rode = 0
    while not session.is_over() and not rode:
        st = session.state
        if session.human_to_move() and st.decision() is None:
            for pc in [p for p in st.k.p.values() if p.kind == "marine" and p.sq in entrances.values()]:
                rides = {c.action.args[1]: c for c in piece_choices(st, pc.id) if c.verb == "ride"}
                if not rides:
                    continue  # no AP left, or every far entrance is taken
                for level, c in rides.items():
                    assert c.square == entrances[level] != pc.sq and c.cost == 2 and c.label() == "2 AP"
                level, c = next(iter(rides.items()))
                trial = st.copy()
                ap = trial.ap_budget(trial.piece(pc.id))
                trial.apply(c.action)
                moved = trial.piece(pc.id)
                assert moved is not None and moved.sq == c.square
                assert ap - trial.ap_budget(moved) == 2
                rode += 1
        session.apply(policy.choose(st, st.legal_view(), rng)) if session.human_to_move() else session.play_ai()
    assert rode


def test_set_up_squares_facings_and_the_torpedos_ramp_are_placed() -> None:
    session = _session()
    b = session.game.board
    area = {b.sq_of(a["level"], x, y) for a in session.mission_doc["deployment_areas"] for x, y in a["squares"]}
    ramp = b.ramps["BT1"]
    policy, rng = make_policy("heuristic-marines"), policy_rng(SEED, "marines")
    seen: set[str] = set()
    while not session.is_over() and "enter" not in seen:
        st = session.state
        if session.human_to_move() and st.decision() is not None:
            for c in decision_choices(st):
                if c.verb == "deploy":
                    assert c.square == b.parse_sq(c.action.args[1]) and c.square in area
                elif c.verb == "face":
                    li, x, y = b.lxy(st.k.p[c.action.args[0]].sq)
                    dx, dy = FACE_VEC[FACE_INDEX[c.action.args[1]]]
                    assert c.square == b.sq(li, x + dx, y + dy)
                seen.add(c.verb)
        elif session.human_to_move():
            for pc in [p for p in st.k.p.values() if p.kind == "marine" and p.sq < 0]:
                for c in piece_choices(st, pc.id):
                    assert c.verb == "enter" and c.square == ramp and c.cost == 1
                    seen.add("enter")
        session.apply(policy.choose(st, st.legal_view(), rng)) if session.human_to_move() else session.play_ai()
    assert {"deploy", "face", "enter"} <= seen


def test_a_genestealer_or_blip_on_a_lift_entrance_is_offered_the_ride_at_2_ap() -> None:
    path = str(sample_mission("the_shaft"))
    session = PlaySession(read_document(path), {"genestealers": HUMAN}, SEED, mission_path=path)
    policy, rng = make_policy("heuristic-genestealers"), policy_rng(SEED, "genestealers")
    rides = 0
    while not session.is_over() and not rides:
        st = session.state
        if session.human_to_move() and st.decision() is None:
            for pc in [p for p in st.k.p.values() if p.kind != "marine" and p.sq in st.feat.lift]:
                stops = dict(st.feat.lift[pc.sq])
                for c in piece_choices(st, pc.id):
                    if c.verb == "ride":
                        assert c.square == stops[c.action.args[1]] and c.cost == 2
                        rides += 1
        session.apply(policy.choose(st, st.legal_view(), rng)) if session.human_to_move() else session.play_ai()
    assert rides
