"""Every verb of the rules, declared once: its text form, its arguments, who acts, which part of the legal
generator lists it for which pieces, who applies it, and whether it moves a piece (and how the moves API reads it).

The tables the rules run on are derived from `VERBS`: the parser's arities and argument checks
(`actions.parse_action`), the verbs without an actor (`actions.NO_ACTOR_VERBS`), the interned one-argument orders
(`Game.order_table`), the legal generator's parts for each kind of piece in order and the part that lists each verb
(`legal.Legal`), the verbs' appliers (`acting.Acting`), and the moves API's verbs (`moves.MOVE_VERBS`,
`moves.LINK_VERBS`, `moves.RELOCATING`). `tests/engine/test_rules_verbs.py` holds each declaration to the code it
names.

A movement verb that takes a piece from a feature's square to another square of the same feature, for a fixed AP
cost, onto a square it may enter (the turbo-lift's `ride`) is a `Link`: its generator, its application, its moves
API entry, the players' routes and scoring and the playtest's marks are the same code for every link, so a new one
is a declaration here and where its kind lives (engine/mission/kinds.py).

`python -m engine.rules.verbs` prints the grammar (engine/rules/README.md, "Action text").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from engine.mission.model import Mission

DIRS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
FACES = ("N", "E", "S", "W")

# The generators of the action phases' legal actions, by the piece they list for: a Marine in his own turn, a Marine
# reacting on command points in the Genestealer turn (no objects, no psychic powers), a Genestealer, a blip.
MARINE, REACTION, STEALER, BLIP = "marine", "reaction", "stealer", "blip"
GENERATORS = (MARINE, REACTION, STEALER, BLIP)
_MR = (MARINE, REACTION)
_MRS = (MARINE, REACTION, STEALER)
_ANY = GENERATORS



class Placed(Protocol):
    """Where a link's square is in the mission (a Square, a one-square feature)."""

    @property
    def level(self) -> str: ...
    @property
    def x(self) -> int: ...
    @property
    def y(self) -> int: ...


Stops = Callable[[Mission], Iterable[Sequence[tuple[str, Placed]]]]


@dataclass(frozen=True)
class Link:
    """A move between the squares of one feature: `VERB ID STOP` takes the piece from the square it stands on to the
    square named STOP of the same feature, for `cost` AP (a Marine: AP, then command points), keeping its facing,
    onto a square it may enter (Movement.can_enter); a model arriving on an object picks it up, as a step would.

    kind: the feature kind (engine/mission/kinds.py key); stops: each feature's squares with the name a move to
    each is written with (two squares at least; a feature's squares are joined each to every other)."""

    kind: str
    stops: Stops
    cost: int


@dataclass(frozen=True)
class Verb:
    """One verb of the rules.

    form, says: its text form and what it does (the grammar); arity: (min, max) arguments; second: the values its
    second argument may take (checked by the parser), if fixed; actor: its first argument is the acting piece;
    parts: for each generator that lists it, the legal part that does ("component.method", component among
    `COMPONENTS`); listed: where the generator lists it itself, when no part does (steps, a prone Marine's stand,
    entering the board, a blip's reveal); acts: the method applying it as a piece action; order: a one-argument
    order interned per piece; moves: the moves API lists it (`piece_moves`); goes: it may take the piece to another
    square (the playtest marks its destination); link: a move between a feature's squares (see Link)."""

    name: str
    form: str
    says: str
    arity: tuple[int, int]
    second: tuple[str, ...] | None = None
    actor: bool = True
    parts: Mapping[str, str] = field(default_factory=dict)
    listed: str = ""
    acts: str | None = None
    order: bool = False
    moves: bool = False
    goes: bool = False
    link: Link | None = None


# The rule components a declaration may name (attribute names of GameState and keys Legal and Acting resolve).
COMPONENTS = ("movement", "fire", "assault", "psychic", "blips")  # (GameState holds blips as blip_rules)
LINK_PART = "movement.link_moves"  # every link's part and applier, given the verb
LINK_ACT = "movement.act_link"


def _lists(part: str, *generators: str) -> dict[str, str]:
    return dict.fromkeys(generators, part)


