"""The modules an install compiles with mypyc (`pip install .` does when the machine can, docs/speed.md), and
whether this process runs them compiled.

Compiled or not, a module is the same source and plays the same games: mypyc turns typed Python into a C extension
(and checks the annotations as it runs). The list holds the modules a game spends its time in; the others stay
plain Python either way.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import re
import sys
from pathlib import Path

MODULES: tuple[str, ...] = (
    "engine.ai.decisions",
    "engine.ai.genestealer_field",
    "engine.ai.genestealer_maps",
    "engine.ai.genestealer_setup",
    "engine.ai.genestealer_terms",
    "engine.ai.genestealers",
    "engine.ai.marine_fire",
    "engine.ai.marine_moves",
    "engine.ai.marine_places",
    "engine.ai.marine_reactions",
    "engine.ai.marine_routes",
    "engine.ai.marine_squad",
    "engine.ai.marine_terms",
    "engine.ai.marines",
    "engine.ai.novice",
    "engine.ai.situation",
    "engine.ai.tables",
    "engine.rules.acting",
    "engine.rules.assault",
    "engine.rules.blips",
    "engine.rules.board",
    "engine.rules.combat",
    "engine.rules.features",
    "engine.rules.fire",
    "engine.rules.game",
    "engine.rules.kernel",
    "engine.rules.legal",
    "engine.rules.movement",
    "engine.rules.moves",
    "engine.rules.observation",
    "engine.rules.phases",
    "engine.rules.pieces",
    "engine.rules.psychic",
    "engine.rules.sight",
    "engine.rules.state",
    "engine.rules.verbs",
    "engine.rules.victory",
    "engine.rules.views",
)


def compiled_modules() -> list[str]:
    """The modules of MODULES that this interpreter loads from a compiled extension (none in a plain install)."""
    out = []
    for name in MODULES:
        spec = importlib.util.find_spec(name)
        if spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
            out.append(name)
    return out


def engine_build() -> str:
    """'compiled (n of N modules, mypyc)' or 'plain Python': which engine a benchmark measured."""
    n = len(compiled_modules())
    return f"compiled ({n} of {len(MODULES)} modules, mypyc)" if n else "plain Python"


def mypyc_libraries(site: Path) -> list[str]:
    """The shared libraries that the compiled engine installed in `site` imports (top-level modules).

    Each compiled module is a small extension that imports, from C, one library holding the code of them all: a
    module named <hash>__mypyc, which its name is written in (other packages built with mypyc have their own).
    """
    names: set[str] = set()
    for module in (site / "engine").rglob("*.so"):
        names.update(m.decode() for m in re.findall(rb"\b([0-9a-f]{8,}__mypyc)\b", module.read_bytes()))
    return sorted(name for name in names if any(site.glob(f"{name}.*")))


def installed_copy(checkout: Path) -> Path | None:
    """The folder of an installed hulkforge whose engine is compiled from exactly `checkout`'s sources, or None.

    What a benchmark or the standalone bundle can run in place of the checkout's plain sources: only an install
    whose every source file is the checkout's own is taken, so nothing measures or freezes a stale copy. An editable
    install is the checkout itself.
    """
    checkout = checkout.resolve()
    elsewhere = [p for p in sys.path if p and Path(p).resolve() != checkout]
    spec = importlib.machinery.PathFinder.find_spec("engine", elsewhere)
    if spec is None or not spec.submodule_search_locations:
        return None
    site = Path(next(iter(spec.submodule_search_locations))).resolve().parent
    if site == checkout or not mypyc_libraries(site):
        return None
    for package in ("engine", "editor"):
        ours = {p.relative_to(checkout) for p in (checkout / package).rglob("*.py")}
        # (the install adds the data packages engine._schemas and engine._samples, which are not sources)
        theirs = {p.relative_to(site) for p in (site / package).rglob("*.py")
                  if p.parent.name not in ("_schemas", "_samples")}
        if ours != theirs or any((checkout / f).read_bytes() != (site / f).read_bytes() for f in ours):
            return None
    return site
