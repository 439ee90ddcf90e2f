"""Packaging checks that need no build: spec logic, entry script, desktop entry, mime type, icon, install."""

from __future__ import annotations

import ast
import configparser
import functools
import importlib.util
import os
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
MIME = "application/x-hulkforge-mission"
SMI = "{http://www.freedesktop.org/standards/shared-mime-info}"


def _load(name: str) -> ModuleType:
    """A script of packaging/ as a module, under a name no other test can clash with."""
    spec = importlib.util.spec_from_file_location(f"hulkforge_packaging_{name}", PACKAGING / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


render_icons = _load("render_icons")


def _qt(*parts: str) -> str:
    import PySide6

    return str(Path(PySide6.__file__).parent.joinpath("Qt", *parts))


# Real Qt files (dest in the bundle, source) standing in for what the analysis collects.
REAL = {
    "xcb": ("PySide6/Qt/plugins/platforms/libqxcb.so", _qt("plugins", "platforms", "libqxcb.so")),
    "eglfs": ("PySide6/Qt/plugins/platforms/libqeglfs.so", _qt("plugins", "platforms", "libqeglfs.so")),
    "xcbqpa": ("PySide6/Qt/lib/libQt6XcbQpa.so.6", _qt("lib", "libQt6XcbQpa.so.6")),
    "eglfsdev": ("PySide6/Qt/lib/libQt6EglFSDeviceIntegration.so.6", _qt("lib", "libQt6EglFSDeviceIntegration.so.6")),
    "pdf": ("PySide6/Qt/plugins/imageformats/libqpdf.so", _qt("plugins", "imageformats", "libqpdf.so")),
}


class _Recorder:
    """Stands in for PyInstaller's PYZ/EXE/COLLECT and keeps what the spec passed."""

    def __init__(self, calls: dict[str, Any], *args: Any, **kwargs: Any) -> None:
        self.args, self.kwargs = args, kwargs
        calls[type(self).__name__] = self
        self.pure: list[Any] = []
        self.scripts: list[Any] = []


class Analysis(_Recorder):
    """The analysis stand-in: its result is a few real Qt libraries and two data files."""

    def __init__(self, calls: dict[str, Any], *args: Any, **kwargs: Any) -> None:
        super().__init__(calls, *args, **kwargs)
        self.binaries = [(dest, src, "BINARY") for dest, src in REAL.values()]
        self.datas = [
            ("PySide6/Qt/translations/qtbase_fr.qm", "/x/qtbase_fr.qm", "DATA"),
            ("schemas/mission.schema.json", str(ROOT / "schemas" / "mission.schema.json"), "DATA"),
        ]


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    """Run hulkforge.spec against recording stand-ins; returns the stand-ins by name."""
    calls: dict[str, Any] = {}
    namespace: dict[str, Any] = {"SPECPATH": str(PACKAGING), "__name__": "__main__"}
    for cls in (Analysis, type("PYZ", (_Recorder,), {}), type("EXE", (_Recorder,), {}),
                type("COLLECT", (_Recorder,), {})):
        namespace[cls.__name__] = functools.partial(cls, calls)
    code = (PACKAGING / "hulkforge.spec").read_text(encoding="utf-8")
    exec(compile(code, "hulkforge.spec", "exec"), namespace)  # the spec is our own file, not loaded data
    return calls


def test_spec_bundles_one_console_executable_from_the_entry_script(spec: dict[str, Any]) -> None:
    analysis = spec["Analysis"]
    assert [Path(p).name for p in analysis.args[0]] == ["entry.py"]
    exe = spec["EXE"]
    assert exe.kwargs["name"] == "hulkforge" and exe.kwargs["console"] is True
    assert exe.kwargs["exclude_binaries"] is True  # one-folder: COLLECT gathers the libraries
    assert spec["COLLECT"].kwargs["name"] == "hulkforge"


def test_spec_lists_every_lazily_imported_command(spec: dict[str, Any]) -> None:
    from engine.cli import COMMANDS

    hidden = set(spec["Analysis"].kwargs["hiddenimports"])
    present = [m for m in COMMANDS.values() if (ROOT / (m.replace(".", "/") + ".py")).is_file()]
    assert "engine.commands.validate" in present
    assert set(present) <= hidden
    assert not any(name.startswith("engine.sim.dask_backend") for name in hidden)


def test_spec_carries_the_data_and_leaves_out_heavy_extras(spec: dict[str, Any]) -> None:
    kwargs = spec["Analysis"].kwargs
    dests = {dest for _src, dest in kwargs["datas"]}
    assert {"schemas", "sample_missions"} <= dests
    excludes = set(kwargs["excludes"])
    assert {"tkinter", "matplotlib", "dask", "pytest", "PySide6.QtQml", "PySide6.QtQuick",
            "PySide6.QtWebEngineCore", "PySide6.QtMultimedia", "PySide6.Qt3DCore"} <= excludes
    assert not excludes & {"PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets", "PySide6.QtSvg", "numpy"}


def test_spec_drops_unused_plugins_and_the_libraries_only_they_need(spec: dict[str, Any]) -> None:
    analysis, real = spec["Analysis"], REAL
    kept = {dest for dest, _src, _kind in analysis.binaries}
    assert real["xcb"][0] in kept and real["xcbqpa"][0] in kept  # the X11 plugin and what it links
    assert real["eglfs"][0] not in kept and real["pdf"][0] not in kept
    assert real["eglfsdev"][0] not in kept  # linked only by the eglfs plugin
    data = {dest for dest, _src, _kind in analysis.datas}
    assert "schemas/mission.schema.json" in data and "PySide6/Qt/translations/qtbase_fr.qm" not in data


def test_entry_script_calls_freeze_support_before_anything_else() -> None:
    tree = ast.parse((PACKAGING / "entry.py").read_text(encoding="utf-8"))
    top_imports = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    assert {a.name for n in top_imports for a in n.names} <= {"multiprocessing", "sys"}
    guard = next(n for n in tree.body if isinstance(n, ast.If) and "__main__" in ast.unparse(n.test))
    assert ast.unparse(guard.body[0]) == "multiprocessing.freeze_support()"
    assert "spawn" in ast.unparse(guard.body[1])


def test_entry_main_is_the_console_script(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    entry = _load("entry")
    monkeypatch.setattr(sys, "argv", ["hulkforge", "--version"])
    try:
        code = entry.main()
    except SystemExit as stop:  # argparse exits; a fast path may return
        code = stop.code
    assert code == 0
    from engine import __version__

    # the release, then the engine's build: the tests import the checkout, which is plain Python
    assert capsys.readouterr().out.splitlines() == [f"hulkforge {__version__}", "engine: plain Python"]


def _desktop() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(PACKAGING / "hulkforge.desktop", encoding="utf-8")
    return parser


def test_desktop_entry_opens_missions_with_our_icon() -> None:
    entry = _desktop()["Desktop Entry"]
    assert entry["Type"] == "Application" and entry["Icon"] == "hulkforge"
    assert entry["Exec"].split()[0] == "hulkforge" and "%f" in entry["Exec"].split()
    assert MIME in entry["MimeType"].split(";")
    validator = shutil.which("desktop-file-validate")
    if validator is None:
        pytest.skip("desktop-file-validate not installed (Debian: desktop-file-utils)")
    done = subprocess.run([validator, str(PACKAGING / "hulkforge.desktop")], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr


def test_mime_type_matches_our_glob_and_our_files() -> None:
    root = ET.parse(PACKAGING / "hulkforge-mime.xml").getroot()
    mime = root.find(f"{SMI}mime-type")
    assert mime is not None and mime.get("type") == MIME
    assert [g.get("pattern") for g in mime.iter(f"{SMI}glob")] == ["*.hulk.json"]
    match = next(mime.iter(f"{SMI}match"))
    start, end = (int(v) for v in (match.get("offset") or "").split(":"))
    value = (match.get("value") or "").encode()
    from engine.resources import sample_missions

    for path in sample_missions():  # the magic must recognise every mission we ship
        assert value in path.read_bytes()[start:end + len(value)], path


def test_icon_renders_with_the_blip_at_every_size(qapp: Any) -> None:
    from PySide6.QtGui import QImage

    for size in (16, 256):
        image = QImage.fromData(render_icons.render_png(render_icons.SOURCE, size))
        assert (image.width(), image.height()) == (size, size)
        assert image.pixelColor(0, 0).alpha() == 0  # rounded corner: transparent
        blip = image.pixelColor(round(size * 185 / 256), size // 2)
        # The warm blip, not the green screen (at 16 px it blends with the corridor a little).
        assert blip.red() > 150 and blip.red() >= blip.green() and blip.red() > blip.blue() + 50


def _largest_channel_difference(a: Any, b: Any) -> int:
    """Rasterisers differ by a unit of rounding in a few edge pixels between library builds; a stale icon (a
    changed source) differs by far more."""
    worst = 0
    for y in range(a.height()):
        for x in range(a.width()):
            p, q = a.pixelColor(x, y), b.pixelColor(x, y)
            worst = max(worst, abs(p.red() - q.red()), abs(p.green() - q.green()), abs(p.blue() - q.blue()),
                        abs(p.alpha() - q.alpha()))
    return worst


def test_generated_icons_are_present_and_current(qapp: Any) -> None:
    from PySide6.QtGui import QImage

    out = PACKAGING / "icons"
    for size in render_icons.SIZES:
        image = QImage(str(out / f"hulkforge-{size}.png"))
        fresh = QImage.fromData(render_icons.render_png(render_icons.SOURCE, size))
        assert image.size() == fresh.size(), size
        assert _largest_channel_difference(image.convertToFormat(fresh.format()), fresh) <= 2, size
    assert (out / "hulkforge.svg").read_bytes() == render_icons.SOURCE.read_bytes()
    ico = (out / "hulkforge.ico").read_bytes()
    _reserved, kind, count = struct.unpack_from("<HHH", ico)
    assert kind == 1 and count == len(render_icons.ICO_SIZES)
    for i in range(count):
        _w, _h, _c, _r, _p, _bpp, length, offset = struct.unpack_from("<BBBBHHII", ico, 6 + 16 * i)
        assert ico[offset:offset + 8] == b"\x89PNG\r\n\x1a\n" and offset + length <= len(ico)


def test_install_script_installs_and_uninstalls_in_xdg_data_home(tmp_path: Path) -> None:
    bindir = tmp_path / "fakebin"
    bindir.mkdir()
    fake = bindir / "hulkforge"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    data = tmp_path / "share"
    env = {**os.environ, "XDG_DATA_HOME": str(data), "PATH": f"{bindir}:{os.environ['PATH']}",
           "HULKFORGE_BIN_DIR": str(tmp_path / "bin")}
    script = str(PACKAGING / "install.sh")
    subprocess.run(["bash", script, "--no-bundle"], env=env, check=True, capture_output=True)
    desktop = (data / "applications" / "hulkforge.desktop").read_text()
    assert f'Exec="{fake}" edit %f' in desktop
    assert (data / "icons/hicolor/48x48/apps/hulkforge.png").is_file()
    assert (data / "icons/hicolor/scalable/mimetypes/application-x-hulkforge-mission.svg").is_file()
    assert (data / "mime/packages/hulkforge.xml").is_file()
    if shutil.which("update-mime-database"):
        assert f"{MIME}:*.hulk.json" in (data / "mime" / "globs2").read_text()
    subprocess.run(["bash", script, "--uninstall"], env=env, check=True, capture_output=True)
    assert not (data / "applications" / "hulkforge.desktop").exists()
    assert not (data / "icons/hicolor/48x48/apps/hulkforge.png").exists()
    assert not (data / "mime/packages/hulkforge.xml").exists()


@pytest.mark.parametrize("script", ["build.sh", "smoke.sh", "install.sh"])
def test_shell_scripts_parse(script: str) -> None:
    done = subprocess.run(["bash", "-n", str(PACKAGING / script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
