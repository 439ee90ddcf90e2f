"""MissionDocument: the mission model, its undo stack, its file and its live validation.

Like Tiled's MapDocument, this is the only object that mutates the model. Commands call the
`apply_*` helpers, and each helper emits the matching past-tense signal, so undo and redo refresh
every view for free.
"""

from __future__ import annotations

import copy
import os
import time
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any

from PySide6.QtCore import QObject, QRect, QTimer, Signal

from editor import validation_worker
from editor.features import feature_list
from editor.undo_stack import EditStack
from engine.mission import Issue, Mission, save_mission, validate_mission
from engine.mission.model import WALL, Level, RandomSetup, Section
from engine.mission.salvage import RULE as READ_REPAIR
from engine.mission.salvage import Salvage, read_for_repair

VALIDATION_DELAY_MS = 100
# A validation quicker than this runs on the GUI thread when the delay runs out (a worker's round trip would
# only add latency); a slower one goes to the validation worker, so a big map never freezes the window.
SYNC_VALIDATION_MS = 30.0
SYNC_VALIDATION_SQUARES = 64 * 64  # a map bigger than this may turn costly in one fill: always the worker
POLL_MS = 15
BLANK_SIZE = (30, 20)  # a level added to a mission that has none
BIG_FILE_BYTES = 200_000  # a file this big is read in the validation worker (the largest mission is 460 KB)
_DELETE = object()  # marks "remove this key" for dict values in apply_value


def read_for_editing(path: str | os.PathLike[str]) -> Salvage:
    """A file read for repair (engine.mission.salvage), with a level to paint on if it has none: the editor
    shows levels as tabs and needs one."""
    try:
        big = os.path.getsize(path) >= BIG_FILE_BYTES
    except OSError:
        big = False  # read_for_repair names the problem
    found = validation_worker.read_for_repair_live(os.fspath(path)) if big else read_for_repair(path)
    if not found.mission.levels:
        w, h = BLANK_SIZE
        found.mission.levels.append(Level("level1", 0, [WALL * w for _ in range(h)], "Level 1"))
        found.notes.append(Issue(READ_REPAIR, "$.levels", f"the mission has no level: an empty one (level1, {w}×{h}) "
                                 "was added to paint on", severity="warning"))
    return found


