"""PlayWindow: a playtest of the mission. The person clicks a model to see its legal actions on the map and picks
one; decisions the rules ask come as keyboard dialogs; the AI's turns run a decision per event-loop slice, so the
window never freezes; hot-seat players hand over behind a curtain. The view reads only the observation of the side
it shows. The game itself is engine.sim.session.PlaySession: this window only draws and asks.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeyEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMainWindow,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from editor.lab.replay_frames import feature_marks, step_marks
from editor.play.board import (
    SIDE_NAMES,
    AiWorker,
    BoardView,
    board_document,
    cost_text,
    event_line,
    on_squares,
    square_mark,
    where_text,
)
from editor.play.decision_dialog import DecisionDialog
from editor.play.game_files import GameFiles
from editor.play.marks import ATTACKS, ChoicesItem, SquareMark, view_tokens
from editor.scene.level_scene import LevelScene
from engine.sim.choices import Choice, Route, decision_choices, piece_choices, reach
from engine.sim.session import PlaySession

TIMER_TICK_MS = 250


class PlayWindow(GameFiles, QMainWindow):
    """One playtest (see the module's docstring)."""

    humanWaiting = Signal()  # a person's decision is on screen (tests and scripts answer it)
    gameOver = Signal()

    def __init__(self, session: PlaySession, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setObjectName("Playtest")
        self.session = session
        self.doc = board_document(session, self)
        self.viewer = session.humans()[0] if session.humans() else "marines"  # whose observation is drawn
        self.selected: str | None = None
        self.choices: list[Choice] = []
        self.decision_dialog: DecisionDialog | None = None
        self.record_path: str | None = None
        self._handed_to: str | None = None  # hot-seat: the side that last saw the board
        self._logged = 0
        self._ai_pending = False
        self._worker: AiWorker | None = None
        self.closed = False
        app = QApplication.instance()
        if app is not None:  # the editor quitting with the window open: the policy's thread ends first
            app.aboutToQuit.connect(self.stop)
        self._scenes: dict[str, LevelScene] = {}
        self._piece_ids: list[str] = []
        self._choice_items: dict[str, ChoicesItem] = {}
        self._features_of: object = None
        self._feature_marks: dict[str, list[object]] = {}
        self._marked_levels: dict[str, int] = {}  # level -> squares the selected model's actions mark there

        self.level_box = QComboBox()
        for lv in sorted(self.doc.mission.levels, key=lambda lv: lv.depth):
            self.level_box.addItem(f"{lv.name or lv.id}", lv.id)
        self.view = BoardView()
        self.view.squareClicked.connect(self.click_square)
        self.level_box.currentIndexChanged.connect(self._show_level)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.timer_label = QLabel()
        self.timer_label.setStyleSheet("font-weight: bold; color: #b71c1c;")
        self.pieces = QListWidget()
        self.pieces.currentRowChanged.connect(self._piece_row)
        self.actions_list = QListWidget()
        self.actions_list.itemActivated.connect(lambda _i: self.apply_row(self.actions_list.currentRow()))
        self.pass_b = QPushButton("End phase (pass)")
        self.pass_b.clicked.connect(lambda: self.choose_text("pass"))
        self.end_b = QPushButton("End activation")
        self.end_b.clicked.connect(lambda: self.choose_text("end"))
        self.undo_b = QPushButton("Undo decision")
        self.undo_b.clicked.connect(self.undo)
        self.dice = QLabel()
        self.dice.setTextFormat(Qt.TextFormat.RichText)
        self.log = QListWidget()
        self.log.setStyleSheet("font-family: monospace;")
        self.log.setWordWrap(True)
        self.log.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        top.addWidget(QLabel("Level"))
        top.addWidget(self.level_box, 1)
        self.elsewhere = QLabel()  # the other levels holding marked squares (a ride's, a climb's far end)
        self.elsewhere.setStyleSheet("color: #2e7d32; font-weight: bold;")
        top.addWidget(self.elsewhere)
        ll.addLayout(top)
        ll.addWidget(self.view, 1)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.addWidget(self.status)
        rl.addWidget(self.timer_label)
        rl.addWidget(QLabel("<b>Your models</b> (click one on the map or here)"))
        rl.addWidget(self.pieces, 1)
        rl.addWidget(QLabel("<b>Its actions</b> (double-click or Enter; squares on the map)"))
        rl.addWidget(self.actions_list, 2)
        legend = QLabel("On the map: <span style='color:#2e7d32'>■</span> a move and its AP "
                        "(<span style='color:#b26a00'>■</span> 2+1CP: AP, then command points), "
                        "<span style='color:#c62828'>■</span> a target and the chance to kill it, "
                        "<span style='color:#ef6c00'>■</span> a door. Wheel zooms, double-click fits.")
        legend.setWordWrap(True)
        legend.setStyleSheet("color: #444;")
        rl.addWidget(legend)
        buttons = QHBoxLayout()
        for b in (self.end_b, self.pass_b, self.undo_b):
            buttons.addWidget(b)
        rl.addLayout(buttons)
        rl.addWidget(QLabel("<b>Dice</b>"))
        rl.addWidget(self.dice)
        rl.addWidget(self.log, 2)
        board = QSplitter()
        board.addWidget(left)
        board.addWidget(right)
        board.setStretchFactor(0, 3)
        board.setStretchFactor(1, 1)

        self.curtain_text = QLabel()
        self.curtain_text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.curtain_text.setStyleSheet("font-size: 22px;")
        self.curtain_b = QPushButton("I am ready (Enter)")
        self.curtain_b.setDefault(True)
        self.curtain_b.clicked.connect(self.lift_curtain)
        curtain = QWidget()
        cl = QVBoxLayout(curtain)
        cl.addStretch(1)
        cl.addWidget(self.curtain_text)
        cl.addWidget(self.curtain_b, 0, Qt.AlignmentFlag.AlignCenter)
        cl.addStretch(1)
        self.pages = QStackedWidget()
        self.pages.addWidget(board)
        self.pages.addWidget(curtain)
        self.setCentralWidget(self.pages)
        self._make_menu()

        self.clock = QTimer(self)
        self.clock.setInterval(TIMER_TICK_MS)
        self.clock.timeout.connect(self._tick)
        if session.timer is not None:
            self.clock.start()
        self.resize(1400, 900)
        self._retitle()
        self._show_level()
        self.advance()

    # --- menus ---------------------------------------------------------------------------------------------------
    def _make_menu(self) -> None:
        game = self.menuBar().addMenu("&Game")

        def add(text: str, slot: Callable[[], object], key: str | None = None) -> QAction:
            act = game.addAction(text)
            if key:
                act.setShortcut(QKeySequence(key))
            act.triggered.connect(lambda _c=False: slot())
            return act

        add("&Undo last decision", self.undo, "Ctrl+Z")
        add("&Save game in progress…", self.save_dialog, "Ctrl+S")
        add("&Resume a saved game…", self.resume_dialog, "Ctrl+O")
        add("&Keep finished game as…", self.keep_dialog)
        add("Open in the lab's &replay", self.open_in_lab)
        add("Re&sign", self.resign)

    def _retitle(self) -> None:
        seats = " vs ".join(f"{SIDE_NAMES[s]}: {n}" for s, n in self.session.seats.items())
        self.setWindowTitle(f"Playtest — {os.path.basename(self.session.mission_path) or 'mission'} — {seats}")

    # --- the game loop -------------------------------------------------------------------------------------------
    def advance(self) -> None:
        """Show the game as it now stands and hand the next decision to whoever takes it."""
        if self.closed:
            return
        s = self.session
        self._log_new()
        if s.is_over():
            self.clock.stop()
            self.refresh()
            res = s.result()
            if res is not None:
                self.status.setText(f"<b>Game over:</b> {SIDE_NAMES.get(res[0], res[0])} win after {res[1]} "
                                    f"turns ({res[2]}). Game › Keep finished game as… saves it.")
            self.gameOver.emit()
            return
        side = s.to_move()
        if not s.human_to_move():
            self.refresh()
            if not self._ai_pending:
                self._ai_pending = True
                QTimer.singleShot(0, self._ai_slice)  # one decision, then back to the event loop
            return
        assert side is not None
        if len(s.humans()) == 2 and self._handed_to != side:
            self.viewer = side
            self.show_curtain(side)
            return
        self.viewer = side
        self.refresh()
        if s.state.decision() is not None:
            self._ask_decision()
        self.humanWaiting.emit()

    def _ai_slice(self) -> None:
        """Start the policy's decision on a worker thread (the window stays live while a look-ahead thinks)."""
        s = self.session
        if self.closed or s.is_over() or s.human_to_move():
            self._ai_pending = False
            self.advance()
            return
        worker = AiWorker(s.ai_job(), len(s.plies), s)
        worker.chosen.connect(self._ai_chosen)
        worker.failed.connect(self._ai_failed)
        self._worker = worker
        worker.start()

    def _ai_chosen(self, action: object, ply: int, session: object) -> None:
        self._end_worker()
        self._ai_pending = False
        s = self.session
        if self.closed:
            return
        if session is not s or ply != len(s.plies) or s.human_to_move() or s.is_over():
            self.advance()  # the game changed meanwhile (resumed, resigned): the answer is stale
            return
        s.apply(action, by=s.seats[s.to_move() or ""])  # type: ignore[arg-type]
        self.advance()

    def _ai_failed(self, message: str) -> None:
        self._end_worker()
        self._ai_pending = False
        self.status.setText(f"The {self.session.to_move()} player failed: {message}")

    def _end_worker(self) -> None:
        if self._worker is not None:
            self._worker.wait()
            self._worker = None

    def thinking(self) -> bool:
        """A policy is deciding on its thread."""
        return self._ai_pending

    def stop(self) -> None:
        """Stop playing: no policy starts thinking after this (its thread would outlive the window)."""
        self.closed = True
        self.clock.stop()
        self._end_worker()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.stop()
        super().closeEvent(event)

    def show_curtain(self, side: str) -> None:
        """Hot-seat: hide the board until the next player is at the screen."""
        self.curtain_text.setText(f"{SIDE_NAMES[side]} to play.\nThe other player looks away.")
        self.pages.setCurrentIndex(1)
        self.curtain_b.setFocus()
        self.humanWaiting.emit()

    def curtain_up(self) -> bool:
        return self.pages.currentIndex() == 1

    def lift_curtain(self) -> None:
        """The next hot-seat player is ready: show the board from their side."""
        self._handed_to = self.session.to_move()
        if self._handed_to == "marines":
            self.session.turn_timer_again()  # the sand runs from when the Marine player sees the board
        self.pages.setCurrentIndex(0)
        self.advance()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self.curtain_up() and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.lift_curtain()
            return
        super().keyPressEvent(event)

    # --- drawing -------------------------------------------------------------------------------------------------
    def _scene(self, level: str) -> LevelScene:
        sc = self._scenes.get(level)
        if sc is None:
            sc = self._scenes[level] = LevelScene(self.doc, level)
            sc.issue_marks.hide()  # the game shows where the models are, not the mission's deployment or issues
            item = self._choice_items[level] = ChoicesItem()
            sc.addItem(item)
        return sc

    def _show_level(self) -> None:
        level = self.level_box.currentData()
        if level is not None:
            self.view.setScene(self._scene(str(level)))
            self.view.fit()
            self._name_elsewhere()

    def show_level(self, level: str) -> None:
        i = self.level_box.findData(level)
        if i >= 0:
            self.level_box.setCurrentIndex(i)

    def refresh(self) -> None:
        """Redraw the board, the lists and the status from the viewer's observation."""
        obs = self.session.observation(self.viewer)
        tokens = view_tokens(obs)
        if obs.feat is not self._features_of:
            self._features_of, self._feature_marks = obs.feat, feature_marks(obs)  # type: ignore[assignment]
        marks = {lv: list(ms) for lv, ms in self._feature_marks.items()}
        for lv, ms in step_marks(obs).items():
            marks.setdefault(lv, []).extend(ms)
        for i in range(self.level_box.count()):
            lv = str(self.level_box.itemData(i))
            sc = self._scene(lv)
            sc.set_tokens(tokens.get(lv, []))
            sc.set_game_marks(marks.get(lv, []))  # type: ignore[arg-type]
        self._fill_pieces()
        self._show_choices()
        s = self.session
        waiting = s.to_move()
        who = "you" if s.human_to_move() else f"the {s.seats.get(waiting or '', '')} player"
        d = obs.decision()
        about = f"decision: {type(d).__name__.removesuffix('Decision').lower()}" if d is not None else "action phase"
        self.status.setText(f"Turn {obs.turn} — {SIDE_NAMES.get(waiting or '', 'nobody')} to decide ({who}); "
                            f"{about}; command points {obs.cp}. You see the {SIDE_NAMES[self.viewer]}' view.")
        human_phase = s.human_to_move() and d is None
        for b in (self.pass_b, self.end_b):
            b.setEnabled(human_phase)
        self.undo_b.setEnabled(s.can_undo())
        self._tick()

    def _fill_pieces(self) -> None:
        obs = self.session.observation(self.viewer)
        own = [pc for pc in obs.p.values() if (pc.kind == "marine") == (self.viewer == "marines")]
        self.pieces.blockSignals(True)
        self.pieces.clear()
        self._piece_ids = []
        b = obs.game.board
        for pc in own:
            where = where_text(b, pc)
            what = "blip" if pc.kind == "blip" else ("marine" if pc.kind == "marine" else "stealer")
            self.pieces.addItem(f"{pc.id}  {what}  {where}  {pc.ap} AP")
            self._piece_ids.append(pc.id)
        if self.selected in self._piece_ids:
            self.pieces.setCurrentRow(self._piece_ids.index(self.selected))
        self.pieces.blockSignals(False)

    def _piece_row(self, row: int) -> None:
        if 0 <= row < len(self._piece_ids):
            self.select_piece(self._piece_ids[row])

    def select_piece(self, pid: str | None) -> None:
        """Show what piece `pid` may do now (its squares on the map, its actions in the list)."""
        self.selected = pid
        self.pieces.blockSignals(True)
        self.pieces.setCurrentRow(self._piece_ids.index(pid) if pid in self._piece_ids else -1)
        self.pieces.blockSignals(False)
        self._show_choices()
        pc = self.session.state.piece(pid) if pid else None
        if pc is not None:
            b = self.session.game.board
            # (one aboard a torpedo or lurking: the level of the square it would come in on)
            sq = pc.sq if pc.sq >= 0 else b.ramps.get(pc.entry, b.entries.get(pc.entry, -1))
            if sq >= 0:
                self.show_level(b.level_ids[b.lxy(sq)[0]])

    def _show_choices(self) -> None:
        s = self.session
        mine = s.human_to_move() and s.state.decision() is None and self.selected is not None
        self.choices = piece_choices(s.state, self.selected) if mine and self.selected else []
        self.routes: dict[int, Route] = reach(s.state, self.selected) if mine and self.selected else {}
        self.actions_list.clear()
        for c in self.choices:
            label = c.label()
            self.actions_list.addItem(f"{c.text}" + (f"   {label}" if label else ""))
        b = s.game.board
        per_level: dict[str, dict[tuple[int, int], list[Choice]]] = {}
        for c in self.choices:
            if c.square >= 0:
                li, x, y = b.lxy(c.square)
                per_level.setdefault(b.level_ids[li], {}).setdefault((x, y), []).append(c)
        sel = s.state.piece(self.selected) if self.selected else None
        for lv, item in self._choice_items.items():
            marks: list[SquareMark] = []
            here = per_level.get(lv, {})
            for (x, y), cs in here.items():
                marks.append(square_mark(x, y, cs, sel))
            for sq, route in self.routes.items():
                li, x, y = b.lxy(sq)
                if b.level_ids[li] == lv and (x, y) not in here:
                    text = cost_text(route.cost, sel)
                    marks.append(SquareMark(x, y, "reach_cp" if "CP" in text else "reach", text))
            if sel is not None and sel.sq >= 0:
                li, x, y = b.lxy(sel.sq)
                if b.level_ids[li] == lv:
                    marks.append(SquareMark(x, y, "piece"))
            item.set_marks(marks)
        self._name_levels({lv: len(cs) for lv, cs in per_level.items()})

    def _name_levels(self, marked: dict[str, int]) -> None:
        """The level list says which levels hold marked squares (a ride's or a climb's far end is on another level
        than the model)."""
        self._marked_levels = marked
        for i in range(self.level_box.count()):
            lv = self.doc.level(str(self.level_box.itemData(i)))
            n = marked.get(lv.id, 0)
            self.level_box.setItemText(i, f"{lv.name or lv.id}" + (f"   ◆ {n} marked" if n else ""))
        self._name_elsewhere()

    def _name_elsewhere(self) -> None:
        here = self.level_box.currentData()
        others = [lv.name or lv.id for lv in sorted(self.doc.mission.levels, key=lambda lv: lv.depth)
                  if lv.id != here and lv.id in self._marked_levels]
        self.elsewhere.setText(f"Also marked: {', '.join(others)}" if others else "")

    def _log_new(self) -> None:
        log = self.session.state.log
        if len(log) < self._logged:  # undone decisions: the log was rebuilt
            self.log.clear()
            self._logged = 0
        new = log[self._logged:]
        for ev in new:
            self.log.addItem(event_line(ev))
        self._logged = len(log)
        if new:
            self.log.scrollToBottom()
            rolled = [ev for ev in new if ev.dice]
            if rolled:
                ev = rolled[-1]
                boxes = " ".join(
                    f"<span style='background:#fff; border:1px solid #333; padding:2px 6px; font-weight:bold;"
                    f" color:{'#2e7d32' if d >= 5 else '#222'}'>&nbsp;{d}&nbsp;</span>" for d in ev.dice)
                self.dice.setText(f"{ev.action}: {boxes}<br>{ev.effects}")

    def _tick(self) -> None:
        timer = self.session.timer
        if timer is None:
            self.timer_label.setText("")
            return
        if self.session.timer_check():
            self.advance()
            return
        if timer.running:
            left = timer.left()
            self.timer_label.setText(f"Sand timer: {int(left) // 60}:{int(left) % 60:02d} left")
        else:
            self.timer_label.setText(f"Sand timer: {timer.seconds:.0f} s (turned when the Marine command phase ends)")

    # --- the person's decisions ----------------------------------------------------------------------------------
    def click_square(self, x: int, y: int) -> None:
        """A click on the map: a marked square plays its action (a list when several); an own model selects it."""
        s = self.session
        if not s.human_to_move() or self.curtain_up():
            return
        level = str(self.level_box.currentData())
        lv = self.doc.level(level)
        if not (0 <= x < lv.width and 0 <= y < lv.height):
            return
        sq = s.game.board.sq_of(level, x, y)
        if s.state.decision() is not None:
            self._answer_on(sq)
            return
        here = [c for c in self.choices if c.square == sq]
        if len(here) == 1 and here[0].verb != "turn":
            self.choose(here[0])
            return
        route = self.routes.get(sq)
        if route is not None and not any(c.verb in ATTACKS for c in here):
            self.follow(route)
            return
        pid = s.state.k.occ.get(sq)
        obs = s.observation(self.viewer)
        pc = obs.piece(pid) if pid else None
        if pc is not None and (pc.kind == "marine") == (self.viewer == "marines"):
            self.select_piece(pid)
            self.actions_list.setFocus()
            return
        if here:
            rows = [self.choices.index(c) for c in here]
            self.actions_list.setCurrentRow(rows[0])
            self.actions_list.setFocus()

    def follow(self, route: Route) -> None:
        """Walk a planned route, step by step, while each step is still legal and nothing interrupts it (the
        game may ask a decision on the way: an overwatch shot, a conversion)."""
        s = self.session
        side = s.to_move()
        for action in route.actions:
            if s.to_move() != side or s.state.decision() is not None or not s.state.is_legal(action):
                break
            s.apply(action)
            if s.timer_check():
                break
        self.advance()

    def apply_row(self, row: int) -> None:
        if 0 <= row < len(self.choices):
            self.choose(self.choices[row])

    def choose_text(self, text: str) -> None:
        """Play the action whose text is `text` (pass, end, ...) if it is legal now."""
        for a in self.session.legal():
            if a.text() == text:
                self._apply(a)
                return

    def choose(self, choice: Choice) -> None:
        """Play a listed choice (the one entry point of clicks, the list, the buttons and the dialogs)."""
        self._apply(choice.action)

    def _apply(self, action: object) -> None:
        s = self.session
        if not s.human_to_move():
            return
        s.apply(action)  # type: ignore[arg-type]
        if self.selected is not None and (s.state.piece(self.selected) is None):
            self.selected = None
        s.timer_check()
        self.advance()

    def _ask_decision(self) -> None:
        if self.decision_dialog is not None and self.decision_dialog.isVisible():
            return
        s = self.session
        d = s.state.decision()
        choices = decision_choices(s.state)
        about = " ".join((type(d).__doc__ or "").strip().split("\n\n")[0].split())
        self._mark_answers(choices)
        dialog = DecisionDialog(f"{SIDE_NAMES[self.viewer]}: {type(d).__name__}", about, choices, self)
        dialog.picked.connect(self._decided)
        self.decision_dialog = dialog
        if on_squares(choices):
            # A placement (a deployment square, a facing, where a Genestealer goes): the map stays live so a click
            # on a marked square answers; the dialog sits beside the board.
            placed = next(c.square for c in choices if c.square >= 0)
            b = s.game.board
            self.show_level(b.level_ids[b.lxy(placed)[0]])
            dialog.setModal(False)
            dialog.show()
            self._place_dialog()
        else:
            dialog.open()

    def _place_dialog(self) -> None:
        """A placement's dialog over the log, clear of the map, the models' list and the buttons."""
        dialog = self.decision_dialog
        if dialog is not None and dialog.isVisible() and not dialog.isModal():
            dialog.resize(dialog.width(), max(200, min(dialog.height(), self.log.height())))
            corner = self.log.mapToGlobal(self.log.rect().bottomRight())
            dialog.move(corner.x() - dialog.width(), corner.y() - dialog.height())

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._place_dialog()  # a placement asked before the window was first shown

    def _answer_on(self, sq: int) -> None:
        """A click during a decision: the one answer placed on that square, if there is one."""
        dialog = self.decision_dialog
        if dialog is None or not dialog.isVisible() or dialog.isModal():
            return
        rows = [i for i, c in enumerate(dialog.choices) if c.square == sq]
        if len(rows) == 1:
            dialog.pick(rows[0])
        elif rows:
            dialog.answers.setCurrentRow(rows[0])

    def _mark_answers(self, choices: list[Choice]) -> None:
        """The squares a decision's answers name (where to place a Genestealer, which entry to lurk at, who
        fires), numbered as in its dialog."""
        b = self.session.game.board
        numbers: dict[str, dict[tuple[int, int], list[str]]] = {}
        for i, c in enumerate(choices, 1):
            if c.square >= 0:
                li, x, y = b.lxy(c.square)
                # (a facing is marked on the square it looks at, with its letter)
                name = c.action.args[1] if c.verb == "face" and len(c.action.args) > 1 else str(i)
                numbers.setdefault(b.level_ids[li], {}).setdefault((x, y), []).append(name)
        # The model the decision is about (the Marine being set up, the one to face) framed as a selected one.
        d = self.session.state.decision()
        about = self.session.state.piece(str(getattr(d, "marine", None) or getattr(d, "piece", None) or ""))
        for lv, item in self._choice_items.items():
            here = numbers.get(lv, {})
            marks = [SquareMark(x, y, "other", ",".join(ns) if len(ns) < 4 else f"{ns[0]}–{ns[-1]}")
                     for (x, y), ns in here.items()]
            if about is not None and about.sq >= 0 and b.level_ids[b.lxy(about.sq)[0]] == lv:
                marks.append(SquareMark(*b.lxy(about.sq)[1:], "piece"))  # framed over its answer's number
            item.set_marks(marks)

    def _decided(self, choice: Choice) -> None:
        self.decision_dialog = None
        self.choose(choice)

    # --- undo, save, resume, keep --------------------------------------------------------------------------------
