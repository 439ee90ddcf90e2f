"""Applying a piece action, what follows it (conversions, CP reactions, overwatch) and simple orders."""

from __future__ import annotations

from typing import Any

from engine.rules.actions import PASS, Action
from engine.rules.blips import _CONV
from engine.rules.legal import LegalRules
from engine.rules.pieces import Piece

_CONV_ONLY = (_CONV,)
# The hooks after a Genestealer's action, by its id (immutable, so shared by every state and game).
_STEALER_HOOKS: dict[str, tuple[tuple[Any, ...], ...]] = {}


class ActingRules(LegalRules):
    """Applying a piece action, what follows it (conversions, CP reactions, overwatch) and simple orders."""

    def _piece_action(self, a: Action, reaction: bool) -> None:
        """Apply a piece action (or a psi power), then queue what follows it."""
        k = self.k
        pid = a.args[0] if a.args else ""
        verb = a.verb
        stealer: Piece | None = None
        base: int | None = None
        if verb == "psi":
            self._do_psi(a)
        else:
            pc = k.p[pid]
            marine = pc.kind == "marine"
            if marine:
                if verb != "shoot":
                    pc.sus = ""
                if pc.ow and verb != "unjam" and verb != "overwatch":
                    pc.ow = False
                if pc.guard and verb != "guard":
                    pc.guard = False
            base = len(k.stack)
            self._act_tab[verb](self, pc, a, reaction)
            kind = pc.kind
            if kind == "marine":
                if reaction or (verb != "move" and verb != "turn"):
                    pc.free = False
            else:
                if kind == "stealer" and verb != "turn":
                    pc.free = False
                if pid in k.p:
                    stealer = pc
        # What follows the action, queued under the frames the action itself pushed (they resolve first; a psi
        # power's above them): involuntary conversions, then the CP reaction, then overwatch.
        hooks: tuple[tuple[Any, ...], ...] = _CONV_ONLY
        if stealer is not None and k.phase == "stealers":
            if stealer.kind == "stealer" and stealer.sq >= 0:
                sid = stealer.id
                own = _STEALER_HOOKS.get(sid)
                if own is None:
                    own = _STEALER_HOOKS[sid] = (("susq", sid), ("owq", sid), ("reactq", sid), _CONV)
                hooks = own
            else:
                k.clear_sustained()  # a blip acted: another Genestealer than the Marines' sustained-fire targets
        stack = k.stack
        on_top = base is None or base == len(stack)
        # Only the conversion check follows (a blip's or a Marine's action, nothing pushed by it, the game not over):
        # its frame would be the top one and _drain, which apply runs right after this, would run it first, so it
        # is run here instead (below, once the victory check has not ended the game, which would drop the frame).
        conv_now = hooks is _CONV_ONLY and on_top and k.result is None
        if not conv_now:
            if on_top:
                stack.extend(hooks)
            else:
                stack[base:base] = hooks
        if k.vic_rev != k.vic_clean:  # else _check_victory would return at once (victory.py)
            self._check_victory()
        if conv_now and k.result is None:
            self._run_conv(_CONV)

    def _act_overwatch(self, pc: Piece, a: Action, reaction: bool) -> None:
        self.k.pay(pc, 2, reaction)
        pc.ow = True
        pc.guard = False

    def _act_guard(self, pc: Piece, a: Action, reaction: bool) -> None:
        self.k.pay(pc, 2, reaction)
        pc.guard = True
        pc.ow = False

    def _act_unjam(self, pc: Piece, a: Action, reaction: bool) -> None:
        self.k.pay(pc, 1, reaction)
        pc.jam = False

    def _act_reload(self, pc: Piece, a: Action, reaction: bool) -> None:
        self.k.pay(pc, 4, reaction)
        opts = self.game.opts
        pc.ammo = opts.flamer_shots if pc.ranged == "heavy_flamer" else opts.assault_cannon_shots
        pc.reloaded = pc.ranged == "assault_cannon"

    def _act_drop(self, pc: Piece, a: Action, reaction: bool) -> None:
        k = self.k
        if pc.sq not in k.obj_at:
            k.note(f"{pc.id} drops {pc.carry}")
            k.drop_object(pc)

    def _act_give(self, pc: Piece, a: Action, reaction: bool) -> None:
        k = self.k
        k.pay(pc, 1, reaction)
        k.give_object(pc, k.p[a.args[1]])

    def _act_reveal(self, pc: Piece, a: Action, reaction: bool) -> None:
        self.k.end_activation()
        self._convert(pc, voluntary=True)

    def _run_reactq(self, frame: tuple[Any, ...]) -> None:
        k = self.k
        g = k.p.get(frame[1])
        if g is None or g.sq < 0 or k.cp <= 0 or not self.game.opts.cp_reactions:
            return
        if self._seen_by_marine(g.sq):
            k.stack.append(("react", g.id))

    def _legal_react(self, frame: tuple[Any, ...]) -> list[Action]:
        k = self.k
        out: list[Action] = [PASS]
        for pc in k.p.values():
            if pc.kind == "marine" and pc.sq >= 0:
                self._marine_actions(pc, k.cp, out, in_turn=False)
        return out

    def _do_react(self, frame: tuple[Any, ...], a: Action) -> None:
        if a.verb != "pass":
            self.k.note("reaction")
            self._piece_action(a, reaction=True)
