"""The frames on a game's stack: decisions a player answers, and steps the rules run by themselves.

Every frame is a frozen slotted dataclass. A `Decision` says who answers it (`player`) and carries what the
answer needs; `GameState.decision()` returns the pending one (None in a plain action phase). A `Step` runs as
soon as it is on top of the stack (GameState._drain): it may push decisions and other steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from engine.rules.combat import AssaultRoll
    from engine.rules.kernel import Player


@dataclass(frozen=True, slots=True)
class Frame:
    """Anything on the stack."""

    player: ClassVar[Player | None]  # who answers it (None: a step the rules run)
    # A decision that always offers at least one action (its options need not be listed to know that).
    never_empty: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class Step(Frame):
    """Run by the rules as soon as it is on top: no player answers it."""

    player: ClassVar[None] = None


@dataclass(frozen=True, slots=True)
class Decision(Frame):
    """Answered by a player: `player` (from the decision's `side` for those either side may face)."""

    player: ClassVar[Player]


# -- steps ---------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class BeginMarineTurn(Step):
    """The Marine turn starts: AP back, command points drawn."""


@dataclass(frozen=True, slots=True)
class BeginStealerActions(Step):
    """Reinforcements are placed: the Genestealers' and blips' AP come back."""


@dataclass(frozen=True, slots=True)
class SetupDone(Step):
    """[PF] every counter is placed: they are turned face up."""


@dataclass(frozen=True, slots=True)
class ConversionCheck(Step):
    """The first blip on the board that a Marine sees is revealed."""


@dataclass(frozen=True, slots=True)
class GenestealerStep(Step):
    """A step about one Genestealer (that acted, or was placed)."""

    genestealer: str


@dataclass(frozen=True, slots=True)
class AfterPlacement(GenestealerStep):
    """A Genestealer placed in the Genestealer turn counts as an action: overwatch and CP reactions follow."""


@dataclass(frozen=True, slots=True)
class SustainedCheck(GenestealerStep):
    """A Genestealer acted: the Marines' sustained fire at another target, or out of sight, is lost."""


@dataclass(frozen=True, slots=True)
class OverwatchCheck(GenestealerStep):
    """A Genestealer acted: the Marines on overwatch who see it within range may fire."""


@dataclass(frozen=True, slots=True)
class ReactionCheck(GenestealerStep):
    """A Genestealer acted in a Marine's sight: with command points left, the Marines may react."""


@dataclass(frozen=True, slots=True)
class DoorOverwatchCheck(Step):
    """A door closed: the Marines on overwatch who see it within range may fire at it."""

    door: str


@dataclass(frozen=True, slots=True)
class AssaultStep(Step):
    """A close assault rolled: the next choice offered (stage 0 parry, 1 guard re-roll, 2 psi), then the outcome."""

    attacker: str
    defender: str
    roll: AssaultRoll
    stage: int
    through: bool  # attacked through a hole (no facing, the Marine may retreat)


@dataclass(frozen=True, slots=True)
class LandOnEmpty(Step):
    """[PF] the Genestealer a Marine fell on has scuttled away: he lands on the empty square."""

    marine: str
    square: int


# -- decisions -----------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class DeployDecision(Decision):
    """Set-up in a deployment area: the square Marine `marine` starts on (`deploy ID SQ`), then his facing."""

    marine: str
    player: ClassVar[Player] = "marines"


@dataclass(frozen=True, slots=True)
class SetupDecision(Decision):
    """[PF] players' set-up: where the next face-down counter goes (`setup SQ`)."""

    index: int  # the counter's place in the shuffled order
    side: Player  # who places it (alternately, Marines first)

    @property
    def player(self) -> Player:  # type: ignore[override]
        return self.side


@dataclass(frozen=True, slots=True)
class CommandDecision(Decision):
    """With a sergeant on the board, keep the command points drawn or draw again (`cp keep` / `cp redraw`)."""

    player: ClassVar[Player] = "marines"
    never_empty: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class ChainDecision(Decision):
    """[2e] another flamer marker next to (or on) the last one, or stop (`flame ID SQ` / `pass`)."""

    marine: str
    square: int
    player: ClassVar[Player] = "marines"


@dataclass(frozen=True, slots=True)
class LurkDecision(Decision):
    """Where the next of `count` blips drawn from `pool` lurks (`lurk ENTRY`); entries in `locked` hold it back
    this turn."""

    count: int
    entries: tuple[str, ...]
    pool: str
    locked: tuple[str, ...] = ()
    player: ClassVar[Player] = "genestealers"


@dataclass(frozen=True, slots=True)
class AlphaDecision(Decision):
    """[4e] a revealed "3" may be the Alpha instead (`alpha yes` / `alpha no`)."""

    square: int
    entry: str
    value: int
    may_act: bool
    voluntary: bool
    held: bool = False  # a lurking blip held back this turn (its Genestealers keep waiting)
    player: ClassVar[Player] = "genestealers"
    never_empty: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class PutDecision(Decision):
    """Where the next of a revealed blip's Genestealers goes (`put SQ`): the Marine player places them after an
    involuntary conversion, the Genestealer player after a voluntary one."""

    side: Player  # who places them
    square: int  # the blip's square
    count: int  # Genestealers still to place
    may_act: bool
    voluntary: bool

    @property
    def player(self) -> Player:  # type: ignore[override]
        return self.side


@dataclass(frozen=True, slots=True)
class FaceDecision(Decision):
    """The facing of a placed, climbing, jumping or landing model (`face ID F`)."""

    piece: str
    side: Player  # the side of the piece

    @property
    def player(self) -> Player:  # type: ignore[override]
        return self.side


@dataclass(frozen=True, slots=True)
class TurnToFaceDecision(Decision):
    """A defender who won or tied without facing its attacker may turn to face it (`face ID F` / `pass`)."""

    piece: str
    facing: int
    side: Player  # the defender's side

    @property
    def player(self) -> Player:  # type: ignore[override]
        return self.side


@dataclass(frozen=True, slots=True)
class RetreatDecision(Decision):
    """[PF] a Marine attacked through a hole who won or tied may step to a free front or rear square."""

    marine: str
    squares: tuple[int, ...]
    player: ClassVar[Player] = "marines"


@dataclass(frozen=True, slots=True)
class ScuttleDecision(Decision):
    """[PF] where the Genestealer a Marine falls on scuttles to (`scuttle ID SQ`)."""

    genestealer: str
    squares: tuple[int, ...]
    player: ClassVar[Player] = "genestealers"


@dataclass(frozen=True, slots=True)
class ShoveDecision(Decision):
    """[PF] where the Marine who fell on a Marine is put, prone (`shove ID SQ`)."""

    marine: str
    squares: tuple[int, ...]
    player: ClassVar[Player] = "genestealers"


@dataclass(frozen=True, slots=True)
class ReactionDecision(Decision):
    """A Genestealer acted in sight: one Marine action paid with command points, or `pass`."""

    genestealer: str
    player: ClassVar[Player] = "marines"
    never_empty: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class OverwatchDecision(Decision):
    """Each Marine on overwatch who sees the Genestealer in turn: `fire ID` or `hold ID` (all declared, then
    rolled)."""

    genestealer: str
    remaining: tuple[str, ...]  # the Marines still to declare, the one asked first
    declared: tuple[str, ...]  # the Marines who will fire
    player: ClassVar[Player] = "marines"
    never_empty: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class DoorOverwatchDecision(Decision):
    """Each Marine on overwatch who sees a door close: `fire ID` or `hold ID`."""

    door: str
    remaining: tuple[str, ...]
    declared: tuple[str, ...]
    player: ClassVar[Player] = "marines"
    never_empty: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class AssaultDecision(Decision):
    """A Marine's choice on a close assault's roll (his side answers)."""

    attacker: str
    defender: str
    roll: AssaultRoll
    through: bool
    player: ClassVar[Player] = "marines"
    never_empty: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class ParryDecision(AssaultDecision):
    """Power sword: force the Genestealer to re-roll one die (`parry N`) or `pass`."""


@dataclass(frozen=True, slots=True)
class GuardDecision(AssaultDecision):
    """Guard: re-roll one of the Marine's dice (`guardroll N`) or `pass`."""


@dataclass(frozen=True, slots=True)
class PsiDecision(AssaultDecision):
    """Force axe: spend psi points on the Archivist's score (`psipoints N`) or `pass`."""


CONVERSION_CHECK = ConversionCheck()  # (immutable: one will do)
