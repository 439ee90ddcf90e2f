"""Every rules verb is declared once (engine/rules/verbs.py) and consistently: what it names exists, what the
generators list and apply is what it declares, its text form fits its arity, and the tables the rules, the moves
API and the placement checks run on are derived from the declarations."""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections.abc import Iterator
from typing import Any

import pytest

from engine.mission import load_mission
from engine.mission.codec import mission_to_dict
from engine.mission.issues import Issue
from engine.mission.kinds import BY_KEY, KINDS
from engine.mission.validation import validate_document
from engine.rules import moves
from engine.rules.actions import NO_ACTOR_VERBS, parse_action
from engine.rules.features import HELD
from engine.rules.game import Game
from engine.rules.pieces import Piece
from engine.rules.testing import played_states
from engine.rules.verbs import BLIP, COMPONENTS, GENERATORS, LINKS, MARINE, REACTION, STEALER, VERBS, grammar, resolve

SAMPLES = ("the_shaft", "pitfall", "the_long_drop")


@pytest.fixture(scope="module")
def state() -> Any:
    return Game(load_mission("sample_missions/the_shaft.json")).new_state(seed=1)


def _components(state: Any) -> dict[str, Any]:
    return {name: getattr(state, "blip_rules" if name == "blips" else name) for name in COMPONENTS}


def test_every_named_part_and_applier_exists(state: Any) -> None:
    """A part takes (piece, budget, out), an applier (piece, action, reaction): a link's given its verb first."""
    components = _components(state)
    for v in VERBS:
        for ref in v.parts.values():
            part = resolve(ref, components, v.name)
            assert list(inspect.signature(part).parameters) == ["pc", "budget", "out"], (v.name, ref)
        if v.acts is not None:
            applier = resolve(v.acts, components, v.name)
            assert list(inspect.signature(applier).parameters) == ["pc", "a", "reaction"], (v.name, v.acts)
        if v.listed:
            for ref in v.listed.split(", "):
                owner, method = ref.split(".")
                assert callable(getattr(type(getattr(state, owner.lower())), method)), (v.name, ref)


def test_every_piece_verb_is_listed_and_applied() -> None:
    """A verb some generator lists has an applier (psychic powers aside: GameState applies them), and a verb with
    an applier is listed somewhere; parts name generators that exist."""
    for v in VERBS:
        assert set(v.parts) <= set(GENERATORS), v.name
        if v.parts and v.actor:
            assert v.acts is not None, v.name
        if v.acts is not None:
            assert v.parts or v.listed, v.name
        if v.link is not None:
            assert v.moves and v.goes and set(v.parts) == set(GENERATORS), v.name


def test_a_reaction_lists_what_a_marine_lists_in_his_turn_but_objects_and_powers() -> None:
    for v in VERBS:
        if REACTION in v.parts:
            assert v.parts[REACTION] == v.parts[MARINE], v.name
        elif MARINE in v.parts:
            assert v.name in ("drop", "give", "psi"), v.name


def test_the_generators_parts_are_derived_in_the_declared_order(state: Any) -> None:
    """The order the generators list their parts in (and so the legal actions' order the golden games hold)."""
    legal = state.legal

    def names(parts: tuple[Any, ...]) -> list[str]:
        return [getattr(p, "__name__", None) or p.func.__name__ + ":" + p.args[0] for p in parts]

    links = [f"link_moves:{verb}" for verb in LINKS]  # (the turbo-lift's ride first)
    assert names(legal.marine_reaction_parts) == [
        "turns", "marine_shots", "marine_weapon", "marine_guard", "marine_blows", "door_actions", "marine_exit",
        "marine_climb", "marine_jump", *links]
    assert names(legal.marine_parts) == [*names(legal.marine_reaction_parts), "marine_carry", "archivist_powers"]
    assert names(legal.stealer_parts) == ["turns", "stealer_blows", "door_actions", "hole_moves", *links]
    assert names(legal.blip_parts) == ["door_actions", "hole_moves", *links]
    assert links[0] == "link_moves:ride"
    for gen, part_of in ((MARINE, legal.marine_part_of), (REACTION, legal.marine_reaction_part_of),
                         (STEALER, legal.stealer_part_of), (BLIP, legal.blip_part_of)):
        assert sorted(part_of) == sorted(v.name for v in VERBS if gen in v.parts)


def _generator(state: Any, pc: Piece) -> str:
    if pc.kind == "marine":
        return MARINE if state.k.phase == "marines" else REACTION
    return STEALER if pc.kind == "stealer" else BLIP


