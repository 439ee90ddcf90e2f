"""What a mission's victory conditions ask, read from the mission alone: the side each one gives the game to,
and every reason a condition can never be met as written.

Validation reports the reasons (REF-*, VICTORY-*), and the Derelict export leaves out a Marine victory that has
one before it decides whether the Marines can win there at all: one analysis for both.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from engine.mission.model import Mission

# The side a condition gives the game to when it says nothing (engine/rules/victory.py).
_DEFAULT_RESULT = {"turn_limit": "genestealers"}


def result_of(cond: Mapping[str, object]) -> str:
    """marines, genestealers or draw: what meeting the condition gives."""
    kind = str(cond.get("kind"))
    if kind == "escape":
        return "marines"
    if kind == "marines_eliminated":
        return "genestealers"
    return str(cond.get("result", _DEFAULT_RESULT.get(kind, "marines")))


@dataclass(frozen=True)
class Fault:
    """What is wrong with a condition: the rule, the condition's field at fault (a JSON path suffix such as
    `.to.exit`), the message, the level and squares to show, and whether it stops the condition being met."""

    rule: str
    where: str
    message: str
    level: str | None = None
    squares: tuple[tuple[int, int], ...] = field(default=())
    blocks: bool = True


def faults(m: Mission, cond: Mapping[str, object]) -> Iterator[Fault]:
    """Every reason `cond` cannot be met as written. Conditions are JSON objects read defensively: a caller
    may hand over one that breaks the schema."""
    kind = cond.get("kind")
    if kind == "escape":
        yield from _escape_faults(m, cond)
    elif kind in ("objective_carried", "objective_flamed"):
        oid = cond.get("objective")
        obj = next((o for o in m.objectives if isinstance(oid, str) and o.id == oid), None)
        if obj is None:
            yield Fault("REF-OBJECTIVE", ".objective", f"objective {oid!r} does not exist")
        elif kind == "objective_carried" and obj.kind != "object":
            yield Fault(
                "VICTORY-CARRY",
                ".objective",
                f"objective {obj.id} is a location, and only an object can be picked up and carried",
                obj.level,
                ((obj.x, obj.y),),
            )
        if kind == "objective_carried":
            yield from _destination_faults(m, cond.get("to"))
    elif kind == "section_flamed":
        lv = m.level(str(cond.get("level")))
        if lv is None:
            yield Fault("REF-LEVEL", ".level", f"level {cond.get('level')!r} does not exist")
        elif not any(str(cond.get("section")) in row for row in lv.rows):
            yield Fault("REF-SECTION", ".section", f"section {cond.get('section')!r} has no squares", lv.id)


def _escape_faults(m: Mission, cond: Mapping[str, object]) -> Iterator[Fault]:
    via = cond.get("via", ["exit", "chute"])
    if not isinstance(via, list) or not all(isinstance(x, str) for x in via):
        return
    if not ((("exit" in via) and m.exits) or (("chute" in via) and m.chutes)):
        yield Fault("VICTORY-ESCAPE", "", f"Marines escape by {' or '.join(via)}, but the mission has none")
    draw, win = cond.get("draw_at"), cond.get("win_at")
    if isinstance(draw, int) and isinstance(win, int) and draw >= win:
        yield Fault("VICTORY-ESCAPE", "", f"draw_at ({draw}) must be below win_at ({win})", blocks=False)
    if isinstance(win, int) and win > len(m.marines.squad):
        yield Fault("VICTORY-ESCAPE", "", f"{win} Marines must escape but the squad has {len(m.marines.squad)}")


def _destination_faults(m: Mission, to: object) -> Iterator[Fault]:
    if to is None:
        yield Fault(
            "VICTORY-CARRY",
            "",
            "the object has no destination: name an exit ('to': {'exit': ID}) or a square ('to': {'level', 'x', "
            "'y'}), or the briefing cannot say where it must go",
        )
        return
    if not isinstance(to, Mapping):
        return
    if "exit" in to:
        if not isinstance(to["exit"], str) or to["exit"] not in {e.id for e in m.exits}:
            yield Fault("REF-EXIT", ".to.exit", f"exit {to['exit']!r} does not exist")
        return
    level, x, y = to.get("level"), to.get("x"), to.get("y")
    if not (isinstance(x, int) and isinstance(y, int)):
        return
    lv = m.level(str(level))
    if lv is None:
        yield Fault("REF-LEVEL", ".to.level", f"the destination is on level {level!r}, which does not exist")
    elif not lv.is_floor(x, y):
        yield Fault(
            "VICTORY-CARRY",
            ".to",
            f"the destination {x},{y} is a wall or off the map, where no Marine can stand",
            lv.id,
            ((x, y),),
        )


def can_be_won(m: Mission, cond: Mapping[str, object]) -> bool:
    """True when nothing written in the mission stops the condition from ever being met."""
    return not any(f.blocks for f in faults(m, cond))
