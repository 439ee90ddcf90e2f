"""The results file: rows in index order whatever the arrival order, schema-valid, atomic, read defensively."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from engine.resources import load_schema
from engine.sim.batch import run_batch
from engine.sim.record import GameRecord
from engine.sim.results import (
    ResultsFileError,
    ResultsWriter,
    read_results,
    schema_error,
    square_totals,
    stats_from_results,
)
from engine.sim.spec import BatchSpec
from engine.stats import BatchStats


def test_schema_is_valid_2020_12() -> None:
    schema = load_schema("results.schema.json")
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"].endswith("2020-12/schema")


def test_a_batch_written_to_a_file_validates_and_keeps_index_order(tmp_path: Path) -> None:
    spec = BatchSpec(games=20, seed=5, runner="fake", keep_actions=True)
    out = tmp_path / "r.json"
    writer = ResultsWriter(out, spec.to_json())
    result = run_batch(spec, workers=2, on_result=writer.add)
    writer.finish(result.summary(), square_totals(result.stats))
    doc = read_results(out)
    assert schema_error(doc) is None
    assert [g["index"] for g in doc["games"]] == list(range(20))
    assert doc["games"] == [r.to_json() for r in result.records]
    assert doc["summary"]["marine_win_ci95"] == result.summary()["marine_win_ci95"]
    assert all(g["actions"] for g in doc["games"])
    assert stats_from_results(doc).summary() == result.stats.summary()
    assert out.stat().st_mode & 0o044  # readable by others, not the 0600 of a temporary file
    assert not list(tmp_path.glob(".r.json.*"))


def test_out_of_order_rows_are_written_in_order_and_gaps_survive(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    w = ResultsWriter(out, BatchSpec(games=5, seed=1, runner="fake").to_json())
    for i in (3, 0, 4, 1):  # game 2 never arrives (a cancelled batch)
        w.add(GameRecord(index=i, seed=i, winner="draw"))
    w.finish({**_summary()}, square_totals(BatchStats()))
    doc = json.loads(out.read_text())
    assert [g["index"] for g in doc["games"]] == [0, 1, 3, 4]


def test_abort_leaves_the_old_file_untouched(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    out.write_text("precious")
    with ResultsWriter(out, BatchSpec(games=1, seed=1, runner="fake").to_json()) as w:
        w.add(GameRecord(index=0, seed=0, winner="draw"))
        # leaving the block without finish(): as after Ctrl-C or an error
    assert out.read_text() == "precious"
    assert not list(tmp_path.glob(".r.json.*"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ('{"format": "hulkforge-mission"}', "not a hulkforge results file"),
        ('{"format": "hulkforge-results", "version": 9}', "version 1 only"),
        ('{"format": "hulkforge-results", "version": 1, "spec": {}, "games": [], "summary": {}}', "required property"),
    ],
)
def test_bad_results_files_are_clear_errors(tmp_path: Path, text: str, message: str) -> None:
    p = tmp_path / "bad.json"
    p.write_text(text)
    with pytest.raises(ResultsFileError, match=message.replace("$", r"\$").replace(".", r"\.")):
        read_results(p)
    with pytest.raises(ResultsFileError, match="no such file"):
        read_results(tmp_path / "missing.json")


def _summary() -> dict[str, object]:
    return {"games": 4, "seed": 1, "marine_wins": 0, "genestealer_wins": 0, "draws": 4,
            "marine_win_rate": 0.0, "marine_win_ci95": [0.0, 0.6], "mean_turns": 0.0,
            "games_per_second": 1.0, "policies": {}, "options": {}, "versions": {}}
