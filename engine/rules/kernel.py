"""The kernel of one game: all its data (where the pieces stand, the doors, flames and objects, the blip pile, the
AP/CP economy, the turn and the pending decisions), and the only code that changes the position.

Every other module reads the kernel's data freely but changes the position only through its mutators (`add`,
`place`, `move`, `lift`, `set_pose`, `remove`, `set_door`, the flame, barrier and object methods). The mutators
alone move the change counters, and every cache of the rules lives here, keyed on those counters:

- `pose_rev` moves whenever a Marine's square, facing or prone flag changes or a Marine leaves the board: the
  Marines' sight (`sight_cache`, valid while `sight_rev == pose_rev`) is kept from call to call.
- `blip_rev` moves whenever a blip or Genestealer is put on a square or a blip leaves one: the blips' squares
  (`blip_squares`, for the conversion check) are kept while it stands still.
- `vic_rev` moves whenever something a victory condition reads changes (a piece removed, an object picked up,
  dropped or given, a carrier moved, a section flamed): a check that found no winner (`vic_clean`) is not
  repeated until it moves.
- `version` counts decisions (GameState.apply moves it); the per-decision memo (`scope()`: sight answers, legal
  lists) belongs to one version. A version that no apply made (`settled`) means hand edits: `forget()`.
- `sustained` is False only while no Marine has a sustained-fire target (`set_sustained` sets it): a blip's
  action then has none to clear.

The rule predicates that read only the position are defined here once (`free_square`, `diag_ok`, `step_cost`,
`turn_cost`, `may_act_in_fire`, `ap_budget`) and used by the legal-move generators, apply and the players alike;
`diag_ok` asks the diagonal rule itself of engine.mission.diagonal, which the mission's reachability check shares.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final, Literal

from engine.mission.diagonal import diagonal_step_allowed
from engine.rules.board import DIR_VEC, FACE_INDEX, FACE_VEC
from engine.rules.features import draw_features
from engine.rules.pieces import Piece

if TYPE_CHECKING:
    from engine.rules.actions import Action
    from engine.rules.decisions import Frame
    from engine.rules.dice import Dice
    from engine.rules.features import Features
    from engine.rules.game import Game
    from engine.rules.pieces import Death, GameResult
    from engine.rules.sight import MarineSight

M: Final = "marines"
G: Final = "genestealers"
Player = Literal["marines", "genestealers"]
MARINE_AP, STEALER_AP, BLIP_AP = 4, 6, 6
BLIP_POOL_VALUES = {1: 9, 2: 4, 3: 9}
GUNS = frozenset({"storm_bolter", "assault_cannon"})


class Scope:
    """What the rules worked out for one decision (one state version), while nothing moves: a player's questions
    and apply's check share it. Made afresh by Kernel.scope() when the version has moved on."""

    __slots__ = ("legal", "ok", "own", "parts", "seen", "sight", "version")

    def __init__(self, version: int) -> None:
        self.version = version
        self.seen: dict[int, bool] = {}  # square -> some Marine sees it (Sight.seen_by_marine)
        self.sight: MarineSight | None = None  # the Marines' sight for this version (Sight.current)
        self.legal: list[Action] | None = None  # the decision's whole list
        self.own: dict[str, list[Action]] = {}  # piece id -> its own actions (an action phase)
        self.parts: dict[tuple[str, str, int], list[Action]] = {}  # (piece, verb, direction) -> those actions
        self.ok: Action | None = None  # the last action found legal (apply takes that answer)


_NO_SCOPE = Scope(-1)


