"""The balance lab runs a real batch from the GUI: charts equal the engine's counts, cancel, replay, exports."""

from __future__ import annotations

import csv
import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtGui import QImage

from editor.document import MissionDocument
from editor.lab import export
from editor.lab.lab_widget import LabWidget
from engine.resources import sample_mission
from engine.sim import run_batch
from engine.sim.results import read_results

GAMES = 12
TIMEOUT_MS = 120_000


def make_lab(qtbot: Any, games: int = GAMES, workers: int = 2) -> LabWidget:
    doc = MissionDocument.open(sample_mission("tutorial"))
    lab = LabWidget(doc)
    qtbot.addWidget(lab)
    lab.resize(1300, 850)
    lab.run_panel.games.setValue(games)
    lab.run_panel.seed.setValue(7)
    lab.run_panel.workers.setValue(workers)
    for side in ("marines", "genestealers"):
        lab.run_panel.policy[side].setCurrentText("random")
    return lab


@pytest.fixture(scope="module")
def finished_lab(qapp: Any, request: pytest.FixtureRequest) -> Iterator[LabWidget]:
    """One lab that ran a 12-game batch on 2 workers (shared by the tests that only read it)."""
    from pytestqt.qtbot import QtBot

    bot = QtBot(request)
    doc = MissionDocument.open(sample_mission("tutorial"))
    lab = LabWidget(doc)
    lab.resize(1300, 850)
    lab.show()
    lab.run_panel.games.setValue(GAMES)
    lab.run_panel.seed.setValue(7)
    lab.run_panel.workers.setValue(2)
    for side in ("marines", "genestealers"):
        lab.run_panel.policy[side].setCurrentText("random")
    with bot.waitSignal(lab.jobFinished, timeout=TIMEOUT_MS):
        lab.run_panel.run_button.click()
    yield lab
    lab.shutdown()
    lab.close()
    lab.deleteLater()


def test_batch_from_the_gui_fills_the_charts_with_the_engine_counts(finished_lab: LabWidget) -> None:
    lab = finished_lab
    run = lab.run
    assert run is not None and not run.running and run.error is None
    assert run.stats.games == GAMES and run.stats.failed == 0
    # The same spec played by the engine alone, in this process, gives the same counts.
    alone = run_batch(run.spec, workers=1).stats
    out = lab.charts.data["outcomes"]
    assert list(out.counts) == [alone.wins["marines"], alone.wins["draw"], alone.wins["genestealers"]]
    assert list(out.trials) == [GAMES] * 3
    assert all(lo <= r <= hi for r, lo, hi in zip(out.rate, out.low, out.high, strict=True))
    turns, counts = lab.charts.data["length"]
    assert {int(t): int(c) for t, c in zip(turns, counts, strict=True) if c} == dict(alone.turns)
    for side, (values, n) in lab.charts.data["casualties"].items():
        assert {int(v): int(c) for v, c in zip(values, n, strict=True) if c} == dict(alone.casualties[side])
    ms = lab.charts.data["marines"]
    assert ms.labels == list(alone.marines)
    assert list(ms.counts) == [alone.marines[m].survived for m in ms.labels]
    games, rate, low, high = lab.charts.data["convergence"]
    assert games[-1] == GAMES and rate[-1] == pytest.approx(alone.rate("marines"))
    assert all(lo <= r <= hi for r, lo, hi in zip(rate, low, high, strict=True))
    assert lab.run_panel.progress.value() == GAMES
    assert "12/12 games" in lab.run_panel.status.text()
    assert f"{GAMES} games" in lab.charts.headline.text()


def test_heatmap_paints_the_batch_counts_on_the_level(finished_lab: LabWidget) -> None:
    lab = finished_lab
    traffic = lab.run.stats.squares["genestealer_traffic"]  # type: ignore[union-attr]
    assert traffic, "random Genestealers walk somewhere in 12 games"
    lab.heatmaps.set_kind("genestealer_traffic")
    scene = lab.lab_map.scene("deck")
    assert scene is not None
    painted = scene.heatmap.values
    expected = {(x, y): n / GAMES for (lv, x, y), n in traffic.items() if lv == "deck"}
    assert painted.keys() == expected.keys()
    assert all(painted[k] == pytest.approx(v) for k, v in expected.items())
    assert lab.heatmaps.colour_bar.vmax == pytest.approx(max(expected.values()))
    lab.heatmaps.set_kind("")
    assert scene.heatmap.values == {}


