"""The one shape every validation finding takes, from the schema and from the placement rules alike."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Issue:
    """A finding: which rule, where in the document, which level and squares, and what to do about it."""

    rule: str
    path: str
    message: str
    level: str | None = None
    squares: tuple[tuple[int, int], ...] = field(default=())
    severity: Severity = "error"

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "path": self.path,
            "level": self.level,
            "squares": [list(s) for s in self.squares],
            "message": self.message,
            "severity": self.severity,
        }

    def location(self) -> str:
        """`LEVEL:X,Y` for the first square; without one, the JSON path (after the level when there is one), so
        a finding about a reference or a count still says where to look."""
        if self.squares:
            x, y = self.squares[0]
            return f"{self.level or '-'}:{x},{y}"
        return f"{self.level}:{self.path}" if self.level else self.path

    def line(self, file: str) -> str:
        """The one-line form used by `hulkforge validate`: FILE:LEVEL:X,Y: RULE-ID: message (FILE:PATH: ... when
        the issue has no square)."""
        return f"{file}:{self.location()}: {self.rule}: {self.message}"


def json_path(parts: list[str | int] | tuple[str | int, ...]) -> str:
    """`$.levels[0].rows[3]` from ('levels', 0, 'rows', 3)."""
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


def has_errors(issues: list[Issue]) -> bool:
    return any(i.severity == "error" for i in issues)
