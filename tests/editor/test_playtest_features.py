"""Playtest window on The Shaft: a whole Marine game through the window's own controls passing through the kinds the
tutorial lacks — set-up in the deployment area (the square, then the facing, clicked on the map), a Marine coming
out of a boarding torpedo (listed aboard, `enter` marked on the ramp) and turbo-lift rides (the far entrance marked
with its 2 AP on its own level) — and the Marine person's view behind the blip-value tripwire on this mission."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, Qt

from editor.play import PlayWindow
from editor.scene.terrain_item import S
from engine.ai.base import SIDES, make_policy, policy_rng
from engine.mission import load_mission
from engine.mission.io import read_document
from engine.resources import sample_mission
from engine.rules.game import Game
from engine.sim.choices import decision_choices
from engine.sim.play import action_text, play_out
from engine.sim.session import HUMAN, PlaySession

MISSION = "the_shaft"
SEED = 4
MAP_VERBS = ("deploy", "face", "enter", "ride")  # answered by a click on the square the map marks for them


def _session() -> PlaySession:
    path = str(sample_mission(MISSION))
    return PlaySession(read_document(path), {"marines": HUMAN}, SEED, mission_path=path)


def _ready(win: PlayWindow) -> bool:
    s = win.session
    return s.is_over() or (s.human_to_move() and not win._ai_pending)


def _marks(win: PlayWindow, level: str) -> dict[tuple[int, int], tuple[str, str]]:
    return {(m.x, m.y): (m.kind, m.label) for m in win._choice_items[level].marks if m.kind != "piece"}


def _click(qtbot: Any, win: PlayWindow, sq: int) -> None:
    """A left click on square `sq`, its level shown first through the window's level list."""
    b = win.session.game.board
    li, x, y = b.lxy(sq)
    win.level_box.setCurrentIndex(win.level_box.findData(b.level_ids[li]))
    point = win.view.mapFromScene(QPointF((x + 0.5) * S, (y + 0.5) * S))
    qtbot.mouseClick(win.view.viewport(), Qt.MouseButton.LeftButton, pos=point)


def _by_map(qtbot: Any, win: PlayWindow, action: Any, seen: dict[str, int]) -> None:
    """Play a set-up, facing, torpedo or lift action as a person does: on the map, after checking it is marked."""
    s = win.session
    b = s.game.board
    text = action_text(action)
    pid = action.args[0]
    if action.verb in ("deploy", "face"):
        dialog = win.decision_dialog
        assert dialog is not None and not dialog.isModal()  # the map answers while the dialog shows the list
        target = next(c.square for c in dialog.choices if c.text == text)
        level, x, y = b.lxy(target)
        label = action.args[1] if action.verb == "face" else str([c.text for c in dialog.choices].index(text) + 1)
        assert _marks(win, b.level_ids[level])[(x, y)] == ("other", label)
    else:
        row = win._piece_ids.index(pid)
        win.pieces.setCurrentRow(row)
        pc = s.state.k.p[pid]
        if action.verb == "enter":
            assert pc.sq < 0 and "aboard torpedo" in win.pieces.item(row).text()  # listed, not on the map
            target, cost = b.ramps[pc.entry], 1
        else:
            target, cost = dict(s.state.feat.lift[pc.sq])[action.args[1]], 2
        level, x, y = b.lxy(target)
        # Its AP, or the AP he has left and the rest in command points
        mark = ("move", f"{cost} AP") if pc.ap >= cost else ("reach_cp", f"{pc.ap}+{cost - pc.ap}CP")
        assert _marks(win, b.level_ids[level])[(x, y)] == mark
        if action.verb == "ride":  # the far entrance is on another level: the level list says where
            assert "marked" in win.level_box.itemText(win.level_box.findData(b.level_ids[level]))
            assert win.doc.level(b.level_ids[level]).name in win.elsewhere.text()  # seen from the model's level
    before = len(s.plies)
    _click(qtbot, win, target)
    assert s.actions()[before] == text
    seen[action.verb] = seen.get(action.verb, 0) + 1


