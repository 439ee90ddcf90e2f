"""The validation API: one list of Issues from the schema, the placement rules and reachability.

A schema error does not hide the placement rules: they run on what can be read (the document is read as
engine.mission.salvage reads it for repair), skipping only the objects the schema found broken.
"""

from __future__ import annotations

from typing import Any

from engine.mission.codec import mission_to_dict
from engine.mission.issues import Issue
from engine.mission.model import Mission
from engine.mission.objects import within
from engine.mission.placement import placement_issues
from engine.mission.reach import reach_issues
from engine.mission.salvage import salvage_document
from engine.mission.schema_check import schema_report


def validate_document(doc: Any) -> list[Issue]:
    """All issues of a parsed document: schema errors first, then the rules on the readable objects.

    Never mutates doc."""
    report = schema_report(doc)
    if not isinstance(doc, dict):
        return report.issues
    # Salvage keeps every list item in place, so the model's paths are the document's.
    return report.issues + _rule_issues(salvage_document(doc).mission, report.broken)


def validate_mission(m: Mission) -> list[Issue]:
    """All issues of a mission model (the editor calls this on every edit)."""
    doc = mission_to_dict(m)
    report = schema_report(doc)
    if report.issues:
        # The model may hold values of any type where the schema is broken (a name of False): read it back as
        # a repair would, so the rules below only ever see a well-typed model.
        m = salvage_document(doc).mission
    return report.issues + _rule_issues(m, report.broken)


def _rule_issues(m: Mission, broken: frozenset[str]) -> list[Issue]:
    issues = placement_issues(m, broken)
    # Reachability on a broken grid would only repeat the errors above in another form.
    if not any(i.rule in ("REF-LEVEL", "OUT-OF-GRID", "GRID-RAGGED") for i in issues):
        issues.extend(i for i in reach_issues(m) if not within(i.path, broken))
    return issues
