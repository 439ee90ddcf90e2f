"""Applying a piece action, what follows it (conversions, CP reactions, overwatch) and simple orders."""

from __future__ import annotations

from collections.abc import Callable

from engine.rules.actions import PASS, Action
from engine.rules.assault import Assault
from engine.rules.blips import Blips
from engine.rules.decisions import (
    CONVERSION_CHECK,
    Frame,
    OverwatchCheck,
    ReactionCheck,
    ReactionDecision,
    SustainedCheck,
)
from engine.rules.fire import Fire
from engine.rules.kernel import Kernel
from engine.rules.legal import Legal
from engine.rules.movement import Movement
from engine.rules.pieces import Piece
from engine.rules.psychic import Psychic
from engine.rules.sight import Sight
from engine.rules.verbs import VERBS, resolve
from engine.rules.victory import Victory

PieceAct = Callable[[Piece, Action, bool], None]  # (actor, action, paid with CP only as a reaction)

_CONV_ONLY: tuple[Frame, ...] = (CONVERSION_CHECK,)
_APPLIERS = tuple((v.name, v.acts) for v in VERBS if v.acts is not None)
# The steps after a Genestealer's action, by its id (immutable, so shared by every state and game).
_STEALER_HOOKS: dict[str, tuple[Frame, ...]] = {}


class Acting:
    """Applying a piece action, what follows it (conversions, CP reactions, overwatch) and simple orders."""

    def __init__(
        self, k: Kernel, sight: Sight, victory: Victory, fire: Fire, movement: Movement, assault: Assault,
        psychic: Psychic, blips: Blips, legal: Legal,
    ) -> None:
        self.k = k
        self.game = k.game
        self.sight = sight
        self.victory = victory
        self.psychic = psychic
        self.blips = blips
        self.legal = legal
        components = {"movement": movement, "fire": fire, "assault": assault, "blips": blips}
        # Who applies each verb of a piece action, as engine/rules/verbs.py declares it (none of them a method of
        # this component: no reference cycle).
        self.acts: dict[str, PieceAct] = {verb: resolve(ref, components, verb) for verb, ref in _APPLIERS}

    def piece_action(self, a: Action, reaction: bool) -> None:
        """Apply a piece action (or a psi power), then queue what follows it."""
        k = self.k
        verb = a.verb
        if verb == "psi":
            self.psychic.use(a)
            self.follow_up(None, None)
            return
        pc = k.p[a.args[0]]
        if pc.kind == "marine":
            # What lasts only until the Marine does something else: sustained fire, overwatch, guard.
            if verb != "shoot":
                pc.sus = ""
            if pc.ow and verb != "unjam" and verb != "overwatch":
                pc.ow = False
            if pc.guard and verb != "guard":
                pc.guard = False
        base = len(k.stack)
        self.acts[verb](pc, a, reaction)
        # A free shot is earned by a move or turn in the Marine's own action; a [2e] free quarter turn, by a paid one.
        if pc.kind == "marine":
            if reaction or (verb != "move" and verb != "turn"):
                pc.free = False
            self.follow_up(None, base)
            return
        if pc.kind == "stealer" and verb != "turn":
            pc.free = False
        self.follow_up(pc if pc.id in k.p else None, base)

    def follow_up(self, acted: Piece | None, base: int | None) -> None:
        """Queue what follows an action, under the frames the action itself pushed (above `base`: they resolve
        first; a psi power's none): involuntary conversions; after a Genestealer's action (`acted`), the sustained
        fire it ends ([4e] at once: before the CP reaction), then the CP reaction, then overwatch."""
        k = self.k
        hooks = _CONV_ONLY
        if acted is not None and k.phase == "stealers":
            if acted.kind == "stealer" and acted.sq >= 0:
                sid = acted.id
                own = _STEALER_HOOKS.get(sid)
                if own is None:  # (the stack's top last)
                    own = _STEALER_HOOKS[sid] = (
                        OverwatchCheck(sid), ReactionCheck(sid), SustainedCheck(sid), CONVERSION_CHECK,
                    )
                hooks = own
            else:
                k.clear_sustained()  # a blip acted: another Genestealer than the Marines' sustained-fire targets
        stack = k.stack
        on_top = base is None or base == len(stack)
        # Only the conversion check follows (a blip's or a Marine's action, nothing pushed by it, the game not over):
        # its frame would be the top one and GameState._drain, which apply runs right after this, would run it
        # first, so it is run here instead (below, once the victory check has not ended the game, which would drop
        # the frame).
        conv_now = hooks is _CONV_ONLY and on_top and k.result is None
        if not conv_now:
            if on_top:
                stack.extend(hooks)
            else:
                stack[base:base] = hooks
        if k.vic_rev != k.vic_clean:  # else Victory.check would return at once
            self.victory.check()
        if conv_now and k.result is None:
            self.blips.run_conv(CONVERSION_CHECK)








    def run_reactq(self, frame: ReactionCheck) -> None:
        k = self.k
        g = k.p.get(frame.genestealer)
        if g is None or g.sq < 0 or k.cp <= 0 or not self.game.opts.cp_reactions:
            return
        if self.sight.seen_by_marine(g.sq):
            k.stack.append(ReactionDecision(g.id))

    def react_options(self, frame: ReactionDecision) -> list[Action]:
        k = self.k
        out: list[Action] = [PASS]
        for pc in k.p.values():
            if pc.kind == "marine" and pc.sq >= 0:
                self.legal.marine_actions(pc, k.cp, out, in_turn=False)
        return out

    def answer_react(self, frame: ReactionDecision, a: Action) -> None:
        if a.verb != "pass":
            self.k.note("reaction")
            self.piece_action(a, reaction=True)
