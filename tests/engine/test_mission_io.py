"""Reading, writing and validating mission files: samples, round trips, malformed and hostile input."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.mission import (
    MissionFileError,
    load_mission,
    mission_dumps,
    mission_to_dict,
    parse_document,
    read_document,
    save_mission,
    validate_document,
    validate_mission,
)
from engine.resources import sample_missions

SAMPLES = sample_missions()


def test_at_least_four_samples_ship_with_the_package() -> None:
    names = {p.stem for p in SAMPLES}
    assert {"pitfall", "recover_the_relic", "the_long_drop", "tutorial"} <= names


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_every_sample_is_valid(path: Path) -> None:
    issues = validate_document(read_document(path))
    assert [i for i in issues if i.severity == "error"] == []


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_load_save_load_is_identical(path: Path, tmp_path: Path) -> None:
    first = load_mission(path)
    out = tmp_path / "again.json"
    save_mission(first, out)
    second = load_mission(out)
    assert second == first
    assert mission_dumps(second) == out.read_text()


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_samples_are_stored_in_canonical_form(path: Path) -> None:
    """Saving a sample changes nothing, so diffs of edited missions show only the edit."""
    assert mission_dumps(load_mission(path)) == path.read_text()


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_validation_never_mutates_its_input(path: Path) -> None:
    doc = read_document(path)
    before = copy.deepcopy(doc)
    validate_document(doc)
    assert doc == before
    m = load_mission(path)
    snapshot = copy.deepcopy(m)
    validate_mission(m)
    assert m == snapshot


def test_pitfall_sample_matches_the_mission_text() -> None:
    """RULES.md §14: two identical levels, chute on both, random counters upstairs, 18 then unlimited."""
    m = load_mission(next(p for p in SAMPLES if p.stem == "pitfall"))
    upper, lower = m.levels_top_down()
    assert upper.rows == lower.rows
    assert {c.level for c in m.chutes} == {upper.id, lower.id}
    assert m.random_setup is not None
    assert {lv for lv, _ in m.random_setup.zones} == {upper.id}
    assert sorted(c.letter for c in m.random_setup.counters if c.kind == "pitfall") == list("ABCDEF")
    assert {mm.level for mm in m.marines.squad} == {upper.id}
    gs = m.genestealers
    assert gs.limited is not None and (gs.limited.unit, gs.limited.total) == ("stealers", 18)
    assert gs.starting.blips == 2
    early, late = gs.reinforcements
    entries = {e.id: e.level for e in m.entry_areas}
    assert (early.from_turn, early.to_turn, early.per_turn, early.pool) == (1, 10, 2, "limited")
    assert (late.from_turn, late.to_turn, late.per_turn, late.pool) == (11, None, 3, "unlimited")
    assert {entries[e] for e in early.entry_areas} == {lower.id}
    assert {entries[e] for e in late.entry_areas} == {upper.id}
    assert m.victory[0] == {"kind": "escape", "via": ["chute"], "win_at": 2, "draw_at": 1}


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"", "empty"),
        (b"   \n", "empty"),
        (b"{not json", "not valid JSON"),
        (b"[1, 2, 3]", "is a JSON object, not list"),
        (b'"text"', "is a JSON object, not str"),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (b'{"format": "something-else", "version": 1}', "$.format"),
        (b'{"format": "hulkforge-mission", "version": 99}', "version 1 only"),
        (b'{"format": "hulkforge-mission"}', "$.version"),
        (b'{"format": "hulkforge-mission", "version": 1, "x": NaN}', "NaN"),
        (b"[" * 5000 + b"]" * 5000, "nested"),
        (b'{"a":' * 40 + b"1" + b"}" * 40, "nested"),
    ],
)
def test_unreadable_documents_get_one_clear_error(tmp_path: Path, content: bytes, fragment: str) -> None:
    f = tmp_path / "bad.json"
    f.write_bytes(content)
    with pytest.raises(MissionFileError) as info:
        read_document(f)
    assert str(f) in str(info.value)
    assert fragment in str(info.value)


def test_huge_file_is_refused_before_parsing(tmp_path: Path) -> None:
    f = tmp_path / "huge.json"
    f.write_bytes(b" " * (5 * 1024 * 1024) + b"{}")
    with pytest.raises(MissionFileError, match="more than"):
        read_document(f)


def _pitfall_doc() -> dict:
    return read_document(next(p for p in SAMPLES if p.stem == "pitfall"))


@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (lambda d: d["levels"].clear(), "$.levels"),
        (lambda d: d["levels"].extend([copy.deepcopy(d["levels"][0])] * 10), "$.levels"),
        (lambda d: d["levels"][0]["rows"].append("#" * 500), "$.levels[0].rows[20]"),
        (lambda d: d["levels"][0]["rows"].extend(["#"] * 300), "$.levels[0].rows"),
        (lambda d: d["levels"][0]["rows"].__setitem__(0, "##!!##"), "$.levels[0].rows[0]"),
        (lambda d: d["doors"][0].__setitem__("x", -1), "$.doors[0].x"),
        (lambda d: d["doors"][0].__setitem__("x", "3"), "$.doors[0].x"),
        (lambda d: d["doors"][0].__setitem__("state", "ajar"), "$.doors[0].state"),
        (lambda d: d["marines"]["squad"][0].__setitem__("ranged", "lascannon"), "$.marines.squad[0].ranged"),
        (lambda d: d["marines"]["squad"][0].pop("facing"), "$.marines.squad[0]"),
        (lambda d: d.__setitem__("ruleset", "3e"), "$.ruleset"),
        (lambda d: d.__setitem__("options", {"no_such_option": 1}), "$.options"),
        (lambda d: d["victory"].append({"kind": "escape"}), "$.victory[2]"),
        (lambda d: d.__setitem__("surprise", True), "$"),
        (lambda d: d["rubble"].extend([{"level": "upper", "x": 1, "y": 1}] * 1001), "$.rubble"),
    ],
)
def test_schema_rejects_malformed_missions(mutate, path: str) -> None:  # type: ignore[no-untyped-def]
    doc = _pitfall_doc()
    mutate(doc)
    issues = validate_document(doc)
    assert issues, "the schema let a malformed mission through"
    assert path in {i.path for i in issues if i.rule == "SCHEMA"}
    rules = [i.rule == "SCHEMA" for i in issues]
    assert rules == sorted(rules, reverse=True)  # schema errors first, then the placement rules on the rest


def test_schema_issue_points_at_the_feature_square() -> None:
    doc = _pitfall_doc()
    doc["doors"][2]["kind"] = "portcullis"
    (issue,) = validate_document(doc)
    assert (issue.level, issue.squares) == ("upper", ((23, 2),))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=30,
)
mission_keys = st.sampled_from(
    ["meta", "levels", "doors", "marines", "genestealers", "victory", "pitfalls", "ladders", "random_setup", "options"]
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(mission_keys, json_values, max_size=8))
def test_garbage_documents_never_crash_validation(extra: dict) -> None:  # type: ignore[type-arg]
    doc = {"format": "hulkforge-mission", "version": 1, **extra}
    issues = validate_document(doc)
    assert any(i.rule == "SCHEMA" for i in issues)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.sampled_from(["doors", "pitfalls", "rubble", "chutes", "exits", "objectives", "entry_areas"]), max_size=4
    ),
    st.integers(0, 29),
    st.integers(0, 19),
    st.sampled_from(["upper", "lower", "nowhere"]),
)
def test_features_anywhere_never_crash_validation(kinds: list[str], x: int, y: int, level: str) -> None:
    """Schema-valid but rule-breaking placements are reported as issues, never as exceptions."""
    doc = _pitfall_doc()
    for n, kind in enumerate(kinds):
        item: dict[str, object] = {"level": level, "x": x, "y": y}
        if kind in ("doors", "chutes", "exits", "objectives", "entry_areas"):
            item["id"] = f"h{n}"
        if kind in ("exits", "entry_areas"):
            item["side"] = "N"
        if kind == "pitfalls":
            item["letter"] = "Z"
        doc[kind].append(item)
    for issue in validate_document(doc):
        assert issue.rule and issue.message


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_arbitrary_bytes_never_crash_parsing(data: bytes) -> None:
    try:
        doc = parse_document(data, "fuzz.json")
    except MissionFileError as exc:
        assert "fuzz.json" in str(exc)
    else:
        validate_document(doc)


def test_saving_is_atomic_and_keeps_the_old_file_on_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = next(p for p in SAMPLES if p.stem == "tutorial")
    m = load_mission(path)
    target = tmp_path / "mission.json"
    target.write_text("previous content")

    import engine.mission.io as io

    def boom(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(io.os, "replace", boom)
    with pytest.raises(OSError):
        save_mission(m, target)
    assert target.read_text() == "previous content"
    assert list(tmp_path.iterdir()) == [target]


def test_mission_text_is_diff_friendly() -> None:
    """One terrain row per line, one feature per line."""
    text = next(p for p in SAMPLES if p.stem == "tutorial").read_text()
    lines = text.splitlines()
    assert '        "#aaaaabbbcccc#",' in lines
    assert sum(1 for line in lines if '"id": "D1"' in line) == 1
    assert json.loads(text)["format"] == "hulkforge-mission"
    assert mission_to_dict(load_mission(next(p for p in SAMPLES if p.stem == "tutorial")))["version"] == 1


def test_saved_missions_get_the_usual_file_mode(tmp_path: Path) -> None:
    """The temporary file behind an atomic save is private (0600); the saved mission must not stay so."""
    import os

    mask = os.umask(0o022)
    try:
        target = tmp_path / "shared.json"
        save_mission(load_mission(next(p for p in SAMPLES if p.stem == "tutorial")), target)
        assert target.stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(mask)
