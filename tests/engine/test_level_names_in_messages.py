"""Messages the engine writes for a designer name a level by the name the designer gave it, not its id."""

from __future__ import annotations

import copy

from engine.export.briefing import describe_random_setup, describe_victory
from engine.mission import Mission, load_mission, mission_to_dict, validate_mission
from engine.mission.model import Pitfall
from engine.mission.objects import object_label
from engine.resources import sample_mission


def _messages(m: Mission) -> dict[str, str]:
    return {i.rule: i.message for i in validate_mission(m)}


def test_validation_names_the_level_below_and_levels_sharing_a_depth() -> None:
    m = load_mission(sample_mission("pitfall"))
    broken = copy.deepcopy(m)
    doors = {(d.x, d.y) for d in m.doors}
    x, y = next((x, y) for y, row in enumerate(m.levels[0].rows) for x, c in enumerate(row)
                if c not in "#." and (x, y) not in doors)
    broken.pitfalls.append(Pitfall("F", "upper", x, y))
    row = broken.levels[1].rows[y]
    broken.levels[1].rows[y] = row[:x] + "#" + row[x + 1:]  # the hole's bottom walled up
    assert "directly below it on level 'Lower level'" in _messages(broken)["HOLE-BOTTOM"]
    same = copy.deepcopy(m)
    same.levels[1].depth = 0
    assert {i.message for i in validate_mission(same) if i.rule == "LEVEL-DEPTH"} == {
        "level 'Upper level' shares depth 0 with level 'Lower level'",
        "level 'Lower level' shares depth 0 with level 'Upper level'",
    }


def test_a_level_without_a_name_is_named_by_its_id() -> None:
    m = load_mission(sample_mission("pitfall"))
    m.levels[0].name = ""
    assert m.level_words("upper") == "level 'upper'" and m.level_words("lower") == "level 'Lower level'"
    doc = mission_to_dict(m)
    assert object_label(doc, ("levels", 0)) == "level 'upper'"
    assert object_label(doc, ("levels", 1, "sections", "a")) == "section a of level 'Lower level'"


def test_the_briefing_names_levels() -> None:
    drop = load_mission(sample_mission("the_long_drop"))
    flamed = next(c for c in drop.victory if c.get("kind") == "section_flamed")
    assert describe_victory(drop, flamed).endswith("of level 'Brood deck' is flamed")
    pit = load_mission(sample_mission("pitfall"))
    assert "level 'Upper level': " in describe_random_setup(pit)[1]
