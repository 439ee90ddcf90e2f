"""Golden missions: for every placement rule a failing mission with its expected issues, and a passing one."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest

from engine.mission import placement, reach, validate_document, victory

GOLDEN = Path(__file__).parent.parent / "golden" / "missions"
CASES = sorted(p.name for p in GOLDEN.iterdir() if p.is_dir())


def _key(rule: str, level: str | None, squares: list[list[int]]) -> tuple[str, str, str]:
    return (rule, level or "", json.dumps(squares))


@pytest.mark.parametrize("case", CASES)
def test_failing_golden_reports_exactly_the_expected_issues(case: str) -> None:
    doc = json.loads((GOLDEN / case / "fail.json").read_text())
    expected = json.loads((GOLDEN / case / "expected.json").read_text())
    got = sorted(_key(i.rule, i.level, [list(s) for s in i.squares]) for i in validate_document(doc))
    assert got == sorted(_key(e["rule"], e["level"], e["squares"]) for e in expected)


@pytest.mark.parametrize("case", CASES)
def test_passing_golden_has_no_issue(case: str) -> None:
    doc = json.loads((GOLDEN / case / "pass.json").read_text())
    assert validate_document(doc) == []


def test_every_placement_rule_has_a_golden_case() -> None:
    """Each rule id the placement checks can raise appears in some golden expectation."""
    source = inspect.getsource(placement) + inspect.getsource(reach) + inspect.getsource(victory)

    rules = set(
        re.findall(
            r'"((?:PIT|HOLE|LADDER|LIFT|AREA|TORPEDO|DOOR|ON|OUT|REF|DEPLOY|SQUAD|ENTRY|EXIT|REINF|POOL|RANDOM|REACH|'
            r'SECTION|GRID|LEVEL|VICTORY)-[A-Z-]+|ON-FLOOR)"',
            source,
        )
    )
    covered = {e["rule"] for case in CASES for e in json.loads((GOLDEN / case / "expected.json").read_text())}
    assert rules
    assert rules - covered == set()
