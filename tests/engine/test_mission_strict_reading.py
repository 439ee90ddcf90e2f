"""Hostile mission files: whole numbers written as decimals, odd characters, trailing line breaks, repeated keys."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.mission import MissionFileError, load_mission, parse_document, read_document, validate_document
from engine.mission.schema_check import schema_issues
from engine.resources import sample_mission
from engine.schema_validator import ecma_search, schema_validator

TUTORIAL = sample_mission("tutorial")


def _doc() -> dict[str, Any]:
    return json.loads(TUTORIAL.read_text())


def _write(tmp_path: Path, doc: dict[str, Any] | str, name: str = "m.json") -> Path:
    f = tmp_path / name
    f.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return f


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


# --- whole numbers written as decimals ------------------------------------------------------------------

def test_whole_numbers_written_as_decimals_are_read_as_integers(tmp_path: Path) -> None:
    text = TUTORIAL.read_text().replace('"x": 9, "y": 3', '"x": 9.0, "y": 3e0')
    text = text.replace('"version": 1', '"version": 1.0')
    assert "9.0" in text and "1.0" in text
    doc = read_document(_write(tmp_path, text))
    door = doc["doors"][0]
    assert (door["x"], door["y"], doc["version"]) == (9, 3, 1)
    assert all(type(v) is int for v in (door["x"], door["y"], doc["version"]))
    assert validate_document(doc) == []
    assert load_mission(_write(tmp_path, text)).doors[0].x == 9


def test_a_fraction_where_a_whole_number_belongs_is_a_schema_error(tmp_path: Path) -> None:
    doc = _doc()
    doc["doors"][0]["x"] = 9.5
    issues = validate_document(read_document(_write(tmp_path, doc)))
    assert [(i.rule, i.path) for i in issues] == [("SCHEMA", "$.doors[0].x")]


def test_the_schema_check_counts_only_ints_as_integers() -> None:
    """A programmatic document (the editor's) never reaches the placement rules with a float coordinate."""
    doc = parse_document(TUTORIAL.read_bytes())
    doc["doors"][0]["x"] = 9.0
    assert [i.path for i in schema_issues(doc)] == ["$.doors[0].x"]
    assert validate_document(doc)[0].rule == "SCHEMA"


@pytest.mark.parametrize(("literal", "fragment"), [("1e999", "too large"), ("-1e400", "too large"),
                                                   ("NaN", "NaN is not allowed"),
                                                   ("Infinity", "Infinity is not allowed")])
def test_numbers_beyond_the_float_range_are_refused(tmp_path: Path, literal: str, fragment: str) -> None:
    text = TUTORIAL.read_text().replace('"x": 9, "y": 3', f'"x": {literal}, "y": 3')
    with pytest.raises(MissionFileError, match=fragment):
        read_document(_write(tmp_path, text))


def test_true_is_not_version_1(tmp_path: Path) -> None:
    doc = _doc()
    doc["version"] = True
    with pytest.raises(MissionFileError, match=r"\$\.version is True"):
        read_document(_write(tmp_path, doc))


# --- characters ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("where", "value", "fragment"),
    [
        (("levels", 0, "id"), "deck\ud800", "$.levels[0].id: lone surrogate U+D800"),
        (("meta", "title"), "a\x1bb", "$.meta.title: control character U+001B (ESC)"),
        (("meta", "title"), "a\x00b", "$.meta.title: control character U+0000 (NUL)"),
        (("meta", "title"), "a\uffff", "$.meta.title: U+FFFF is a Unicode noncharacter"),
        (("meta", "title"), "two\nlines", "$.meta.title: control character U+000A (line break)"),
        (("meta", "author"), "x\x85", "$.meta.author: control character U+0085"),
        (("levels", 0, "name"), "Deck\u2028", "$.levels[0].name: line separator U+2028"),
        (("marines", "squad", 0, "name"), "\x7f", "$.marines.squad[0].name: control character U+007F"),
    ],
)
def test_odd_characters_are_refused_naming_the_path(tmp_path: Path, where: tuple[Any, ...], value: str,
                                                    fragment: str) -> None:
    doc = _doc()
    node: Any = doc
    for part in where[:-1]:
        node = node[part]
    node[where[-1]] = value
    f = _write(tmp_path, json.dumps(doc))  # ensure_ascii: the odd characters travel as \u escapes
    with pytest.raises(MissionFileError) as info:
        read_document(f)
    assert fragment in str(info.value)
    str(info.value).encode("utf-8")  # the message itself prints anywhere


