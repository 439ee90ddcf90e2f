"""Regenerate tests/golden/missions/: one failing and one passing mission per placement rule.

The expected issues are written from the CASES table below (by hand, from RULES.md §1), never from the
validator's output, so the golden test checks the validator against the rules rather than against itself.
Run: python tests/golden/make_mission_goldens.py
"""

from __future__ import annotations

import copy
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent / "missions"
Doc = dict[str, Any]


def base() -> Doc:
    """A small valid two-level mission: upper rooms a|b joined by a door, lower c|d, one ladder between them."""
    return {
        "format": "hulkforge-mission",
        "version": 1,
        "meta": {"title": "Golden base"},
        "ruleset": "4e",
        "options": {},
        "levels": [
            {"id": "upper", "depth": 0, "rows": ["##########", "#aaaa#bbb#", "#aaaaabbb#", "#aaaa#bbb#", "##########"],
             "sections": {"a": {"name": "West", "kind": "room"}, "b": {"name": "East", "kind": "room"}}},
            {"id": "lower", "depth": 1, "rows": ["##########", "#cccc#ddd#", "#ccccdddd#", "#cccc#ddd#", "##########"],
             "sections": {"c": {"name": "West", "kind": "room"}, "d": {"name": "East", "kind": "room"}}},
        ],
        "doors": [{"id": "D1", "level": "upper", "x": 5, "y": 2}],
        "entry_areas": [{"id": "EU", "level": "upper", "x": 8, "y": 2, "side": "E"},
                        {"id": "EL", "level": "lower", "x": 8, "y": 2, "side": "E"}],
        "exits": [{"id": "X1", "level": "upper", "x": 1, "y": 2, "side": "W"}],
        "objectives": [{"id": "O1", "level": "upper", "x": 7, "y": 1}],
        "ladders": [{"id": "L1", "top": {"level": "upper", "x": 3, "y": 3}, "bottom": {"level": "lower", "x": 3, "y": 3}}],
        "marines": {"squad": [
            {"id": "sgt", "rank": "sergeant", "melee": "power_sword", "level": "upper", "x": 2, "y": 2, "facing": "E"},
            {"id": "m1", "rank": "marine", "level": "upper", "x": 2, "y": 1, "facing": "E"}]},
        "genestealers": {"starting": {"blips": 1, "entry_areas": ["EU"]},
                         "reinforcements": [{"from_turn": 1, "per_turn": 1, "entry_areas": ["EU", "EL"],
                                             "pool": "unlimited"}]},
        "victory": [{"kind": "escape", "via": ["exit"], "win_at": 1}, {"kind": "marines_eliminated"}],
    }


def pit(letter: str, level: str, x: int, y: int) -> Doc:
    return {"letter": letter, "level": level, "x": x, "y": y}


def add(key: str, *items: Doc) -> Callable[[Doc], None]:
    def f(d: Doc) -> None:
        d.setdefault(key, []).extend(copy.deepcopy(list(items)))
    return f


def row(level: int, y: int, text: str) -> Callable[[Doc], None]:
    def f(d: Doc) -> None:
        d["levels"][level]["rows"][y] = text
    return f


def setp(path: str, value: Any) -> Callable[[Doc], None]:
    def f(d: Doc) -> None:
        node = d
        parts = path.split(".")
        for p in parts[:-1]:
            node = node[int(p)] if p.isdigit() else node[p]
        last = parts[-1]
        node[int(last) if last.isdigit() else last] = copy.deepcopy(value)
    return f


def seq(*fs: Callable[[Doc], None]) -> Callable[[Doc], None]:
    def f(d: Doc) -> None:
        for g in fs:
            g(d)
    return f


