"""A Pitfall replay shows the counters drawn for that game's seed, and doors/fire as they are at each step."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from editor import palette
from editor.document import MissionDocument
from editor.lab.lab_map import LabMap
from editor.lab.replay import ReplayPanel
from editor.lab.runs import LabRun
from editor.scene.overlay import Mark
from editor.scene.terrain_item import S
from engine.resources import sample_mission
from engine.sim import BatchSpec, game_seed
from engine.sim.replay import replay_states
from engine.sim.runner import build_game

GAMES = 3
SEED = 3  # game 2 of this batch is short; games 0 and 1 open door UD1
COUNTERS = {"pitfall", "pitfall_bottom", "ladder_top", "ladder_bottom", "rubble", "chute"}


@pytest.fixture(scope="module")
def spec() -> BatchSpec:
    return BatchSpec(games=GAMES, seed=SEED, mission=str(sample_mission("pitfall")),
                     policies={"marines": "random", "genestealers": "random"})


@pytest.fixture
def panel(qtbot: Any, spec: BatchSpec) -> Iterator[ReplayPanel]:
    doc = MissionDocument.open(sample_mission("pitfall"))
    lab_map = LabMap(doc)
    qtbot.addWidget(lab_map)
    replay = ReplayPanel(lab_map)
    qtbot.addWidget(replay)
    replay.run = LabRun(spec)
    yield replay
    if replay._loader is not None:
        replay._loader.wait()


def load(qtbot: Any, replay: ReplayPanel, index: int) -> None:
    replay.load(index)
    qtbot.waitUntil(lambda: replay.game_index == index and replay._loader is None and bool(replay.frames),
                    timeout=60_000)


def engine_counters(spec: BatchSpec, index: int) -> set[tuple[str, str, int, int, str]]:
    """(level, kind, x, y, letter) of every counter of the engine's state for this game's seed."""
    state: Any = build_game(spec).new_state(game_seed(spec.seed, index))
    f = state.features()
    b = state.game.board
    letters = {b.lxy(sq)[1:]: letter for sq, letter in state.feat.pit_letter.items()}
    out = {(lv, "pitfall", x, y, letters[(x, y)]) for lv, x, y in f["pitfalls"]}
    below = {lv.id: state.game.mission.level_below(lv.id) for lv in state.game.mission.levels}
    out |= {(below[lv].id, "pitfall_bottom", x, y, letters[(x, y)]) for lv, x, y in f["pitfalls"]
            if below[lv] is not None and below[lv].is_floor(x, y)}
    out |= {(lv, "ladder_top", x, y, "") for lv, x, y in f["ladder_tops"]}
    out |= {(lv, "ladder_bottom", x, y, "") for lv, x, y in f["ladder_bottoms"]}
    out |= {(lv, "rubble", x, y, "") for lv, x, y in f["rubble"]}
    out |= {(lv, "chute", x, y, "") for lv, x, y in f["chutes"]}
    return out


def shown_counters(replay: ReplayPanel) -> set[tuple[str, str, int, int, str]]:
    return {(lv, m.kind, m.x, m.y, m.label) for lv, ms in replay.current_marks().items()
            for m in ms if isinstance(m, Mark) and m.kind in COUNTERS}


def door_shown(replay: ReplayPanel, door: str) -> str:
    states = [m.state for ms in replay.current_marks().values() for m in ms
              if isinstance(m, Mark) and m.kind == "door" and m.label == door]
    assert len(states) == 1
    return states[0]


def pixel(replay: ReplayPanel, level: str, x: int, y: int, fx: float, fy: float) -> QColor:
    """The colour the level's scene paints at (x + fx, y + fy) in squares."""
    sc = replay.lab_map.scene(level)
    assert sc is not None
    img = QImage(40, 40, QImage.Format.Format_ARGB32)
    img.fill(0)
    p = QPainter(img)
    sc.render(p, QRectF(0, 0, 40, 40), QRectF((x + fx) * S - 2, (y + fy) * S - 2, 4, 4))
    p.end()
    return img.pixelColor(20, 20)


