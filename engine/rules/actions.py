"""Actions: small frozen values with a one-line text form ("move m1 E") and its parser (python-chess style).

Tokens are separated by single spaces; ids are mission ids, SQ is ``level:x,y``. Each verb's text form, arguments
and meaning are declared in engine/rules/verbs.py (`python -m engine.rules.verbs` prints the grammar).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.rules.verbs import DIRS as DIRS
from engine.rules.verbs import FACES as FACES
from engine.rules.verbs import VERBS as _DECLARED

# verb -> (min args, max args), and the values a verb's second argument may take when they are fixed
_ARITY: dict[str, tuple[int, int]] = {v.name: v.arity for v in _DECLARED}
_SECOND: dict[str, tuple[str, ...]] = {v.name: v.second for v in _DECLARED if v.second is not None}
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


_NO_ACTOR = frozenset(v.name for v in _DECLARED if not v.actor)
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
    allowed = _SECOND.get(verb)
    if allowed is not None and args[1] not in allowed:
        raise ValueError(f"bad {'direction' if allowed is DIRS else 'facing'} {args[1]!r} in {text!r}")
    return act(verb, *args)
