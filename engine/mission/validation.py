"""The validation API: one list of Issues from the schema, the placement rules and reachability."""

from __future__ import annotations

import copy
from typing import Any

from engine.mission.codec import mission_from_dict, mission_to_dict
from engine.mission.issues import Issue
from engine.mission.model import Mission
from engine.mission.placement import placement_issues
from engine.mission.reach import reach_issues
from engine.mission.schema_check import schema_issues


def validate_document(doc: Any) -> list[Issue]:
    """All issues of a parsed document. Placement rules run only once the schema is satisfied. Never mutates doc."""
    issues = schema_issues(doc)
    if issues:
        return issues
    # The model copies what it keeps, so nothing below can reach back into the caller's document.
    return validate_mission(mission_from_dict(copy.deepcopy(doc)), schema_checked=True)


def validate_mission(m: Mission, *, schema_checked: bool = False) -> list[Issue]:
    """All issues of a mission model (the editor calls this on every edit)."""
    if not schema_checked:
        found = schema_issues(mission_to_dict(m))
        if found:
            return found
    issues = placement_issues(m)
    # Reachability on a broken grid would only repeat the errors above in another form.
    if not any(i.rule in ("REF-LEVEL", "OUT-OF-GRID", "GRID-RAGGED") for i in issues):
        issues.extend(reach_issues(m))
    return issues