def test_replay_shows_the_counters_drawn_for_each_game(qtbot: Any, panel: ReplayPanel, spec: BatchSpec) -> None:
    seen: list[set[tuple[str, str, int, int, str]]] = []
    for index in range(GAMES):
        load(qtbot, panel, index)
        expected = engine_counters(spec, index)
        assert {k for _lv, k, *_ in expected} >= {"pitfall", "pitfall_bottom", "ladder_top", "rubble"}
        assert sorted(letter for _lv, k, _x, _y, letter in expected if k == "pitfall") == list("ABCDEF")
        assert shown_counters(panel) == expected
        panel.go(len(panel.frames) - 1)  # the counters stay for the whole game
        assert shown_counters(panel) == expected
        seen.append(expected)
    # The draw is per game: the map is not showing one fixed set of counters.
    assert len({frozenset(s) for s in seen}) == GAMES

    # The pitfalls are actually painted on the scene, and gone once the replay is cleared. (A section name
    # may cover part of one, so: most of them, then none.)
    panel.go(0)
    pits = sorted(c for c in seen[-1] if c[1] == "pitfall")
    black = QColor(palette.PITFALL)
    painted = [c for c in pits if pixel(panel, c[0], c[2], c[3], 0.22, 0.5) == black]
    assert len(painted) >= len(pits) - 1
    panel.clear_tokens()
    assert all(not ms for ms in panel.current_marks().values())
    assert not [c for c in pits if pixel(panel, c[0], c[2], c[3], 0.22, 0.5) == black]


def test_a_door_opened_during_the_game_shows_open_from_that_step(qtbot: Any, panel: ReplayPanel,
                                                                 spec: BatchSpec) -> None:
    index = 0
    # The engine says when each door first changes; frame k + 1 is the board after step k (frame 0: set-up).
    opened: tuple[int, str] | None = None
    for step, state in replay_states(spec, index):
        doors: dict[str, str] = state.door_state
        if "UD1" in doors and doors["UD1"] == "open":
            opened = (int(step["step"]), "UD1")
            break
    assert opened is not None, "game 0 of this batch is expected to open UD1"
    step, door = opened
    load(qtbot, panel, index)
    frame = step + 1
    panel.go(frame)
    assert door_shown(panel, door) == "open"
    panel.go(frame - 1)
    assert door_shown(panel, door) == "closed"
    panel.go(0)
    assert door_shown(panel, door) == "closed"


def test_flamer_fire_shows_on_the_steps_the_engine_has_flames(qtbot: Any, panel: ReplayPanel,
                                                              spec: BatchSpec) -> None:
    load(qtbot, panel, 0)
    b = build_game(spec).board
    checked = 0
    for step, state in replay_states(spec, 0):
        frame = int(step["step"]) + 1
        if not state.flames and checked == 0:
            continue
        expected = set()
        for sq in state.flames:
            li, x, y = b.lxy(sq)
            expected.add((b.level_ids[li], x, y))
        panel.go(frame)
        shown = {(lv, m.x, m.y) for lv, ms in panel.current_marks().items() for m in ms
                 if isinstance(m, Mark) and m.kind == "fire"}
        assert shown == expected
        checked += 1
        if checked > 8 and not expected:  # seen flames appear and then go out
            break
    assert checked > 1


def test_game_list_appends_games_as_they_come_back(qtbot: Any, panel: ReplayPanel, spec: BatchSpec) -> None:
    from engine.sim.record import GameRecord

    run = LabRun(spec)
    listed = lambda: [int(panel.games.item(i, 0).text()) for i in range(panel.games.rowCount())]  # noqa: E731
    run.rows.append(GameRecord(2, 0, "marines", 5))
    panel.show_run(run, live=True)
    assert listed() == [2]
    run.rows += [GameRecord(0, 0, "draw", 50), GameRecord(1, 0, None, error="boom")]
    panel.show_run(run, live=True)
    assert listed() == [2, 0, 1]  # finishing order while running, nothing listed twice
    assert panel.games.item(2, 1).text() == "failed"
    panel.show_run(run)  # the batch is over: the full list, by index
    assert listed() == [0, 1, 2]
