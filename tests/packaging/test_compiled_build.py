"""The compiled engine (docs/speed.md): what it compiles, when a build compiles and when it falls back to plain
Python, what the checkout runs. CI installs it and replays the golden games with it (.ci/run); these pin the
pieces."""

from __future__ import annotations

import importlib.util
import os
import pkgutil
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

import engine.ai
import engine.rules
from engine.compiled import MODULES, compiled_modules, engine_build, installed_copy, mypyc_libraries

ROOT = Path(__file__).resolve().parents[2]


def _backend() -> ModuleType:
    path = ROOT / "packaging" / "backend" / "hulkforge_build.py"
    spec = importlib.util.spec_from_file_location("hulkforge_build", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_compiled_modules_are_engine_modules_that_exist() -> None:
    engine_modules = {f"{pkg.__name__}.{m.name}" for pkg in (engine.rules, engine.ai)
                      for m in pkgutil.iter_modules(pkg.__path__)}
    assert len(set(MODULES)) == len(MODULES)
    assert set(MODULES) <= engine_modules
    # The hot path of a game: the state, its kernel, the legal moves, both heuristic players.
    assert {"engine.rules.state", "engine.rules.kernel", "engine.rules.legal", "engine.ai.marines",
            "engine.ai.genestealers"} <= set(MODULES)


def test_the_checkout_runs_plain_python() -> None:
    # (the tests import the sources: a compiled install elsewhere is not what they run)
    assert compiled_modules() == []
    assert engine_build() == "plain Python"


@pytest.fixture
def backend(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The build backend with setuptools' hooks replaced by ones that record what setup.py was told to do."""
    backend = _backend()
    backend.calls = []

    def hook(name: str, result: object) -> object:
        def run(*args: object, **kwargs: object) -> object:
            compiling = os.environ.get("HULKFORGE_COMPILE")
            backend.calls.append((name, compiling))
            if name == "build_wheel" and compiling == "1" and backend.compile_fails:
                raise SystemExit("error: command 'gcc' failed with exit code 1")
            return result
        return run

    backend.compile_fails = False
    for name, result in (("get_requires_for_build_wheel", ["wheel"]), ("get_requires_for_build_editable", ["wheel"]),
                         ("prepare_metadata_for_build_wheel", "hulkforge.dist-info"),
                         ("build_wheel", "hulkforge.whl"), ("build_editable", "hulkforge-editable.whl")):
        monkeypatch.setattr(backend._setuptools, name, hook(name, result))
    monkeypatch.delenv("HULKFORGE_COMPILE", raising=False)
    monkeypatch.setattr(backend, "cannot_compile", lambda: None)
    return backend


def test_a_normal_install_compiles_when_the_machine_can(backend: ModuleType) -> None:
    assert backend.get_requires_for_build_wheel() == ["wheel", backend.MYPYC]
    assert backend.prepare_metadata_for_build_wheel("meta") == "hulkforge.dist-info"
    assert backend.build_wheel("dist") == "hulkforge.whl"
    # setup.py lists its requirements before mypy is in the build, and writes the metadata, without compiling
    assert backend.calls == [("get_requires_for_build_wheel", "0"), ("prepare_metadata_for_build_wheel", "0"),
                             ("build_wheel", "1")]
    assert "HULKFORGE_COMPILE" not in os.environ  # the caller's setting is restored


def test_without_a_compiler_or_with_0_the_install_is_plain(backend: ModuleType, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(backend, "cannot_compile", lambda: "no C compiler (gcc) on PATH")
    assert backend.get_requires_for_build_wheel() == ["wheel"]  # mypy is not even downloaded
    backend.build_wheel("dist")
    assert "plain-Python engine (no C compiler (gcc) on PATH)" in capsys.readouterr().err
    monkeypatch.setattr(backend, "cannot_compile", lambda: None)
    monkeypatch.setenv("HULKFORGE_COMPILE", "0")
    assert backend.get_requires_for_build_wheel() == ["wheel"]
    backend.build_wheel("dist")
    assert [c for c in backend.calls if c[0] == "build_wheel"] == [("build_wheel", "0"), ("build_wheel", "0")]
    assert os.environ["HULKFORGE_COMPILE"] == "0"


def test_a_failed_compilation_falls_back_to_plain_unless_insisted_on(
        backend: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    backend.compile_fails = True
    assert backend.build_wheel("dist") == "hulkforge.whl"
    assert backend.calls == [("build_wheel", "1"), ("build_wheel", "0")]
    assert "compiling the engine failed (error: command 'gcc' failed" in capsys.readouterr().err
    monkeypatch.setenv("HULKFORGE_COMPILE", "1")
    with pytest.raises(SystemExit, match="gcc"):
        backend.build_wheel("dist")


def test_cannot_compile_names_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = _backend()
    monkeypatch.setenv("CC", "no-such-compiler-here")
    assert backend.cannot_compile() == "no C compiler (no-such-compiler-here) on PATH"


def test_an_editable_install_is_never_compiled(backend: ModuleType, monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    assert backend.get_requires_for_build_editable() == ["wheel"]
    backend.build_editable(str(tmp_path))
    assert backend.calls == [("get_requires_for_build_editable", "0"), ("build_editable", "0")]
    monkeypatch.setenv("HULKFORGE_COMPILE", "1")
    with pytest.raises(RuntimeError, match="not an editable one"):
        backend.get_requires_for_build_editable()  # pip's first question: the refusal comes before any download
    with pytest.raises(RuntimeError, match="not an editable one"):
        backend.build_editable(str(tmp_path))


def test_an_installed_copy_is_used_only_when_compiled_from_exactly_these_sources(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site-packages"
    for package in ("engine", "editor"):
        shutil.copytree(ROOT / package, site / package, ignore=shutil.ignore_patterns("__pycache__", "*.md"))
    monkeypatch.setattr(sys, "path", [str(site)])  # this environment's own install left out of it
    assert installed_copy(ROOT) is None  # a plain install: nothing compiled to gain
    # a compiled module names the library holding the compiled code; another package's library is not ours
    (site / "engine" / "rules" / "state.cpython-311-x86_64-linux-gnu.so").write_bytes(
        b"\0\x7fELF\0a62323feee5d65b4f28a__mypyc\0a62323feee5d65b4f28a__mypyc.init_engine___rules___state\0")
    (site / "a62323feee5d65b4f28a__mypyc.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\0")
    (site / "81d243bd2c585b0f4821__mypyc.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\0")
    assert mypyc_libraries(site) == ["a62323feee5d65b4f28a__mypyc"]
    assert installed_copy(ROOT) == site.resolve()
    # one source edited since the install, or one added: the install is stale, the checkout is what runs
    (site / "engine" / "rules" / "state.py").write_text("# an older state\n", encoding="utf-8")
    assert installed_copy(ROOT) is None
    shutil.copy(ROOT / "engine" / "rules" / "state.py", site / "engine" / "rules" / "state.py")
    assert installed_copy(ROOT) == site.resolve()
    (site / "editor" / "gone.py").write_text("", encoding="utf-8")
    assert installed_copy(ROOT) is None
    # the checkout is never its own installed copy (an editable install)
    assert installed_copy(site) is None
