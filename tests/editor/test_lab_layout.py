"""The lab fits: its own window, Run/Cancel/progress pinned in view, the job in the editor's status bar."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QLabel, QScrollArea

from editor.document import MissionDocument
from editor.lab.install import LabStatus, LabWindow
from editor.lab.lab_widget import LabWidget
from editor.lab.run_panel import RunPanel
from engine.resources import sample_mission

pytestmark = pytest.mark.usefixtures("config_dir", "no_modal")


def visible_in(widget: Any, top: Any) -> bool:
    """The widget is shown and lies wholly inside `top`'s rectangle (not scrolled or cut away)."""
    if not widget.isVisible() or widget.visibleRegion().isEmpty():
        return False
    corner = widget.mapTo(top, QPoint(0, 0))
    return top.rect().contains(corner) and top.rect().contains(corner + QPoint(widget.width() - 1,
                                                                                widget.height() - 1))


def test_run_cancel_progress_and_eta_stay_in_view_in_a_short_lab(qtbot: Any) -> None:
    lab = LabWidget(MissionDocument.open(sample_mission("pitfall")))
    qtbot.addWidget(lab)
    lab.resize(lab.minimumSizeHint())  # as small as it goes: the form may scroll, the bar may not
    lab.show()
    qtbot.waitExposed(lab)
    panel = lab.run_panel
    scroll = next(w for w in lab.findChildren(QScrollArea) if w.widget() is panel)
    for w in (panel.run_button, panel.cancel_button, panel.progress, panel.status):
        assert not scroll.isAncestorOf(w), w
        assert visible_in(w, lab), w
    lab.shutdown()


def test_lab_pages_can_be_added(qtbot: Any) -> None:
    lab = LabWidget(MissionDocument.open(sample_mission("tutorial")))
    qtbot.addWidget(lab)
    index = lab.add_page(QLabel("tuning"), "Tune")
    assert lab.tabs.tabText(index) == "Tune" and index == lab.tabs.count() - 1
    lab.shutdown()


def test_override_column_keeps_room_for_its_header(qtbot: Any) -> None:
    panel = RunPanel()
    qtbot.addWidget(panel)
    panel.resize(380, 600)
    panel.show()
    qtbot.waitExposed(panel)
    table = panel.overrides
    header = table.horizontalHeader()
    need = header.fontMetrics().horizontalAdvance("Override")
    assert header.sectionSize(2) > need
    # Long mission values sit in a fixed column, in full in the tool tip.
    assert table.item(0, 1).toolTip() == table.item(0, 1).text()


def test_the_editor_status_bar_shows_the_lab_job_and_cancels_it(qtbot: Any) -> None:
    from editor.lab import install_lab
    from editor.mainwindow import MainWindow

    window = MainWindow(MissionDocument.open(sample_mission("tutorial")))
    qtbot.addWidget(window)
    lab_window = install_lab(window)
    assert isinstance(lab_window, LabWindow) and not lab_window.isVisible()
    window.show()
    status: LabStatus = window.lab_status
    assert status.isHidden()
    lab = lab_window.lab
    assert lab is not None
    lab.progressChanged.emit(5000, 20000, "5000/20000 games, 310 games/s, about 48 s left")
    assert status.isVisible() and "48 s left" in status.text.text()
    assert status.bar.value() == 5000 and status.bar.maximum() == 20000
    cancelled = []
    lab.cancel = lambda: cancelled.append(True)  # type: ignore[method-assign]
    status.cancel.click()
    assert cancelled == [True]
    lab.jobFinished.emit("batch")
    assert status.isHidden()
    # The lab window opens from the status line, and follows the editor to another document.
    status.text.click()
    assert lab_window.isVisible()
    other = MissionDocument.open(sample_mission("pitfall"))
    window.set_document(other)
    assert lab_window.lab is not None and lab_window.lab.doc is other and status.lab is lab_window.lab
    lab_window.lab.shutdown()
    window.doc.undo_stack.setClean()
    lab_window.close()


def test_a_real_batch_shows_in_the_status_bar_while_it_runs(qtbot: Any) -> None:
    from editor.lab import install_lab
    from editor.mainwindow import MainWindow

    window = MainWindow(MissionDocument.open(sample_mission("tutorial")))
    qtbot.addWidget(window)
    lab_window = install_lab(window)
    lab = lab_window.lab
    assert lab is not None
    lab.run_panel.games.setValue(6)
    lab.run_panel.workers.setValue(1)
    for side in ("marines", "genestealers"):
        lab.run_panel.policy[side].setCurrentText("random")
    seen: list[tuple[int, int]] = []
    lab.progressChanged.connect(lambda done, total, _t: seen.append((done, total)))
    with qtbot.waitSignal(lab.jobFinished, timeout=120_000):
        lab_window.run_now()
        assert not window.lab_status.isHidden()
    assert seen and seen[0] == (0, 6)
    assert window.lab_status.isHidden()
    lab.shutdown()
