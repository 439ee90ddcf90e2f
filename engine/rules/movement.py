"""Movement and doors: steps, turns, holes, ladders, falls and the landing decisions."""

from __future__ import annotations

from engine.rules.actions import PASS, Action, act
from engine.rules.board import DIR_INDEX, FACE_INDEX
from engine.rules.decisions import (
    CONVERSION_CHECK,
    DoorOverwatchCheck,
    FaceDecision,
    LandOnEmpty,
    RetreatDecision,
    ScuttleDecision,
    ShoveDecision,
)
from engine.rules.fire import Fire
from engine.rules.kernel import (
    DOOR_COST,
    EXIT_COST,
    JUMP_COST,
    PIT_CLIMB_COST,
    STAND_COST,
    G,
    Kernel,
    M,
    ladder_cost,
)
from engine.rules.pieces import Piece
from engine.rules.sight import Sight
from engine.rules.verbs import LINKS
from engine.rules.victory import Victory


class Movement:
    """Movement and doors: steps, turns, holes, ladders, falls and the landing decisions."""

    def __init__(self, k: Kernel, sight: Sight, fire: Fire, victory: Victory) -> None:
        self.k = k
        self.game = k.game
        self.sight = sight
        self.fire = fire
        self.victory = victory

    def can_enter(self, pc: Piece, t: int) -> bool:
        """Piece pc may enter square t: free (no piece, closed door or barrier), no flames unless it already
        stands in them ([4e]); a Genestealer or blip never onto the ramp of a torpedo with Marines aboard; a blip
        never onto an object, next to a Marine or into a Marine's sight."""
        k = self.k
        if not k.free_square(t):
            return False
        if t in k.flames and not k.flames_open_to(pc):
            return False
        if pc.kind != "marine" and self.game.board.ramp_at and k.ramp_held(t):
            return False
        return pc.kind != "blip" or (t not in k.obj_at and self.sight.hidden_from_marines(t))

    # -- what a piece may do: the parts of the legal-action generators (legal.py) --------------------------------
    def steps(self, pc: Piece, budget: int, out: list[Action], toward: int) -> None:
        """The moves of piece pc (toward that direction only, or all when `toward` < 0): a Genestealer may end each
        with a quarter turn; a jump into a pitfall may be declared on entering it."""
        k = self.k
        s = pc.sq
        kind = pc.kind
        game = self.game
        if toward < 0:
            steps = game.steps(s, pc.facing, kind)
        else:
            steps = game.steps_toward(s, pc.facing, kind, toward)
        tab = game._moves.get(pc.id) or game.move_table(pc.id)
        feat = k.feat
        rubble, pits = feat.rubble, feat.pit_down
        can_enter = self.can_enter
        for d, t, cost in steps:
            if t in rubble:
                cost += 1
            if cost > budget or (d & 1 and not k.diag_ok(s, d)) or not can_enter(pc, t):
                continue
            i = d * 6
            if kind == "marine":
                out.append(tab[i])
                if t in pits:
                    out.append(tab[i + 5])  # a Marine may jump into any pitfall he enters
                continue
            if kind == "stealer":
                f0 = pc.facing
                out += (tab[i], tab[i + (f0 + 1) % 4 + 1], tab[i + (f0 + 3) % 4 + 1])  # ahead, right, left
            else:
                out.append(tab[i])
            below = pits.get(t, -1)
            if below >= 0 and can_enter(pc, below):
                out.append(tab[i + 5])  # jump straight through, declared on entering (no extra AP)

    def turns(self, pc: Piece, budget: int, out: list[Action]) -> None:
        turns = self.game.turn_table(pc.id)
        turn_cost = self.k.turn_cost
        for f in range(4):
            if f != pc.facing and turn_cost(pc, f) <= budget:
                out.append(turns[f])

    def door_actions(self, pc: Piece, budget: int, out: list[Action]) -> None:
        if budget < DOOR_COST:
            return
        k = self.k
        b = self.game.board
        for did, t in b.doors_near(pc.sq, -1 if pc.kind == "blip" else pc.facing):
            state = k.door_state[did]
            if state == "closed":
                if b.door_kind[did] == "door" and not self.flames_hold(t):
                    out.append(act("open", pc.id, did))
            elif state == "open" and t not in k.occ and t not in k.obj_at and t not in k.flames:
                out.append(act("close", pc.id, did))

    def flames_hold(self, t: int) -> bool:
        """The closed door on square t borders flames: [4e] it cannot be opened (from either side) until they are
        removed (they stop at the door, which is not flamed itself)."""
        flames = self.k.flames
        if not flames:
            return False
        nb = self.game.board.nbr[t]
        return t in flames or nb[0] in flames or nb[2] in flames or nb[4] in flames or nb[6] in flames

    def hole_moves(self, pc: Piece, budget: int, out: list[Action]) -> None:
        """A Genestealer's or blip's climb (ladder, or up a pitfall from below) and jump down a hole."""
        feat = self.k.feat
        s = pc.sq
        if s in feat.ladder:
            other = feat.ladder[s]
            if ladder_cost(pc.kind, self.game.pf_ladders) <= budget and self.can_enter(pc, other):
                out.append(act("climb", pc.id))
        elif s in feat.pit_up and budget >= PIT_CLIMB_COST and self.can_enter(pc, feat.pit_up[s]):
            out.append(act("climb", pc.id))
        if budget >= JUMP_COST:
            below = feat.pit_down.get(s)
            if below is None and self.game.pf_ladders and s in feat.ladder_top:
                below = feat.ladder[s]
            if below is not None and below >= 0 and self.can_enter(pc, below):
                out.append(act("jump", pc.id))

    def enter(self, pc: Piece, out: list[Action]) -> None:
        """A lurking blip or Genestealer steps onto its entry area's square (not while held back this turn)."""
        if not pc.lock and self.can_enter(pc, self.game.board.entries[pc.entry]):
            out.append(act("enter", pc.id))

    def disembark(self, pc: Piece, budget: int, out: list[Action]) -> None:
        """A Marine aboard a boarding torpedo comes out onto its ramp (1 AP) when the ramp is free of pieces,
        doors, barriers and flames."""
        t = self.game.board.ramps[pc.entry]
        if budget >= 1 and self.k.free_square(t) and t not in self.k.flames:
            out.append(act("enter", pc.id))

    def marine_exit(self, pc: Piece, budget: int, out: list[Action]) -> None:
        if budget >= EXIT_COST and pc.sq in self.game.board.exit_at:
            out.append(self.game.order_table(pc.id)["exit"])

    def marine_climb(self, pc: Piece, budget: int, out: list[Action]) -> None:
        """A Marine climbs his ladder (2 AP) to a free other end without flames."""
        k = self.k
        other = k.feat.ladder.get(pc.sq)
        if (
            other is not None
            and budget >= ladder_cost(pc.kind, self.game.pf_ladders)
            and k.free_square(other)
            and other not in k.flames
        ):
            out.append(self.game.order_table(pc.id)["climb"])

    def link_moves(self, verb: str, pc: Piece, budget: int, out: list[Action]) -> None:
        """Any piece on a square of a link's feature (a turbo-lift entrance) moves to another square of it that it
        may enter, for the link's cost (engine/rules/verbs.py, Link)."""
        stops = self.k.feat.links[verb].get(pc.sq)
        if stops is None or budget < LINKS[verb].cost:
            return
        for name, t in stops:
            if self.can_enter(pc, t):
                out.append(act(verb, pc.id, name))

    def marine_jump(self, pc: Piece, budget: int, out: list[Action]) -> None:
        """A Marine jumps down the pitfall he stands on ([PF] or a ladder hole) for 1 AP."""
        feat = self.k.feat
        s = pc.sq
        if budget >= JUMP_COST and (s in feat.pit_down or (s in feat.ladder_top and self.game.pf_ladders)):
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

    # -- applying moves -------------------------------------------------------------------------------------
    def act_move(self, pc: Piece, a: Action, reaction: bool) -> None:
        k = self.k
        args = a.args
        d = DIR_INDEX[args[1]]
        t = self.game.board.nbr[pc.sq][d]
        k.pay(pc, k.step_cost(pc, d, t) or 0, reaction)
        k.move(pc, t)
        extra = args[2] if len(args) > 2 else None
        if pc.kind == "marine":
            pc.free = True
        elif pc.kind == "stealer" and extra is not None and extra != "jump":
            k.set_pose(pc, facing=FACE_INDEX[extra])
        if t in k.feat.on_enter or t in k.obj_at or t in k.flames:  # (most squares hold nothing that acts)
            self.entered(pc, t, jump=extra == "jump")

    def entered(self, pc: Piece, t: int, jump: bool = False) -> None:
        """Consequences of entering a square: objects, chute, flames, pitfalls."""
        k = self.k
        feat = k.feat
        if t in k.obj_at and pc.kind != "blip" and not pc.carry:
            k.pick_up(pc, t)
            k.note(f"{pc.id} picks up {pc.carry}")
        if t in feat.chutes:
            self.victory.take_off(pc, "chute")
            return
        if t in k.flames:
            self.fire.burn(pc, None)
            if pc.id not in k.p:
                return
        if t in feat.pit_down:
            if jump:
                self.drop(pc, t)
            elif pc.kind == "marine":
                if self.k.dice.d6() == 1:
                    k.note(f"{pc.id} falls")
                    self.drop(pc, t)
        elif t in feat.ladder_top and pc.kind == "marine" and not self.game.pf_ladders:
            if self.k.dice.d6() == 1:
                k.note(f"{pc.id} falls from the ladder")
                pc.ap = 0
                self.drop(pc, t, ladder_fall=True)
        elif jump and t in feat.ladder_top:
            self.drop(pc, t)

    def drop(self, pc: Piece, t: int, ladder_fall: bool = False) -> None:
        """pc goes down the hole at t (fall or jump)."""
        k = self.k
        feat = k.feat
        below = feat.pit_down.get(t)
        if below is None:
            below = feat.ladder.get(t, -1)
        if pc.kind != "marine":
            if below < 0 or not k.free_square(below):
                return
            k.move(pc, below)
            if pc.kind == "stealer":
                k.stack.append(FaceDecision(pc.id, G))
            return
        if below < 0:
            self.victory.kill(pc, None, "bottomless fall")
            return
        k.lift(pc)
        if ladder_fall:
            # [4e] falling from a ladder top: any model below dies; the Marine keeps his facing.
            occupant = k.occ.get(below)
            if occupant is not None:
                self.victory.kill(k.p[occupant], pc.id, "crushed")
            k.place(pc, below)
            return
        self.land(pc, below)

    def land(self, pc: Piece, below: int) -> None:
        k = self.k
        occupant = k.occ.get(below)
        if self.game.opts.falling_table == "advanced":
            if occupant is not None:
                self.victory.kill(k.p[occupant], pc.id, "landed on")
            r = self.k.dice.d6()
            k.place(pc, below)
            if r == 1:
                self.victory.kill(pc, None, "fall")
                return
            if r <= 5:
                k.set_pose(pc, prone=True)
                k.note(f"{pc.id} lands prone")
            else:
                k.stack.append(FaceDecision(pc.id, G))
            return
        if occupant is None:
            self.land_empty(pc, below)
            return
        q = k.p[occupant]
        if q.kind != "marine":
            r = self.k.dice.d6()
            opts = k.empty_adjacent(below)
            if r >= 3 and opts and q.kind == "stealer":
                k.stack.append(LandOnEmpty(pc.id, below))
                k.stack.append(ScuttleDecision(q.id, tuple(opts)))
                return
            self.victory.kill(q, pc.id, "landed on")
            k.place(pc, below)
            k.set_pose(pc, prone=True)
            return
        r = self.k.dice.d6()
        if r <= 3:
            self.victory.kill(q, None, "landed on")
            k.place(pc, below)
            k.set_pose(pc, prone=True)
            return
        q.ow = False
        k.set_pose(q, prone=True)
        opts = k.empty_adjacent(below)
        if not opts:
            self.victory.kill(pc, None, "fall")
            return
        pc.prone = True  # pc is in the air (off the board): not a pose until shoved down
        k.stack.append(ShoveDecision(pc.id, tuple(opts)))

    def land_empty(self, pc: Piece, below: int) -> None:
        k = self.k
        k.place(pc, below)
        r = self.k.dice.d6()
        if r <= 4:
            pc.ow = False
            k.set_pose(pc, prone=True)
            k.note(f"{pc.id} lands prone")
        else:
            k.stack.append(FaceDecision(pc.id, M))

    def run_land_on_empty(self, frame: LandOnEmpty) -> None:
        pc = self.k.p.get(frame.marine)
        if pc is not None:
            self.land_empty(pc, frame.square)

    def act_turn(self, pc: Piece, a: Action, reaction: bool) -> None:
        k = self.k
        f = FACE_INDEX[a.args[1]]
        cost = k.turn_cost(pc, f)
        # A Marine's turn earns a free shot; a Genestealer's free quarter turn ([2e]) is had once between two paid
        # actions.
        pc.free = pc.kind == "marine" or cost == 0
        k.pay(pc, cost, reaction)
        k.set_pose(pc, facing=f)

    def act_stand(self, pc: Piece, a: Action, reaction: bool) -> None:
        self.k.pay(pc, STAND_COST, reaction)
        self.k.set_pose(pc, facing=FACE_INDEX[a.args[1]], prone=False)

    def act_open(self, pc: Piece, a: Action, reaction: bool) -> None:
        self.k.pay(pc, DOOR_COST, reaction)
        self.k.set_door(a.args[1], "open")

    def act_close(self, pc: Piece, a: Action, reaction: bool) -> None:
        k = self.k
        k.pay(pc, DOOR_COST, reaction)
        did = a.args[1]
        k.set_door(did, "closed")
        if k.phase == "stealers" and pc.kind != "marine":
            k.stack.append(DoorOverwatchCheck(did))

    def act_exit(self, pc: Piece, a: Action, reaction: bool) -> None:
        self.k.pay(pc, EXIT_COST, reaction)
        self.victory.take_off(pc, "exit")

    def act_enter(self, pc: Piece, a: Action, reaction: bool) -> None:
        k = self.k
        k.pay(pc, 1, reaction)
        b = self.game.board
        if pc.kind == "marine":  # out of a boarding torpedo, facing away from it
            t = b.ramps[pc.entry]
            pc.facing = b.ramp_facing[pc.entry]
        else:
            t = b.entries[pc.entry]
        if pc.kind == "stealer":
            pc.facing = b.entry_facing[pc.entry]
        pc.entry = ""
        k.move(pc, t)
        self.entered(pc, t)

    def act_climb(self, pc: Piece, a: Action, reaction: bool) -> None:
        k = self.k
        feat = k.feat
        s = pc.sq
        if s in feat.ladder:
            t = feat.ladder[s]
            cost = ladder_cost(pc.kind, self.game.pf_ladders)
        else:
            t = feat.pit_up[s]
            cost = PIT_CLIMB_COST
        k.pay(pc, cost, reaction)
        k.move(pc, t)
        if pc.kind == "stealer":
            k.stack.append(FaceDecision(pc.id, G))
        elif pc.kind == "marine" and self.game.pf_ladders:
            k.stack.append(FaceDecision(pc.id, M))
        if pc.kind == "marine" and t in feat.ladder_top and not self.game.pf_ladders and self.k.dice.d6() == 1:
            k.note(f"{pc.id} falls from the ladder")
            pc.ap = 0
            self.drop(pc, t, ladder_fall=True)
        elif t in k.obj_at and pc.kind != "blip" and not pc.carry:
            k.pick_up(pc, t)

    def act_link(self, verb: str, pc: Piece, a: Action, reaction: bool) -> None:
        """The piece comes out on the square named, facing as it did; a model there picks up the object lying on
        it, as a step would."""
        k = self.k
        name = a.args[1]
        t = next(t for n, t in k.feat.links[verb][pc.sq] if n == name)
        k.pay(pc, LINKS[verb].cost, reaction)
        k.move(pc, t)
        if t in k.obj_at and pc.kind != "blip" and not pc.carry:
            k.pick_up(pc, t)

    def act_jump(self, pc: Piece, a: Action, reaction: bool) -> None:
        self.k.pay(pc, JUMP_COST, reaction)
        self.drop(pc, pc.sq)

    def act_drop(self, pc: Piece, a: Action, reaction: bool) -> None:
        k = self.k
        if pc.sq not in k.obj_at:
            k.note(f"{pc.id} drops {pc.carry}")
            k.drop_object(pc)

    def act_give(self, pc: Piece, a: Action, reaction: bool) -> None:
        k = self.k
        k.pay(pc, 1, reaction)
        k.give_object(pc, k.p[a.args[1]])

    def retreat_options(self, frame: RetreatDecision) -> list[Action]:
        k = self.k
        if frame.marine not in k.p:
            return []
        b = self.game.board
        return [act("retreat", frame.marine, b.name(t)) for t in frame.squares if k.free_square(t)] + [PASS]

    def answer_retreat(self, frame: RetreatDecision, a: Action) -> None:
        if a.verb == "retreat":
            k = self.k
            k.move(k.p[a.args[0]], self.game.board.parse_sq(a.args[1]))
            k.stack.append(CONVERSION_CHECK)

    def scuttle_options(self, frame: ScuttleDecision) -> list[Action]:
        k = self.k
        if frame.genestealer not in k.p:
            return []
        b = self.game.board
        return [act("scuttle", frame.genestealer, b.name(t)) for t in frame.squares if k.free_square(t)]

    def answer_scuttle(self, frame: ScuttleDecision, a: Action) -> None:
        self.k.move(self.k.p[a.args[0]], self.game.board.parse_sq(a.args[1]))

    def shove_options(self, frame: ShoveDecision) -> list[Action]:
        k = self.k
        if frame.marine not in k.p:
            return []
        b = self.game.board
        return [act("shove", frame.marine, b.name(t)) for t in frame.squares if k.free_square(t)]

    def answer_shove(self, frame: ShoveDecision, a: Action) -> None:
        k = self.k
        k.place(k.p[a.args[0]], self.game.board.parse_sq(a.args[1]))
        k.stack.append(CONVERSION_CHECK)
