"""The engine never imports a GUI toolkit: checked statically (every import statement) and at run time."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = ("PySide6", "PySide2", "PyQt5", "PyQt6", "shiboken6", "pyqtgraph", "tkinter", "editor")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_no_engine_module_imports_a_gui_module() -> None:
    offenders = [
        f"{p.relative_to(ENGINE.parent)}: {name}"
        for p in sorted(ENGINE.rglob("*.py"))
        for name in _imports(p)
        if name.split(".")[0] in FORBIDDEN
    ]
    assert offenders == []


def test_importing_every_engine_module_loads_no_gui_module() -> None:
    """Dynamic check too: `import engine.x` for every module, then look at sys.modules."""
    code = (
        "import importlib, pkgutil, sys, engine\n"
        "for m in pkgutil.walk_packages(engine.__path__, 'engine.'):\n"
        "    if m.name.endswith('__main__'): continue\n"
        "    importlib.import_module(m.name)\n"
        f"bad = sorted(n for n in sys.modules if n.split('.')[0] in {FORBIDDEN!r})\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ENGINE.parent)
    assert proc.returncode == 0, proc.stdout + proc.stderr
