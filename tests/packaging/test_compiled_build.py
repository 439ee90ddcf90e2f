"""The optional compiled engine (docs/speed.md): what it compiles, how the build asks for mypyc, what the plain
checkout runs. CI builds it and replays the golden games with it (.ci/run); these pin the pieces."""

from __future__ import annotations

import importlib.util
import os
import pkgutil
from pathlib import Path
from types import ModuleType

import pytest

import engine.ai
import engine.rules
from engine.compiled import MODULES, compiled_modules, engine_build

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


def test_the_build_asks_for_mypy_only_when_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    backend = _backend()
    seen: list[str | None] = []

    def setuptools_requires(config_settings: object = None) -> list[str]:
        seen.append(os.environ.get("HULKFORGE_COMPILE"))
        return ["wheel"]

    monkeypatch.setattr(backend._setuptools, "get_requires_for_build_wheel", setuptools_requires)
    monkeypatch.delenv("HULKFORGE_COMPILE", raising=False)
    assert backend.get_requires_for_build_wheel() == ["wheel"]
    monkeypatch.setenv("HULKFORGE_COMPILE", "1")
    assert backend.get_requires_for_build_wheel() == ["wheel", backend.MYPYC]
    # setup.py, run by setuptools to list its requirements, does not try to compile before mypy is there
    assert seen == [None, "0"]
    assert os.environ["HULKFORGE_COMPILE"] == "1"


def test_an_editable_install_is_never_compiled(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    backend = _backend()
    monkeypatch.setenv("HULKFORGE_COMPILE", "1")
    with pytest.raises(RuntimeError, match="not an editable one"):
        backend.build_editable(str(tmp_path))
