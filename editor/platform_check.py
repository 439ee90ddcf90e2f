"""Can Qt open a window here? Asked before Qt starts, because Qt's own answer is an abort (SIGABRT, exit 134).

On Linux, Qt draws through a platform plugin: `xcb` (X11) by default, `wayland` on a Wayland session, or one
that needs no display (`offscreen`, what the tests and screenshots use). The xcb plugin needs a dozen X11
libraries that a desktop does not always have (libxcb-cursor0 above all), and every display platform needs a
display. This module imports no Qt: it reads the environment and tries to load the libraries by name.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

# What Qt's xcb platform plugin (libqxcb.so and libQt6XcbQpa.so.6) links against beyond Qt itself, with the
# package that holds each library: Debian/Ubuntu, Fedora.
XCB_LIBRARIES: dict[str, tuple[str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2"),
}
# What Qt's GUI libraries link against beyond the PySide6 wheel, whatever the platform (offscreen too).
QT_GUI_LIBRARIES: dict[str, tuple[str, str]] = {
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
}
DISPLAY_PLATFORMS = ("xcb", "wayland")


def _library_dirs() -> list[Path]:
    """Where a frozen bundle or the PySide6 wheel keeps libraries that the system's loader may not search."""
    dirs: list[Path] = []
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        dirs += [Path(bundle), Path(bundle) / "PySide6" / "Qt" / "lib"]
    import importlib.util

    spec = importlib.util.find_spec("PySide6")  # finds the package without importing it
    for location in (spec.submodule_search_locations or []) if spec else []:
        dirs.append(Path(location) / "Qt" / "lib")
    return dirs


def loadable(name: str) -> bool:
    """Whether the dynamic loader finds the library: by name, or in the bundle's or PySide6's own folders."""
    for candidate in (name, *(str(d / name) for d in _library_dirs() if (d / name).is_file())):
        try:
            ctypes.CDLL(candidate)
        except OSError:
            continue
        return True
    return False


def _platforms(env: Mapping[str, str]) -> list[str]:
    """The platform plugins Qt will try, in order (QT_QPA_PLATFORM is a ';'-list of names with ':options')."""
    chosen = [p.split(":")[0].strip() for p in env.get("QT_QPA_PLATFORM", "").split(";") if p.strip()]
    if chosen:
        return chosen
    return ["wayland", "xcb"] if env.get("XDG_SESSION_TYPE") == "wayland" else ["xcb"]


def start_problem(env: Mapping[str, str] | None = None, find: Callable[[str], bool] = loadable,
                  platform: str | None = None) -> str | None:
    """Why Qt would abort opening a window here, as one line that says how to fix it; None when it can start."""
    env = os.environ if env is None else env
    if not (platform or sys.platform).startswith("linux"):
        return None
    missing = [lib for lib in QT_GUI_LIBRARIES if not find(lib)]
    if missing:
        return missing_libraries("Qt", missing)
    names = _platforms(env)
    if any(n not in DISPLAY_PLATFORMS for n in names):
        return None  # offscreen, vnc, eglfs...: a platform that needs no display, or one we do not second-guess
    for name in names:
        if name == "wayland" and env.get("WAYLAND_DISPLAY"):
            return None  # Qt falls back to xcb by itself when the list names it
        if name == "xcb" and env.get("DISPLAY"):
            missing = [lib for lib in XCB_LIBRARIES if not find(lib)]
            return missing_libraries("Qt's X11 platform", missing) if missing else None
    return ("no display to open the editor on (DISPLAY and WAYLAND_DISPLAY are not set): run it in a desktop "
            "session, or on a virtual display with `xvfb-run -a hulkforge` (package xvfb); a screenshot needs "
            "none: `hulkforge edit FILE --screenshot PNG`")


def missing_libraries(who: str, missing: Iterable[str]) -> str:
    """One line: who needs which libraries, and the packages that hold them."""
    libs = list(missing)
    packages = {**QT_GUI_LIBRARIES, **XCB_LIBRARIES}
    debian = " ".join(dict.fromkeys(packages[lib][0] for lib in libs))
    fedora = " ".join(dict.fromkeys(packages[lib][1] for lib in libs))
    return (f"{who} needs {', '.join(libs)}, not installed: sudo apt install {debian} "
            f"(Debian, Ubuntu) or sudo dnf install {fedora} (Fedora)")


def offscreen_without_display(env: dict[str, str] | os._Environ[str] | None = None) -> None:
    """A screenshot needs no screen: with no display and no platform chosen, draw offscreen (as render does)."""
    env = os.environ if env is None else env
    if not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or env.get("QT_QPA_PLATFORM")):
        env["QT_QPA_PLATFORM"] = "offscreen"


def check_start(prog: str, screenshot: bool) -> int:
    """0 when Qt can start here; otherwise print why on one line and return the exit code (1)."""
    if screenshot:
        offscreen_without_display()
    problem = start_problem()
    if problem is None:
        return 0
    print(f"{prog}: {problem}", file=sys.stderr)
    return 1