def _lift_stops(m: Mission) -> Iterable[Sequence[tuple[str, Placed]]]:
    return ([(e.level, e) for e in lift.entrances] for lift in m.lifts)


def _link(name: str, form: str, says: str, link: Link) -> Verb:
    return Verb(name, form, says, (2, 2), parts=_lists(LINK_PART, *_ANY), acts=LINK_ACT, moves=True, goes=True,
                link=link)


# In the order the generators list them (a generator's parts are the parts of these verbs, first listed first).
VERBS: tuple[Verb, ...] = (
    Verb("pass", "pass", "end the phase (or decline a reaction / optional choice)", (0, 0)),
    Verb("end", "end", "end the active piece's activation", (0, 0)),
    Verb("move", "move ID DIR [FACE|jump]",
         "DIR in N NE E SE S SW W NW (absolute). Marines: forward 1 AP, back 2, no sideways; Genestealers: "
         "forward/sideways 1, back 2, optional new facing 90° either way (free); blips any way 1 AP. \"jump\": "
         "declared jump into the pitfall being entered (0 AP)",
         (2, 3), second=DIRS, listed="Movement.steps", acts="movement.act_move", moves=True, goes=True),
    Verb("turn", "turn ID FACE", "Marine 1 AP per 90°; Genestealer 1 AP", (2, 2), second=FACES,
         parts=_lists("movement.turns", *_MRS), acts="movement.act_turn", moves=True),
    Verb("shoot", "shoot ID TARGET", "bolter/cannon at a Genestealer or door id; free right after a move/turn",
         (2, 2), parts=_lists("fire.marine_shots", *_MR), acts="fire.act_shoot"),
    Verb("flame", "flame ID SQ", "heavy flamer, 2 AP, hits SQ's section (not past closed doors)", (2, 2),
         parts=_lists("fire.marine_weapon", *_MR), acts="fire.act_flame"),
    Verb("overwatch", "overwatch ID", "2 AP: fire at the Genestealers that act in sight, until he acts again", (1, 1),
         parts=_lists("fire.marine_weapon", *_MR), acts="fire.act_overwatch", order=True),
    Verb("guard", "guard ID", "2 AP: re-roll a die in close assault, until he acts again", (1, 1),
         parts=_lists("assault.marine_guard", *_MR), acts="assault.act_guard", order=True),
    Verb("unjam", "unjam ID", "clear a jammed storm bolter (1 AP)", (1, 1),
         parts=_lists("fire.marine_weapon", *_MR), acts="fire.act_unjam", order=True),
    Verb("reload", "reload ID", "[classic] reload the heavy flamer (4 AP)", (1, 1),
         parts=_lists("fire.marine_weapon", *_MR), acts="fire.act_reload", order=True),
    Verb("assault", "assault ID TARGET",
         "the model/door in front; Genestealers also at a Marine directly above/below a hole", (2, 2),
         parts={**_lists("assault.marine_blows", *_MR), STEALER: "assault.stealer_blows"},
         acts="assault.act_assault"),
    Verb("open", "open ID DOOR", "open a door next to the piece (1 AP)", (2, 2),
         parts=_lists("movement.door_actions", *_ANY), acts="movement.act_open", moves=True),
    Verb("close", "close ID DOOR", "close a door next to the piece (1 AP)", (2, 2),
         parts=_lists("movement.door_actions", *_ANY), acts="movement.act_close", moves=True),
    Verb("enter", "enter ID",
         "lurking blip/Genestealer onto its entry square, or a Marine aboard a boarding torpedo onto its ramp (1 AP)",
         (1, 1), listed="Movement.enter, Movement.disembark", acts="movement.act_enter", goes=True),
    Verb("exit", "exit ID", "leave by the exit at the Marine's square (1 AP)", (1, 1),
         parts=_lists("movement.marine_exit", *_MR), acts="movement.act_exit", order=True, moves=True, goes=True),
    Verb("climb", "climb ID", "ladder end to end / Genestealer up a pitfall (3 AP)", (1, 1),
         parts={**_lists("movement.marine_climb", *_MR), **_lists("movement.hole_moves", STEALER, BLIP)},
         acts="movement.act_climb", order=True, moves=True, goes=True),
    Verb("jump", "jump ID", "drop down a hole (1 AP)", (1, 1),
         parts={**_lists("movement.marine_jump", *_MR), **_lists("movement.hole_moves", STEALER, BLIP)},
         acts="movement.act_jump", order=True, moves=True, goes=True),
    _link("ride", "ride ID LEVEL", "turbo-lift: to the lift's entrance on LEVEL (2 AP, any piece; docs/RULES.md 15)",
          Link("lifts", _lift_stops, 2)),
    Verb("stand", "stand ID FACE", "prone Marine, 2 AP", (2, 2), second=FACES, listed="Legal.marine_actions",
         acts="movement.act_stand"),
    Verb("reveal", "reveal ID", "voluntary blip conversion (only before it acted)", (1, 1),
         listed="Legal.genestealer_actions", acts="blips.act_reveal", order=True),
    Verb("drop", "drop ID", "drop the object carried (free)", (1, 1), parts={MARINE: "movement.marine_carry"},
         acts="movement.act_drop", order=True),
    Verb("give", "give ID TO", "give the object to an orthogonally adjacent Marine (1 AP)", (2, 2),
         parts={MARINE: "movement.marine_carry"}, acts="movement.act_give"),
    Verb("psi", "psi POWER [ARG]",
         "Archivist, once per Marine turn, no AP: psi prescience | psi storm TARGET (a Genestealer/blip id within "
         "6, or a square SQ naming its section) | psi barrier SQ (a blocking square within 12 until the end phase)",
         (1, 2), actor=False, parts={MARINE: "psychic.archivist_powers"}),
    Verb("alpha", "alpha yes|no", "a revealed \"3\" blip becomes the Genestealer Alpha (once per game)", (1, 1),
         actor=False),
    Verb("setup", "setup SQ", "[PF] players' set-up: the next face-down counter goes on SQ", (1, 1), actor=False),
    Verb("deploy", "deploy ID SQ", "set-up in a deployment area (then face ID FACE)", (2, 2)),
    Verb("cp", "cp keep | cp redraw", "command phase (sergeant alive)", (1, 1), actor=False),
    Verb("lurk", "lurk ENTRY", "reinforcement: the Genestealer player places the next drawn blip", (1, 1),
         actor=False),
    Verb("retreat", "retreat ID SQ", "a Marine attacked through a hole who won or tied steps away (free)", (2, 2)),
    Verb("put", "put SQ | put none", "involuntary conversion: the Marine player places the next Genestealer",
         (1, 1), actor=False),
    Verb("face", "face ID FACE", "pick a facing (converted Genestealer, landing Marine, turn-to-face after assault)",
         (2, 2), second=FACES),
    Verb("fire", "fire ID", "overwatch: fire at the Genestealer that acted", (1, 1)),
    Verb("hold", "hold ID", "overwatch: hold fire", (1, 1)),
    Verb("parry", "parry N", "close-assault parry (`pass` declines)", (1, 1), actor=False),
    Verb("guardroll", "guardroll N", "close-assault guard re-roll (`pass` declines)", (1, 1), actor=False),
    Verb("psipoints", "psipoints N", "force axe psi points (`pass` declines)", (1, 1), actor=False),
    Verb("scuttle", "scuttle ID SQ", "falling: where a Genestealer landed on scuttles", (2, 2)),
    Verb("shove", "shove ID SQ", "falling: where a model that fell on a Marine is shoved", (2, 2)),
)
BY_NAME: dict[str, Verb] = {v.name: v for v in VERBS}
LINKS: dict[str, Link] = {v.name: v.link for v in VERBS if v.link is not None}


def resolve(ref: str, components: Mapping[str, Any], verb: str) -> Any:
    """The callable a declaration names ("movement.turns") among a state's components; a link's, given its verb."""
    owner, method = ref.split(".")
    found = getattr(components[owner], method)
    return partial(found, verb) if ref in (LINK_PART, LINK_ACT) else found


def grammar() -> str:
    """The text form of every verb, one a line (engine/rules/README.md, "Action text")."""
    width = max(len(v.form) for v in VERBS) + 2
    return "\n".join(f"{v.form:<{width}}{v.says}" for v in VERBS)


if __name__ == "__main__":
    print(grammar())
