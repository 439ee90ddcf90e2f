"""A mission's rules in plain words: the rules in force, victory conditions, Genestealer forces, the random
counter mix.

The print sheet lists them; the Derelict export names the conditions it could or could not carry over.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.mission.model import Mission, Reinforcement
from engine.mission.victory import result_of
from engine.rules.options import MISSION_CONTENTS, MISSION_FILE, RULESET, explain_options

_RESULT = {"marines": "the Marines win", "genestealers": "the Genestealers win", "draw": "the game is a draw"}
_WAYS = {"exit": "an exit", "chute": "the disposal chute"}


def _objective(m: Mission, oid: object) -> str:
    o = next((o for o in m.objectives if o.id == oid), None)
    return f"objective {oid}" + (f" ({o.name})" if o is not None and o.name else "")


def _section(m: Mission, level: object, code: object) -> str:
    lv = m.level(str(level))
    sec = lv.sections.get(str(code)) if lv is not None else None
    name = f" ({sec.name})" if sec is not None and sec.name else ""
    return f"section {code}{name} of {m.level_words(str(level))}"


def _marines(n: int) -> str:
    return "1 Marine" if n == 1 else f"{n} Marines"


def describe_victory(m: Mission, cond: Mapping[str, object]) -> str:
    """One condition as a sentence: what happens and who wins."""
    kind = cond.get("kind")
    outcome = _RESULT.get(result_of(cond), "the game ends")
    if kind == "escape":
        ways = cond.get("via") or ["exit", "chute"]
        via = " or ".join(_WAYS.get(str(v), str(v)) for v in (ways if isinstance(ways, list) else []))
        win_at = int(str(cond.get("win_at", 1)))
        text = f"the Marines win when {_marines(win_at)} {'leaves' if win_at == 1 else 'leave'} by {via}"
        draw_at = cond.get("draw_at")
        if draw_at is not None:
            n = int(str(draw_at))
            text += f"; a draw when only {_marines(n)} {'does' if n == 1 else 'do'}"
        return text
    if kind == "marines_eliminated":
        return "the Genestealers win when no Marine is left on the board"
    if kind == "turn_limit":
        return f"at the end of turn {cond.get('turn')} {outcome}"
    if kind == "objective_carried":
        to = cond.get("to")
        where = ""
        if isinstance(to, Mapping) and "exit" in to:
            where = f" to exit {to['exit']}"
        elif isinstance(to, Mapping):
            where = f" to square {to.get('x')},{to.get('y')} of {m.level_words(str(to.get('level')))}"
        return f"{outcome} when a Marine carries {_objective(m, cond.get('objective'))}{where}"
    if kind == "section_flamed":
        return f"{outcome} when {_section(m, cond.get('level'), cond.get('section'))} is flamed"
    if kind == "objective_flamed":
        return f"{outcome} when the section of {_objective(m, cond.get('objective'))} is flamed"
    return f"{kind}: {outcome}"


def _areas(ids: list[str]) -> str:
    return ("entry area " if len(ids) == 1 else "entry areas ") + ", ".join(ids) if ids else "no entry area"


def _turns(r: Reinforcement) -> str:
    if r.to_turn is None:
        return f"from turn {r.from_turn}"
    if r.to_turn == r.from_turn:
        return f"turn {r.from_turn}"
    return f"turns {r.from_turn}-{r.to_turn}"


def describe_forces(m: Mission) -> list[str]:
    """The Genestealer side: blip pool, limit, starting blips, reinforcements, model cap, Alpha."""
    gs = m.genestealers
    sizes = [(size, n) for size, n in sorted(gs.pool.items()) if n]
    pool = ", ".join(f"{n} blips of {size} Genestealer{'s' if size != 1 else ''}" for size, n in sizes)
    out = [f"blip pool: {pool or 'empty'}"]
    if gs.limited is not None:
        unit = "Genestealers" if gs.limited.unit == "stealers" else "blips"
        out.append(f"limited pool: {gs.limited.total} {unit} in all")
    s = gs.starting
    if s.blips:
        out.append(f"at the start: {s.blips} blip{'s' if s.blips != 1 else ''} at {_areas(s.entry_areas)}")
    for r in gs.reinforcements:
        pool_word = "unlimited" if r.pool == "unlimited" else "from the limited pool"
        out.append(
            f"reinforcements {_turns(r)}: {r.per_turn} blip{'s' if r.per_turn != 1 else ''} a turn "
            f"at {_areas(r.entry_areas)} ({pool_word})"
        )
    if not gs.reinforcements:
        out.append("no reinforcements")
    out.append(f"at most {gs.model_cap} Genestealers on the board at once")
    if gs.alpha:
        out.append("one revealed 3-blip may be the Genestealer Alpha")
    return out


def describe_ways(m: Mission) -> list[str]:
    """How the squad sets up and comes in, and how models go between decks by lift (docs/RULES.md, 15)."""
    out: list[str] = []
    for area in m.deployment_areas:
        inside = {(area.level, x, y) for x, y in area.squares}
        who = [x.id for x in m.marines.squad if (x.level, x.x, x.y) in inside]
        out.append(f"deployment area {area.id} on level {area.level} ({len(area.squares)} squares): "
                   f"{', '.join(who) or 'no Marine'} set up anywhere in it")
    for t in m.torpedoes:
        aboard = [x.id for x in m.marines.squad if (x.level, x.x, x.y) == (t.level, t.x, t.y)]
        out.append(f"boarding torpedo {t.id}, ramp at {t.level} {t.x},{t.y}: {', '.join(aboard) or 'no Marine'} "
                   "aboard, each comes out onto the ramp for 1 AP when it is free")
    for lift in m.lifts:
        stops = ", ".join(f"{e.level} {e.x},{e.y}" for e in lift.entrances)
        out.append(f"turbo-lift {lift.id} stops at {stops}: a ride costs 2 AP, sight and shots pass between them")
    return out


def describe_random_setup(m: Mission) -> list[str]:
    """The random counter set-up: which sections may hold a counter, and the counters drawn."""
    rs = m.random_setup
    if rs is None:
        return []
    letters = ", ".join(c.letter for c in rs.counters if c.kind == "pitfall" and c.letter)
    mix = []
    for kind, word in (("pitfall", "pitfall"), ("ladder", "ladder"), ("rubble", "rubble counter")):
        n = sum(1 for c in rs.counters if c.kind == kind)
        if n:
            extra = f" ({letters})" if kind == "pitfall" and letters else ""
            mix.append(f"{n} {word}{'s' if n != 1 else ''}{extra}")
    by_level: dict[str, list[str]] = {}
    for lid, code in rs.zones:
        by_level.setdefault(lid, []).append(code)
    zones = "; ".join(f"{m.level_words(lid)}: {', '.join(codes)}" for lid, codes in by_level.items())
    return [
        f"counters drawn face down each game: {', '.join(mix) or 'none'}",
        f"placed at most one per section in the shaded sections: {zones or 'none'}",
    ]


def _value(v: object) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    return "none" if v is None else str(v)


def describe_rules(m: Mission) -> str:
    """The ruleset, every rule option in force grouped by where it comes from, and the psi points when the squad
    has an Archivist to spend them, as one paragraph."""
    parts = [f"ruleset {m.ruleset}"]
    try:
        options = explain_options(m)
    except ValueError as exc:  # a mission whose options break the schema is still printable
        return f"ruleset {m.ruleset}; options: {exc}."
    for source, word in ((MISSION_FILE, "set by the mission"), (MISSION_CONTENTS, "from the mission's contents")):
        for o in (o for o in options if o.source == source):
            why = f", {o.why}" if o.why else ""
            parts.append(f"{o.name} {_value(o.value)} ({word}{why})")
    if any(x.rank == "archivist" for x in m.marines.squad):
        parts.append(f"psi points {m.marines.psi_points}")
    defaults = [f"{o.name} {_value(o.value)}" for o in options if o.source == RULESET]
    text = "; ".join(parts) + "."
    return text + (f" {m.ruleset} defaults: " + ", ".join(defaults) + "." if defaults else "")
