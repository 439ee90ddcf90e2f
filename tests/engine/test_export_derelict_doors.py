"""A closed door inside a section cuts it into two Derelict segments: the export says so, naming the section and
the door, because once the door opens Derelict's flamer burns one segment where ours burns the whole section."""

from __future__ import annotations

import copy

from test_export_derelict import build_board, derelict_burn

from engine.export.derelict import MARGIN, derelict_texts
from engine.mission import load_mission
from engine.resources import sample_mission
from engine.rules.game import Game


def test_a_door_inside_a_section_is_named_with_the_burns_that_differ() -> None:
    m = load_mission(sample_mission("pitfall"))
    text, library, warnings = derelict_texts(m, "upper")
    named = [w for w in warnings if "closed door" in w]
    assert named == [
        "section h (Chute approach): closed door UD4 at (26,7) cuts it into 2 Derelict segments; while the door is "
        "closed both flamers burn the same squares, but once it opens ours burns the whole section (4 squares) and "
        "Derelict's only the segment it hits (2 squares)"
    ]
    # What the warning says, measured: Derelict's segment north of the door against our flame with the door open.
    size, cells, tokens, owner = build_board(text, library)
    door = (26 + MARGIN, 7 + MARGIN)
    tokens = [("dooropen" if (x, y) == door else kind, x, y, rot) for kind, x, y, rot in tokens]
    theirs = {(x - MARGIN, y - MARGIN) for x, y in derelict_burn((size, cells, tokens, owner), *door)}
    opened = copy.deepcopy(m)
    next(d for d in opened.doors if d.id == "UD4").state = "open"
    game = Game(opened)
    state, b = game.new_state(0), game.board
    ours = {b.lxy(t)[1:] for t in state.fire.flame_area(b.sq_of("upper", 26, 6))}
    assert theirs == {(26, 6), (26, 7)} and ours == {(26, 6), (26, 7), (26, 8), (26, 9)}


def test_a_door_between_two_sections_is_not_named() -> None:
    m = load_mission(sample_mission("pitfall"))
    _, _, warnings = derelict_texts(m, "upper")
    assert not any("UD1" in w or "UD3" in w for w in warnings)  # each between two sections
    for sample in ("tutorial", "recover_the_relic"):
        mission = load_mission(sample_mission(sample))
        assert not any("closed door" in w for w in derelict_texts(mission, mission.levels[0].id)[2])
