"""Playtest window: a whole tutorial game on each side through the window's own entry points (a model picked on
the map, its action picked in the list, decisions answered in the keyboard dialog), hot-seat behind the curtain,
the Marine person's view behind a tripwire on the blip values, undo and save/resume in the window, and the
finished game kept as a record that `replay` and the lab read."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from editor.play import PlayWindow
from engine.ai.base import SIDES, make_policy, policy_rng
from engine.mission import load_mission
from engine.mission.io import read_document
from engine.resources import sample_mission
from engine.rules.game import Game
from engine.sim.play import action_text, play_out
from engine.sim.replay import replay_game
from engine.sim.results import read_results
from engine.sim.session import HUMAN, PlaySession

MISSION = "tutorial"
SEED = 4


def _session(seats: dict[str, str | None], mission: str = MISSION) -> PlaySession:
    return PlaySession(read_document(str(sample_mission(mission))), seats, SEED,
                       mission_path=str(sample_mission(mission)))


class _Heuristic:
    """A scripted person: answers as the side's heuristic player would, from the same decision RNG."""

    def __init__(self, side: str) -> None:
        self.policy = make_policy(f"heuristic-{side}")
        self.rng = policy_rng(SEED, side)

    def __call__(self, session: PlaySession) -> Any:
        return self.policy.choose(session.state, session.state.legal_view(), self.rng)


def _ready(win: PlayWindow) -> bool:
    s = win.session
    return s.is_over() or win.curtain_up() or (s.human_to_move() and not win._ai_pending)


def _answer(qtbot: Any, win: PlayWindow, action: Any) -> None:
    """Play `action` the way a person does: a dialog answered by its number key, a piece picked in the list of
    models and its action activated in the list, or a button for pass / end."""
    text = action_text(action)
    dialog = win.decision_dialog
    if dialog is not None:
        row = [c.text for c in dialog.choices].index(text)
        if row < 9:
            qtbot.keyClick(dialog, Qt.Key(Qt.Key.Key_1 + row))
        else:
            dialog.pick(row)
        return
    if text == "pass":
        win.pass_b.click()
        return
    if text == "end":
        win.end_b.click()
        return
    pid = action.args[0]
    win.pieces.setCurrentRow(win._piece_ids.index(pid))
    row = [c.text for c in win.choices].index(text)
    win.actions_list.setCurrentRow(row)
    qtbot.keyClick(win.actions_list, Qt.Key.Key_Return)


def _play_through(qtbot: Any, win: PlayWindow, pickers: dict[str, Any], limit: int = 2000) -> int:
    n = 0
    while not win.session.is_over():
        qtbot.waitUntil(lambda: _ready(win), timeout=10000)
        if win.session.is_over():
            break
        if win.curtain_up():
            qtbot.keyClick(win.curtain_b, Qt.Key.Key_Space)
            continue
        side = win.session.to_move()
        assert side is not None and win.viewer == side  # a person sees their own side's view
        _answer(qtbot, win, pickers[side](win.session))
        n += 1
        assert n < limit
    return n


def _known_game() -> list[str]:
    game = Game(load_mission(str(sample_mission(MISSION))))
    policies = {side: make_policy(f"heuristic-{side}") for side in SIDES}
    _state, applied, _capped = play_out(game, SEED, policies)
    return [action_text(a) for a in applied]


@pytest.mark.parametrize("side", SIDES)
def test_a_whole_tutorial_game_through_the_window_is_the_heuristic_game(qtbot: Any, side: str,
                                                                        tmp_path: Path) -> None:
    """The person makes the heuristic's choices through the window: the game is the known heuristic game, and
    its record replays."""
    win = PlayWindow(_session({side: HUMAN}))
    qtbot.addWidget(win)
    decisions = _play_through(qtbot, win, {side: _Heuristic(side)})
    assert decisions > 0
    assert win.session.actions() == _known_game()
    record = tmp_path / "played.json"
    win.keep_game(str(record))
    doc = read_results(record)
    assert doc["spec"]["policies"][side] == HUMAN
    assert replay_game(doc, 0).record.winner == win.session.result()[0]  # type: ignore[index]
    assert "Game over" in win.status.text()


def test_hot_seat_hands_over_behind_a_curtain(qtbot: Any) -> None:
    win = PlayWindow(_session(dict.fromkeys(SIDES, HUMAN)))
    qtbot.addWidget(win)
    assert win.curtain_up()  # nobody sees the board before the first player says they are ready
    rng = random.Random(1)
    curtains = 0
    seen: set[str] = set()
    for _ in range(60):
        qtbot.waitUntil(lambda: _ready(win), timeout=5000)
        if win.session.is_over():
            break
        if win.curtain_up():
            curtains += 1
            qtbot.keyClick(win.curtain_b, Qt.Key.Key_Space)
            continue
        seen.add(win.viewer)
        actions = win.session.legal()
        _answer(qtbot, win, rng.choice(actions))
    assert curtains >= 2 and seen == set(SIDES)


