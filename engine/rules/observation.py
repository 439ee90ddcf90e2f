"""What one player may know of a game in progress (OpenSpiel's information state), as a live read-only view.

`GameState.observation(player)` hands a player an `Observation`: the board and this game's features, every
piece's square, pose and state, the doors, flames, barriers and objects, the turn, phase, command points and psi
points, the pending decision and the legal actions, and the rule predicates (`sees`, `can_enter`, `ap_budget`,
`step_cost`, `turn_cost`, `free_square`, `diag_ok`, `marine_poses`), and nothing hidden from that player:

- a blip's value (how many Genestealers it hides) only for the Genestealers (`blip_value`); the Marines see
  blips as blips (the pieces themselves hold no value: the kernel keeps them, `Kernel.blip_value`);
- of the blip pile only its size (the order of the face-down values is known to nobody);
- of Pitfall's set-up by the players only the squares where a face-down counter lies (`setup_squares`), not
  which counter it is, until the counters are turned up (`feat` then holds them);
- no dice and no copy of the game: a look-ahead player plays on `sample(seed)`, a game like this one where what
  the player may not know (the dice to come, for the Marines the blips' values) is drawn afresh.

An observation is a view, not a copy: it reads the kernel's containers as they are now (the kernel never
replaces them), so one object per state and player serves every decision of the game, at no cost per decision.
The containers are typed as read-only `Mapping`s: a player reads them and never changes them.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Final

from engine.rules.kernel import G, M, Player

if TYPE_CHECKING:
    from engine.rules.decisions import Decision
    from engine.rules.features import Features
    from engine.rules.game import Game
    from engine.rules.kernel import Kernel
    from engine.rules.lazy_legal import LegalActions
    from engine.rules.pieces import Death, Piece
    from engine.rules.state import GameState

SIDES: Final = (M, G)


class HiddenInformationError(LookupError):
    """A player asked for something its side may not know (a blip's value, for the Marines)."""


class Observation:
    """What `player` may know of one game, read live from it (see the module's docstring)."""

    __slots__ = (
        "_k",
        "_state",
        "ap_budget",
        "barriers",
        "can_enter",
        "closed",
        "deaths",
        "diag_ok",
        "door_state",
        "escaped",
        "flames",
        "free_square",
        "game",
        "marine_poses",
        "obj_at",
        "occ",
        "p",
        "player",
        "sees",
        "step_cost",
        "turn_cost",
    )

    _k: Kernel
    _state: weakref.ReferenceType[GameState]  # (weak: the state keeps its observations)
    player: Player
    game: Game  # the mission's tables: board, options, step and action tables (shared by every game of it)
    p: Mapping[str, Piece]  # every piece in play, in order of appearance (a blip holds no value)
    occ: Mapping[int, str]  # square -> id of the piece on it
    closed: Mapping[int, str]  # square -> id of the closed door on it
    door_state: Mapping[str, str]  # door id -> open / closed / destroyed
    flames: Mapping[int, int]  # square -> flamer markers or fire layers on it
    barriers: Mapping[int, int]  # squares of the Archivist's force barriers
    obj_at: Mapping[int, str]  # square -> id of the object lying on it
    deaths: Sequence[Death]
    escaped: Sequence[str]
    sees: Callable[[Piece, int], bool]  # Marine m has line of sight to square t now
    can_enter: Callable[[Piece, int], bool]  # piece pc may step onto square t (if it has the AP)
    ap_budget: Callable[..., int]  # what pc may spend: its AP and the CP (cp: at most that many of them)
    step_cost: Callable[..., int | None]  # AP for pc to step toward direction d onto t (None: not that way)
    turn_cost: Callable[[Piece, int], int]  # AP for pc to turn to face f
    free_square: Callable[[int], bool]  # square t holds no piece, closed door or barrier
    diag_ok: Callable[[int, int], bool]  # a diagonal step from s toward d is not squeezed between blocked squares
    # (id, square, facing, prone) of each Marine on the board, in squad order: the same tuple object while none
    # of them changed, so a player can key a memo on it cheaply.
    marine_poses: Callable[[], tuple[tuple[str, int, int, bool], ...]]

    def __init__(self, state: GameState, player: Player) -> None:
        if player not in SIDES:
            raise ValueError(f"player must be one of {SIDES}, not {player!r}")
        k = state.k
        self._state = weakref.ref(state)
        self._k = k
        self.player = player
        self.game = state.game
        self.p, self.occ, self.closed, self.door_state = k.p, k.occ, k.closed, k.door_state
        self.flames, self.barriers, self.obj_at = k.flames, k.barriers, k.obj_at
        self.deaths, self.escaped = k.deaths, k.escaped
        self.sees, self.can_enter, self.ap_budget = state.sees, state.can_enter, state.ap_budget
        self.step_cost, self.turn_cost, self.free_square = state.step_cost, state.turn_cost, state.free_square
        self.diag_ok = state.diag_ok
        self.marine_poses = state.sight.marine_poses

    def __repr__(self) -> str:
        return f"<Observation of {self.player}, turn {self._k.turn} {self._k.phase}>"

    # -- the decision -----------------------------------------------------------------------------------------
    def current_player(self) -> Player | None:
        """Who decides now (None: the game is over)."""
        k = self._k
        if k.result is not None:
            return None
        return k.stack[-1].player if k.stack else M if k.phase == "marines" else G

    def decision(self) -> Decision | None:
        """The decision waiting for an answer (decisions.py), or None in an action phase or once the game is over."""
        stack = self._k.stack
        return stack[-1] if stack else None  # type: ignore[return-value]  # (only a decision waits on top)

    def legal_view(self) -> LegalActions:
        """The legal actions of the player to move, as a lazy sequence (`GameState.legal_view`)."""
        return self._game().legal_view()

    def is_terminal(self) -> bool:
        return self._k.result is not None

    def sample(self, seed: int) -> GameState:
        """A game in which this player sees what it sees here, and whose hidden parts (the dice to come; for the
        Marines the blips' values and the pile) are drawn from `random.Random(seed)`: what a look-ahead plays on
        (GameState.copy with resample_dice and hidden_from)."""
        return self._game().copy(resample_dice=True, seed=seed, hidden_from=self.player)

    def _game(self) -> GameState:
        state = self._state()
        if state is None:
            raise ReferenceError("the game of this observation is gone")
        return state

    # -- the position ---------------------------------------------------------------------------------------
    @property
    def feat(self) -> Features:
        """This game's holes, ladders, rubble and chutes, as far as they are face up (see `setup_squares`)."""
        return self._k.feat

    @property
    def turn(self) -> int:
        return self._k.turn

    @property
    def phase(self) -> str:
        return self._k.phase

    @property
    def cp(self) -> int:
        """The Marines' command points left this turn."""
        return self._k.cp

    @property
    def psi(self) -> int:
        return self._k.psi

    @property
    def active(self) -> str | None:
        """The piece whose activation is running."""
        return self._k.active

    @property
    def blip_rev(self) -> int:
        """Moves whenever a blip or Genestealer is put on a square or a blip leaves one (a key for a player's
        memo of where the enemies stand)."""
        return self._k.blip_rev

    def piece(self, pid: str) -> Piece | None:
        """The piece `pid` in play, or None."""
        return self._k.p.get(pid)

    # -- hidden information ----------------------------------------------------------------------------------
    def blip_value(self, pid: str) -> int:
        """How many Genestealers blip `pid` hides: known to the Genestealers only."""
        if self.player != G:
            raise HiddenInformationError(f"a blip's value is hidden from the {self.player}")
        return self._k.blip_value[pid]

    @property
    def pile_size(self) -> int:
        """How many blips are left face down in the pile (their values and order are hidden from both sides)."""
        return len(self._k.pile)

    @property
    def setup_squares(self) -> frozenset[int]:
        """[PF] players' set-up: the squares where a face-down counter lies (which counter is hidden from both
        sides until the set-up is over and the counters are turned up into `feat`)."""
        return frozenset(self._k.setup_placed)