class Kernel:
    """The mutable data of one game in progress, its mutators, change counters and caches."""

    __slots__ = (
        "_scope",
        "activations",
        "active",
        "alpha_used",
        "barriers",
        "blip_rev",
        "blip_squares",
        "blip_value",
        "cap",
        "closed",
        "cp",
        "cp_start",
        "deaths",
        "dice",
        "door_state",
        "escaped",
        "escaped_via",
        "feat",
        "flamed_sections",
        "flames",
        "fx",
        "game",
        "limited_left",
        "obj_at",
        "objective_carried_to",
        "occ",
        "p",
        "phase",
        "pile",
        "pose_rev",
        "psi",
        "psi_used",
        "result",
        "seq",
        "settled",
        "setup_order",
        "setup_placed",
        "sight_cache",
        "sight_rev",
        "stack",
        "sustained",
        "traffic",
        "turn",
        "used",
        "version",
        "vic_clean",
        "vic_rev",
    )

    game: Game
    dice: Dice
    feat: Features
    p: dict[str, Piece]  # every piece in play, in order of creation (the conversion check reads that order)
    occ: dict[int, str]  # square -> id of the piece on it
    closed: dict[int, str]  # square -> id of the closed door on it
    door_state: dict[str, str]  # door id -> open / closed / destroyed
    flames: dict[int, int]  # square -> flamer markers or fire layers on it
    barriers: dict[int, int]  # squares of the Archivist's force barriers
    obj_at: dict[int, str]  # square -> id of the object lying on it
    traffic: dict[int, int]  # square -> how many times Genestealers and blips entered it
    flamed_sections: dict[tuple[int, str], int]  # (level, section) flamed this game
    escaped: list[str]
    escaped_via: dict[str, str]  # Marine id -> "exit" / "chute"
    objective_carried_to: dict[str, str]  # objective id -> "exit:ID" it left by
    deaths: list[Death]
    pile: list[int]  # blip values face down, the next drawn last
    blip_value: dict[str, int]  # blip id -> its value, hidden from the Marines (observation.py)
    used: list[int]  # blips revealed or removed (reshuffled into the pile when it runs out)
    limited_left: int | None  # what a limited pool ([4e] missions) may still give, in its unit
    alpha_used: bool
    seq: int  # the last number given to a new Genestealer or blip id
    setup_order: list[int]  # [PF] the counters' order, shuffled face down (players' set-up)
    setup_placed: dict[int, int]  # [PF] square -> index into setup_order of the counter placed there
    cp: int
    cp_start: int
    psi: int
    psi_used: bool
    active: str | None  # the piece whose activation is running
    activations: int  # fresh Marine activations this turn
    cap: int | None  # marine_activation_cap: at most this many fresh Marine activations a turn
    turn: int
    phase: str  # setup | marines | stealers
    stack: list[Frame]  # pending decisions and steps (decisions.py), the next on top
    result: GameResult | None
    fx: list[str]  # the effects of the action being applied, in words
    pose_rev: int
    blip_rev: int
    vic_rev: int
    version: int
    settled: int  # the version apply left (a different one: edited by hand)
    sight_cache: MarineSight | None  # the Marines' sight at sight_rev (shared by copies: immutable)
    sight_rev: int
    blip_squares: tuple[int, frozenset[int], dict[int, bool]] | None  # at blip_rev: squares, per pose: any seen
    vic_clean: int  # the vic_rev of the last victory check that found no winner
    sustained: bool  # False only while no Marine has a sustained-fire target (set_sustained sets it)
    _scope: Scope

    def __init__(self, game: Game, dice: Dice, rng: random.Random | None) -> None:
        """The position at the start of a game: the squad deployed, doors and objects as the mission sets them;
        this game's features, blip pile and (players' set-up) counter order drawn from rng, in that order; every
        die of the game rolled with `dice`. rng None: an empty kernel that copy() fills in."""
        self.game = game
        self.dice = dice
        if rng is None:
            return
        b = game.board
        mission = game.mission
        players_setup = mission.random_setup is not None and game.opts.random_setup == "players"
        self.feat = game._static_features or draw_features(game, None if players_setup else rng)
        self.p = {}
        self.occ = {}
        self.closed = {}
        self.door_state = {}
        for d in mission.doors:
            self.door_state[d.id] = d.state
            if d.state == "closed":
                self.closed[b.doors[d.id]] = d.id
        self.flames = {}
        self.barriers = {}
        self.obj_at = {}
        for o in mission.objectives:
            if o.kind == "object":
                self.obj_at[b.sq_of(o.level, o.x, o.y)] = o.id
        self.traffic = {}
        self.flamed_sections = {}
        self.escaped = []
        self.escaped_via = {}
        self.objective_carried_to = {}
        self.deaths = []
        gs = mission.genestealers
        pool = gs.pool or BLIP_POOL_VALUES
        self.pile = [v for v in sorted(pool) for _ in range(pool[v])]
        rng.shuffle(self.pile)
        self.blip_value = {}
        self.used = []
        self.limited_left = gs.limited.total if gs.limited else None
        self.alpha_used = False
        self.seq = 0
        self.setup_order = []
        self.setup_placed = {}
        if players_setup and mission.random_setup is not None:
            # [PF] the counters are shuffled face down and placed alternately by the players (Marines first).
            self.setup_order = list(range(len(mission.random_setup.counters)))
            rng.shuffle(self.setup_order)
        self.cp = self.cp_start = 0
        self.psi = mission.marines.psi_points
        self.psi_used = False
        self.active = None
        self.activations = 0
        self.cap = game.opts.marine_activation_cap
        self.turn = 1
        self.phase = "setup"
        self.stack = []
        self.result = None
        self.fx = []
        self.pose_rev = self.blip_rev = self.vic_rev = 0
        self.version = self.settled = 0
        self.sight_cache = None
        self.sight_rev = -1
        self.blip_squares = None
        self.vic_clean = -1
        self.sustained = False
        self._scope = _NO_SCOPE
        for mm in mission.marines.squad:
            pc = Piece(mm.id, "marine")
            pc.facing = FACE_INDEX[mm.facing]
            pc.rank, pc.ranged, pc.melee, pc.shield = mm.rank, mm.ranged, mm.melee, mm.storm_shield
            if pc.ranged == "assault_cannon":
                pc.ammo = game.opts.assault_cannon_shots
            elif pc.ranged == "heavy_flamer":
                pc.ammo = game.opts.flamer_shots
            self.add(pc)
            sq = b.sq_of(mm.level, mm.x, mm.y)
            aboard = next((tid for tid, ramp in b.ramps.items() if ramp == sq), None)
            if aboard is None:
                self.place(pc, sq)
            else:  # listed on a boarding torpedo's ramp: he starts aboard (docs/RULES.md, 15)
                pc.entry = aboard

    def copy(self) -> Kernel:
        """An independent copy: pieces and containers copied, the game's tables and the immutable caches shared;
        no per-decision memo (a scope belongs to one state)."""
        k = Kernel(self.game, self.dice.copy(), None)
        k.feat = self.feat
        k.p = {pid: pc.copy() for pid, pc in self.p.items()}
        k.occ, k.closed, k.door_state = self.occ.copy(), self.closed.copy(), self.door_state.copy()
        k.flames, k.barriers, k.obj_at = self.flames.copy(), self.barriers.copy(), self.obj_at.copy()
        k.traffic, k.flamed_sections = self.traffic.copy(), self.flamed_sections.copy()
        k.escaped, k.escaped_via = self.escaped.copy(), self.escaped_via.copy()
        k.objective_carried_to, k.deaths = self.objective_carried_to.copy(), self.deaths.copy()
        k.pile, k.used, k.limited_left = self.pile.copy(), self.used.copy(), self.limited_left
        k.blip_value = self.blip_value.copy()
        k.alpha_used, k.seq = self.alpha_used, self.seq
        k.setup_order, k.setup_placed = self.setup_order.copy(), self.setup_placed.copy()
        k.cp, k.cp_start, k.psi, k.psi_used = self.cp, self.cp_start, self.psi, self.psi_used
        k.active, k.activations, k.turn, k.phase = self.active, self.activations, self.turn, self.phase
        k.cap = self.cap
        k.stack, k.result, k.fx = self.stack.copy(), self.result, self.fx.copy()
        k.pose_rev, k.blip_rev, k.vic_rev = self.pose_rev, self.blip_rev, self.vic_rev
        k.version, k.settled = self.version, self.settled
        k.sight_cache, k.sight_rev, k.vic_clean = self.sight_cache, self.sight_rev, self.vic_clean
        k.blip_squares = self.blip_squares  # per-pose answers depend on the fixed tables only: shared
        k.sustained = self.sustained
        k._scope = _NO_SCOPE
        return k

    # -- caches -------------------------------------------------------------------------------------------
    def scope(self) -> Scope:
        """The memo of this decision (emptied when the version moved on: one Scope serves a state throughout)."""
        sc = self._scope
        if sc.version != self.version:
            if sc is _NO_SCOPE:
                sc = self._scope = Scope(self.version)
            else:
                sc.version = self.version
                sc.sight = sc.legal = sc.ok = None
                if sc.seen:
                    sc.seen.clear()
                if sc.own:
                    sc.own.clear()
                if sc.parts:
                    sc.parts.clear()
        return sc

    def scoped(self) -> Scope | None:
        """The memo of this decision if one is open, else None (inside apply, where things move)."""
        sc = self._scope
        return sc if sc.version == self.version else None

    def forget(self) -> None:
        """The position was edited by hand (not through the mutators): trust no kept answer."""
        self.sight_rev = self.vic_clean = -1
        self.blip_squares = None
        self.sustained = True
        self._scope = _NO_SCOPE

    # -- the position's mutators ----------------------------------------------------------------------------
    def add(self, pc: Piece, value: int = 0) -> None:
        """A new piece in play, off the board (lurking, or about to be placed); a blip with its `value`."""
        self.p[pc.id] = pc
        if pc.kind == "blip":
            self.blip_value[pc.id] = value

    def place(self, pc: Piece, t: int) -> None:
        """Put piece pc, off the board or in the air, on square t; a model picks up the object lying there."""
        pc.sq = t
        self.occ[t] = pc.id
        if pc.kind == "marine":
            self.pose_rev += 1
        else:
            self.blip_rev += 1
        if t in self.obj_at and pc.kind != "blip" and not pc.carry:
            pc.carry = self.obj_at.pop(t)
        if pc.carry:
            self.vic_rev += 1

    def move(self, pc: Piece, t: int) -> None:
        """Move piece pc from its square (or from off the board) to square t; Genestealers' and blips' entries are
        counted in `traffic`."""
        occ = self.occ
        if pc.sq >= 0:
            del occ[pc.sq]
        pc.sq = t
        occ[t] = pc.id
        if pc.kind != "marine":
            self.blip_rev += 1
            traffic = self.traffic
            traffic[t] = traffic.get(t, 0) + 1
        else:
            self.pose_rev += 1
        if pc.carry:
            self.vic_rev += 1  # "objective carried to a square" reads where the carrier stands

    def lift(self, pc: Piece) -> None:
        """Take Marine pc off his square into the air (falling down a hole)."""
        del self.occ[pc.sq]
        pc.sq = -2
        self.pose_rev += 1
        if pc.carry:
            self.vic_rev += 1

    def set_pose(self, pc: Piece, facing: int | None = None, prone: bool | None = None) -> None:
        """Turn piece pc and/or lay it prone or stand it up."""
        if facing is not None:
            pc.facing = facing
        if prone is not None:
            pc.prone = prone
        if pc.kind == "marine":
            self.pose_rev += 1

    def remove(self, pc: Piece, escaped: str | None = None) -> None:
        """Take piece pc out of play: killed (escaped None: a carried object drops on its square), converted, or
        escaped by the exit or the chute (`escaped`)."""
        self.vic_rev += 1  # p, escapes and carried objects change: every victory condition may read them
        if pc.kind == "blip":
            self.blip_rev += 1
            del self.blip_value[pc.id]
        elif pc.kind == "marine":
            self.pose_rev += 1
        sq = pc.sq
        if sq >= 0:
            self.occ.pop(sq, None)
            if pc.carry:
                if escaped is None:
                    if sq not in self.obj_at:
                        self.obj_at[sq] = pc.carry
                elif escaped == "exit":
                    self.objective_carried_to[pc.carry] = "exit:" + self.game.board.exit_at.get(sq, "")
        del self.p[pc.id]
        if self.active == pc.id:
            self.active = None
        if escaped is not None and pc.kind == "marine":
            self.escaped.append(pc.id)
            self.escaped_via[pc.id] = escaped
            self.note(f"{pc.id} escapes by the {escaped}")

    def set_door(self, did: str, state: str) -> None:
        """Open, close or destroy door `did`."""
        self.door_state[did] = state
        t = self.game.board.doors[did]
        if state == "closed":
            self.closed[t] = did
        else:
            self.closed.pop(t, None)

    def lay_flames(self, squares: list[int], layers: int) -> None:
        """Flames on `squares`: new fire on old keeps the longer of the two."""
        flames = self.flames
        for sq in squares:
            flames[sq] = max(flames.get(sq, 0), layers)

    def add_flame_marker(self, t: int) -> None:
        """[2e] one more flamer marker on square t."""
        self.flames[t] = self.flames.get(t, 0) + 1

    def burn_down_flames(self) -> None:
        """One marker or layer less on every flamed square."""
        left = {t: n - 1 for t, n in self.flames.items() if n > 1}
        self.flames.clear()
        self.flames.update(left)

    def clear_flames(self) -> None:
        self.flames.clear()

    def clear_barriers(self) -> None:
        self.barriers.clear()

    def mark_flamed(self, t: int) -> None:
        """Square t's section has been flamed (victory conditions read it)."""
        b = self.game.board
        self.flamed_sections[(t // b.plane, b.section[t] or "")] = 1
        self.vic_rev += 1

    def add_barrier(self, t: int) -> None:
        self.barriers[t] = 1

    def pick_up(self, pc: Piece, t: int) -> None:
        """Model pc picks up the object on square t."""
        pc.carry = self.obj_at.pop(t)
        self.vic_rev += 1

    def drop_object(self, pc: Piece) -> None:
        """Model pc puts down what it carries on its square."""
        self.obj_at[pc.sq] = pc.carry
        pc.carry = ""
        self.vic_rev += 1

    def give_object(self, pc: Piece, other: Piece) -> None:
        other.carry, pc.carry = pc.carry, ""
        self.vic_rev += 1

    def set_sustained(self, m: Piece, target: str) -> None:
        """Marine m's next shot at `target` is sustained (until he or another Genestealer does something else)."""
        m.sus = target
        self.sustained = True

    def clear_sustained(self) -> None:
        """Another Genestealer acted: no Marine keeps a sustained-fire target."""
        if self.sustained:
            for pc in self.p.values():
                if pc.kind == "marine":
                    pc.sus = ""
            self.sustained = False

    def redraw_hidden(self, player: Player, rng: random.Random) -> None:
        """Draw again, from rng, what `player` cannot know (a look-ahead copy's determinization): for the Marines
        the values of the blips in play together with the pile (the same values, dealt again), for the Genestealers
        the pile's order; for both, during the players' Pitfall set-up, the order of the face-down counters.
        What is dealt is sorted first, so the deal is a function of the seed and of what the player knows only
        (not of the hidden order it replaces)."""
        if player == M:
            ids = list(self.blip_value)
            values = sorted([self.blip_value[pid] for pid in ids] + self.pile)
            rng.shuffle(values)
            self.blip_value.update(zip(ids, values, strict=False))
            self.pile[:] = values[len(ids):]
        else:
            self.pile.sort()
            rng.shuffle(self.pile)
        if self.setup_order and self.phase == "setup":
            self.setup_order.sort()
            rng.shuffle(self.setup_order)

    # -- notes ----------------------------------------------------------------------------------------------
    def note(self, text: str) -> None:
        """One effect of the action being applied, for the event log."""
        self.fx.append(text)

    # -- position predicates -----------------------------------------------------------------------------------
    def free_square(self, t: int) -> bool:
        """Square t is on the board and holds no piece, closed door or barrier."""
        return t >= 0 and t not in self.occ and t not in self.closed and t not in self.barriers

    def ramp_held(self, t: int) -> bool:
        """Square t is the ramp of a boarding torpedo that still holds a Marine: no Genestealer or blip may move
        or be placed onto it (docs/RULES.md, 15)."""
        tid = self.game.board.ramp_at.get(t)
        return tid is not None and any(pc.entry == tid and pc.kind == "marine" for pc in self.p.values())

    def diag_ok(self, s: int, d: int) -> bool:
        """A step from s toward d is not a diagonal squeezed between two blocked squares (a wall or model each)."""
        if not d & 1:
            return True
        nb = self.game.board.nbr[s]
        o1, o2 = nb[d - 1], nb[(d + 1) & 7]
        occ, closed = self.occ, self.closed
        return diagonal_step_allowed(o1 < 0 or o1 in occ or o1 in closed, o2 < 0 or o2 in occ or o2 in closed)

    def step_cost(self, pc: Piece, d: int, t: int, facing: int | None = None) -> int | None:
        """AP for piece pc to step toward direction d onto square t (facing `facing`, by default its own): blips 1
        any way; models 1 forward, 2 back, Genestealers 1 sideways (Marines never); rubble +1. None: not allowed."""
        cost = STEP_COST[pc.kind][pc.facing if facing is None else facing][d]
        if cost is None:
            return None
        return cost + 1 if t in self.feat.rubble else cost

    def turn_cost(self, pc: Piece, f: int) -> int:
        """AP for piece pc to turn to face f: Marines 1 a quarter, 2 about; Genestealers 1 ([2e] a quarter turn is
        free, once between two paid actions, so no endless spinning)."""
        about = (f - pc.facing) % 4 == 2
        if pc.kind == "marine":
            return 2 if about else 1
        if self.game.ruleset == "classic" and not about and not pc.free:
            return 0
        return 1

    def may_act_in_fire(self, pc: Piece) -> bool:
        """[AE-F] a unit standing in a lasting fire may only step out of it (no other action)."""
        return not (self.game.fire_module and pc.sq in self.flames)

    def flames_open_to(self, pc: Piece) -> bool:
        """[4e] a piece already standing in the flamer's section may step onto other flamed squares of it (not
        into lasting fire [AE-F] nor onto [2e] markers)."""
        game = self.game
        return pc.sq in self.flames and not game.fire_module and not game.markers

    def cp_only(self, pc: Piece, reaction: bool) -> bool:
        """Marine pc's actions are paid with command points alone now: a reaction, his activation is over, or the
        fresh activations this turn are used up (marine_activation_cap)."""
        if reaction or pc.st == 2:
            return True
        cap = self.cap
        return pc.st == 0 and cap is not None and self.activations >= cap

    def ap_budget(self, pc: Piece, cp: int | None = None, reaction: bool = False) -> int:
        """What piece pc may spend now: a Marine his AP and the command points (`cp`: the player's share of them,
        by default all), or the command points alone (cp_only); a Genestealer or blip its AP until done."""
        if pc.kind != "marine":
            return pc.ap if pc.st != 2 else 0
        if cp is None:
            cp = self.cp
        return cp if self.cp_only(pc, reaction) else pc.ap + cp

    def pay(self, pc: Piece, cost: int, reaction: bool) -> None:
        """Spend `cost` of piece pc's budget (its AP first, then CP), activating it if it was fresh."""
        if pc.kind == "marine":
            if self.cp_only(pc, reaction):
                self.cp -= cost
                if cost:
                    self.note(f"{cost} CP")
                return
            if pc.st == 0:
                self.end_activation()
                pc.st = 1
                self.active = pc.id
                self.activations += 1
            from_ap = min(pc.ap, cost)
            pc.ap -= from_ap
            if cost - from_ap:
                self.cp -= cost - from_ap
                self.note(f"{cost - from_ap} CP")
            return
        if pc.st == 0:
            self.end_activation()
            pc.st = 1
            self.active = pc.id
        pc.ap -= cost
        pc.acted = True

    def end_activation(self) -> None:
        """The running activation ends: its piece is done for the turn."""
        if self.active is not None:
            pc = self.p.get(self.active)
            if pc is not None:
                pc.st = 2
                pc.free = False
            self.active = None

    # -- small readings ---------------------------------------------------------------------------------------
    def front(self, pc: Piece) -> int:
        """The square in front of piece pc (-1: wall)."""
        return self.game.board.nbr[pc.sq][pc.facing * 2]

    def new_id(self, prefix: str) -> str:
        """A fresh piece id ("g12", "b13"): pieces are numbered in order of appearance."""
        self.seq += 1
        return f"{prefix}{self.seq}"

    def stealer_count(self) -> int:
        return sum(1 for pc in self.p.values() if pc.kind == "stealer")

    def empty_adjacent(self, s: int) -> list[int]:
        """Free squares without flames next to s, then those above or below it through a hole."""
        flames = self.flames
        res = [t for t in self.game.board.nbr[s] if self.free_square(t) and t not in flames]
        res.extend(t for t in self.feat.through(s) if self.free_square(t) and t not in flames)
        return res


# AP of the actions that move a piece without a step (Movement lists and applies them; players rank them).
DOOR_COST = 1  # open or close a door
JUMP_COST = 1  # drop down a hole (a pitfall, or [PF] a ladder's top)
PIT_CLIMB_COST = 3  # a Genestealer up a pitfall from below [PF]
STAND_COST = 2  # a prone Marine stands up
EXIT_COST = 1  # leave by an exit point
# ... and of the Marines' other orders.
OVERWATCH_COST = 2
GUARD_COST = 2
FLAME_COST = 2  # a heavy flamer shot
UNJAM_COST = 1
SHOT_COST = 1  # a gun's shot (free right after a move or turn)
ASSAULT_COST = 1
RELOAD_COST = 4


def ladder_cost(kind: str, pf_ladders: bool) -> int:
    """AP to climb a ladder end to end: 2 for Marines, and for everyone under the Pitfall ladder rule; else 1."""
    return 2 if (pf_ladders or kind == "marine") else 1


def base_step_cost(kind: str, facing: int, d: int) -> int | None:
    """AP of a step toward direction d before rubble: blips 1; models 1 forward, 2 back, sideways 1 for
    Genestealers and not at all for Marines (None)."""
    if kind == "blip":
        return 1
    dx, dy = DIR_VEC[d]
    fx, fy = FACE_VEC[facing]
    dot = dx * fx + dy * fy
    if dot > 0:
        return 1
    if dot < 0:
        return 2
    return None if kind == "marine" else 1


# base_step_cost tabulated: STEP_COST[kind][facing][direction] (a blip's row is the same for every facing).
STEP_COST: dict[str, tuple[tuple[int | None, ...], ...]] = {
    kind: tuple(tuple(base_step_cost(kind, f, d) for d in range(8)) for f in (0, 1, 2, 3, -1))
    for kind in ("marine", "stealer", "blip")
}
