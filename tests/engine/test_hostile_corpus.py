"""The seeded hostile-input corpus through the command line: exit 0/1/2 only, no traceback, no crash, nothing
written on error, no temporary file left, and what `import` writes reads back.

Every mission goes through `validate` and every Tiled map through `import` (in this process: main() is called
directly); every few missions also through render (SVG), export (Tiled, Derelict) and simulate, and a few
through the real console path in a subprocess (render PNG, where a crash in Qt would kill the process). Every
run takes the whole corpus (2,000 inputs; the first 260 were once a separate "small" run, a prefix of this
one), and 200 Derelict missions, each with its segment library, go through `import`. To see the table of
results of any corpus:

    python tests/engine/hostile_corpus.py --seed 16 --missions 1500 --maps 500
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_corpus import DERELICT_CLASSES, SPECIAL_INPUTS, Case, commands_for, generate, generate_derelict, run_case

SEED = 16

KNOWN: dict[str, str] = {}  # inputs that fail for a known reason: xfail(strict) until fixed

EVERY = {"render-svg": 4, "export-tiled": 6, "export-derelict": 6, "simulate": 5, "render-png": 10}
SUBPROCESS = ("render-png",)


def _params(missions: int, maps: int, every: dict[str, int]) -> list[object]:
    out: list[object] = []
    for i, case in enumerate(generate(SEED, missions, maps)):
        commands = commands_for(case, i, every)
        marks = [pytest.mark.xfail(strict=True, reason=KNOWN[case.name])] if case.name in KNOWN else []
        out.append(pytest.param(case, commands, id=case.name, marks=marks))
    return out


def _check(case: Case, commands: list[str], tmp_path: Path) -> None:
    problems = []
    for command in commands:
        run = run_case(case, command, tmp_path, subprocess_=command in SUBPROCESS)
        problems += [f"{command}: {p}" for p in run.problems]
    assert not problems, f"{case.name} ({case.klass}, {sorted(case.tags)}): " + "; ".join(problems)


@pytest.mark.parametrize(("case", "commands"), _params(1500, 500, EVERY))
def test_hostile_input(case: Case, commands: list[str], tmp_path: Path) -> None:
    _check(case, commands, tmp_path)


@pytest.mark.parametrize("case", generate_derelict(SEED, 200), ids=lambda c: c.name)
def test_hostile_derelict_input(case: Case, tmp_path: Path) -> None:
    _check(case, ["import"], tmp_path)


def test_the_derelict_corpus_is_seeded_and_covers_every_class() -> None:
    one, two = generate_derelict(SEED, 20), generate_derelict(SEED, 20)
    assert [(c.data, c.library) for c in one] == [(c.data, c.library) for c in two]
    assert {c.klass for c in one} == set(DERELICT_CLASSES)


def test_the_corpus_is_seeded_and_covers_every_class() -> None:
    one, two = generate(SEED, 60, 30), generate(SEED, 60, 30)
    assert [(c.name, c.data) for c in one] == [(c.name, c.data) for c in two]
    assert {c.klass for c in one if c.kind == "mission"} >= {"malformed", "wrong-type", "huge", "deep", "version",
                                                             "dangling", "decimals", "odd-unicode",
                                                             "trailing-newline", "duplicate-key", "structure",
                                                             "odd-valid-text"}
    assert {c.klass for c in one if c.kind == "tiled"} >= {"tiled-number", "tiled-property", "tiled-layers",
                                                           "tiled-text"}
    assert {tag for c in one if c.kind == "special" for tag in c.tags} == set(SPECIAL_INPUTS)
    assert generate(SEED + 1, 60, 0)[5].data != one[5].data
