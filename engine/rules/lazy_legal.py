"""LegalActions: the legal actions of one decision as a sequence that is only built when it is read whole.

A player that decides piece by piece (the heuristic players) asks `of(pid)` and `a in legal`, which the
state answers from that piece's own actions; a player that wants the whole list (random, a fallback)
iterates, indexes or takes len(), and the full list is computed then, once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, overload

from engine.rules.actions import Action

if TYPE_CHECKING:
    from engine.rules.game import GameState


class StaleLegalActionsError(RuntimeError):
    """The state moved on since this LegalActions was made: its answers would be about another decision."""


class LegalActions(Sequence[Action]):
    """The legal actions of `state` at the moment of construction (read-only, lazily computed)."""

    __slots__ = ("_all", "_state", "_version")

    def __init__(self, state: GameState) -> None:
        self._state = state
        self._version = state.k.version
        self._all: list[Action] | None = None

    def _check(self) -> GameState:
        st = self._state
        if st.k.version != self._version:
            raise StaleLegalActionsError("the game has moved on since these legal actions were listed")
        return st

    def _list(self) -> list[Action]:
        st = self._check()
        lst = self._all
        if lst is None:
            lst = self._all = st.legal_actions()
        return lst

    def of(self, pid: str, verb: str | None = None) -> list[Action]:
        """The legal actions of piece `pid` (with `verb`: only those), in list order (GameState.legal_actions_of)."""
        st = self._state
        if st.k.version != self._version:
            self._check()  # raises
        return st.legal_actions_of(pid, verb)

    def __contains__(self, a: object) -> bool:
        if not isinstance(a, Action):
            return False
        st = self._state
        if st.k.version != self._version:
            self._check()  # raises
        if self._all is not None:
            return a in self._all
        return st.is_legal(a)

    def __len__(self) -> int:
        return len(self._list())

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        return self._list()[i]

    def __iter__(self) -> Iterator[Action]:
        return iter(self._list())

    def __bool__(self) -> bool:
        st = self._state
        if st.k.version != self._version:
            self._check()  # raises
        k = st.k
        if self._all is None and k.result is None and not k.stack:
            return True  # an action phase always offers `pass`
        return bool(self._list())

    def __repr__(self) -> str:
        return f"LegalActions({'unlisted' if self._all is None else len(self._all)})"