class MissionDocument(QObject):
    """The mission being edited, with undo, dirty state, file path and validation issues."""

    terrainChanged = Signal(str, QRect)  # level id, changed squares (x, y, w, h)
    featuresChanged = Signal()
    levelsChanged = Signal()
    sectionsChanged = Signal(str)  # level id
    propertiesChanged = Signal()
    issuesChanged = Signal()
    fileChanged = Signal(str)
    dirtyChanged = Signal(bool)
    missionReplaced = Signal()

    def __init__(self, mission: Mission, path: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.mission = mission
        self.path = path
        self.undo_stack = EditStack(self)
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        self.issues: list[Issue] = []
        self.read_notes: list[Issue] = []  # what had to change to read the file (see open)
        self.revision = 0  # bumped on every change; autosave and previews key on it
        # Bumped on every change but a paint of squares: what stands where (the scenes, the eraser) keys on it,
        # so a brush stroke does not make them look again at 1,000 doors.
        self.features_revision = 0
        self.validated_revision = -1  # the revision `issues` describe
        self.sync_validation_ms = SYNC_VALIDATION_MS
        self._batch = 0  # depth of batched() blocks
        self._features_pending = False
        self._validation_ms = 0.0  # CPU cost of the last validation, wherever it ran
        self._job: Future[tuple[list[Issue], float]] | None = None
        self._job_revision = -1
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(VALIDATION_DELAY_MS)
        self._timer.timeout.connect(self._validate_later)
        self._poll = QTimer(self)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._collect)
        if self._map_squares() > SYNC_VALIDATION_SQUARES and validation_worker.available():
            # A big map's checks take seconds of CPU: the worker answers while the window opens and stays live.
            validation_worker.warm_up()
            self._timer.start()
        else:
            self.validate_now()

    # --- files ---------------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | os.PathLike[str], parent: QObject | None = None) -> MissionDocument:
        """Load a file for editing, even one that breaks the schema (so it can be repaired: its problems are
        the document's issues, and `read_notes` says what had to change to read it). Raises MissionFileError
        only for a file that cannot be read at all."""
        found = read_for_editing(path)
        doc = cls(found.mission, os.fspath(path), parent)
        doc.read_notes = found.notes
        if found.notes:
            doc.undo_stack.resetClean()  # what the editor holds differs from the file: unsaved
        return doc

    def save(self, path: str | os.PathLike[str] | None = None) -> None:
        """Write atomically to path (or the current file) and mark the document clean."""
        target = os.fspath(path) if path is not None else self.path
        if target is None:
            raise ValueError("no file name: use Save As")
        save_mission(self.mission, target)
        if target != self.path:
            self.path = target
            self.fileChanged.emit(target)
        self.undo_stack.setClean()

    def _clean_changed(self, clean: bool) -> None:
        self.dirtyChanged.emit(not clean)

    @property
    def dirty(self) -> bool:
        return not self.undo_stack.isClean()

    def display_name(self) -> str:
        """File name for the title bar, or the mission title when unsaved."""
        return os.path.basename(self.path) if self.path else (self.mission.meta.title or "untitled")

    def format_errors(self) -> list[Issue]:
        """The issues that break the file format (the schema), as of the last validation."""
        return [i for i in self.issues if i.rule == "SCHEMA"]

    # --- validation ----------------------------------------------------------------------------
    def validate_now(self) -> list[Issue]:
        """Validate synchronously (tests and benchmarks call this instead of waiting for the timer)."""
        self._timer.stop()
        t0 = time.process_time()
        issues = validate_mission(self.mission)
        self._validation_ms = (time.process_time() - t0) * 1000
        self._set_issues(issues)
        return self.issues

    def validated(self) -> bool:
        """The issues describe the mission as it is now."""
        return self.validated_revision == self.revision

    def wait_validated(self) -> list[Issue]:
        """The issues of the mission as it is now (before a save or an export): at once when they are current,
        else from the worker while the event loop keeps the window live (a quick map validates here)."""
        if self.validated():
            return self.issues
        quick = self._validation_ms < self.sync_validation_ms and self._map_squares() <= SYNC_VALIDATION_SQUARES
        if quick or not validation_worker.available():
            return self.validate_now()
        self._timer.stop()
        self._validate_later()
        validation_worker.wait_live(self.validated)
        return self.issues

    def _set_issues(self, issues: list[Issue]) -> None:
        self.issues = issues
        self.validated_revision = self.revision
        self.issuesChanged.emit()

    def _map_squares(self) -> int:
        return sum(lv.width * lv.height for lv in self.mission.levels)

    def _validate_later(self) -> None:
        """The delay after the last edit ran out: validate here when that is quick, else in the worker."""
        if self.validated_revision == self.revision:
            return
        quick = self._validation_ms < self.sync_validation_ms and self._map_squares() <= SYNC_VALIDATION_SQUARES
        if quick or not validation_worker.available():
            self.validate_now()
            return
        if self._job is not None:
            return  # one is under way; when it lands on an older revision, the current one is sent
        job = validation_worker.submit(self.mission)
        if job is None:
            self.validate_now()
            return
        self._job, self._job_revision = job, self.revision
        self._poll.start()

    def _collect(self) -> None:
        """A worker's result, applied only if the document has not changed since it was sent."""
        job = self._job
        if job is None or not job.done():
            return
        self._job = None
        self._poll.stop()
        try:
            issues, ms = job.result()
        except Exception:  # the worker died (killed, out of memory): validate here from now on
            validation_worker.mark_broken()
            self.validate_now()
            return
        self._validation_ms = ms
        if self._job_revision == self.revision:
            if self.validated_revision != self.revision:
                self._set_issues(issues)
        elif not self._timer.isActive():
            self._validate_later()  # edits arrived meanwhile and their delay has already run out

    def _changed(self, squares_only: bool = False) -> None:
        self.revision += 1
        if not squares_only:
            self.features_revision += 1
        self._timer.start()

    def level(self, level_id: str) -> Level:
        lv = self.mission.level(level_id)
        if lv is None:
            raise KeyError(level_id)
        return lv

    @contextmanager
    def batched(self) -> Iterator[None]:
        """Within it, featuresChanged is sent once, at the end: a compound edit moving 40 features repaints and
        refreshes the panels once, not 80 times (on the largest map each time cost every level's scene a look at
        1,000 doors)."""
        self._batch += 1
        try:
            yield
        finally:
            self._batch -= 1
            if self._batch == 0 and self._features_pending:
                self._features_pending = False
                self.featuresChanged.emit()

    def _features_changed(self) -> None:
        if self._batch:
            self._features_pending = True
        else:
            self.featuresChanged.emit()

    # --- mutators, for commands only ---------------------------------------------------------
    def apply_cells(self, level_id: str, cells: dict[tuple[int, int], str]) -> None:
        """Set the character of each square; rows grow as needed so edits never go out of the grid."""
        if not cells:
            return
        lv = self.level(level_id)
        by_row: dict[int, list[tuple[int, str]]] = {}
        for (x, y), ch in cells.items():
            by_row.setdefault(y, []).append((x, ch))
        for y, changes in by_row.items():
            if 0 <= y < len(lv.rows):
                row = list(lv.rows[y])
                for x, ch in changes:
                    if 0 <= x < len(row):
                        row[x] = ch
                lv.rows[y] = "".join(row)
        xs = [x for x, _ in cells]
        ys = list(by_row)
        region = QRect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)
        self._changed(squares_only=True)
        self.terrainChanged.emit(level_id, region)

    def apply_rows(self, level_id: str, rows: dict[int, str], region: QRect) -> None:
        """Replace whole rows (a paint's before or after); `region` is the rectangle of squares that differ."""
        if not rows:
            return
        lv = self.level(level_id)
        for y, row in rows.items():
            lv.rows[y] = row
        self._changed(squares_only=True)
        self.terrainChanged.emit(level_id, region)

    def apply_insert_feature(self, kind: str, index: int, obj: Any) -> None:
        feature_list(self.mission, kind).insert(index, obj)
        self._changed()
        self._features_changed()

    def apply_remove_feature(self, kind: str, obj: Any) -> int:
        """Remove by identity; returns the index it held so undo puts it back in place."""
        lst = feature_list(self.mission, kind)
        index = next(i for i, o in enumerate(lst) if o is obj)
        del lst[index]
        self._changed()
        self._features_changed()
        return index

    def apply_replace_feature(self, kind: str, old: Any, new: Any) -> None:
        lst = feature_list(self.mission, kind)
        index = next(i for i, o in enumerate(lst) if o is old)
        lst[index] = new
        self._changed()
        self._features_changed()

    def apply_value(self, target: Any, key: str, value: Any, what: str = "properties") -> None:
        """Set an attribute (or a dict key; `DELETE` removes it) and emit the signal named by `what`."""
        if isinstance(target, dict):
            if value is _DELETE:
                target.pop(key, None)
            else:
                target[key] = value
        else:
            setattr(target, key, value)
        self._changed()
        self._emit(what)

    def apply_section(self, level_id: str, code: str, section: Section | None) -> None:
        lv = self.level(level_id)
        if section is None:
            lv.sections.pop(code, None)
        else:
            lv.sections[code] = section
        self._changed()
        self.sectionsChanged.emit(level_id)

    def apply_insert_level(self, index: int, level: Level) -> None:
        self.mission.levels.insert(index, level)
        self._changed()
        self.levelsChanged.emit()

    def apply_remove_level(self, level: Level) -> int:
        index = next(i for i, lv in enumerate(self.mission.levels) if lv is level)
        del self.mission.levels[index]
        self._changed()
        self.levelsChanged.emit()
        return index

    def apply_random_setup(self, setup: RandomSetup | None) -> None:
        self.mission.random_setup = setup
        self._changed()
        self._features_changed()

    def apply_mission(self, mission: Mission) -> None:
        """Swap the whole model (whole-map transforms such as rotation keep a snapshot each way)."""
        self.mission = mission
        self._changed()
        self.missionReplaced.emit()
        self.levelsChanged.emit()

    def _emit(self, what: str) -> None:
        if what.startswith("sections:"):
            self.sectionsChanged.emit(what.split(":", 1)[1])
            return
        if what == "features":
            self._features_changed()
            return
        {
            "properties": self.propertiesChanged,
            "levels": self.levelsChanged,
        }[what].emit()

    def snapshot(self) -> Mission:
        """A deep copy of the model (clipboard, previews, whole-map transforms)."""
        return copy.deepcopy(self.mission)


DELETE = _DELETE
