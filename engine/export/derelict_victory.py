"""The mission's victory conditions carried to Derelict, whose only Marine victory is an objective token in flames.

Derelict's Rules evaluateVictoryConditions: no Marine left = alien win; with objective tokens on the board, a
flame on one = Marine win, and the flamer Marine dead or out of fuel = alien win; without objective tokens the
Marines cannot win at all. So each Marine victory that can be shown as "flame this square" becomes objective
tokens: exactly for objective_flamed and section_flamed (our flamer burns the whole section, and the export cuts
sections into segments), approximately for objective_carried (flame the objective instead of carrying it) and
escape (flame the exit or chute square instead of leaving by it).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.export.briefing import describe_victory
from engine.export.derelict_segments import Piece
from engine.mission.model import Level, Mission
from engine.mission.victory import can_be_won, result_of

Square = tuple[int, int]


def flamer_marine_on(m: Mission, level_id: str) -> bool:
    """True when a Marine Derelict shows as marine_flame starts on the level (a sergeant keeps his own token)."""
    return any(x.level == level_id and x.ranged == "heavy_flamer" and x.rank != "sergeant" for x in m.marines.squad)


def _squares_for(
    m: Mission, level: Level, pieces: list[Piece], cond: Mapping[str, object]
) -> tuple[list[Square], str | None]:
    """(squares to hold objective tokens, how the condition changes in Derelict or None when it is exact)."""
    kind, lid = cond.get("kind"), level.id
    if kind in ("objective_flamed", "objective_carried"):
        o = next((o for o in m.objectives if o.id == cond.get("objective") and o.level == lid), None)
        if o is None:
            return [], None
        change = None if kind == "objective_flamed" else f"flame objective {o.id} instead (Derelict cannot carry)"
        return [(o.x, o.y)], change
    if kind == "section_flamed" and cond.get("level") == lid:
        doors = {(d.x, d.y) for d in m.doors if d.level == lid}
        squares = []
        for p in pieces:
            if p.code == cond.get("section"):
                # One token in every piece of the section, off door squares: Derelict never burns a closed door.
                floor = [sq for sq in p.floor() if sq not in doors] or p.floor()
                squares.append(floor[0])
        return squares, None
    if kind == "escape":
        ways = cond.get("via") or ["exit", "chute"]
        ways = ways if isinstance(ways, list) else []
        squares = [(x.x, x.y) for x in m.exits if x.level == lid and "exit" in ways]
        squares += [(c.x, c.y) for c in m.chutes if c.level == lid and "chute" in ways]
        names = [x.id for x in m.exits if x.level == lid and "exit" in ways]
        names += [c.id for c in m.chutes if c.level == lid and "chute" in ways]
        change = f"flame the square of {', '.join(names)} instead (Derelict has no exits or chutes)" if names else None
        return squares, change
    return [], None


def objective_tokens(m: Mission, level: Level, pieces: list[Piece], warnings: list[str]) -> list[Square]:
    """The squares of the objective tokens for this level; warnings say what changed and when Marines cannot win."""
    lid = level.id
    marine_wins = [c for c in m.victory if result_of(c) == "marines"]
    mapped: list[Square] = []
    carried: list[str] = []
    for cond in marine_wins:
        if not can_be_won(m, cond):
            # The same analysis as validation's: a token for it would give a win the mission itself never gives.
            warnings.append(f"victory: '{describe_victory(m, cond)}' is left out: the Marines cannot meet it in "
                            "the mission itself (hulkforge validate says why)")
            continue
        squares, change = _squares_for(m, level, pieces, cond)
        if squares:
            mapped += [sq for sq in squares if sq not in mapped]
            carried.append(describe_victory(m, cond))
            if change:
                warnings.append(f"victory: '{describe_victory(m, cond)}' becomes: {change}")
    for cond in m.victory:
        if cond.get("kind") == "turn_limit":
            warnings.append(f"victory: '{describe_victory(m, cond)}' is left out: Derelict has no turn limit")
        elif result_of(cond) in ("genestealers", "draw") and cond.get("kind") != "marines_eliminated":
            warnings.append(f"victory: '{describe_victory(m, cond)}' is left out: Derelict cannot show it")
    wins = "; ".join(describe_victory(m, c) for c in marine_wins) or "none"
    placed = mapped if flamer_marine_on(m, lid) else []
    for o in m.objectives:
        if o.level == lid and (o.x, o.y) not in placed:
            warnings.append(f"objective {o.id} is left out: no Marine victory that Derelict can show asks for it")
    if not flamer_marine_on(m, lid):
        warnings.append(
            f"Marines cannot win this mission in Derelict: its only Marine victory is setting an objective token "
            f"on fire with the flamer Marine, and no heavy flamer Marine (other than a sergeant) starts on "
            f"{m.level_words(lid)}, so no objective token is placed (with objective tokens and no flamer Derelict "
            f"gives the Genestealers the win at once); the mission's Marine victories: {wins}"
        )
        return []
    if not mapped:
        warnings.append(
            f"Marines cannot win this mission in Derelict: none of its Marine victories ({wins}) can be shown on "
            f"{m.level_words(lid)} as an objective token to set on fire, Derelict's only Marine victory"
        )
        return []
    warnings.append(
        f"victory in Derelict: the Marines win by setting one of the {len(mapped)} objective token(s) on fire "
        f"(from: {'; '.join(carried)}); the Genestealers win when the flamer Marine dies or runs out of fuel "
        "(6 shots), or when no Marine is left"
    )
    return mapped