class _Tripwire(dict[str, int]):
    """The kernel's blip values while the Marine person's view is drawn: a read is a leak. A copy of the game (the
    route planner plans on one, as a look-ahead player does, with the hidden values drawn afresh) gets values of
    1 for every blip, so nothing it finds can depend on the real ones."""

    def __init__(self, ids: list[str]) -> None:
        super().__init__()
        self.ids = ids

    def _leak(self, *args: object) -> Any:
        raise AssertionError("the Marine person's view read a blip's hidden value")

    def copy(self) -> dict[str, int]:  # type: ignore[override]
        return dict.fromkeys(self.ids, 1)

    __getitem__ = get = items = values = keys = __iter__ = __contains__ = __len__ = _leak


def test_the_marine_persons_view_reads_no_blip_value(qtbot: Any) -> None:
    """At every Marine decision the whole view (tokens, lists, each model's actions and odds) is drawn with the
    kernel's blip values behind a tripwire; blips show as '?' (the first 80 decisions of a Pitfall game)."""
    win = PlayWindow(_session({"marines": HUMAN}, "pitfall"))
    qtbot.addWidget(win)
    picker = _Heuristic("marines")
    blips_seen = 0
    for _ in range(80):
        qtbot.waitUntil(lambda: _ready(win), timeout=10000)
        if win.session.is_over():
            break
        k = win.session.state.k
        real = k.blip_value
        k.blip_value = _Tripwire(list(dict.keys(real)))
        try:
            win.refresh()
            for pid in list(win._piece_ids):
                win.select_piece(pid)
            for sc in win._scenes.values():
                for t in sc.tokens.tokens:
                    if t.kind == "blip":
                        assert t.label == "?"
                        blips_seen += 1
            action = picker(win.session) if win.session.state.decision() is not None else None
        finally:
            k.blip_value = real
        _answer(qtbot, win, action if action is not None else picker(win.session))
    assert blips_seen > 0


def test_undo_save_and_resume_in_the_window(qtbot: Any, tmp_path: Path) -> None:
    win = PlayWindow(_session({"marines": HUMAN}))
    qtbot.addWidget(win)
    picker = _Heuristic("marines")
    for _ in range(3):
        qtbot.waitUntil(lambda: _ready(win), timeout=10000)
        _answer(qtbot, win, picker(win.session))
    qtbot.waitUntil(lambda: _ready(win), timeout=10000)
    before = win.session.actions()
    win.undo()
    qtbot.waitUntil(lambda: _ready(win), timeout=10000)
    assert len(win.session.actions()) < len(before) and win.session.undone
    path = tmp_path / "game.json"
    win.save_game(str(path))
    kept = win.session.actions()
    other = PlayWindow(_session({"marines": HUMAN}))
    qtbot.addWidget(other)
    assert other.resume(str(path))
    assert other.session.actions() == kept and other.session.undone == win.session.undone
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "hulkforge-playtest", "version": 99}')
    qtbot.waitUntil(lambda: _ready(other), timeout=10000)
    from PySide6.QtWidgets import QMessageBox

    shown: list[str] = []
    orig = QMessageBox.warning
    QMessageBox.warning = staticmethod(lambda _p, _t, text, *a: shown.append(text))  # type: ignore[method-assign]
    try:
        assert not other.resume(str(bad))
    finally:
        QMessageBox.warning = orig  # type: ignore[method-assign]
    assert shown and "$.version" in shown[0]
    assert other.session.actions() == kept  # the refused file changed nothing


def test_the_sand_timer_ends_the_marine_phase_in_the_window(qtbot: Any) -> None:
    from engine.sim.sand_timer import ManualClock, SandTimer
    from engine.sim.session import TIMER

    clock = ManualClock()
    session = PlaySession(read_document(str(sample_mission("pitfall"))), {"marines": HUMAN}, SEED,
                          timer=SandTimer(60, clock))
    win = PlayWindow(session)
    qtbot.addWidget(win)
    qtbot.waitUntil(lambda: _ready(win), timeout=10000)
    while win.decision_dialog is not None:
        _answer(qtbot, win, session.legal()[0])
        qtbot.waitUntil(lambda: _ready(win), timeout=10000)
    assert "1:00 left" in win.timer_label.text()
    clock.advance(61)
    win._tick()  # what the window's clock does every quarter second
    assert session.plies[-1] == session.plies[-1].__class__("pass", "marines", TIMER)


