"""Lab › Strength draws the skill curve, names the verdict and notes the tiers it could not play."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pytestqt")

import engine.ai.base as registry
from editor.document import MissionDocument
from editor.lab.lab_widget import LabWidget
from engine.ai.base import policy_names
from engine.resources import sample_mission
from engine.tune.strength import Cell, StrengthReport

TIMEOUT_MS = 120_000


@pytest.fixture
def lab(qtbot: Any) -> Any:
    w = LabWidget(MissionDocument.open(sample_mission("tutorial")))
    qtbot.addWidget(w)
    w.run_panel.workers.setValue(1)
    w.run_panel.seed.setValue(1)
    yield w
    w.shutdown()


def test_the_strength_tab_draws_the_curve_of_the_tiers_it_played(lab: LabWidget, qtbot: Any,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    policy_names()
    for name in ("search-marines", "search-genestealers"):
        monkeypatch.delitem(registry._REGISTRY, name, raising=False)
    panel = lab.strength
    panel.games.setValue(10)
    panel.full.setChecked(False)
    panel.tiers.setText("random,novice,heuristic,search")
    with qtbot.waitSignal(panel.finished, timeout=TIMEOUT_MS) as blocker:
        panel.run_button.click()
    report: StrengthReport = blocker.args[0]
    pts = panel.chart_points()
    assert pts["tiers"] == ["random", "novice", "heuristic"]
    assert list(pts["rate"]) == [c.rate() for c in report.curve()]
    assert all(pts["low"] <= pts["rate"]) and all(pts["rate"] <= pts["high"])
    verdict = report.curve_verdict()
    assert verdict is not None and verdict.headline in panel.verdict.text()
    assert verdict.headline in panel.plot.titleLabel.text
    assert "tier search skipped" in panel.verdict.text()


def test_the_tuned_players_are_drawn_apart_from_the_curve(lab: LabWidget) -> None:
    panel = lab.strength
    panel.levels = ["random", "heuristic", "tuned"]
    same = ["marines", "genestealers"] * 200
    for lv, winners in (("random", ["genestealers"] * 400), ("heuristic", same), ("tuned", ["marines"] * 400)):
        panel._cell(Cell(lv, lv, winners))
    report = StrengthReport(panel.levels, {(c.marines, c.genestealers): c for c in panel.cells})
    panel._done(report, "")
    pts = panel.chart_points()
    assert pts["tiers"] == ["random", "heuristic"] and list(pts["x"]) == [0.0, 1.0]
    assert list(pts["tuned"]["x"]) == [2.0] and list(pts["tuned"]["rate"]) == [1.0]
    assert "MARINE WIN RATE STILL RISING WITH SKILL" in panel.plot.titleLabel.text
    assert "DEPENDS ON WHO PLAYS" in panel.verdict.text()  # tuned Marines win every game


def test_the_designers_own_games_are_drawn_across_the_curve(lab: LabWidget, tmp_path: Any) -> None:
    import pyqtgraph as pg

    from editor import settings
    from engine.mission.io import read_document
    from engine.sim.session import HUMAN, PlaySession

    doc = read_document(str(sample_mission("tutorial")))
    for i, (side, resigns) in enumerate((("marines", "marines"), ("marines", "genestealers"),
                                         ("genestealers", "genestealers"))):
        s = PlaySession(doc, {side: HUMAN}, 3)
        s.resign(resigns)
        s.write_record(str(tmp_path / f"g{i}.json"))
    other = PlaySession(read_document(str(sample_mission("pitfall"))), {"marines": HUMAN}, 3)
    other.resign("genestealers")
    other.write_record(str(tmp_path / "other.json"))  # another mission's game: not drawn
    settings.settings().setValue("play/folder", str(tmp_path))
    try:
        panel = lab.strength
        assert sorted(rate for _label, rate in panel.people_lines()) == [0.5, 1.0]
        panel._draw()
        lines = [it for it in panel.plot.items if isinstance(it, pg.InfiniteLine)]
        assert sorted(line.value() for line in lines) == [0.5, 1.0]  # as the Marines 1 of 2; the GS lost 1 of 1
        assert any("you as the marines" in line.label.toPlainText() for line in lines)
    finally:
        settings.settings().remove("play/folder")