def test_a_key_with_odd_characters_is_named_with_escapes(tmp_path: Path) -> None:
    doc = _doc()
    doc["levels"][0]["sections"]["a\x1b"] = {"name": "x", "kind": "room"}
    with pytest.raises(MissionFileError) as info:
        read_document(_write(tmp_path, json.dumps(doc)))
    assert '$.levels[0].sections: in a key: control character U+001B (ESC)' in str(info.value)


def test_line_breaks_are_fine_in_the_description_and_unicode_is_fine_everywhere(tmp_path: Path) -> None:
    doc = _doc()
    doc["meta"]["description"] = "Line one,\r\n\tline two.\u2028"
    doc["meta"]["title"] = "Ça commence — 第一 ⚔ \u00a0 e\u0301 👩\u200d🚀"
    assert read_document(_write(tmp_path, json.dumps(doc, ensure_ascii=False)))["meta"] == doc["meta"]


def test_validate_prints_a_lone_surrogate_file_as_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _doc()
    doc["levels"][0]["id"] = "deck\ud800"
    f = _write(tmp_path, json.dumps(doc))
    code, stdout, stderr = run_cli(capsys, "validate", str(f))
    assert (code, stdout) == (2, "")
    assert stderr.strip() == (f"hulkforge validate: {f}: $.levels[0].id: lone surrogate U+D800 "
                              "(not a character: the text cannot be written as UTF-8)")


# --- patterns: $ ends the string ------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d["doors"][0].update(id="D1\n"), "$.doors[0].id"),
        (lambda d: d["levels"][0]["rows"].__setitem__(0, d["levels"][0]["rows"][0] + "\n"), "$.levels[0].rows[0]"),
        (lambda d: d["levels"][0]["sections"].update({"a\n": {"name": "x"}}), "$.levels[0].sections"),
        (lambda d: d["pitfalls"].append({"letter": "A\n", "level": "deck", "x": 7, "y": 3}),
         "$.pitfalls[0].letter"),
    ],
)
def test_a_trailing_line_break_does_not_pass_a_pattern(change: Any, path: str) -> None:
    doc = parse_document(TUTORIAL.read_bytes())
    change(doc)
    assert path in [i.path for i in schema_issues(doc)]


def test_patterns_follow_ecma_262() -> None:
    assert ecma_search("^[A-Z]{1,2}$", "AB") and not ecma_search("^[A-Z]{1,2}$", "AB\n")
    assert not ecma_search(r"^\d$", "\u0661")  # ECMA's \d is ASCII; Python's re would match an Arabic-Indic one
    assert not ecma_search("^a$", "a\ud800")  # not text: no match rather than a crash
    # The results schema is checked by the same dialect (its summary's integers must be ints too).
    assert not schema_validator("results.schema.json").is_type(3.0, "integer")


# --- duplicate keys ------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("old", "new", "fragment"),
    [
        ('"ruleset": "4e",', '"ruleset": "4e", "ruleset": "classic",', '$: the key "ruleset" appears twice'),
        ('"x": 9, "y": 3', '"x": 9, "y": 3, "x": 1', '$.doors[0]: the key "x" appears twice'),
        ('"a": {"name": "West corridor", "kind": "corridor"},',
         '"a": {"name": "West corridor", "kind": "corridor"}, "a": {},',
         '$.levels[0].sections: the key "a" appears twice'),
    ],
)
def test_duplicate_keys_are_refused_naming_key_and_path(tmp_path: Path, old: str, new: str, fragment: str) -> None:
    text = TUTORIAL.read_text()
    assert old in text
    with pytest.raises(MissionFileError) as info:
        read_document(_write(tmp_path, text.replace(old, new, 1)))
    assert fragment in str(info.value)


def test_reading_never_changes_a_clean_document() -> None:
    doc = read_document(TUTORIAL)
    assert doc == json.loads(TUTORIAL.read_text())
    assert copy.deepcopy(doc) == doc
