"""Weights files: written by train, validated on load, read by simulate/sweep/tune as POLICY:FILE or --param-file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.ai.base import make_policy, resolve_policy
from engine.ai.weights import (
    SEARCH_RANGES,
    GenestealerWeights,
    MarineWeights,
    WeightsFileError,
    defaults,
    load_weights_file,
    save_weights_file,
)
from engine.cli import main


def write(path: Path, doc: object) -> str:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def good(**weights: dict[str, float]) -> dict[str, object]:
    return {"format": "hulkforge-weights", "version": 1, "weights": weights}


def test_search_ranges_cover_every_weight_and_hold_the_defaults() -> None:
    for side, cls in (("marines", MarineWeights), ("genestealers", GenestealerWeights)):
        assert set(SEARCH_RANGES[side]) == set(defaults(cls))
        for name, value in defaults(cls).items():
            r = SEARCH_RANGES[side][name]
            assert r.lo <= value <= r.hi, name


def test_a_saved_file_loads_back_and_plays_through_the_registry(tmp_path: Path) -> None:
    path = str(tmp_path / "w.json")
    save_weights_file(path, {"marines": {"caution": 0.9, "gap": 3.0}}, mission="tutorial")
    assert load_weights_file(path) == {"marines": {"caution": 0.9, "gap": 3.0}}
    assert resolve_policy(f"heuristic-marines:{path}") == ("heuristic-marines", {"caution": 0.9, "gap": 3.0})
    player = make_policy(f"heuristic-marines:{path}", {"gap": 4.0})  # explicit parameters win over the file
    assert player.params["caution"] == 0.9 and player.params["gap"] == 4.0
    assert resolve_policy("heuristic-marines") == ("heuristic-marines", {})


@pytest.mark.parametrize(("doc", "message"), [
    ([], "not a JSON object"),
    ({"format": "x", "version": 1, "weights": {}}, "$.format"),
    ({"format": "hulkforge-weights", "version": 2, "weights": {}}, "$.version"),
    (good(), "$.weights: expected an object"),
    (good(marines={"cautoin": 1}), "$.weights.marines.cautoin: unknown weight"),
    (good(marines={"caution": "high"}), "$.weights.marines.caution: 'high' is not a number"),
    (good(marines={"caution": -1}), "not in 0..1000"),
    (good(marines={"rear_guard": 0.5}), "a switch is 0 or 1"),
    (good(aliens={"caution": 1}), "unknown side 'aliens'"),
])
def test_a_bad_file_is_refused_naming_the_file_and_the_place(tmp_path: Path, doc: object, message: str) -> None:
    path = write(tmp_path / "bad.json", doc)
    with pytest.raises(WeightsFileError) as err:
        load_weights_file(path)
    assert str(err.value).startswith(f"{path}: ")
    assert message in str(err.value)


def test_a_file_without_the_side_of_the_policy_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "gs.json", good(genestealers={"flank": 2}))
    with pytest.raises(WeightsFileError, match="no weights for the marines"):
        resolve_policy(f"heuristic-marines:{path}")
    with pytest.raises(ValueError, match="takes no weights file"):
        resolve_policy(f"random:{path}")


def test_simulate_plays_the_file_and_says_so_on_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "w.json")
    save_weights_file(path, {"marines": {"caution": 1.0}, "genestealers": {"flank": 3.0}})
    common = ["simulate", "tutorial", "--games", "6", "--workers", "1", "--json"]
    assert main([*common, "--marines", f"heuristic-marines:{path}"]) == 0
    s = json.loads(capsys.readouterr().out)
    # The spec carries the numbers, not the path: a Dask worker elsewhere needs no file.
    assert s["policies"]["marines"] == "heuristic-marines" and s["params"]["marines"] == {"caution": 1.0}
    assert main([*common, "--param-file", path, "--param", "marines.caution=0.2"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["params"] == {"marines": {"caution": 0.2}, "genestealers": {"flank": 3.0}}
    bad = write(tmp_path / "bad.json", good(marines={"nope": 1}))
    assert main([*common, "--marines", f"heuristic-marines:{bad}"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"hulkforge simulate: --marines: {bad}: $.weights.marines.nope: unknown weight " \
        f"(known: {', '.join(defaults(MarineWeights))})"
    assert main([*common, "--param-file", str(tmp_path / "missing.json")]) == 2
    assert "missing.json: no such file" in capsys.readouterr().err