def test_kept_games_show_beside_the_players(qtbot: Any, tmp_path: Path) -> None:
    from editor.document import MissionDocument
    from editor.play.played_panel import PlayedGamesDialog
    from engine.mission import mission_from_dict

    for i, side in enumerate(SIDES):
        session = _session({side: HUMAN})
        session.resign(side)
        session.write_record(str(tmp_path / f"game{i}.json"))
    other = PlaySession(read_document(str(sample_mission("pitfall"))), {"marines": HUMAN}, SEED)
    other.resign("marines")
    other.write_record(str(tmp_path / "other.json"))

    class Window:
        doc = MissionDocument(mission_from_dict(read_document(str(sample_mission(MISSION)))))

    dialog = PlayedGamesDialog(Window(), parent=None)
    qtbot.addWidget(dialog)
    dialog.add([str(tmp_path)])
    assert dialog.table.rowCount() == 2  # the Pitfall game is another mission's
    text = dialog.summary.text()
    assert "You as the Marines: 0 won of 1" in text and "You as the Genestealers: 0 won of 1" in text
    assert "another mission" in text


def test_play_menu_opens_a_playtest_of_the_mission_being_edited(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QDialog

    from editor.app import build_parser, create_main_window
    from editor.play.setup_dialog import PlaytestDialog

    assert build_parser().parse_args(["x.json", "--playtest", "both"]).playtest == "both"
    window = create_main_window(str(sample_mission(MISSION)), with_lab=False, tell=False)
    qtbot.addWidget(window)
    chosen: list[PlaytestDialog] = []

    def accept(dialog: PlaytestDialog) -> int:
        chosen.append(dialog)
        assert dialog.side.currentData() == "genestealers"
        assert dialog.opponent.count() > 0 and dialog.opponent.currentData() == "heuristic-marines"
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(PlaytestDialog, "exec", accept)
    from editor.play import open_playtest

    play = open_playtest(window, "genestealers")
    assert play is not None and chosen
    qtbot.addWidget(play)
    assert play.session.seats == {"marines": "heuristic-marines", "genestealers": HUMAN}
    assert window.play_menu.actions()[0].text() == "&Playtest…"
    qtbot.waitUntil(lambda: _ready(play), timeout=10000)
    play.close()


def test_a_kept_game_opens_in_the_labs_replay(qtbot: Any, tmp_path: Path) -> None:
    """The lab's replay plays a person's game back from its recorded actions (its seat 'human' is no policy)."""
    from editor.document import MissionDocument
    from editor.lab.lab_map import LabMap
    from editor.lab.replay import ReplayPanel
    from editor.lab.runs import run_from_results

    session = _session({"genestealers": HUMAN})
    person = _Heuristic("genestealers")
    while not session.is_over():
        session.apply(person(session)) if session.human_to_move() else session.play_ai()
    path = tmp_path / "kept.json"
    session.write_record(str(path))
    lab_map = LabMap(MissionDocument.open(sample_mission(MISSION)))
    qtbot.addWidget(lab_map)
    replay = ReplayPanel(lab_map)
    qtbot.addWidget(replay)
    replay.show_run(run_from_results(read_results(path), label="kept.json"))
    replay.load(0)
    qtbot.waitUntil(lambda: replay._loader is None and bool(replay.frames), timeout=30_000)
    assert [f.action for f in replay.frames[1:]] == session.actions()


def test_clicks_on_the_map_select_a_model_and_walk_it_to_a_reachable_square(qtbot: Any) -> None:
    from PySide6.QtCore import QPointF

    from editor.scene.terrain_item import S

    session = _session({"marines": HUMAN}, "pitfall")
    win = PlayWindow(session)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: _ready(win), timeout=10000)
    while win.decision_dialog is not None:
        _answer(qtbot, win, session.legal()[0])
        qtbot.waitUntil(lambda: _ready(win), timeout=10000)
    b = session.game.board

    def click(sq: int) -> None:
        li, x, y = b.lxy(sq)
        win.show_level(b.level_ids[li])
        point = win.view.mapFromScene(QPointF((x + 0.5) * S, (y + 0.5) * S))
        qtbot.mouseClick(win.view.viewport(), Qt.MouseButton.LeftButton, pos=point)

    pid = next(p for p in win._piece_ids if session.state.k.p[p].sq >= 0)
    click(session.state.k.p[pid].sq)
    assert win.selected == pid and win.choices  # its actions listed, its squares marked
    far = max(win.routes.values(), key=lambda r: (len(r.actions), -r.cost))
    assert len(far.actions) >= 2
    before = len(session.plies)
    click(far.square)
    assert session.actions()[before:before + len(far.actions)] == [a.text() for a in far.actions]
    assert session.state.k.p[pid].sq == far.square