def _by_controls(qtbot: Any, win: PlayWindow, action: Any) -> None:
    """Any other action: a dialog's number key, the pass / end buttons, or the model and its action in the lists."""
    text = action_text(action)
    dialog = win.decision_dialog
    if dialog is not None:
        row = [c.text for c in dialog.choices].index(text)
        if row < 9:
            qtbot.keyClick(dialog, Qt.Key(Qt.Key.Key_1 + row))
        else:
            dialog.pick(row)
        return
    if text in ("pass", "end"):
        (win.pass_b if text == "pass" else win.end_b).click()
        return
    win.pieces.setCurrentRow(win._piece_ids.index(action.args[0]))
    win.actions_list.setCurrentRow([c.text for c in win.choices].index(text))
    qtbot.keyClick(win.actions_list, Qt.Key.Key_Return)


def _known_game() -> list[str]:
    game = Game(load_mission(str(sample_mission(MISSION))))
    _state, applied, _capped = play_out(game, SEED, {side: make_policy(f"heuristic-{side}") for side in SIDES})
    return [action_text(a) for a in applied]


def test_a_whole_shaft_game_deploys_enters_and_rides_through_the_window(qtbot: Any) -> None:
    """The person makes the Marine heuristic's choices: deployment squares and facings clicked on the marked
    squares, the torpedo's Marine brought out on its marked ramp, rides taken on the far entrance marked 2 AP; the
    game is the known heuristic game."""
    win = PlayWindow(_session())
    qtbot.addWidget(win)
    win.show()
    policy, rng = make_policy("heuristic-marines"), policy_rng(SEED, "marines")
    seen: dict[str, int] = {}
    for _ in range(2000):
        qtbot.waitUntil(lambda: _ready(win), timeout=10000)
        if win.session.is_over():
            break
        action = policy.choose(win.session.state, win.session.state.legal_view(), rng)
        if action.verb in MAP_VERBS:
            _by_map(qtbot, win, action, seen)
        else:
            _by_controls(qtbot, win, action)
    assert win.session.is_over()
    assert win.session.actions() == _known_game()
    assert seen.get("deploy", 0) == seen.get("face", 0) == 4 and seen.get("enter") == 1 and seen.get("ride", 0) >= 2


class _Tripwire(dict[str, int]):
    """The kernel's blip values while the Marine person's view is drawn: a read is a leak (a copy of the game, as the
    route planner makes, gets a value of 1 for every blip)."""

    def __init__(self, ids: list[str]) -> None:
        super().__init__()
        self.ids = ids

    def _leak(self, *args: object) -> Any:
        raise AssertionError("the Marine person's view read a blip's hidden value")

    def copy(self) -> dict[str, int]:  # type: ignore[override]
        return dict.fromkeys(self.ids, 1)

    __getitem__ = get = items = values = keys = __iter__ = __contains__ = __len__ = _leak


def test_the_marine_persons_view_of_the_shaft_reads_no_blip_value(qtbot: Any) -> None:
    """At the Marine decisions of the first turns of The Shaft (set-up, the torpedo, the lift, blips on the decks)
    every model's choices and the decisions' answers are drawn with the blip values behind a tripwire."""
    win = PlayWindow(_session())
    qtbot.addWidget(win)
    policy, rng = make_policy("heuristic-marines"), policy_rng(SEED, "marines")
    verbs: set[str] = set()
    blips = 0
    for _ in range(60):
        qtbot.waitUntil(lambda: _ready(win), timeout=10000)
        if win.session.is_over():
            break
        s = win.session
        real = s.state.k.blip_value
        s.state.k.blip_value = _Tripwire(list(dict.keys(real)))
        try:
            win.refresh()
            if s.state.decision() is None:
                for pid in list(win._piece_ids):
                    win.select_piece(pid)
                    verbs |= {c.verb for c in win.choices}
            else:
                win._mark_answers(decision_choices(s.state))
            blips += sum(1 for pc in s.state.k.p.values() if pc.kind == "blip" and pc.sq >= 0)
        finally:
            s.state.k.blip_value = real
        _by_controls(qtbot, win, policy.choose(s.state, s.state.legal_view(), rng))
    assert {"enter", "ride"} <= verbs and blips > 0
