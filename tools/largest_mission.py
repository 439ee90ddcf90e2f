"""The largest legal mission: 8 levels of 200x200 squares, rooms and corridors, 1,000 doors, ladders between
every pair of levels, an entry area at the end of every corridor; it validates with warnings only.

    python tools/largest_mission.py OUT.json [--hall]

--hall makes every level one open hall (all 40,000 squares floor, the doors in a row of pillars): the most
floor and the longest lines of sight the limits allow, the worst case for tables that grow with the map.
The memory and speed figures in the commits were measured on both (tools/measure_memory.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

SIZE = 200
LEVELS = 8
CELL = 12  # a room of 8x8 inside walls, then a corridor, in each direction
ROOM_CODES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
MAX_DOORS = 1000


def _level_rows(hall: bool) -> tuple[list[str], dict[str, dict[str, str]], list[tuple[int, int]]]:
    """Rows, sections and the door squares of one level (every level has the same plan)."""
    if hall:
        # One hall; a row of pillars two squares apart across it gives each door walls on two sides.
        grid = [["a"] * SIZE for _ in range(SIZE)]
        pillars = SIZE // 2
        for x in range(0, SIZE, 2):
            grid[pillars][x] = "#"
        return (["".join(r) for r in grid], {"a": {"name": "Hall", "kind": "room"}},
                [(x, pillars) for x in range(1, SIZE - 1, 2)])
    grid = [["#"] * SIZE for _ in range(SIZE)]
    cells = (SIZE - 2) // CELL
    for k in range(cells):
        # Corridors: a row and a column per cell, running the width of the level inside its border.
        for i in range(1, SIZE - 1):
            grid[1 + k * CELL + 10][i] = "h"
            grid[i][1 + k * CELL + 10] = "v"
    doors: list[tuple[int, int]] = []
    n = 0
    for cy in range(cells):
        for cx in range(cells):
            ox, oy = 1 + cx * CELL, 1 + cy * CELL
            code = ROOM_CODES[n % len(ROOM_CODES)]
            n += 1
            for y in range(oy + 1, oy + 9):
                for x in range(ox + 1, ox + 9):
                    grid[y][x] = code
            # The doorway in the room's south wall, onto the corridor below it.
            grid[oy + 9][ox + 4] = code
            doors.append((ox + 4, oy + 9))
    sections = {"h": {"name": "Main corridors", "kind": "corridor"}, "v": {"name": "Cross corridors",
                                                                          "kind": "corridor"}}
    for c in ROOM_CODES:
        sections[c] = {"name": f"Room block {c}", "kind": "room"}
    return ["".join(r) for r in grid], sections, doors


def largest_mission(hall: bool = False) -> dict[str, Any]:
    """The document of the largest legal mission (format version 1)."""
    rows, sections, door_squares = _level_rows(hall)
    ids = [f"L{i}" for i in range(LEVELS)]
    levels = [{"id": lid, "name": f"Deck {i}", "depth": i, "rows": rows, "sections": sections}
              for i, lid in enumerate(ids)]
    doors = []
    for i, (lid, (x, y)) in enumerate((lid, sq) for lid in ids for sq in door_squares):
        if i >= MAX_DOORS:
            break
        doors.append({"id": f"D{i}", "level": lid, "x": x, "y": y, "kind": "door" if i % 5 else "bulkhead",
                      "state": "closed" if i % 3 else "open"})
    corridor_rows = [1 + k * CELL + 10 for k in range((SIZE - 2) // CELL)]
    edge = 0 if hall else 1  # the hall's floor reaches the board edge; the rooms' stops at the border wall
    entries = [{"id": f"E{lid}{k}", "level": lid, "x": edge, "y": y, "side": "W"}
               for lid in ids for k, y in enumerate(corridor_rows)]
    ladders = []
    for i in range(LEVELS - 1):
        for k, x in enumerate((35, 95, 155)):  # on the cross corridors' columns, the main corridor's row
            y = corridor_rows[3 + 4 * (k % 3)]
            ladders.append({"id": f"L{i}-{k}", "top": {"level": ids[i], "x": x, "y": y},
                            "bottom": {"level": ids[i + 1], "x": x, "y": y}})
    exits = [{"id": "X1", "level": ids[-1], "x": SIZE - 1 - edge, "y": corridor_rows[-1], "side": "E"}]
    y0 = corridor_rows[0]
    weapons = [("storm_bolter", "power_glove"), ("heavy_flamer", "power_glove"), ("assault_cannon", "power_glove"),
               ("storm_bolter", "chain_fist")]
    squad = [{"id": "sgt", "rank": "sergeant", "level": ids[0], "x": 40, "y": y0, "facing": "E", "name": "Sergeant",
              "ranged": "storm_bolter", "melee": "power_sword", "storm_shield": False}]
    for i in range(9):
        ranged, melee = weapons[i % len(weapons)]
        squad.append({"id": f"m{i}", "rank": "marine", "level": ids[0], "x": 39 - i, "y": y0, "facing": "E",
                      "name": f"Brother {i}", "ranged": ranged, "melee": melee, "storm_shield": False})
    entry_ids = [e["id"] for e in entries]
    return {
        "format": "hulkforge-mission", "version": 1,
        "meta": {"title": "The largest legal mission", "author": "tools/largest_mission.py",
                 "description": "8 levels of 200x200 squares: the schema's limits, for memory and speed checks."},
        "ruleset": "4e", "options": {},
        "levels": levels, "doors": doors, "entry_areas": entries, "exits": exits, "objectives": [],
        "pitfalls": [], "ladders": ladders, "rubble": [], "chutes": [],
        "marines": {"squad": squad, "psi_points": 20},
        "genestealers": {
            "pool": {"1": 9, "2": 4, "3": 9}, "limited": None,
            "starting": {"blips": 4, "entry_areas": entry_ids[:16]},
            "reinforcements": [{"from_turn": 1, "to_turn": None, "per_turn": 3, "entry_areas": entry_ids[:100],
                                "pool": "unlimited"}],
            "model_cap": 22, "alpha": False,
        },
        "victory": [{"kind": "escape", "via": ["exit"], "win_at": 1, "draw_at": None},
                    {"kind": "marines_eliminated"}, {"kind": "turn_limit", "turn": 12, "result": "genestealers"}],
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", help="mission file to write")
    p.add_argument("--hall", action="store_true", help="every level one open hall instead of rooms and corridors")
    args = p.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from engine.mission.codec import dumps

    Path(args.out).write_text(dumps(largest_mission(args.hall)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
