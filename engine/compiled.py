"""The modules an install compiles with mypyc (`pip install .` does when the machine can, docs/speed.md), and
whether this process runs them compiled.

Compiled or not, a module is the same source and plays the same games: mypyc turns typed Python into a C extension
(and checks the annotations as it runs). The list holds the modules a game spends its time in; the others stay
plain Python either way.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util

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
