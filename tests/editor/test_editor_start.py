"""Starting the editor: where Qt cannot open a window it says so in one line before Qt aborts (exit 1), and a
file it cannot read is named with the reason, never a blank mission passed off as the file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from editor.platform_check import (
    QT_GUI_LIBRARIES,
    XCB_LIBRARIES,
    check_start,
    offscreen_without_display,
    start_problem,
)

ROOT = Path(__file__).resolve().parents[2]


def everything(name: str) -> bool:
    return True


def test_no_display_is_named_with_what_to_do() -> None:
    problem = start_problem({}, everything, "linux")
    assert problem is not None and "no display" in problem and "xvfb-run -a hulkforge" in problem
    assert "--screenshot" in problem and "\n" not in problem


def test_a_missing_xcb_library_is_named_with_its_packages() -> None:
    problem = start_problem({"DISPLAY": ":0"}, lambda name: name != "libxcb-cursor.so.0", "linux")
    assert problem == ("Qt's X11 platform needs libxcb-cursor.so.0, not installed: sudo apt install libxcb-cursor0 "
                       "(Debian, Ubuntu) or sudo dnf install xcb-util-cursor (Fedora)")


def test_several_missing_libraries_name_each_package_once() -> None:
    missing = {"libxcb-randr.so.0", "libxcb-shm.so.0", "libxcb-icccm.so.4"}
    problem = start_problem({"DISPLAY": ":0"}, lambda name: name not in missing, "linux")
    assert problem is not None
    assert "libxcb-icccm4 libxcb-randr0 libxcb-shm0 (Debian" in problem
    assert "xcb-util-wm libxcb (Fedora)" in problem


@pytest.mark.parametrize("env", [
    {"DISPLAY": ":0"},  # X11 with every library
    {"QT_QPA_PLATFORM": "offscreen"},  # tests and screenshots: no display, no X11 library needed
    {"QT_QPA_PLATFORM": "minimal;xcb"},
    {"XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0"},  # Wayland: xcb is only the fallback
    {"QT_QPA_PLATFORM": "wayland", "WAYLAND_DISPLAY": "wayland-0"},
])
def test_where_qt_can_start_nothing_is_said(env: dict[str, str]) -> None:
    x11_missing = "DISPLAY" not in env  # and not needed
    assert start_problem(env, (lambda name: name in QT_GUI_LIBRARIES or not x11_missing), "linux") is None


def test_the_libraries_are_not_asked_for_without_x11() -> None:
    asked: list[str] = []
    start_problem({"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"}, lambda n: asked.append(n) or False, "linux")
    start_problem({"WAYLAND_DISPLAY": "w", "XDG_SESSION_TYPE": "wayland", "DISPLAY": ":0"},
                  lambda n: asked.append(n) or False, "linux")
    assert set(asked) == set(QT_GUI_LIBRARIES)


def test_a_missing_qt_gui_library_is_named_even_offscreen() -> None:
    problem = start_problem({"QT_QPA_PLATFORM": "offscreen"}, lambda name: name != "libEGL.so.1", "linux")
    assert problem == ("Qt needs libEGL.so.1, not installed: sudo apt install libegl1 (Debian, Ubuntu) or sudo dnf "
                       "install libglvnd-egl (Fedora)")


def test_other_systems_are_not_checked() -> None:
    assert start_problem({}, everything, "win32") is None and start_problem({}, everything, "darwin") is None


def test_every_library_has_both_packages() -> None:
    assert all(deb and fedora for deb, fedora in {**QT_GUI_LIBRARIES, **XCB_LIBRARIES}.values())


def test_the_check_finds_this_machines_libraries() -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("Linux only")
    # Tests draw offscreen, yet the X11 libraries are installed here (xvfb screenshots use them).
    assert start_problem({"DISPLAY": ":99", "QT_QPA_PLATFORM": "xcb"}) is None


def test_check_start_prints_one_line_and_returns_1(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "XDG_SESSION_TYPE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert check_start("hulkforge edit", screenshot=False) == 1
    err = capsys.readouterr().err
    assert err.startswith("hulkforge edit: no display") and err.count("\n") == 1


def test_a_screenshot_without_a_display_draws_offscreen() -> None:
    env: dict[str, str] = {}
    offscreen_without_display(env)
    assert env == {"QT_QPA_PLATFORM": "offscreen"}
    chosen = {"DISPLAY": ":1"}
    offscreen_without_display(chosen)
    assert chosen == {"DISPLAY": ":1"}


def _edit(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    return subprocess.run([sys.executable, "-m", "engine.cli", "edit", *args], capture_output=True, text=True,
                          env={**base, **env}, cwd=ROOT, timeout=120)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Qt's display platforms are checked on Linux")
def test_edit_without_a_display_says_so_instead_of_aborting() -> None:
    done = _edit([], {})
    assert done.returncode == 1, done.stderr  # Qt's abort was 134
    assert done.stderr.startswith("hulkforge edit: no display") and done.stderr.count("\n") == 1


@pytest.mark.parametrize("content", [
    b"\xff\xfe{\x00}\x00",  # UTF-16
    b"hello",  # not JSON
    b" " * (4 * 1024 * 1024 + 1),  # over the size limit
], ids=["utf-16", "not-json", "over-size"])
def test_a_screenshot_of_a_file_that_cannot_be_read_says_why_and_exits_2(tmp_path: Path, content: bytes) -> None:
    f = tmp_path / "bad.json"
    f.write_bytes(content)
    shot = tmp_path / "shot.png"
    done = _edit([str(f), "--screenshot", str(shot)], {"QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"hulkforge edit: {f}: ") and done.stderr.count("\n") == 1
    assert not shot.exists()


def test_starting_on_a_file_that_cannot_be_read_shows_why_and_opens_nothing_under_its_name(
        config_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qtbot) -> None:  # type: ignore[no-untyped-def]
    from editor.app import create_main_window

    f = tmp_path / "utf16.json"
    f.write_bytes('{"format": "hulkforge-mission"}'.encode("utf-16"))
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text, *a, **k: shown.append((title, text)))
    w = create_main_window(str(f), with_lab=False)
    w.autosave_timer.stop()
    qtbot.waitUntil(lambda: bool(shown))
    assert shown == [("Cannot open mission", f"The mission could not be opened:\n\n{f}: not UTF-8 text (byte 0)")]
    assert w.doc.path is None and f.name not in w.windowTitle()
    assert w.doc.mission.meta.title == "Untitled mission"
    w.close()