def test_replay_steps_move_tokens_and_show_dice(finished_lab: LabWidget, qtbot: Any) -> None:
    lab = finished_lab
    replay = lab.replay
    assert replay.games.rowCount() == GAMES
    replay.load(3)
    qtbot.waitUntil(lambda: bool(replay.frames) and replay.game_index == 3 and replay._loader is None,
                    timeout=TIMEOUT_MS)
    frames = replay.frames
    assert frames[0].step == -1 and replay.position == 0
    assert replay.events.count() == len(frames)
    moved = next(i for i in range(1, len(frames)) if frames[i].tokens != frames[i - 1].tokens)
    replay.go(moved - 1)
    before = replay.current_tokens()
    replay.forward()
    after = replay.current_tokens()
    assert replay.position == moved and before != after
    assert after == {lv: frames[moved].tokens.get(lv, []) for lv in after}
    replay.back()
    assert replay.current_tokens() == before
    with_dice = next(i for i, f in enumerate(frames) if f.dice)
    replay.go(with_dice)
    assert "Dice:" in replay.dice_label.text()
    assert str(frames[with_dice].dice[0]) in replay.dice_label.text()
    replay.go(len(frames) - 2)
    replay.set_playing(True)
    qtbot.waitUntil(lambda: replay.position == len(frames) - 1, timeout=10_000)
    qtbot.waitUntil(lambda: not replay.timer.isActive(), timeout=5_000)
    replay.clear_tokens()
    assert all(not t for t in replay.current_tokens().values())


