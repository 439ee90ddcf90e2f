"""Movement and doors: steps, turns, holes, ladders, falls and the landing decisions."""

from __future__ import annotations

from typing import Any

from engine.rules.actions import PASS, Action, act
from engine.rules.board import DIR_INDEX, DIR_VEC, FACE_INDEX, FACE_VEC
from engine.rules.fire import FireRules
from engine.rules.pieces import Piece
from engine.rules.state_core import G, M


class MovementRules(FireRules):
    """Movement and doors: steps, turns, holes, ladders, falls and the landing decisions."""

    def _diag_ok(self, s: int, d: int) -> bool:
        if d % 2 == 0:
            return True
        nb = self.game.board.nbr[s]
        o1, o2 = nb[d - 1], nb[(d + 1) % 8]
        b1 = o1 < 0 or o1 in self.occ or o1 in self.closed
        b2 = o2 < 0 or o2 in self.occ or o2 in self.closed
        return not (b1 and b2)

    def _step_cost(self, pc: Piece, d: int, t: int) -> int | None:
        if pc.kind == "blip":
            cost = 1
        else:
            dx, dy = DIR_VEC[d]
            fx, fy = FACE_VEC[pc.facing]
            dot = dx * fx + dy * fy
            if dot > 0:
                cost = 1
            elif dot < 0:
                cost = 2
            elif pc.kind == "marine":
                return None
            else:
                cost = 1
        if t in self.feat.rubble:
            cost += 1
        return cost

    def _can_enter(self, pc: Piece, t: int) -> bool:
        if t < 0 or t in self.occ or t in self.closed or t in self.barriers:
            return False
        if t in self.flames and (pc.sq not in self.flames or self.game.fire_module or self.game.markers):
            return False
        if pc.kind == "blip":
            if t in self.obj_at or self._adjacent_to_marine(t) or self._seen_by_marine(t):
                return False
        return True

    def _door_actions(self, pc: Piece, budget: int, out: list[Action]) -> None:
        if budget < 1:
            return
        for did, t in self.game.board.doors_near(pc.sq, -1 if pc.kind == "blip" else pc.facing):
            state = self.door_state[did]
            if state == "closed":
                if t not in self.flames and self.game.board.door_kind[did] == "door":
                    out.append(act("open", pc.id, did))
            elif state == "open" and t not in self.occ and t not in self.obj_at and t not in self.flames:
                out.append(act("close", pc.id, did))

    def _hole_moves(self, pc: Piece, budget: int, out: list[Action]) -> None:
        feat = self.feat
        s = pc.sq
        if s in feat.ladder:
            other = feat.ladder[s]
            cost = 2 if self.game.pf_ladders else 1
            if cost <= budget and self._can_enter(pc, other):
                out.append(act("climb", pc.id))
        elif s in feat.pit_up and budget >= 3 and self._can_enter(pc, feat.pit_up[s]):
            out.append(act("climb", pc.id))
        if budget >= 1:
            below = feat.pit_down.get(s)
            if below is None and self.game.pf_ladders and s in feat.ladder_top:
                below = feat.ladder[s]
            if below is not None and below >= 0 and self._can_enter(pc, below):
                out.append(act("jump", pc.id))

    def _act_move(self, pc: Piece, a: Action, reaction: bool) -> None:
        args = a.args
        d = DIR_INDEX[args[1]]
        s = pc.sq
        t = self.game.board.nbr[s][d]
        kind = pc.kind
        if kind != "marine":
            # A Genestealer's or blip's step (most actions of a game): _step_cost, _pay and _relocate inlined for
            # them (_pay takes no CP from them, reaction or not), and _entered called only when t holds something
            # it acts on (an object, a chute, flames, a hole or a ladder top).
            feat = self.feat
            if kind == "blip":
                cost = 1
            else:
                dx, dy = DIR_VEC[d]
                fx, fy = FACE_VEC[pc.facing]
                cost = 2 if dx * fx + dy * fy < 0 else 1
            if t in feat.rubble:
                cost += 1
            if pc.st == 0:
                self._end_activation()
                pc.st = 1
                self.active = pc.id
            pc.ap -= cost
            pc.acted = True
            occ = self.occ
            if s >= 0:
                del occ[s]
            pc.sq = t
            occ[t] = pc.id
            self._blip_rev += 1  # as _relocate
            traffic = self.traffic
            traffic[t] = traffic.get(t, 0) + 1
            if pc.carry:
                self._vic_rev += 1  # as _relocate
            extra = args[2] if len(args) > 2 else None
            if kind == "stealer" and extra is not None and extra != "jump":
                pc.facing = FACE_INDEX[extra]
            if t in feat.on_enter or t in self.obj_at or t in self.flames:
                self._entered(pc, t, jump=extra == "jump")
            return
        if pc.kind == "blip":
            cost = 2 if t in self.feat.rubble else 1  # _step_cost for a blip (any direction 1, rubble +1)
        else:
            cost = self._step_cost(pc, d, t) or 0
        self._pay(pc, cost, reaction)
        self._relocate(pc, t)
        extra = a.args[2] if len(a.args) > 2 else None
        if pc.kind == "marine":
            pc.free = True
        elif pc.kind == "stealer" and extra is not None and extra != "jump":
            pc.facing = FACE_INDEX[extra]
        self._entered(pc, t, jump=extra == "jump")

    def _entered(self, pc: Piece, t: int, jump: bool = False) -> None:
        """Consequences of entering a square: objects, chute, flames, pitfalls."""
        feat = self.feat
        if t in self.obj_at and pc.kind != "blip" and not pc.carry:
            pc.carry = self.obj_at.pop(t)
            self._vic_rev += 1
            self._note(f"{pc.id} picks up {pc.carry}")
        if t in feat.chutes:
            self._remove(pc, escaped="chute")
            return
        if t in self.flames:
            self._burn(pc, None)
            if pc.id not in self.p:
                return
        if t in feat.pit_down:
            if jump:
                self._drop(pc, t)
            elif pc.kind == "marine":
                if self.dice.d6() == 1:
                    self._note(f"{pc.id} falls")
                    self._drop(pc, t)
        elif t in feat.ladder_top and pc.kind == "marine" and not self.game.pf_ladders:
            if self.dice.d6() == 1:
                self._note(f"{pc.id} falls from the ladder")
                pc.ap = 0
                self._drop(pc, t, ladder_fall=True)
        elif jump and t in feat.ladder_top:
            self._drop(pc, t)

    def _drop(self, pc: Piece, t: int, ladder_fall: bool = False) -> None:
        """pc goes down the hole at t (fall or jump)."""
        below = self.feat.pit_down.get(t)
        if below is None:
            below = self.feat.ladder.get(t, -1)
        if pc.kind != "marine":
            if below < 0 or not self._free_square(below):
                return
            self._relocate(pc, below)
            if pc.kind == "stealer":
                self.stack.append(("face", pc.id, G))
            return
        if below < 0:
            self._kill(pc, None, "bottomless fall")
            return
        del self.occ[pc.sq]
        pc.sq = -2  # in the air
        self._pose_rev += 1
        if pc.carry:
            self._vic_rev += 1
        if ladder_fall:
            # [4e] falling from a ladder top: any model below dies; the Marine keeps his facing.
            occupant = self.occ.get(below)
            if occupant is not None:
                self._kill(self.p[occupant], pc.id, "crushed")
            self._place(pc, below)
            return
        self._land(pc, below)

    def _land(self, pc: Piece, below: int) -> None:
        occupant = self.occ.get(below)
        advanced = self.game.opts.falling_table == "advanced"
        if advanced:
            if occupant is not None:
                self._kill(self.p[occupant], pc.id, "landed on")
            r = self.dice.d6()
            if r == 1:
                self._place(pc, below)
                self._kill(pc, None, "fall")
                return
            self._place(pc, below)
            if r <= 5:
                pc.prone = True
                self._pose_rev += 1
                self._note(f"{pc.id} lands prone")
            else:
                self.stack.append(("face", pc.id, G))
            return
        if occupant is None:
            self._land_empty(pc, below)
            return
        q = self.p[occupant]
        if q.kind != "marine":
            r = self.dice.d6()
            opts = self._empty_adjacent(below)
            if r >= 3 and opts and q.kind == "stealer":
                self.stack.append(("landempty", pc.id, below))
                self.stack.append(("scuttle", q.id, tuple(opts)))
                return
            self._kill(q, pc.id, "landed on")
            self._place(pc, below)
            pc.prone = True
            self._pose_rev += 1
            return
        r = self.dice.d6()
        if r <= 3:
            self._kill(q, None, "landed on")
            self._place(pc, below)
            pc.prone = True
            self._pose_rev += 1
            return
        q.prone = True
        q.ow = False
        self._pose_rev += 1
        opts = self._empty_adjacent(below)
        if not opts:
            self._kill(pc, None, "fall")
            return
        pc.prone = True  # pc is in the air (off the board): not a pose until shoved down
        self.stack.append(("shove", pc.id, tuple(opts)))

    def _land_empty(self, pc: Piece, below: int) -> None:
        self._place(pc, below)
        r = self.dice.d6()
        if r <= 4:
            pc.prone = True
            pc.ow = False
            self._pose_rev += 1
            self._note(f"{pc.id} lands prone")
        else:
            self.stack.append(("face", pc.id, M))

    def _run_landempty(self, frame: tuple[Any, ...]) -> None:
        pc = self.p.get(frame[1])
        if pc is not None:
            self._land_empty(pc, frame[2])

    def _act_turn(self, pc: Piece, a: Action, reaction: bool) -> None:
        f = FACE_INDEX[a.args[1]]
        if pc.kind == "stealer":
            cost = self._stealer_turn_cost(pc, f)
            pc.free = cost == 0
        else:
            cost = 2 if (f - pc.facing) % 4 == 2 else 1
            pc.free = True
        self._pay(pc, cost, reaction)
        pc.facing = f
        if pc.kind == "marine":
            self._pose_rev += 1

    def _stealer_turn_cost(self, pc: Piece, f: int) -> int:
        """[4e] 1 AP; [2e] 90° is free (once between two paid actions, so no endless spinning), 180° 1 AP."""
        if self.game.ruleset == "classic" and (f - pc.facing) % 4 != 2 and not pc.free:
            return 0
        return 1

    def _act_stand(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 2, reaction)
        pc.prone = False
        pc.facing = FACE_INDEX[a.args[1]]
        self._pose_rev += 1

    def _act_open(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 1, reaction)
        did = a.args[1]
        self.door_state[did] = "open"
        del self.closed[self.game.board.doors[did]]

    def _act_close(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 1, reaction)
        did = a.args[1]
        self.door_state[did] = "closed"
        t = self.game.board.doors[did]
        self.closed[t] = did
        if self.phase == "stealers" and pc.kind != "marine":
            self.stack.append(("owdoorq", did))

    def _act_exit(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 1, reaction)
        self._remove(pc, escaped="exit")

    def _act_enter(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 1, reaction)
        t = self.game.board.entries[pc.entry]
        if pc.kind == "stealer":
            pc.facing = self.game.board.entry_facing[pc.entry]
        pc.entry = ""
        self._relocate(pc, t)
        self._entered(pc, t)

    def _act_climb(self, pc: Piece, a: Action, reaction: bool) -> None:
        feat = self.feat
        s = pc.sq
        if s in feat.ladder:
            t = feat.ladder[s]
            cost = 2 if (self.game.pf_ladders or pc.kind == "marine") else 1
        else:
            t = feat.pit_up[s]
            cost = 3
        self._pay(pc, cost, reaction)
        self._relocate(pc, t)
        if pc.kind == "stealer":
            self.stack.append(("face", pc.id, G))
        elif pc.kind == "marine" and self.game.pf_ladders:
            self.stack.append(("face", pc.id, M))
        if pc.kind == "marine" and t in feat.ladder_top and not self.game.pf_ladders and self.dice.d6() == 1:
            self._note(f"{pc.id} falls from the ladder")
            pc.ap = 0
            self._drop(pc, t, ladder_fall=True)
        elif t in self.obj_at and pc.kind != "blip" and not pc.carry:
            pc.carry = self.obj_at.pop(t)
            self._vic_rev += 1

    def _act_jump(self, pc: Piece, a: Action, reaction: bool) -> None:
        self._pay(pc, 1, reaction)
        self._drop(pc, pc.sq)

    def _legal_retreat(self, frame: tuple[Any, ...]) -> list[Action]:
        if frame[1] not in self.p:
            return []
        b = self.game.board
        return [act("retreat", frame[1], b.name(t)) for t in frame[2] if self._free_square(t)] + [PASS]

    def _do_retreat(self, frame: tuple[Any, ...], a: Action) -> None:
        if a.verb == "retreat":
            pc = self.p[a.args[0]]
            self._relocate(pc, self.game.board.parse_sq(a.args[1]))
            self.stack.append(("conv",))

    def _legal_scuttle(self, frame: tuple[Any, ...]) -> list[Action]:
        if frame[1] not in self.p:
            return []
        b = self.game.board
        return [act("scuttle", frame[1], b.name(t)) for t in frame[2] if self._free_square(t)]

    def _do_scuttle(self, frame: tuple[Any, ...], a: Action) -> None:
        self._relocate(self.p[a.args[0]], self.game.board.parse_sq(a.args[1]))

    def _legal_shove(self, frame: tuple[Any, ...]) -> list[Action]:
        if frame[1] not in self.p:
            return []
        b = self.game.board
        return [act("shove", frame[1], b.name(t)) for t in frame[2] if self._free_square(t)]

    def _do_shove(self, frame: tuple[Any, ...], a: Action) -> None:
        self._place(self.p[a.args[0]], self.game.board.parse_sq(a.args[1]))
        self.stack.append(("conv",))
