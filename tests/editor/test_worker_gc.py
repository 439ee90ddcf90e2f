"""No automatic cyclic collection in the editor's worker threads: one there destroyed a Qt object left for the
collector in the worker thread and froze the editor for good (a lab replay loading while an old window was
deleted). Every QThread of the editor runs its body with collection paused; the GUI thread collects after."""

from __future__ import annotations

import gc
import importlib
import pkgutil
import threading
from collections.abc import Iterator

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QThread

import editor
from editor.worker_gc import no_collection_in_thread


@pytest.fixture(autouse=True)
def collect_on_this_thread() -> Iterator[None]:
    """These tests are about automatic collection itself: it stays as the process has it, enabled."""
    gc.enable()
    yield


def _editor_threads() -> list[type]:
    for mod in pkgutil.walk_packages(editor.__path__, "editor."):
        importlib.import_module(mod.name)
    out, todo = [], list(QThread.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith("editor."):
            out.append(cls)
    return out


def test_every_worker_thread_of_the_editor_runs_with_collection_paused() -> None:
    threads = _editor_threads()
    assert {c.__name__ for c in threads} >= {"EngineJob", "BatchThread", "ReplayLoader", "AiWorker"}
    for cls in threads:
        assert getattr(cls.run, "__wrapped__", None) is not None, f"{cls.__module__}.{cls.__name__}.run"


def test_collection_is_paused_while_any_wrapped_body_runs_and_comes_back_after() -> None:
    assert gc.isenabled()
    inside: list[bool] = []
    started, release = threading.Event(), threading.Event()

    @no_collection_in_thread
    def long_body() -> None:
        started.set()
        release.wait(10)
        inside.append(gc.isenabled())

    @no_collection_in_thread
    def short_body() -> None:
        inside.append(gc.isenabled())

    t = threading.Thread(target=long_body)
    t.start()
    assert started.wait(10)
    short_body()  # ends while the other still runs: collection stays paused
    assert not gc.isenabled()
    release.set()
    t.join(10)
    assert inside == [False, False]
    assert gc.isenabled()