def test_exports_write_valid_png_svg_json_csv(finished_lab: LabWidget, tmp_path: Path) -> None:
    lab = finished_lab
    run = lab.run
    assert run is not None
    export.save_json(run, tmp_path / "r.json")
    doc = read_results(tmp_path / "r.json")  # format, version and results schema
    assert [g["index"] for g in doc["games"]] == list(range(GAMES))
    assert doc["summary"]["games"] == GAMES and doc["spec"]["seed"] == 7
    assert doc["summary"]["marine_wins"] == run.stats.wins["marines"]
    export.save_csv(run, tmp_path / "r.csv")
    with (tmp_path / "r.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == GAMES
    assert sum(r["winner"] == "genestealers" for r in rows) == run.stats.wins["genestealers"]
    for name, widget in (("charts", lab.charts.canvas), ("map", lab.lab_map.view), ("sweep", lab.sweep.canvas)):
        export.save_png(widget, tmp_path / f"{name}.png")
        image = QImage(str(tmp_path / f"{name}.png"))
        assert not image.isNull() and image.width() == 2 * widget.width()
        export.save_svg(widget, tmp_path / f"{name}.svg")
        root = ET.parse(tmp_path / f"{name}.svg").getroot()
        assert root.tag.endswith("svg")
        assert len(list(root.iter())) > 20, "the drawing has content"
    svg_text = (tmp_path / "charts.svg").read_text(encoding="utf-8")
    assert "Game length" in svg_text  # titles stay text in the vector file
    scene = lab.lab_map.scene("deck")
    assert scene is not None
    export.save_scene_svg(scene, tmp_path / "level.svg")
    export.save_scene_png(scene, tmp_path / "level.png")
    assert ET.parse(tmp_path / "level.svg").getroot().tag.endswith("svg")
    assert not QImage(str(tmp_path / "level.png")).isNull()
    json.loads(export.results_json(run))


def test_cancel_keeps_the_games_that_finished(qtbot: Any) -> None:
    lab = make_lab(qtbot, games=20_000, workers=1)
    with qtbot.waitSignal(lab.jobFinished, timeout=TIMEOUT_MS):
        assert lab.start_batch()
        assert lab.run_panel.cancel_button.isEnabled() and not lab.run_panel.run_button.isEnabled()
        qtbot.waitUntil(lambda: lab.run is not None and lab.run.done >= 3, timeout=TIMEOUT_MS)
        # The replay's game list fills while the batch runs (no waiting for the end to pick a game).
        qtbot.waitUntil(lambda: lab.replay.games.rowCount() >= 3, timeout=TIMEOUT_MS)
        assert lab.run is not None and lab.run.running
        lab.run_panel.cancel_button.click()
    run = lab.run
    assert run is not None and run.status is not None
    assert run.status.stopped == "cancelled"
    assert 3 <= run.done < 20_000
    assert len(run.rows) == run.done
    assert int(lab.charts.data["outcomes"].counts.sum()) == run.stats.games == run.done
    assert lab.run_panel.run_button.isEnabled() and not lab.run_panel.cancel_button.isEnabled()
    assert "cancelled" in lab.run_panel.status.text()
    listed = [int(lab.replay.games.item(i, 0).text()) for i in range(lab.replay.games.rowCount())]
    assert listed == sorted(r.index for r in run.rows)  # once over: every game once, by index
    lab.shutdown()


def test_bad_override_is_reported_and_nothing_runs(qtbot: Any) -> None:
    lab = make_lab(qtbot)
    lab.run_panel.overrides.set_override("overwatch_range", "far")
    assert not lab.start_batch()
    assert lab.job is None
    assert "overwatch_range" in lab.run_panel.status.text()


def test_saved_results_open_again_with_the_same_charts(finished_lab: LabWidget, qtbot: Any,
                                                       tmp_path: Path) -> None:
    run = finished_lab.run
    assert run is not None
    export.save_json(run, tmp_path / "shared.json")
    other = make_lab(qtbot)
    assert other.open_results(str(tmp_path / "shared.json"))
    assert other.run is not None and other.run.stats.wins == run.stats.wins
    assert list(other.charts.data["outcomes"].counts) == list(finished_lab.charts.data["outcomes"].counts)
    assert other.run.stats.squares == run.stats.squares  # heatmaps come back from the file's totals
    assert other.replay.games.rowCount() == GAMES
    (tmp_path / "bad.json").write_text('{"format": "hulkforge-results", "version": 99}', encoding="utf-8")
    assert not other.open_results(str(tmp_path / "bad.json"))
    assert "version" in other.run_panel.status.text()
    assert other.run.stats.games == GAMES  # the batch shown before stays


def test_results_whose_mission_breaks_the_rules_open_but_do_not_replay(finished_lab: LabWidget, qtbot: Any,
                                                                      tmp_path: Path) -> None:
    # A results file may come from someone else: its charts are only numbers, but replaying plays its mission.
    import json

    run = finished_lab.run
    assert run is not None
    export.save_json(run, tmp_path / "shared.json")
    doc = json.loads((tmp_path / "shared.json").read_text(encoding="utf-8"))
    doc["spec"]["mission_doc"]["marines"]["squad"][0]["x"] = 999  # off the map
    (tmp_path / "tampered.json").write_text(json.dumps(doc), encoding="utf-8")
    other = make_lab(qtbot)
    assert other.open_results(str(tmp_path / "tampered.json"))
    assert other.run is not None and other.run.stats.wins == run.stats.wins
    other.replay.load(0)
    assert other.replay._loader is None  # nothing is played
    text = other.replay.step_label.text()
    assert text.startswith("Game 0 cannot be replayed: $.spec.mission_doc.marines.squad[0]"), text
    assert other.open_results(str(tmp_path / "shared.json"))
    assert other.run.replay_refused is None


def test_a_save_that_cannot_be_written_is_a_message(finished_lab: LabWidget, tmp_path: Path) -> None:
    run = finished_lab.run
    target = str(tmp_path / "no" / "such" / "folder" / "r.json")
    finished_lab._write(lambda: export.save_json(run, target), target)  # type: ignore[arg-type]
    assert "Cannot write" in finished_lab.run_panel.status.text()
    assert not (tmp_path / "no").exists()
