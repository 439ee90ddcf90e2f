"""Legal actions of the Marine and Genestealer action phases, piece by piece: the one generator.

Every piece action is listed by its actor's generator (`Legal.piece_actions`): past a few gates (AP left, standing,
not held in a lasting fire), a fixed sequence of parts, each listing one kind of action (steps, turns, shots,
doors, ...). The same generator answers every legality question: asked for one verb, it runs the part that lists
that verb (a step: toward one direction), so "is this action legal?" is "is it among what its actor's generator
lists for it?", never a second set of rules.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.rules.actions import END, PASS, Action, act
from engine.rules.board import FACE_NAMES
from engine.rules.fire import Fire
from engine.rules.kernel import GUNS, Kernel
from engine.rules.movement import Movement
from engine.rules.pieces import Piece
from engine.rules.psychic import Psychic

Part = Callable[[Piece, int, list[Action]], None]  # (piece, budget, out): lists one kind of the piece's actions


class Legal:
    """Legal actions of the Marine and Genestealer action phases, piece by piece."""

    def __init__(self, k: Kernel, movement: Movement, fire: Fire, psychic: Psychic) -> None:
        self.k = k
        self.game = k.game
        self.movement = movement
        self.fire = fire
        self.psychic = psychic
        m = movement
        # Each generator's parts after its steps, in the order they list (a reaction on CP lists no objects or
        # powers), and the part that lists each verb.
        self.marine_reaction_parts: tuple[Part, ...] = (
            m.turns, self.marine_shots, self.marine_weapon, self.marine_guard, self.marine_blows, m.door_actions,
            self.marine_exit, self.marine_climb, self.marine_jump,
        )
        self.marine_parts: tuple[Part, ...] = (*self.marine_reaction_parts, self.marine_carry, self.marine_psi)
        self.stealer_parts: tuple[Part, ...] = (m.turns, self.stealer_blows, m.door_actions, m.hole_moves)
        self.blip_parts: tuple[Part, ...] = (m.door_actions, m.hole_moves)
        self.marine_reaction_part_of: dict[str, Part] = {
            "turn": m.turns, "shoot": self.marine_shots, "flame": self.marine_weapon, "reload": self.marine_weapon,
            "overwatch": self.marine_weapon, "unjam": self.marine_weapon, "guard": self.marine_guard,
            "assault": self.marine_blows, "open": m.door_actions, "close": m.door_actions, "exit": self.marine_exit,
            "climb": self.marine_climb, "jump": self.marine_jump,
        }
        self.marine_part_of: dict[str, Part] = {
            **self.marine_reaction_part_of,
            "drop": self.marine_carry, "give": self.marine_carry, "psi": self.marine_psi,
        }
        self.stealer_part_of: dict[str, Part] = {
            "turn": m.turns, "assault": self.stealer_blows, "open": m.door_actions, "close": m.door_actions,
            "climb": m.hole_moves, "jump": m.hole_moves,
        }
        self.blip_part_of: dict[str, Part] = {
            "open": m.door_actions, "close": m.door_actions, "climb": m.hole_moves, "jump": m.hole_moves,
        }

    def phase_actions(self) -> list[Action]:
        """The legal actions of the current action phase: pass, end, then every piece's own actions."""
        k = self.k
        out: list[Action] = [PASS]
        if k.active is not None:
            out.append(END)
        for pc in k.p.values():
            self.piece_actions(pc, out)
        return out

    def piece_actions(self, pc: Piece, out: list[Action], only: str | None = None, d: int = -1) -> None:
        """Piece pc's own actions in the current action phase (none if it does not act in this phase); `only`: the
        part that lists that verb (`d`: for moves, toward that direction only)."""
        k = self.k
        if k.phase == "marines":
            if pc.kind == "marine" and pc.sq >= 0:
                self.marine_actions(pc, k.ap_budget(pc), out, True, only, d)
        elif pc.kind != "marine" and pc.st != 2:
            self.genestealer_actions(pc, out, only, d)

    def marine_actions(
        self, pc: Piece, budget: int, out: list[Action], in_turn: bool, only: str | None = None, d: int = -1
    ) -> None:
        """Marine pc's actions with `budget` AP and CP (in_turn: his own phase, else a CP reaction: no objects, no
        psychic powers)."""
        if budget <= 0 and not (pc.free and pc.ranged in GUNS):
            # Nothing to spend and no free shot: only what is free.
            if pc.carry and in_turn and (only is None or only == "drop"):
                out.append(self.game.order_table(pc.id)["drop"])
            return
        if pc.prone:
            if budget >= 2 and (only is None or only == "stand"):
                out.extend(act("stand", pc.id, fname) for fname in FACE_NAMES)
            return
        if in_turn:
            self.on_board(pc, budget, out, only, d, self.marine_parts, self.marine_part_of, True)
        else:
            self.on_board(pc, budget, out, only, d, self.marine_reaction_parts, self.marine_reaction_part_of, True)

    def genestealer_actions(self, pc: Piece, out: list[Action], only: str | None = None, d: int = -1) -> None:
        """A Genestealer's or blip's actions (a blip may reveal instead of acting, whatever its AP)."""
        blip = pc.kind == "blip"
        if blip and (only is None or only == "reveal") and not pc.acted:
            out.append(self.game.order_table(pc.id)["reveal"])
        budget = self.k.ap_budget(pc)
        if budget <= 0:
            return
        if pc.sq < 0:
            if only is None or only == "enter":
                self.enter(pc, out)
        elif blip:
            self.on_board(pc, budget, out, only, d, self.blip_parts, self.blip_part_of, False)
        else:
            self.on_board(pc, budget, out, only, d, self.stealer_parts, self.stealer_part_of, True)

    def on_board(
        self, pc: Piece, budget: int, out: list[Action], only: str | None, d: int, parts: tuple[Part, ...],
        part_of: dict[str, Part], fire_holds: bool,
    ) -> None:
        """Past a piece's gates: its steps, then (unless a lasting fire holds it [AE-F]: fire_holds, models only)
        its parts in order; for one verb, the part that lists it (a move: the step toward d)."""
        if only == "move":
            self.movement.steps(pc, budget, out, d)
            return
        if only is None:
            self.movement.steps(pc, budget, out, -1)
            if not fire_holds or self.k.may_act_in_fire(pc):
                for each in parts:
                    each(pc, budget, out)
            return
        part = part_of.get(only)
        if part is not None and (not fire_holds or self.k.may_act_in_fire(pc)):
            part(pc, budget, out)

    # -- the parts ------------------------------------------------------------------------------------------
    def enter(self, pc: Piece, out: list[Action]) -> None:
        """A lurking blip or Genestealer steps onto its entry area's square (not while held back this turn)."""
        if not pc.lock and self.movement.can_enter(pc, self.game.board.entries[pc.entry]):
            out.append(act("enter", pc.id))

    def marine_shots(self, pc: Piece, budget: int, out: list[Action]) -> None:
        """A storm bolter or assault cannon shot (free right after a move or turn) at each target he sees."""
        ranged = pc.ranged
        if ranged in GUNS and not pc.jam and (0 if pc.free else 1) <= budget and (
            ranged == "storm_bolter" or pc.ammo > 0
        ):
            pid = pc.id
            for tid in self.fire.shoot_targets(pc):
                out.append(act("shoot", pid, tid))

    def marine_weapon(self, pc: Piece, budget: int, out: list[Action]) -> None:
        """The heavy flamer's shots and [2e] reload; a gun's overwatch, unjam and the assault cannon's reload."""
        opts = self.game.opts
        orders = self.game.order_table(pc.id)
        if pc.ranged == "heavy_flamer":
            if budget >= 2 and pc.ammo > 0:
                pid = pc.id
                name = self.game.board.name
                for t in self.fire.flame_targets(pc):
                    out.append(act("flame", pid, name(t)))
            if self.game.ruleset == "classic" and budget >= 4 and pc.ammo < opts.flamer_shots:
                out.append(orders["reload"])  # [2e] the heavy flamer reloads for 4 AP
        elif pc.ranged in GUNS:
            if budget >= 2 and not pc.ow:
                out.append(orders["overwatch"])
            if pc.jam and budget >= 1:
                out.append(orders["unjam"])
            if pc.ranged == "assault_cannon" and budget >= 4 and not pc.reloaded and (
                pc.ammo < opts.assault_cannon_shots
            ):
                out.append(orders["reload"])

    def marine_guard(self, pc: Piece, budget: int, out: list[Action]) -> None:
        if budget >= 2 and not pc.guard:
            out.append(self.game.order_table(pc.id)["guard"])

    def marine_blows(self, pc: Piece, budget: int, out: list[Action]) -> None:
        """Assaults of a Marine: [4e] a Genestealer at the other end of his ladder, the Genestealer or door in
        front (never through a hole)."""
        if budget < 1:
            return
        k = self.k
        pid = pc.id
        occ, p = k.occ, k.p
        s = pc.sq
        feat = k.feat
        if not self.game.pf_ladders and s in feat.ladder:
            below_id = occ.get(feat.ladder[s])
            if below_id is not None and p[below_id].kind == "stealer":
                out.append(act("assault", pid, below_id))
        self.front_blows(pc, "stealer", out)

    def front_blows(self, pc: Piece, enemy: str, out: list[Action]) -> None:
        """Assaults on the square in front: the enemy model (kind `enemy`) on it, then a closed door on it."""
        k = self.k
        t = k.front(pc)
        if t >= 0:
            tid = k.occ.get(t)
            if tid is not None and k.p[tid].kind == enemy:
                out.append(act("assault", pc.id, tid))
            did = k.closed.get(t)
            if did is not None and self.game.board.door_kind[did] == "door":
                out.append(act("assault", pc.id, did))

    def marine_exit(self, pc: Piece, budget: int, out: list[Action]) -> None:
        if budget >= 1 and pc.sq in self.game.board.exit_at:
            out.append(self.game.order_table(pc.id)["exit"])

    def marine_climb(self, pc: Piece, budget: int, out: list[Action]) -> None:
        """A Marine climbs his ladder (2 AP) to a free other end without flames."""
        k = self.k
        other = k.feat.ladder.get(pc.sq)
        if other is not None and budget >= 2 and k.free_square(other) and other not in k.flames:
            out.append(self.game.order_table(pc.id)["climb"])

    def marine_jump(self, pc: Piece, budget: int, out: list[Action]) -> None:
        """A Marine jumps down the pitfall he stands on ([PF] or a ladder hole) for 1 AP."""
        feat = self.k.feat
        s = pc.sq
        if budget >= 1 and (s in feat.pit_down or (s in feat.ladder_top and self.game.pf_ladders)):
            out.append(self.game.order_table(pc.id)["jump"])

    def marine_carry(self, pc: Piece, budget: int, out: list[Action]) -> None:
        """Drop what he carries (free), or give it (1 AP) to the Marine in front who carries nothing."""
        if not pc.carry:
            return
        k = self.k
        out.append(self.game.order_table(pc.id)["drop"])
        t = k.front(pc)
        if budget >= 1 and t >= 0:
            oid = k.occ.get(t)
            if oid is not None and k.p[oid].kind == "marine" and not k.p[oid].carry:
                out.append(act("give", pc.id, oid))

    def marine_psi(self, pc: Piece, budget: int, out: list[Action]) -> None:
        """The Archivist's powers (no AP), once per Marine turn."""
        if pc.rank == "archivist" and not self.k.psi_used:
            self.psychic.powers(pc, out)

    def stealer_blows(self, pc: Piece, budget: int, out: list[Action]) -> None:
        """Assaults of a Genestealer on the board: the Marine or door in front, Marines through a hole."""
        self.front_blows(pc, "marine", out)
        k = self.k
        pid = pc.id
        occ, p = k.occ, k.p
        for other in k.feat.through(pc.sq):
            tid = occ.get(other)
            if tid is not None and p[tid].kind == "marine":
                out.append(act("assault", pid, tid))