@pytest.mark.parametrize("name", SAMPLES)
def test_what_the_rules_list_is_what_the_verbs_declare(name: str) -> None:
    """In random games, each piece action listed is a verb declared for that piece's generator (or listed by the
    generator itself), and a reaction's are those declared for a reaction."""
    game = Game(load_mission(f"sample_missions/{name}.json"))
    seen: set[str] = set()
    for st in played_states(game, 3, 400):
        for a in st.legal_actions():
            v = next(v for v in VERBS if v.name == a.verb)
            pc = st.k.p.get(a.args[0]) if a.args else None
            if pc is None or not v.actor or a.verb in ("pass", "end"):
                continue
            if st.k.stack and a.verb not in (w.name for w in VERBS if REACTION in w.parts):
                continue  # a decision's own answer (face, fire, retreat, ...)
            assert _generator(st, pc) in v.parts or v.listed, (name, str(a))
            seen.add(a.verb)
    assert {"move", "turn"} <= seen


def test_the_parser_derives_from_the_declarations() -> None:
    """Each text form parses with its fewest and most arguments and no other count; the fixed second arguments
    are checked; the verbs without an actor are those declared so."""
    for v in VERBS:
        lo, hi = v.arity
        words = v.form.split(" | ")[0].split()[1:]
        required = [w for w in words if not w.startswith("[")]
        assert len(required) == lo and len(words) == hi, v.name
        second = (v.second or ("x",))[0]
        args = ["m1", second, "z"][:hi]
        for n in range(0, hi + 2):
            text = " ".join([v.name, *args[:n]] + ["z"] * max(0, n - len(args)))
            if lo <= n <= hi:
                assert parse_action(text).args == tuple(text.split()[1:])
            else:
                with pytest.raises(ValueError):
                    parse_action(text)
        if v.second is not None:
            with pytest.raises(ValueError, match="bad"):
                parse_action(" ".join([v.name, "m1", "Q", *args[2:]]))
    assert NO_ACTOR_VERBS == {v.name for v in VERBS if not v.actor}


def test_the_moves_api_reads_every_move_verb() -> None:
    assert set(moves.MOVE_VERBS) == {v.name for v in VERBS if v.moves}
    assert set(moves.MOVE_VERBS) <= set(moves._READ)
    assert set(moves.LINK_VERBS) == set(LINKS) and set(moves.LINK_VERBS) <= set(moves.MOVE_VERBS)
    assert moves.RIDE_COST == LINKS["ride"].cost == 2
    assert moves.RELOCATING == {"move", "enter", "exit", "climb", "jump", *LINKS}


def test_each_link_joins_a_registry_kind_the_rules_hold(state: Any) -> None:
    for verb, link in LINKS.items():
        assert link.kind in BY_KEY, verb
        assert HELD[link.kind](state) is state.feat.links[verb]
    steps = moves.link_steps(state.feat)
    assert state.feat.lift is state.feat.links["ride"] and state.feat.lift
    want: dict[int, tuple[tuple[int, int], ...]] = {}
    for verb, link in LINKS.items():
        for s, stops in state.feat.links[verb].items():
            want[s] = want.get(s, ()) + tuple((t, link.cost) for _name, t in stops)
    assert steps == want


def test_the_grammar_has_every_verb_once() -> None:
    lines = grammar().splitlines()
    assert [re.split(r"\s", line, maxsplit=1)[0] for line in lines] == [v.name for v in VERBS]


def test_a_kinds_declared_placement_rule_is_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kind's own rule declared with it (Kind.check) is run by validation, on the kind's items with their paths."""
    from engine.mission import placement

    def one_chute_only(found: list[tuple[str, Any]]) -> Iterator[Issue]:
        for path, chute in found[1:]:
            yield Issue("CHUTE-ONE", path, f"chute {chute.id}: one only")

    kinds = tuple(dataclasses.replace(k, check=one_chute_only) if k.key == "chutes" else k for k in KINDS)
    monkeypatch.setattr(placement, "KINDS", kinds)
    doc = mission_to_dict(load_mission("sample_missions/pitfall.json"))
    chutes = doc["chutes"]
    assert chutes, "the sample has chutes"
    doc["chutes"] = [chutes[0], {**chutes[0], "id": "C99", "x": chutes[0]["x"]}]
    found = [i for i in validate_document(doc) if i.rule == "CHUTE-ONE"]
    assert [(i.path, i.message) for i in found] == [("$.chutes[1]", "chute C99: one only")]
