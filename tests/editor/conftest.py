"""Editor test fixtures: a temporary settings/recovery folder, a window on pitfall.json, no blocking dialogs.

Apart from the main-thread garbage collection around every test, the guard fixtures are not autouse, so other
tests in this folder are unaffected; the editor's test modules opt in with
`pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")`."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from engine.resources import sample_mission


@pytest.fixture(autouse=True)
def collect_on_this_thread() -> Iterator[None]:
    """No automatic cyclic collection during an editor test, one on the main thread after it: a collection that
    happened to run in another thread (a validation pool's feeder, a worker) would destroy the test's leftover Qt
    objects there and crash the process later (as the editor does with its GUI-thread collector)."""
    was = gc.isenabled()
    gc.disable()
    yield
    gc.collect()
    if was:
        gc.enable()


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Settings, recent files and the recovery file go to a temporary folder, never the user's."""
    folder = tmp_path / "config"
    monkeypatch.setenv("HULKFORGE_CONFIG_DIR", str(folder))
    return folder


@pytest.fixture
def no_modal(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Any message box a test did not expect fails loudly instead of waiting for a click."""
    seen: list[tuple[str, str]] = []

    def refuse(kind: str):  # type: ignore[no-untyped-def]
        def box(parent, title, text, *args, **kwargs):  # type: ignore[no-untyped-def]
            seen.append((kind, text))
            raise AssertionError(f"unexpected QMessageBox.{kind}: {title}: {text}")
        return box

    for kind in ("critical", "warning", "question", "information"):
        monkeypatch.setattr(QMessageBox, kind, refuse(kind))
    return seen


@pytest.fixture
def pitfall_path() -> Path:
    return Path(sample_mission("pitfall"))


@pytest.fixture
def window(qtbot, pitfall_path: Path, config_dir: Path, no_modal: list) -> Iterator[object]:  # type: ignore[no-untyped-def, type-arg]
    from editor.app import create_main_window

    w = create_main_window(str(pitfall_path), with_lab=False)
    w.autosave_timer.stop()
    yield w
    w.doc.undo_stack.setClean()  # so closing never asks
    w.close()
    w.deleteLater()


@pytest.fixture
def reply(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """reply(kind, answer): QMessageBox.<kind> returns `answer` at once; returns the list of texts shown."""

    def setup(kind: str, answer: object) -> list[str]:
        texts: list[str] = []

        def box(parent, title, text, *args, **kwargs):  # type: ignore[no-untyped-def]
            texts.append(text)
            return answer

        monkeypatch.setattr(QMessageBox, kind, box)
        return texts

    return setup
