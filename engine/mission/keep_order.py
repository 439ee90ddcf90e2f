"""A changed mission written in its source's own spelling, so a diff of the two shows only what changed."""

from __future__ import annotations

import copy
from typing import Any

_MISSING = object()


def carry_changes(source: Any, before: Any, after: Any) -> Any:
    """`source` with the changes from `before` to `after` made in it.

    `before` is the source as the codec writes it (mission_to_dict of the source's model), `after` the changed
    model written the same way. Where they agree the source's text is kept as it is: its key order, its section
    order, the defaults it leaves out. Where they differ the value comes from `after`, in place; keys new in
    `after` go after the source's own, keys it dropped are dropped.
    """
    if before == after:
        return copy.deepcopy(source)
    if isinstance(source, dict) and isinstance(before, dict) and isinstance(after, dict):
        out: dict[str, Any] = {}
        for key, value in source.items():
            if key in after:
                out[key] = carry_changes(value, before.get(key, _MISSING), after[key])
            elif key not in before:
                out[key] = copy.deepcopy(value)  # a key the codec does not write back (nothing changed it)
        for key, value in after.items():
            if key not in source and before.get(key, _MISSING) != value:
                out[key] = copy.deepcopy(value)
        return out
    if isinstance(source, list) and isinstance(before, list) and isinstance(after, list) and len(source) == len(
        before
    ):
        # Index by index (the codec keeps every list's order); items past the end of either come from `after`.
        kept = [carry_changes(s, b, a) for s, b, a in zip(source, before, after, strict=False)]
        return kept + copy.deepcopy(after[len(kept):])
    return copy.deepcopy(after)
