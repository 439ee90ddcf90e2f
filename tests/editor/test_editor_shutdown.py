"""SIGTERM ends the editor with its unsaved work kept for recovery, and exit code 143."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from editor import settings
from editor.commands import PaintTerrainCommand
from editor.shutdown import SIGTERM_EXIT, on_sigterm
from engine.mission import read_document

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")


def test_sigterm_writes_the_recovery_file_and_leaves_with_143(window: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    rows = list(window.doc.level("upper").rows)
    x = rows[0].index("#")  # a wall square of the top row becomes floor
    window.doc.undo_stack.push(PaintTerrainCommand(window.doc, "upper", {(x, 0): "."}))
    assert window.doc.dirty
    codes: list[int] = []
    monkeypatch.setattr(app, "exit", codes.append)
    old = signal.getsignal(signal.SIGTERM)
    try:
        on_sigterm(app, window)
    finally:
        signal.signal(signal.SIGTERM, old)
    assert codes == [SIGTERM_EXIT]
    kept = read_document(settings.recovery_file())
    upper = next(lv for lv in kept["levels"] if lv["id"] == "upper")
    assert upper["rows"][0][x] == "."  # the unsaved edit is what the next start offers to restore


@pytest.mark.timeout(60)
def test_a_real_editor_ends_on_sigterm_without_a_traceback(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HULKFORGE_CONFIG_DIR": str(tmp_path / "config")}
    # The editor tells us it is in its event loop by writing a file from a timer, so we never guess with a sleep.
    ready = tmp_path / "ready"
    code = (
        "import sys; from PySide6.QtCore import QTimer; from pathlib import Path\n"
        f"QTimer.singleShot(0, lambda: Path({str(ready)!r}).write_text('up'))\n"
        "from engine.cli import main; sys.exit(main(['edit', 'tutorial']))\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=Path(__file__).resolve().parents[2])
    try:
        while not ready.exists():
            if proc.poll() is not None:
                raise AssertionError(f"the editor ended before starting: {proc.communicate()}")
            time.sleep(0.05)  # polling for the file; the timeout mark ends a hang
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == SIGTERM_EXIT, err
    assert "Traceback" not in err