CARRY_TO_EXIT = {"kind": "objective_carried", "objective": "O1", "to": {"exit": "X1"}}
CUT_OFF_EAST = seq(row(0, 2, "#aaaa#bbb#"), setp("doors", []))
# name: (failing mutation, expected [(rule, level, squares)], passing mutation)
Case = tuple[Callable[[Doc], None], list[tuple[str, str | None, list[list[int]]]], Callable[[Doc], None]]
CASES: dict[str, Case] = {
    "pit-door": (add("pitfalls", pit("A", "upper", 5, 2)), [("PIT-DOOR", "upper", [[5, 2]])],
                 add("pitfalls", pit("A", "upper", 4, 1))),
    "pit-objective": (add("pitfalls", pit("A", "upper", 7, 1)), [("PIT-OBJECTIVE", "upper", [[7, 1]])],
                      add("pitfalls", pit("A", "upper", 7, 3))),
    "pit-unit": (add("pitfalls", pit("A", "upper", 2, 2)), [("PIT-UNIT", "upper", [[2, 2]])],
                 add("pitfalls", pit("A", "upper", 1, 3))),
    "pit-stacked": (seq(add("rubble", {"level": "upper", "x": 4, "y": 3}), add("pitfalls", pit("A", "upper", 4, 3))),
                    [("PIT-STACKED", "upper", [[4, 3]])],
                    seq(add("rubble", {"level": "upper", "x": 4, "y": 1}), add("pitfalls", pit("A", "upper", 3, 2)))),
    "pit-adjacent-rubble": (seq(add("rubble", {"level": "upper", "x": 7, "y": 2}), add("pitfalls", pit("A", "upper", 7, 3))),
                            [("PIT-ADJACENT", "upper", [[7, 3], [7, 2]])],
                            seq(add("rubble", {"level": "upper", "x": 6, "y": 2}), add("pitfalls", pit("A", "upper", 7, 3)))),
    "pit-adjacent-pitfall": (add("pitfalls", pit("A", "upper", 1, 3), pit("B", "upper", 2, 3)),
                             [("PIT-ADJACENT", "upper", [[1, 3], [2, 3]]), ("PIT-ADJACENT", "upper", [[2, 3], [1, 3]])],
                             add("pitfalls", pit("A", "upper", 4, 1), pit("B", "upper", 3, 2))),
    "hole-bottom": (seq(row(1, 3, "#cccc#dd##"), add("pitfalls", pit("A", "upper", 8, 3))),
                    [("HOLE-BOTTOM", "upper", [[8, 3]])], add("pitfalls", pit("A", "upper", 8, 3))),
    "hole-no-bottom": (add("pitfalls", pit("A", "lower", 7, 3)), [("HOLE-NO-BOTTOM", "lower", [[7, 3]])],
                       add("pitfalls", pit("A", "upper", 7, 3))),
    "ladder-levels": (setp("ladders.0.bottom", {"level": "upper", "x": 6, "y": 1}),
                      [("LADDER-LEVELS", "upper", [[3, 3]]), ("REACH-ENTRY", "lower", [[8, 2]])],
                      setp("ladders.0.bottom", {"level": "lower", "x": 6, "y": 1})),
    "ladder-align": (seq(setp("options", {"ladder_rule": "pitfall"}), setp("ladders.0.bottom", {"level": "lower", "x": 3, "y": 1})),
                     [("LADDER-ALIGN", "upper", [[3, 3]])],
                     seq(setp("options", {"ladder_rule": "4e"}), setp("ladders.0.bottom", {"level": "lower", "x": 3, "y": 1}))),
    "ladder-on-wall": (setp("ladders.0.bottom", {"level": "lower", "x": 5, "y": 3}),
                       [("ON-FLOOR", "lower", [[5, 3]]), ("REACH-ENTRY", "lower", [[8, 2]])], setp("ladders.0.bottom", {"level": "lower", "x": 4, "y": 3})),
    "door-on-wall": (add("doors", {"id": "D2", "level": "upper", "x": 5, "y": 1}),
                     [("ON-FLOOR", "upper", [[5, 1]])], lambda d: None),
    "door-walls": (add("doors", {"id": "D2", "level": "upper", "x": 3, "y": 2}),
                   [("DOOR-WALLS", "upper", [[3, 2]])], lambda d: None),
    "exit-on-wall": (setp("exits.0.x", 0), [("ON-FLOOR", "upper", [[0, 2]])], lambda d: None),
    "objective-out-of-grid": (setp("objectives.0.x", 20), [("OUT-OF-GRID", "upper", [[20, 1]])], lambda d: None),
    "unknown-level": (add("rubble", {"level": "middle", "x": 1, "y": 1}), [("REF-LEVEL", None, [])], lambda d: None),
    "deploy-overlap": (setp("marines.squad.1.y", 2), [("DEPLOY-OVERLAP", "upper", [[2, 2]])], lambda d: None),
    "deploy-on-door": (setp("marines.squad.1", {"id": "m1", "rank": "marine", "level": "upper", "x": 5, "y": 2, "facing": "E"}),
                       [("DEPLOY-BLOCKED", "upper", [[5, 2]])],
                       setp("doors.0.state", "open")),
    "squad-two-sergeants": (setp("marines.squad.1.rank", "sergeant"), [("SQUAD-SERGEANT", None, [])], lambda d: None),
    "squad-claws-and-bolter": (seq(setp("marines.squad.1.melee", "lightning_claws"), setp("marines.squad.1.ranged", "storm_bolter")),
                               [("SQUAD-WEAPON", "upper", [[2, 1]])],
                               seq(setp("marines.squad.1.melee", "lightning_claws"), setp("marines.squad.1.ranged", "none"))),
    "entry-edge": (setp("entry_areas.0.side", "W"), [("ENTRY-EDGE", "upper", [[8, 2]])], setp("entry_areas.0.side", "E")),
    "exit-edge": (setp("exits.0.side", "E"), [("EXIT-EDGE", "upper", [[1, 2]])], lambda d: None),
    "reinforcement-unknown-entry": (setp("genestealers.reinforcements.0.entry_areas", ["EU", "nowhere"]),
                                    [("REF-ENTRY", None, [])], lambda d: None),
    "duplicate-id": (add("doors", {"id": "D1", "level": "lower", "x": 5, "y": 1}), [("REF-DUPLICATE-ID", None, []), ("ON-FLOOR", "lower", [[5, 1]])],
                     lambda d: None),
    "reinforcement-turns": (setp("genestealers.reinforcements.0", {"from_turn": 5, "to_turn": 2, "per_turn": 1, "entry_areas": ["EU"],
                                                                       "pool": "unlimited"}),
                            [("REINF-TURNS", None, [])], lambda d: None),
    "pool-limit": (setp("genestealers.limited", {"unit": "stealers", "total": 100}), [("POOL-LIMIT", None, [])],
                   setp("genestealers.limited", {"unit": "stealers", "total": 44})),
    "random-per-section": (setp("random_setup", {"zones": [{"level": "upper", "section": "a"}], "counters": [{"kind": "rubble"}, {"kind": "rubble"}]}),
                           [("RANDOM-PER-SECTION", None, [])],
                           setp("random_setup", {"zones": [{"level": "upper", "section": "a"}, {"level": "upper", "section": "b"}],
                                                 "counters": [{"kind": "rubble"}, {"kind": "rubble"}]})),
    "random-no-bottom": (setp("random_setup", {"zones": [{"level": "lower", "section": "c"}], "counters": [{"kind": "pitfall", "letter": "A"}]}),
                         [("RANDOM-NO-BOTTOM", None, [])],
                         setp("random_setup", {"zones": [{"level": "upper", "section": "a"}], "counters": [{"kind": "pitfall", "letter": "A"}]})),
    "unreachable-entry-objective": (CUT_OFF_EAST, [("REACH-ENTRY", "upper", [[8, 2]]), ("REACH-OBJECTIVE", "upper", [[7, 1]])],
                                    seq(CUT_OFF_EAST, add("ladders", {"id": "L2", "top": {"level": "upper", "x": 7, "y": 3},
                                                                       "bottom": {"level": "lower", "x": 7, "y": 3}}))),
    "unreachable-exit": (seq(CUT_OFF_EAST, setp("objectives", []), setp("entry_areas.0.x", 1), setp("entry_areas.0.side", "W"),
                             setp("exits.0", {"id": "X1", "level": "upper", "x": 8, "y": 2, "side": "E"})),
                         [("REACH-EXIT", "upper", [[8, 2]])], lambda d: None),
    "unreachable-chute": (seq(CUT_OFF_EAST, setp("objectives", []), setp("entry_areas.0.x", 1), setp("entry_areas.0.side", "W"),
                              add("chutes", {"id": "C1", "level": "upper", "x": 7, "y": 2}),
                              setp("victory.0", {"kind": "escape", "via": ["exit", "chute"], "win_at": 1})),
                          [("REACH-CHUTE", "upper", [[7, 2]])], add("chutes", {"id": "C1", "level": "upper", "x": 7, "y": 2})),
    "section-undeclared": (row(0, 1, "#zaaa#bbb#"), [("SECTION-UNDECLARED", "upper", [[1, 1]])], lambda d: None),
    "section-unassigned": (row(0, 1, "#.aaa#bbb#"), [("SECTION-UNASSIGNED", "upper", [[1, 1]])], lambda d: None),
    "grid-ragged": (row(0, 3, "#aaaa#bb#"), [("GRID-RAGGED", "upper", [[9, 3]])], lambda d: None),
    "level-depth": (setp("levels.1.depth", 0), [("LEVEL-DEPTH", "upper", []), ("LEVEL-DEPTH", "lower", []), ("LADDER-LEVELS", "upper", [[3, 3]])],
                    lambda d: None),
    "victory-no-chute": (setp("victory.0", {"kind": "escape", "via": ["chute"], "win_at": 1}), [("VICTORY-ESCAPE", None, [])],
                         lambda d: None),
    "victory-unknown-objective": (add("victory", {"kind": "objective_carried", "objective": "nothing", "to": {"exit": "X1"}}),
                                  [("REF-OBJECTIVE", None, [])],
                                  add("victory", {"kind": "objective_carried", "objective": "O1", "to": {"exit": "X1"}})),
    "victory-unknown-section": (add("victory", {"kind": "section_flamed", "level": "lower", "section": "q"}),
                                [("REF-SECTION", "lower", [])],
                                add("victory", {"kind": "section_flamed", "level": "lower", "section": "d"})),
    "squad-two-archivists": (seq(setp("marines.squad.0.rank", "archivist"), setp("marines.squad.1.rank", "archivist")),
                             [("SQUAD-ARCHIVIST", None, [])], setp("marines.squad.1.rank", "archivist")),
    "section-unused": (setp("levels.0.sections.z", {"name": "Ghost", "kind": "room"}), [("SECTION-UNUSED", "upper", [])],
                       lambda d: None),
    "pool-alpha": (seq(setp("genestealers.alpha", True), setp("genestealers.pool", {"1": 9, "2": 4, "3": 0})),
                   [("POOL-ALPHA", None, [])], setp("genestealers.alpha", True)),
    "pool-empty": (setp("genestealers.pool", {"1": 0, "2": 0, "3": 0}), [("POOL-EMPTY", None, [])], lambda d: None),
    "lift-levels": (add("lifts", {"id": "T1", "entrances": [{"level": "upper", "x": 7, "y": 2},
                                                            {"level": "upper", "x": 6, "y": 1}]}),
                    [("LIFT-LEVELS", "upper", [[7, 2]]), ("LIFT-LEVELS", "upper", [[7, 2], [6, 1]])],
                    add("lifts", {"id": "T1", "entrances": [{"level": "upper", "x": 7, "y": 2},
                                                            {"level": "lower", "x": 7, "y": 2}]})),
    "lift-stacked": (add("lifts", {"id": "T1", "entrances": [{"level": "upper", "x": 3, "y": 3},
                                                             {"level": "lower", "x": 7, "y": 2}]}),
                     [("LIFT-STACKED", "upper", [[3, 3]])],
                     add("lifts", {"id": "T1", "entrances": [{"level": "upper", "x": 7, "y": 2},
                                                             {"level": "lower", "x": 7, "y": 2}]})),
    "area-blocked": (add("deployment_areas", {"id": "A1", "level": "upper", "squares": [[2, 2], [5, 2]]}),
                     [("AREA-BLOCKED", "upper", [[5, 2]])],
                     add("deployment_areas", {"id": "A1", "level": "upper", "squares": [[2, 2], [3, 2]]})),
    "area-overlap": (add("deployment_areas", {"id": "A1", "level": "upper", "squares": [[2, 2], [3, 2]]},
                         {"id": "A2", "level": "upper", "squares": [[3, 2], [2, 1]]}),
                     [("AREA-OVERLAP", "upper", [[3, 2]])],
                     add("deployment_areas", {"id": "A1", "level": "upper", "squares": [[2, 2], [3, 2]]},
                         {"id": "A2", "level": "upper", "squares": [[2, 1]]})),
    "area-empty": (add("deployment_areas", {"id": "A1", "level": "upper", "squares": [[3, 1], [4, 1]]}),
                   [("AREA-EMPTY", "upper", [[3, 1], [4, 1]])],
                   add("deployment_areas", {"id": "A1", "level": "upper", "squares": [[2, 2], [3, 1]]})),
    "torpedo-edge": (add("torpedoes", {"id": "BT1", "level": "upper", "x": 3, "y": 2, "side": "E"}),
                     [("TORPEDO-EDGE", "upper", [[3, 2]])],
                     add("torpedoes", {"id": "BT1", "level": "upper", "x": 3, "y": 1, "side": "N"})),
    "ladder-stacked": (add("rubble", {"level": "upper", "x": 3, "y": 3}), [("LADDER-STACKED", "upper", [[3, 3]])],
                       add("rubble", {"level": "upper", "x": 3, "y": 1})),
    "victory-unknown-exit": (add("victory", {"kind": "objective_carried", "objective": "O1", "to": {"exit": "X9"}}),
                             [("REF-EXIT", None, [])], lambda d: None),
    "random-zone-twice": (setp("random_setup", {"zones": [{"level": "upper", "section": "a"}, {"level": "upper", "section": "a"}],
                                                "counters": [{"kind": "rubble"}]}),
                          [("RANDOM-ZONE-TWICE", "upper", [])],
                          setp("random_setup", {"zones": [{"level": "upper", "section": "a"}], "counters": [{"kind": "rubble"}]})),
    "pool-no-limit": (setp("genestealers.reinforcements.0.pool", "limited"), [("POOL-NO-LIMIT", None, [])],
                      seq(setp("genestealers.reinforcements.0.pool", "limited"),
                          setp("genestealers.limited", {"unit": "stealers", "total": 44}))),
    "victory-carry-location": (seq(setp("objectives.0.kind", "location"), add("victory", CARRY_TO_EXIT)),
                               [("VICTORY-CARRY", "upper", [[7, 1]])], add("victory", CARRY_TO_EXIT)),
    "victory-carry-to-wall": (add("victory", {"kind": "objective_carried", "objective": "O1",
                                              "to": {"level": "upper", "x": 5, "y": 1}}),
                              [("VICTORY-CARRY", "upper", [[5, 1]])],
                              add("victory", {"kind": "objective_carried", "objective": "O1",
                                              "to": {"level": "upper", "x": 1, "y": 1}})),
    "victory-carry-no-destination": (add("victory", {"kind": "objective_carried", "objective": "O1"}),
                                     [("VICTORY-CARRY", None, [])], add("victory", CARRY_TO_EXIT)),
    # A chute square that touches the room only at a corner between two walls: no step reaches it.
    "unreachable-chute-diagonal": (seq(row(0, 4, "#########b"), add("chutes", {"id": "C1", "level": "upper", "x": 9, "y": 4})),
                                   [("REACH-CHUTE", "upper", [[9, 4]])],
                                   seq(row(0, 3, "#aaaa#bbbb"), row(0, 4, "#########b"),
                                       add("chutes", {"id": "C1", "level": "upper", "x": 9, "y": 4}))),
}


def main() -> None:
    if HERE.exists():
        shutil.rmtree(HERE)
    for name, (fail, expected, passing) in CASES.items():
        for kind, mutate in (("fail", fail), ("pass", passing)):
            d = base()
            mutate(d)
            folder = HERE / name
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{kind}.json").write_text(json.dumps(d, indent=1) + "\n")
        exp = [{"rule": r, "level": lv, "squares": sq} for r, lv, sq in expected]
        (folder / "expected.json").write_text(json.dumps(exp, indent=1) + "\n")
    print(f"{len(CASES)} golden cases written to {HERE}")


if __name__ == "__main__":
    main()
