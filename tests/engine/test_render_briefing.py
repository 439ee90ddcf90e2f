"""The print sheet tells the whole game: the ruleset, every rule option in force and the psi points on the first
sheet, and each Marine counter marked with its weapon, the legend saying what the marks mean."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from engine.cli import main
from engine.export.svg import CELL, pages
from engine.mission import load_mission
from engine.mission.model import Mission
from engine.resources import sample_mission
from engine.rules.options import explain_options

NS = "{http://www.w3.org/2000/svg}"


def _texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{NS}text")]


def _armed(m: Mission, **arms: dict[str, object]) -> Mission:
    squad = [dataclasses.replace(x, **arms[x.id]) if x.id in arms else x for x in m.marines.squad]
    return dataclasses.replace(m, marines=dataclasses.replace(m.marines, squad=squad))


def test_first_sheet_names_the_ruleset_and_every_option_in_force() -> None:
    m = load_mission(sample_mission("the_long_drop"))
    m = dataclasses.replace(m, options={**m.options, "overkill": True, "flamer_shots": 9})
    first, second = pages(m, None)
    words = " ".join(_texts(first.svg)).replace("  ", " ")
    assert f"Rules: ruleset {m.ruleset};" in words
    assert "overkill on (set by the mission)" in words and "flamer_shots 9 (set by the mission)" in words
    for o in explain_options(m):
        assert f" {o.name} " in f" {words} ", o.name
    assert f"psi points {m.marines.psi_points}" in words  # the Archivist's store
    assert "overkill" not in " ".join(_texts(second.svg))  # said once, on the first sheet


def test_psi_points_are_printed_when_the_squad_has_an_archivist() -> None:
    m = load_mission(sample_mission("pitfall"))
    assert "psi points" not in " ".join(_texts(pages(m, None)[0].svg))  # no Archivist: no psi to spend
    m = _armed(m, sgt={"rank": "archivist", "melee": "force_axe"})
    m = dataclasses.replace(m, marines=dataclasses.replace(m.marines, psi_points=17))
    assert "psi points 17" in " ".join(_texts(pages(m, None)[0].svg))


def test_rules_survive_a_description_too_long_for_the_page() -> None:
    m = load_mission(sample_mission("tutorial"))
    m.meta = dataclasses.replace(m.meta, description="A very long briefing. " * 800)
    [a4] = pages(m, None, paper="a4")
    words = " ".join(_texts(a4.svg))
    assert "... (the rest is in the mission file)" in words
    assert all(f" {o.name} " in f" {words} " for o in explain_options(m))


def _mark_under(svg: str, col: int) -> list[str]:
    """The texts drawn centred in column col of the map, below a square's middle (a counter's second line)."""
    root = ET.fromstring(svg)
    texts = list(root.iter(f"{NS}text"))
    left = next(float(t.get("x", "0")) for t in texts if t.text == "0") - 0.5 * CELL
    x = f"{left + (col + 0.5) * CELL:.2f}"
    return [t.text or "" for t in texts if t.get("x") == x and t.get("fill") == "#ffd84a"]


def test_marine_counters_show_their_weapons_and_the_legend_explains_them() -> None:
    m = load_mission(sample_mission("pitfall"))  # m2 carries the heavy flamer
    m = _armed(
        m,
        m1={"ranged": "assault_cannon"},
        m3={"ranged": "none", "melee": "thunder_hammer", "storm_shield": True},
        m4={"ranged": "none", "melee": "lightning_claws"},
    )
    svg = pages(m, ["upper"])[0].svg
    squad = {x.id: x for x in m.marines.squad}
    marks = {mid: _mark_under(svg, squad[mid].x) for mid in squad}
    assert marks == {"sgt": [], "m1": ["AC"], "m2": ["F"], "m3": ["TH+S"], "m4": ["LC"]}
    legend = " ".join(_texts(svg))
    assert "F heavy flamer" in legend and "AC assault cannon" in legend and "LC lightning claws" in legend
    assert "TH thunder hammer" in legend and "S storm shield" in legend
    assert "CF chain fist" not in legend  # only the marks the sheet shows


def test_a_squad_of_storm_bolters_has_no_marks_and_no_legend_line() -> None:
    svg = pages(load_mission(sample_mission("tutorial")), None)[0].svg
    assert "Under a Marine's id" not in " ".join(_texts(svg))
    assert all(t.get("fill") != "#ffd84a" for t in ET.fromstring(svg).iter(f"{NS}text"))


def test_render_command_prints_the_flamer_mark(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", "pitfall", "--format", "svg", "-o", str(tmp_path / "p.svg"), "--level", "upper"]) == 0
    [written] = list(tmp_path.glob("*.svg"))
    words = _texts(written.read_text())
    assert "F" in words and any(w.startswith("Under a Marine's id: F heavy flamer") for w in words)
