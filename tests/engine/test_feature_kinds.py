"""Every feature kind of the registry (engine/mission/kinds.py) through every engine consumer: each handles it or
says it cannot, naming the feature; none is dropped without a word."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from engine.export import svg as svg_export
from engine.export.briefing import describe_ways
from engine.export.colours import DEFAULT
from engine.export.derelict import derelict_texts
from engine.export.svg_counters import SYMBOLS, features_present
from engine.export.tiled import WRITERS, export_tiled
from engine.export.tiled_features import READERS
from engine.export.tiled_import import import_tiled
from engine.mission.codec import mission_from_dict, mission_to_dict
from engine.mission.kinds import BY_KEY, KINDS, CannotExpress, items
from engine.mission.placement import CHECKS, KIND_CHECKS
from engine.mission.salvage import salvage_document
from engine.mission.validation import validate_document
from engine.rules.features import HELD
from engine.rules.game import Game

KEYS = [k.key for k in KINDS]


def every_kind_doc() -> dict[str, Any]:
    """A two-level mission holding at least one feature of every kind, valid as it stands."""
    return {
        "format": "hulkforge-mission",
        "version": 1,
        "meta": {"title": "Every kind"},
        "levels": [
            {"id": "up", "depth": 0, "rows": ["#########", "#aaa#bbb#", "#aaacbbb#", "#aaa#bbb#", "#########"],
             "sections": {"a": {"name": "west", "kind": "room"}, "b": {"name": "east", "kind": "room"},
                          "c": {"name": "door", "kind": "corridor"}}},
            {"id": "down", "depth": 1, "rows": ["#########", "#ddddddd#", "#ddddddd#", "#ddddddd#", "#########"],
             "sections": {"d": {"name": "hold", "kind": "room"}}},
        ],
        "doors": [{"id": "D1", "level": "up", "x": 4, "y": 2, "kind": "door", "state": "closed"}],
        "entry_areas": [{"id": "E1", "level": "up", "x": 7, "y": 1, "side": "N"}],
        "exits": [{"id": "X1", "level": "down", "x": 7, "y": 3, "side": "S"}],
        "objectives": [{"id": "O1", "level": "up", "x": 2, "y": 1, "name": "relic", "kind": "object"}],
        "pitfalls": [{"letter": "A", "level": "up", "x": 6, "y": 3}],
        "ladders": [{"id": "L1", "top": {"level": "up", "x": 2, "y": 3}, "bottom": {"level": "down", "x": 2, "y": 3}}],
        "rubble": [{"level": "up", "x": 6, "y": 1}],
        "chutes": [{"id": "C1", "level": "down", "x": 4, "y": 1}],
        "lifts": [{"id": "T1", "entrances": [{"level": "up", "x": 5, "y": 1}, {"level": "down", "x": 5, "y": 2}]}],
        "torpedoes": [{"id": "BT1", "level": "down", "x": 1, "y": 1, "side": "W"}],
        "deployment_areas": [{"id": "A1", "level": "up", "squares": [[1, 2], [1, 3], [3, 3]]}],
        "marines": {"squad": [{"id": "m1", "rank": "sergeant", "level": "up", "x": 1, "y": 2, "facing": "E"},
                              {"id": "m2", "rank": "marine", "level": "down", "x": 1, "y": 1, "facing": "E"}]},
        "genestealers": {"starting": {"blips": 1, "entry_areas": ["E1"]},
                         "reinforcements": [{"from_turn": 1, "per_turn": 1, "entry_areas": ["E1"],
                                             "pool": "unlimited"}]},
        "victory": [{"kind": "escape", "via": ["exit"], "win_at": 1}, {"kind": "marines_eliminated"}],
    }


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    return every_kind_doc()


@pytest.fixture(scope="module")
def mission(doc: dict[str, Any]) -> Any:
    assert [i for i in validate_document(copy.deepcopy(doc)) if i.severity == "error"] == []
    return mission_from_dict(copy.deepcopy(doc))


def test_the_mission_holds_every_kind(mission: Any) -> None:
    assert [k.key for k in KINDS if not items(mission, k)] == []


@pytest.mark.parametrize("table", [KIND_CHECKS, HELD, SYMBOLS, WRITERS, READERS],
                         ids=["placement", "rules", "print", "tiled-export", "tiled-import"])
def test_every_consumer_table_names_every_kind(table: dict[str, Any]) -> None:
    """One entry per kind in each layer's table, and no entry for a kind that does not exist."""
    assert sorted(table) == sorted(KEYS)


