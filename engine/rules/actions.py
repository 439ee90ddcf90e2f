"""Actions: small frozen values with a one-line text form ("move m1 E") and its parser (python-chess style).

Grammar (tokens separated by single spaces; ids are mission ids, SQ is ``level:x,y``):

    pass                      end the phase (or decline a reaction / optional choice)
    end                       end the active piece's activation
    move ID DIR [FACE|jump]   step N NE E SE S SW W NW; Genestealers may name a new facing (free 90°);
                              Marines may add ``jump`` to jump into a pitfall they enter (0 AP)
    turn ID FACE              turn to face N/E/S/W
    shoot ID TARGET           storm bolter / assault cannon at a model id or door id
    flame ID SQ               heavy flamer at a square (hits its whole section)
    overwatch ID | guard ID | unjam ID | reload ID
    assault ID TARGET         close assault on a model id or door id
    open ID DOOR | close ID DOOR
    enter ID                  a lurking blip/Genestealer steps onto its entry area's square, a Marine out of a
                              boarding torpedo onto its ramp
    exit ID                   leave the board by the exit point at the model's square
    climb ID | jump ID        ladder / pitfall up or down; jump down a hole
    ride ID LEVEL             turbo-lift: from the entrance the piece stands on to the lift's entrance on LEVEL
    stand ID FACE             a prone Marine stands up
    reveal ID                 voluntary blip conversion
    drop ID | give ID TO      objects
    psi POWER [ARG]           prescience | barrier SQ | storm TARGET (model/blip id, or SQ for its section)
  decisions:
    cp keep | cp redraw       command phase (sergeant alive)
    setup SQ                  Pitfall set-up by the players: the next face-down counter goes on SQ
    deploy ID SQ              set-up in a deployment area: Marine ID starts on SQ (then ``face ID FACE``)
    alpha yes | alpha no      a revealed "3" blip becomes the Genestealer Alpha (once per game, if the mission allows)
    lurk ENTRY                reinforcement: the Genestealer player places the next drawn blip
    put SQ | put none         involuntary conversion: the Marine player places the next Genestealer
    face ID FACE              pick a facing (converted Genestealer, landing Marine, turn-to-face after assault)
    fire ID | hold ID         overwatch fire decision for one Marine
    parry N | guardroll N | psipoints N     close-assault choices (``pass`` declines)
    scuttle ID SQ | shove ID SQ             falling: where a model landed on is moved
    retreat ID SQ             a Marine attacked through a hole who won or tied steps away (free)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

DIRS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
FACES = ("N", "E", "S", "W")

# verb -> (min args, max args)
_ARITY: dict[str, tuple[int, int]] = {
    "pass": (0, 0),
    "end": (0, 0),
    "move": (2, 3),
    "turn": (2, 2),
    "shoot": (2, 2),
    "flame": (2, 2),
    "overwatch": (1, 1),
    "guard": (1, 1),
    "unjam": (1, 1),
    "reload": (1, 1),
    "assault": (2, 2),
    "open": (2, 2),
    "close": (2, 2),
    "enter": (1, 1),
    "exit": (1, 1),
    "climb": (1, 1),
    "jump": (1, 1),
    "ride": (2, 2),
    "stand": (2, 2),
    "reveal": (1, 1),
    "drop": (1, 1),
    "give": (2, 2),
    "psi": (1, 2),
    "alpha": (1, 1),
    "setup": (1, 1),
    "deploy": (2, 2),
    "cp": (1, 1),
    "lurk": (1, 1),
    "retreat": (2, 2),
    "put": (1, 1),
    "face": (2, 2),
    "fire": (1, 1),
    "hold": (1, 1),
    "parry": (1, 1),
    "guardroll": (1, 1),
    "psipoints": (1, 1),
    "scuttle": (2, 2),
    "shove": (2, 2),
}
VERBS = tuple(_ARITY)


@dataclass(frozen=True, slots=True, eq=False)
class Action:
    """One player decision: a verb and its arguments; ``str(a)`` is its text form."""

    verb: str
    args: tuple[str, ...] = ()
    _hash: int = field(default=0, init=False, repr=False, compare=False)
    _text: str = field(default="", init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.verb, self.args)))
        # The text form, made once (every applied action logs it; actions are interned).
        object.__setattr__(self, "_text", " ".join((self.verb, *self.args)) if self.args else self.verb)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Action):
            return NotImplemented
        return self._hash == other._hash and self.verb == other.verb and self.args == other.args

    def text(self) -> str:
        return self._text

    def __str__(self) -> str:
        return self.text()

    @property
    def actor(self) -> str | None:
        """The id of the acting piece for piece actions, else None."""
        return self.args[0] if self.args and self.verb not in _NO_ACTOR else None


_NO_ACTOR = frozenset({"cp", "lurk", "put", "parry", "guardroll", "psipoints", "psi", "alpha", "setup"})
NO_ACTOR_VERBS = _NO_ACTOR  # verbs whose first argument is not an acting piece (Action.actor is None)


class PassAction(Action):
    """End the phase, or decline an optional choice."""

    def __init__(self) -> None:
        super().__init__("pass", ())


PASS = Action("pass")
END = Action("end")

_CACHE: dict[tuple[str, ...], Action] = {}
_CACHE_LIMIT = 200_000

# The slots' own setters: an interned action is made once, but a batch makes tens of thousands of them (each
# piece id's move table holds 48), and the frozen dataclass's __init__ goes through object.__setattr__ and
# __post_init__ for each field.
_NEW = object.__new__
_SET_VERB: Any = Action.__dict__["verb"].__set__
_SET_ARGS: Any = Action.__dict__["args"].__set__
_SET_HASH: Any = Action.__dict__["_hash"].__set__
_SET_TEXT: Any = Action.__dict__["_text"].__set__


def _made(key: tuple[str, ...]) -> Action:
    """Action(key[0], key[1:]): the same four slot values (__post_init__'s hash and text), set directly."""
    a: Action = _NEW(Action)
    verb, args = key[0], key[1:]
    _SET_VERB(a, verb)
    _SET_ARGS(a, args)
    _SET_HASH(a, hash((verb, args)))
    _SET_TEXT(a, " ".join(key))
    return a


def act(verb: str, *args: str) -> Action:
    """An interned Action (legal_actions builds many; equal actions are the same object)."""
    key = (verb, *args)
    a = _CACHE.get(key)
    if a is None:
        if len(_CACHE) > _CACHE_LIMIT:
            _CACHE.clear()
        a = _CACHE[key] = _made(key)
    return a


_MOVE_EXTRAS = ((), ("N",), ("E",), ("S",), ("W",), ("jump",))


def move_actions(pid: str) -> list[Action]:
    """The interned moves of piece `pid`, index dir * 6 + (0 plain, 1-4 new facing N E S W, 5 jump): what
    act("move", pid, DIR[, FACE | "jump"]) gives, in that order (Game.move_table)."""
    if len(_CACHE) > _CACHE_LIMIT:
        _CACHE.clear()
    cache = _CACHE
    out: list[Action] = []
    for dn in DIRS:
        for extra in _MOVE_EXTRAS:
            key = ("move", pid, dn, *extra)
            a = cache.get(key)
            if a is None:
                a = cache[key] = _made(key)
            out.append(a)
    return out


def parse_action(text: str) -> Action:
    """The Action for a text form; ValueError on unknown verbs or wrong argument counts.

    >>> parse_action("move m1 E").args
    ('m1', 'E')
    >>> str(parse_action("  shoot  sgt g3 "))
    'shoot sgt g3'
    """
    if isinstance(text, Action):
        return text
    parts = text.split()
    if not parts:
        raise ValueError("empty action text")
    verb, args = parts[0], tuple(parts[1:])
    arity = _ARITY.get(verb)
    if arity is None:
        raise ValueError(f"unknown action verb {verb!r} in {text!r}")
    if not arity[0] <= len(args) <= arity[1]:
        raise ValueError(f"action {verb!r} takes {arity[0]}..{arity[1]} arguments, got {len(args)} in {text!r}")
    if verb in ("move",) and args[1] not in DIRS:
        raise ValueError(f"bad direction {args[1]!r} in {text!r}")
    if verb in ("turn", "stand", "face") and args[1] not in FACES:
        raise ValueError(f"bad facing {args[1]!r} in {text!r}")
    return act(verb, *args)
