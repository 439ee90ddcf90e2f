"""GameState: one game in progress, the OpenSpiel-shaped facade over the kernel and the rule components.

The kernel (kernel.py) holds every piece of the game's data; the rule components (sight, victory, fire,
movement, assault, psychic, blips, legal, acting, phases) hold the kernel and each other, never the state; the
state wires them together, keeps the event log and answers the public questions: current_player(),
legal_actions(), legal_view(), is_legal(), apply(), is_terminal(), result(), copy().

Every choice inside a rule is a decision exposed through current_player()/legal_actions(): sub-decisions
(overwatch fire, parry, guard re-roll, blip placement, facings, CP reactions, ...) sit on a small stack of
immutable frames, so copy() stays cheap and replays are exact.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mypy_extensions import mypyc_attr

from engine.rules import decisions as dc
from engine.rules.acting import Acting
from engine.rules.actions import NO_ACTOR_VERBS, Action, parse_action
from engine.rules.assault import Assault
from engine.rules.blips import Blips
from engine.rules.board import DIR_INDEX, FACE_NAMES
from engine.rules.decisions import Decision, Frame
from engine.rules.dice import Dice
from engine.rules.fire import Fire
from engine.rules.kernel import G, Kernel, M, Player, Scope
from engine.rules.lazy_legal import LegalActions
from engine.rules.legal import Legal
from engine.rules.movement import Movement
from engine.rules.observation import Observation
from engine.rules.phases import Phases
from engine.rules.pieces import BlipView, Event, GameResult, IllegalActionError, ModelView, Piece
from engine.rules.psychic import Psychic
from engine.rules.sight import Sight
from engine.rules.victory import Victory

if TYPE_CHECKING:
    from engine.rules.features import Features
    from engine.rules.game import Game
    from engine.rules.pieces import Death


@mypyc_attr(native_class=False)  # Observation keeps a weak reference to it (native classes have none)
class GameState:
    """One game in progress. Mutated by apply(); copy() gives an independent game sharing the Game."""

    # The kernel's containers, read through the state as plain attributes (the kernel never replaces them): read
    # them, change them only through the kernel's mutators.
    p: dict[str, Piece]
    occ: dict[int, str]
    closed: dict[int, str]
    door_state: dict[str, str]
    flames: dict[int, int]
    barriers: dict[int, int]
    obj_at: dict[int, str]
    traffic: dict[int, int]
    stack: list[Frame]
    deaths: list[Death]
    escaped: list[str]
    feat: Features  # this game's holes, ladders, rubble and chutes
    sees: Callable[[Piece, int], bool]
    can_enter: Callable[[Piece, int], bool]
    ap_budget: Callable[..., int]
    step_cost: Callable[..., int | None]
    turn_cost: Callable[[Piece, int], int]
    free_square: Callable[[int], bool]
    diag_ok: Callable[[int, int], bool]

    def __init__(
        self, game: Game, dice: Dice, rng: random.Random | None = None, *, kernel: Kernel | None = None
    ) -> None:
        """A new game rolling `dice`; its set-up (features, blip pile) drawn from `rng` (by default the dice's).
        kernel: a copy's (copy() sets the log)."""
        self.game = game
        if kernel is not None:
            self._wire(kernel)
            return
        self._wire(Kernel(game, dice, rng if rng is not None else dice.rng))
        # The event log (the `log` property): apply appends (turn, player, action, dice, effects) tuples, made into
        # Events when the log is read; _log_raw counts the tuples not made yet (always the latest entries).
        self._log: list[Any] = []
        self._log_raw = 0
        self.phases.opening()
        self._drain()

    def _wire(self, k: Kernel) -> None:
        """The rule components around kernel k, and who runs, lists and answers each frame."""
        self.k = k
        sight = self.sight = Sight(k)
        victory = self.victory = Victory(k)
        fire = self.fire = Fire(k, sight, victory)
        movement = self.movement = Movement(k, sight, fire, victory)
        assault = self.assault = Assault(k, fire, victory)
        psychic = self.psychic = Psychic(k, victory)
        blips = self.blip_rules = Blips(k, sight)  # (blips() is the blips' view)
        legal = self.legal = Legal(k, movement, fire, assault, psychic)
        acting = self.acting = Acting(k, sight, victory, fire, movement, assault, psychic, blips, legal)
        phases = self.phases = Phases(k, fire, victory)
        # Who runs each step, and for each decision who lists its options and who applies an answer.
        self._run: dict[type[Frame], Callable[[Any], None]] = {
            dc.BeginMarineTurn: phases.run_begin_marines, dc.BeginStealerActions: phases.run_begin_stealer_actions,
            dc.SetupDone: phases.run_setup_done, dc.ConversionCheck: blips.run_conv,
            dc.AfterPlacement: blips.run_after_placement, dc.ReactionCheck: acting.run_reactq,
            dc.OverwatchCheck: fire.run_overwatch_check, dc.SustainedCheck: fire.run_sustained_check,
            dc.DoorOverwatchCheck: fire.run_door_overwatch_check, dc.AssaultStep: assault.run_asr,
            dc.LandOnEmpty: movement.run_land_on_empty,
        }
        self._options: dict[type[Frame], Callable[[Any], list[Action]]] = {
            dc.SetupDecision: phases.setup_options, dc.CommandDecision: phases.command_options,
            dc.DeployDecision: phases.deploy_options,
            dc.ChainDecision: fire.chain_options, dc.LurkDecision: blips.lurk_options,
            dc.AlphaDecision: blips.alpha_options, dc.PutDecision: blips.put_options,
            dc.FaceDecision: blips.face_options, dc.TurnToFaceDecision: assault.turn_to_face_options,
            dc.RetreatDecision: movement.retreat_options, dc.ScuttleDecision: movement.scuttle_options,
            dc.ShoveDecision: movement.shove_options, dc.ReactionDecision: acting.react_options,
            dc.OverwatchDecision: fire.overwatch_options, dc.DoorOverwatchDecision: fire.door_overwatch_options,
            dc.ParryDecision: assault.parry_options, dc.GuardDecision: assault.guard_options,
            dc.PsiDecision: assault.psi_options,
        }
        self._answer: dict[type[Frame], Callable[[Any, Action], None]] = {
            dc.SetupDecision: phases.answer_setup, dc.CommandDecision: phases.answer_command,
            dc.DeployDecision: phases.answer_deploy,
            dc.ChainDecision: fire.answer_chain, dc.LurkDecision: blips.answer_lurk,
            dc.AlphaDecision: blips.answer_alpha, dc.PutDecision: blips.answer_put,
            dc.FaceDecision: blips.answer_face, dc.TurnToFaceDecision: assault.answer_turn_to_face,
            dc.RetreatDecision: movement.answer_retreat, dc.ScuttleDecision: movement.answer_scuttle,
            dc.ShoveDecision: movement.answer_shove, dc.ReactionDecision: acting.answer_react,
            dc.OverwatchDecision: fire.answer_overwatch, dc.DoorOverwatchDecision: fire.answer_door_overwatch,
            dc.ParryDecision: assault.answer_parry, dc.GuardDecision: assault.answer_guard,
            dc.PsiDecision: assault.answer_psi,
        }
        self.p, self.occ, self.closed, self.door_state = k.p, k.occ, k.closed, k.door_state
        self.flames, self.barriers, self.obj_at, self.traffic = k.flames, k.barriers, k.obj_at, k.traffic
        self.stack, self.deaths, self.escaped = k.stack, k.deaths, k.escaped
        self.feat = k.feat  # (changed only by the set-up: apply takes it again)
        # The rule predicates the players ask, defined once in the kernel and the components:
        self.sees = sight.sees  # Marine m has line of sight to square t now
        self.can_enter = movement.can_enter  # piece pc may step onto square t (if it has the AP)
        self.ap_budget = k.ap_budget  # what pc may spend: its AP and the CP (cp: at most that many of them)
        self.step_cost = k.step_cost  # AP for pc to step toward direction d onto square t (None: not that way)
        self.turn_cost = k.turn_cost  # AP for pc to turn to face f
        self.free_square = k.free_square  # square t holds no piece, closed door or barrier
        self.diag_ok = k.diag_ok  # a diagonal step from s toward d is not squeezed between two blocked squares
        self._seen_by: dict[str, Observation] = {}  # observation(player), made on first use

    def copy(
        self, resample_dice: bool = False, seed: int | None = None, hidden_from: Player | None = None
    ) -> GameState:
        """An independent copy; cheap: pieces are copied, tables shared.

        By default the copy rolls the very dice this game will roll and holds the very hidden values (an exact
        replay). For a look-ahead player, what it may not know is drawn afresh from `random.Random(seed)`: with
        `resample_dice` the future dice (dice already rolled stay as they are, in the log), and with `hidden_from`
        what that player cannot know (Kernel.redraw_hidden: for the Marines the blips' values and the pile, for the
        Genestealers the pile's order, for both the face-down Pitfall counters).
        """
        k = self.k.copy()
        if resample_dice or hidden_from is not None:
            rng = random.Random(seed)
            if hidden_from is not None:
                k.redraw_hidden(hidden_from, rng)
            if resample_dice:
                k.dice = Dice(rng)
        s = GameState(self.game, k.dice, kernel=k)
        s._log = self._log.copy()
        s._log_raw = self._log_raw
        return s

    # -- the public API -------------------------------------------------------------------------------------
    def current_player(self) -> Player | None:
        k = self.k
        if k.result is not None:
            return None
        if k.stack:
            return k.stack[-1].player
        return M if k.phase == "marines" else G

    def decision(self) -> Decision | None:
        """The decision waiting for an answer (decisions.py), or None in an action phase or once the game is over."""
        stack = self.k.stack
        # (only a decision waits on top between two applies: the steps have run)
        return stack[-1] if stack else None  # type: ignore[return-value]

    def is_terminal(self) -> bool:
        return self.k.result is not None

    def result(self) -> GameResult:
        if self.k.result is None:
            raise ValueError("the game is not over")
        return self.k.result

    def legal_actions(self) -> list[Action]:
        return list(self._legal_list())

    def _legal_list(self) -> list[Action]:
        """The current legal actions, kept for the decision (shared, not copied: callers must not change it)."""
        k = self.k
        sc = k.scope()
        out = sc.legal
        if out is None:
            if k.result is not None:
                out = []
            elif k.stack:
                top = k.stack[-1]
                out = self._options[type(top)](top)
            else:
                out = self.legal.phase_actions()
            sc.legal = out
        return out

    def legal_view(self) -> LegalActions:
        """The legal actions as a lazy sequence: per-piece questions stay cheap, the full list is built on demand."""
        # LegalActions(self), its slots set directly (one per decision: the __init__ frame costs more than them).
        la = _new_legal_actions(LegalActions)
        la._state = self
        la._version = self.k.version
        la._all = None
        return la

    def legal_actions_of(self, pid: str, verb: str | None = None) -> list[Action]:
        """The legal actions whose actor is piece `pid` (with `verb`: only those), in legal_actions() order.

        In an action phase a piece's actions depend on that piece alone: its own generator lists them, and
        with `verb` only that part of it (so a player asking for a Marine's shots pays for those). There,
        `verb="psi"` gives the psychic powers an Archivist `pid` may use (a power has no actor).
        """
        k = self.k
        if k.result is None and not k.stack:
            sc = k._scope
            if sc.version != k.version:
                sc = k.scope()
            own = sc.own.get(pid)
            if verb is None:
                if own is None:
                    own = self._own_actions(pid, sc)
                if own and own[-1].verb == "psi":
                    return [a for a in own if a.actor == pid]  # the Archivist's powers come last
                return own.copy()
            # (a part may list a neighbouring verb too: doors open and close, holes climb and jump)
            return [a for a in (own if own is not None else self._part(pid, verb, -1, sc)) if a.verb == verb]
        return [a for a in self._legal_list() if a.actor == pid and (verb is None or a.verb == verb)]

    def is_legal(self, action: Action) -> bool:
        """`action in legal_actions()`: in an action phase, whether the actor's generator lists it (its part for
        the action's verb, and for a move its direction only)."""
        k = self.k
        sc = k._scope
        if sc.version != k.version:
            sc = k.scope()
        elif sc.ok is action:
            return True
        if sc.legal is not None or k.result is not None or k.stack:
            ok = _listed(action, self._legal_list())
        else:
            verb = action.verb
            args = action.args
            if args and verb not in NO_ACTOR_VERBS:
                # A piece action: listed by its actor's generator alone (psi powers aside, a generator lists only
                # actions of its own piece).
                actor = args[0]
                listed = sc.own.get(actor)
                if listed is None:
                    # (the verb's whole part, when a player has read it at this decision)
                    listed = sc.parts.get((actor, verb, -1))
                if listed is None:
                    d = -1
                    if verb == "move":
                        d = DIR_INDEX.get(args[1], -1) if len(args) > 1 else -1
                    listed = self._part(actor, verb, d, sc) if verb != "move" or d >= 0 else []
                ok = _listed(action, listed)
            elif not args:
                ok = verb == "pass" or (verb == "end" and k.active is not None)
            else:
                # Of the verbs without an actor only the psychic powers are offered in an action phase.
                ok = verb == "psi" and any(
                    _listed(action, self._part(pc.id, "psi", -1, sc)) for pc in k.p.values() if pc.rank == "archivist"
                )
        if ok:
            # A player asks about the action it then applies: apply takes this answer.
            sc.ok = action
        return ok

    def _part(self, pid: str, verb: str, d: int, sc: Scope) -> list[Action]:
        """Action phase: piece pid's actions of one verb (moves: toward d only, or all when d < 0), kept for the
        decision (a part may list a neighbouring verb too)."""
        key = (pid, verb, d)
        out = sc.parts.get(key)
        if out is None:
            out = sc.parts[key] = []
            pc = self.k.p.get(pid)
            if pc is not None:
                self.legal.piece_actions(pc, out, verb, d)
        return out

    def _own_actions(self, pid: str, sc: Scope | None = None) -> list[Action]:
        """Action phase only: what piece `pid` may do now (its slice of the phase's legal actions)."""
        if sc is None:
            sc = self.k.scope()
        out = sc.own.get(pid)
        if out is None:
            out = sc.own[pid] = []
            pc = self.k.p.get(pid)
            if pc is not None:
                self.legal.piece_actions(pc, out)
        return out

    def apply(self, action: Action | str) -> None:
        """Apply one legal action (or its text); raises IllegalActionError otherwise."""
        a = parse_action(action) if isinstance(action, str) else action
        k = self.k
        sc = k._scope
        if (sc.ok is not a or sc.version != k.version) and not self.is_legal(a):
            raise IllegalActionError(f"illegal action {a.text()!r} for {self.current_player()} (turn {k.turn})")
        stack = k.stack
        # current_player(), inlined: a legal action means the game is not over.
        player = stack[-1].player if stack else M if k.phase == "marines" else G
        turn = k.turn
        k.fx = []
        if k.version != k.settled:
            k.forget()  # edited by hand since the last apply (scenarios, tests): the counters may have missed it
        k.version += 1
        if stack:
            frame = stack.pop()
            self._answer[type(frame)](frame, a)
        elif a.verb == "pass":
            self.phases.end_phase_step()
        elif a.verb == "end":
            k.end_activation()
        else:
            self.acting.piece_action(a, reaction=False)
        options = self._drain()
        # The log entry (the `log` property makes it an Event when read); dice.take() and a.text(), inlined.
        dice = k.dice._pending
        fx = k.fx
        self._log.append((turn, player, a._text, tuple(dice) if dice else (), "; ".join(fx) if fx else ""))
        if dice:
            dice.clear()
        self._log_raw += 1
        k.version = k.settled = k.version + 1
        self.feat = k.feat
        if options is not None:
            # The decision's options as _drain listed them: nothing has changed since, so they are this version's
            # legal actions (what _legal_list would list again for the player).
            k.scope().legal = options

    def _drain(self) -> list[Action] | None:
        """Run automatic frames until a decision is needed or the stack is empty; the decision's options when they
        had to be listed to see that there are some."""
        k = self.k
        stack = k.stack
        run, options_of = self._run, self._options
        while k.result is None and stack:
            top = stack[-1]
            if top.player is not None:  # a decision
                if top.never_empty:
                    return None
                options = options_of[type(top)](top)
                if options:
                    return options
                stack.pop()  # a decision with no options is skipped
                continue
            stack.pop()
            run[type(top)](top)
        return None

    def observation(self, player: Player) -> Observation:
        """What `player` may know of this game (observation.py): a live read-only view, the same object at every
        decision of this state, holding nothing hidden from that player (for the Marines: no blip values)."""
        obs = self._seen_by.get(player)
        if obs is None:
            obs = self._seen_by[player] = Observation(self, player)
        return obs

    # -- the rule predicates, for players: sees, can_enter, ap_budget, step_cost, turn_cost, free_square, diag_ok --
    def marine_poses(self) -> tuple[tuple[str, int, int, bool], ...]:
        """(id, square, facing, prone) of each Marine on the board, in squad order: the same tuple object while
        none of them changed (the rules' own record), so a player can key a memo on it cheaply."""
        return self.sight.marine_poses()

    # -- reading the game -----------------------------------------------------------------------------------
    @property
    def dice(self) -> Dice:
        return self.k.dice

    @property
    def turn(self) -> int:
        return self.k.turn

    @property
    def phase(self) -> str:
        return self.k.phase

    @property
    def cp(self) -> int:
        return self.k.cp

    @property
    def command_points(self) -> int:
        return self.k.cp

    @property
    def psi(self) -> int:
        return self.k.psi

    @property
    def active(self) -> str | None:
        return self.k.active

    @property
    def pile(self) -> list[int]:
        return self.k.pile

    @property
    def used(self) -> list[int]:
        return self.k.used

    @property
    def version(self) -> int:
        """Moves with every decision applied (and with touch()): answers about a state belong to one version."""
        return self.k.version

    def touch(self) -> None:
        """The state was edited by hand (scenarios, tests): answers kept for the current version are dropped."""
        self.k.version += 1

    @property
    def log(self) -> list[Event]:
        """Every applied action as an Event (turn, player, action text, dice rolled, effects), oldest first."""
        raw = self._log
        left = self._log_raw
        if left:
            # Most games are played without reading their log: an Event is made only when someone does.
            i = len(raw) - 1
            while left and i >= 0:
                e = raw[i]
                if type(e) is tuple:
                    raw[i] = Event(*e)
                    left -= 1
                i -= 1
            self._log_raw = 0
        return raw

    def _view(self, pc: Piece) -> ModelView:
        b = self.game.board
        lvl = x = y = None
        if pc.sq >= 0:
            li, x, y = b.lxy(pc.sq)
            lvl = b.level_ids[li]
        return ModelView(
            pc.id, pc.kind, lvl, x, y, FACE_NAMES[pc.facing] if pc.facing >= 0 else None,  # type: ignore[arg-type]
            pc.ap, pc.st != 0, pc.ow, pc.guard, pc.jam, pc.prone, pc.carry or None, pc.rank, pc.ranged,
            pc.melee, pc.ammo, pc.alpha, pc.entry if pc.sq < 0 else None,
        )

    def marines(self) -> list[ModelView]:
        return [self._view(pc) for pc in self.k.p.values() if pc.kind == "marine"]

    def genestealers(self) -> list[ModelView]:
        return [self._view(pc) for pc in self.k.p.values() if pc.kind == "stealer"]

    def blips(self, viewer: Player | None = None) -> list[BlipView]:
        """Blips; their value is hidden when viewer is "marines"."""
        b = self.game.board
        out = []
        for pc in self.k.p.values():
            if pc.kind != "blip":
                continue
            lvl = x = y = None
            if pc.sq >= 0:
                li, x, y = b.lxy(pc.sq)
                lvl = b.level_ids[li]
            out.append(BlipView(pc.id, lvl, x, y, None, pc.ap, pc.st != 0,
                                None if viewer == M else self.k.blip_value[pc.id], pc.entry if pc.sq < 0 else None))
        return out

    def piece(self, pid: str) -> Piece | None:
        """The live piece (read it, do not mutate it)."""
        return self.k.p.get(pid)

    def casualties(self) -> dict[str, int]:
        out = {M: 0, G: 0}
        for d in self.k.deaths:
            out[M if d.kind == "marine" else G] += 1
        return out

    def traffic_squares(self) -> dict[tuple[str, int, int], int]:
        """How many times Genestealers and blips entered each square: (level, x, y) -> count, in (level, x, y)
        order (what the game's record sorts them by)."""
        keys, rank = self.game.board.square_keys()
        traffic = self.k.traffic
        return {keys[sq]: traffic[sq] for sq in sorted(traffic, key=rank.__getitem__)}

    def features(self) -> dict[str, list[tuple[str, int, int]]]:
        """This game's pitfalls, ladder ends, rubble and chutes as (level, x, y)."""
        return self.k.feat.describe(self.game.board)


_new_legal_actions = object.__new__


def _listed(a: Action, actions: list[Action]) -> bool:
    """`a in actions`, trying identity first: actions are interned, so a legal one is nearly always the very
    object listed, and `in` would call Action.__eq__ on every element before it."""
    for x in actions:
        if x is a:
            return True
    return a in actions