def test_kind_checks_are_run() -> None:
    assert all(check in CHECKS for checks in KIND_CHECKS.values() for check in checks)


@pytest.mark.parametrize("key", KEYS)
def test_codec_round_trip(mission: Any, key: str) -> None:
    kind = BY_KEY[key]
    for obj in items(mission, kind):
        assert kind.load(kind.dump(obj)) == obj
    again = mission_from_dict(mission_to_dict(mission))
    assert items(again, kind) == items(mission, kind)


def test_repair_reader_reads_every_kind(doc: dict[str, Any], mission: Any) -> None:
    """The editor's repair reader (salvage) reads every kind as the codec does, with nothing to repair."""
    found = salvage_document(copy.deepcopy(doc))
    assert found.notes == []
    for kind in KINDS:
        assert items(found.mission, kind) == items(mission, kind), kind.key


@pytest.mark.parametrize("key", KEYS)
def test_placement_checks_every_square_is_floor(doc: dict[str, Any], mission: Any, key: str) -> None:
    """Every square of every kind is held to the floor: a kind forgotten by the checks would pass on a wall."""
    kind = BY_KEY[key]
    walled = mission_from_dict(copy.deepcopy(doc))
    obj = items(walled, kind)[0]
    for n, (_role, sq) in enumerate(kind.ends(obj)):
        obj = kind.move_end(obj, n, type(sq)(sq.level, 0, 0))
    items(walled, kind)[0] = obj
    from engine.mission.validation import validate_mission

    rules = {i.rule for i in validate_mission(walled)}
    assert "ON-FLOOR" in rules


@pytest.mark.parametrize("key", KEYS)
def test_rules_hold_every_feature(mission: Any, key: str) -> None:
    game = Game(mission)
    state = game.new_state(1)
    kind = BY_KEY[key]
    held = HELD[key](state)
    for obj in items(mission, kind):
        for _role, sq in kind.ends(obj):
            assert game.board.sq_of(sq.level, sq.x, sq.y) in held, f"{kind.name_of(obj)} at {sq}"


@pytest.mark.parametrize("key", KEYS)
def test_print_shows_every_kind_in_map_and_legend(mission: Any, key: str) -> None:
    kind = BY_KEY[key]
    legend_names = {name for name, _colour in DEFAULT.LEGEND} | {"Bulkhead (closed)", "Bulkhead (open)"}
    for obj in items(mission, kind):
        name = kind.legend(obj)
        assert name in legend_names
        for _role, sq in kind.ends(obj):
            level = mission.level(sq.level)
            assert name in features_present(mission, level)
            shown = [n for n, _c, _o in svg_export._legend_items(mission, level, DEFAULT)]
            assert name in shown or (name.startswith("Bulkhead") and name in shown)


def test_the_briefing_names_how_the_squad_comes_in_and_the_lifts(mission: Any) -> None:
    text = " ".join(describe_ways(mission))
    assert all(f" {ident}" in text for ident in ("A1", "BT1", "T1"))
    assert "m2 aboard" in text and "m1 set up" in text


def test_tiled_round_trip_or_warning(mission: Any, tmp_path: Path) -> None:
    report = export_tiled(mission, tmp_path / "m.tmj")
    back, _issues = import_tiled(tmp_path / "m.tmj")
    for kind in KINDS:
        if isinstance(kind.tiled, CannotExpress):
            for obj in items(mission, kind):
                assert any(kind.name_of(obj) in w for w in report.warnings), kind.key
        else:
            assert items(back, kind) == items(mission, kind), kind.key


def test_derelict_carries_or_warns(mission: Any) -> None:
    """Derelict holds one level: each kind on it becomes a token or is named in a warning."""
    for level in ("up", "down"):
        text, _library, warnings = derelict_texts(mission, level)
        for kind in KINDS:
            here = [o for o in items(mission, kind) if any(sq.level == level for _r, sq in kind.ends(o))]
            if not here:
                continue
            if isinstance(kind.derelict, CannotExpress):
                assert any(kind.derelict.what in w for w in warnings), (level, kind.key)
            else:
                assert kind.derelict in text or any(kind.label in w for w in warnings), (level, kind.key)
