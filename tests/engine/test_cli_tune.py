"""`hulkforge tune`: bad input, out of reach, and the tuned mission it writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.commands.tune import write_tuned
from engine.mission import read_document
from engine.resources import mission_path
from engine.tune.result import HIT, Step, TuneResult
from engine.tune.space import TunedParam, tuned_document


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


@pytest.mark.parametrize(("argv", "message"), [
    ((), "name a parameter to tune"),
    (("--param", "nope"), "cannot tune 'nope'"),
    (("--param", "reinforcements.per_turn", "--target", "1.5"), "--target must be a win rate"),
    (("--param", "marines.count=1..9"), "marines.count"),  # the tutorial squad has 2 Marines
    (("--param", "reinforcements.per_turn", "--set", "reinforcements.per_turn=2"), "being tuned"),
    (("--param", "turn_cap", "--marines", "nobody"), "unknown policy 'nobody'"),
])
def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          argv: tuple[str, ...], message: str) -> None:
    out = tmp_path / "t.json"
    args = ["tune", "tutorial", "-o", str(out), *argv]
    if "--target" not in argv:
        args += ["--target", "0.5"]
    code, _, err = run_cli(capsys, *args)
    assert code == 2
    assert err.startswith("hulkforge tune: ") and message in err and err.count("\n") == 1
    assert not out.exists()


def test_out_of_reach_exits_1_and_writes_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    code, text, _ = run_cli(capsys, "tune", "tutorial", "--target", "0.05", "--param",
                            "reinforcements.per_turn=0..2", "--workers", "1", "-o", str(out))
    assert code == 1
    assert "out of reach" in text and "at both ends" in text
    assert not out.exists()
    # The levers at the closest value name the second lever and the command that tunes it: one Marine out is
    # a win on the Tutorial, two make the Marines' task far harder.
    assert "best second lever: victory.escape.win_at 1 → 2 (+1)" in text
    assert "run: hulkforge tune tutorial --target 0.05 --set reinforcements.per_turn=" in text
    assert "--param victory.escape.win_at=1..5" in text
    code, text, _ = run_cli(capsys, "tune", "tutorial", "--target", "0.05", "--param",
                            "reinforcements.per_turn=0..2", "--workers", "1", "--json", "--levers-games", "0")
    doc = json.loads(text)
    assert doc["status"] == "out_of_reach" and doc["games_spent"] == sum(
        max(s["games"] for s in doc["path"] if s["values"] == v["values"]) for v in doc["path"][:2])


def test_the_tuned_mission_has_the_values_and_passes_validation(tmp_path: Path) -> None:
    doc = read_document(mission_path("pitfall"))
    params = [TunedParam("marines.count", 1, 5), TunedParam("turn_cap", 5, 40)]
    tuned = tuned_document(doc, params, (3.0, 20.0))
    assert len(tuned["marines"]["squad"]) == 3 and tuned["options"]["turn_cap"] == 20
    assert tuned["options"]["ladder_rule"] == doc["options"]["ladder_rule"]
    result = TuneResult(params, 0.5, 0.02, HIT, "hit", best=Step((3.0, 20.0), 100, 0.5, 0.49, 0.51, "hit", 100))
    out = tmp_path / "tuned.json"
    assert write_tuned(doc, result, str(out))
    assert read_document(out) == tuned
    assert out.read_text(encoding="utf-8").count("\n") > 40  # the one-row-per-line text form, like the samples


def test_a_hit_writes_the_mission_with_the_fixed_settings_and_the_tuned_value(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "tuned.json"
    # On the Tutorial the Marines win 100% with no starting blip, 30% with one and about 15% with four or more.
    code, text, _ = run_cli(capsys, "tune", "tutorial", "--target", "0.15", "--tolerance", "0.05", "--param",
                            "genestealers.starting_blips=0..12", "--set", "turn_cap=40", "--set",
                            "marines.psi_points=7", "--workers", "2", "-o", str(out))
    assert code == 0, text
    assert "hit: genestealers.starting_blips=" in text and f"tuned mission written to {out}" in text
    doc = read_document(out)
    value = int(text.split("hit: genestealers.starting_blips=")[1].split()[0])
    assert doc["genestealers"]["starting"]["blips"] == value
    assert doc["options"]["turn_cap"] == 40 and doc["marines"]["psi_points"] == 7


def test_the_tuned_mission_keeps_the_source_order_so_a_diff_shows_only_the_tuned_lines(tmp_path: Path) -> None:
    import difflib

    from engine.mission.codec import dumps
    from engine.sim.spec import BatchSpec
    from engine.tune.search import tune

    # A hand-written source: sections and keys in an order of its own, defaults left out.
    doc = read_document(mission_path("tutorial"))
    order = ["format", "version", "meta", "victory", "genestealers", "marines", "options", "ruleset", "levels"]
    source = {k: doc[k] for k in order} | {k: v for k, v in doc.items() if k not in order}
    source["meta"] = dict(reversed(list(doc["meta"].items())))
    source["genestealers"] = dict(reversed(list(doc["genestealers"].items())))
    for row in source["genestealers"]["reinforcements"]:
        row.pop("to_turn", None) if row.get("to_turn") is None else None
    source["marines"]["squad"] = [dict(sorted(m.items())) for m in source["marines"]["squad"]]
    src = tmp_path / "source.json"
    src.write_text(dumps(source), encoding="utf-8")
    # The fake coin game: its Marine win rate is a known curve of reinforcements.per_turn (50% at 5).
    spec = BatchSpec(games=0, seed=1, mission=str(src), runner="fake", options={"turn_cap": 40},
                     runner_args={"win_curve": [0.95, 0.9, 0.82, 0.72, 0.62, 0.5, 0.38, 0.2, 0.1],
                                  "curve_param": "reinforcements.per_turn"})
    result = tune(spec, [TunedParam("reinforcements.per_turn", 0, 8)], target=0.5, tolerance=0.03, workers=1)
    assert result.ok, result.message
    out = tmp_path / "tuned.json"
    assert write_tuned(read_document(src), result, str(out), spec.options)
    diff = [ln for ln in difflib.unified_diff(src.read_text().splitlines(), out.read_text().splitlines(), n=0,
                                              lineterm="") if ln[:1] in "+-" and ln[:3] not in ("+++", "---")]
    # Only the tuned lines: the reinforcement row's per_turn, and the option the games were played with.
    rows = source["genestealers"]["reinforcements"]

    def line(row: dict[str, object]) -> str:
        return "      " + json.dumps(row, separators=(", ", ": "))

    assert [ln for ln in diff if ln[0] == "-"] == ["-" + line(r) for r in rows] + ['-  "options": {},']
    assert [ln for ln in diff if ln[0] == "+"] == [
        "+" + line({**r, "per_turn": 5}) for r in rows] + ['+  "options": {', '+    "turn_cap": 40', "+  },"]
    tuned = read_document(out)
    assert list(tuned) == list(source) and list(tuned["genestealers"]) == list(source["genestealers"])
