"""Turn structure: set-up, command phase, reinforcement, action phases and the end phase."""

from __future__ import annotations

from engine.rules.actions import Action, act
from engine.rules.decisions import (
    BeginMarineTurn,
    BeginStealerActions,
    CommandDecision,
    DeployDecision,
    FaceDecision,
    Frame,
    LurkDecision,
    SetupDecision,
    SetupDone,
)
from engine.rules.features import placed_features, setup_squares
from engine.rules.fire import Fire
from engine.rules.kernel import BLIP_AP, MARINE_AP, STEALER_AP, G, Kernel, M
from engine.rules.victory import Victory


class Phases:
    """Turn structure: set-up, command phase, reinforcement, action phases and the end phase."""

    def __init__(self, k: Kernel, fire: Fire, victory: Victory) -> None:
        self.k = k
        self.game = k.game
        self.fire = fire
        self.victory = victory

    def opening(self) -> None:
        """The game's first frames, in execution order: the players' Pitfall set-up (if chosen), the starting blips
        placed by the Genestealer player, then the first Marine turn."""
        k = self.k
        gs = self.game.mission.genestealers
        seq: list[Frame] = []
        if k.setup_order:
            seq += [SetupDecision(i, M if i % 2 == 0 else G) for i in range(len(k.setup_order))]
            seq.append(SetupDone())
        for mid in self.game.deploy_areas:  # each Marine listed in a deployment area: its square, then facing
            seq += [DeployDecision(mid), FaceDecision(mid, M)]
        if gs.starting.blips:
            seq.append(LurkDecision(gs.starting.blips, tuple(gs.starting.entry_areas), "limited"))
        seq.append(BeginMarineTurn())
        k.stack.extend(reversed(seq))

    def run_setup_done(self, frame: SetupDone) -> None:
        k = self.k
        k.feat = placed_features(self.game, k.setup_placed, k.setup_order)
        k.note("counters turned face up")

    def setup_options(self, frame: SetupDecision) -> list[Action]:
        b = self.game.board
        return [act("setup", b.name(t)) for t in setup_squares(self.game, self.k.setup_placed)]

    def answer_setup(self, frame: SetupDecision, a: Action) -> None:
        self.k.setup_placed[self.game.board.parse_sq(a.args[0])] = frame.index

    def deploy_options(self, frame: DeployDecision) -> list[Action]:
        """The free squares of the Marine's deployment area, his present one first (keeping it is one choice)."""
        k = self.k
        pc = k.p.get(frame.marine)
        if pc is None or pc.sq < 0:
            return []
        b = self.game.board
        squares = [pc.sq, *(t for t in self.game.deploy_areas[pc.id] if t != pc.sq and k.free_square(t))]
        return [act("deploy", pc.id, b.name(t)) for t in squares]

    def answer_deploy(self, frame: DeployDecision, a: Action) -> None:
        k = self.k
        pc = k.p[a.args[0]]
        t = self.game.board.parse_sq(a.args[1])
        if t != pc.sq:
            k.move(pc, t)

    def run_begin_marines(self, frame: BeginMarineTurn) -> None:
        k = self.k
        k.phase = "marines"
        k.active = None
        k.activations = 0
        k.psi_used = False
        for pc in k.p.values():
            if pc.kind == "marine":
                pc.ap, pc.st, pc.free, pc.acted = MARINE_AP, 0, False, False
        k.cp = k.cp_start = self.k.dice.d6()
        k.note(f"command points {k.cp}")
        if self.game.opts.command_points == "chits" and any(
            pc.rank == "sergeant" and pc.sq >= 0 for pc in k.p.values() if pc.kind == "marine"
        ):
            k.stack.append(CommandDecision())

    def command_options(self, frame: CommandDecision) -> list[Action]:
        return [act("cp", "keep"), act("cp", "redraw")]

    def answer_command(self, frame: CommandDecision, a: Action) -> None:
        if a.args[0] == "redraw":
            k = self.k
            k.cp = k.cp_start = self.k.dice.d6()
            k.note(f"redraw: command points {k.cp}")

    def end_phase_step(self) -> None:
        self.k.end_activation()
        if self.k.phase == "marines":
            self.begin_stealers()
        else:
            self.end_phase()

    def begin_stealers(self) -> None:
        k = self.k
        if self.game.markers and k.flames:
            # [2e] record keeping: one flamer marker is removed from each square at the end of the Marine phase
            k.burn_down_flames()
        k.phase = "stealers"
        k.active = None
        b = self.game.board
        radius = self.game.opts.lurk_radius
        marine_sqs = [pc.sq for pc in k.p.values() if pc.kind == "marine" and pc.sq >= 0]
        plane, dist = b.plane, b.rng
        locked_l: list[str] = []
        for eid, esq in b.entries.items():
            lvl = esq // plane
            for ms in marine_sqs:
                if ms // plane == lvl and dist(ms, esq) <= radius:
                    locked_l.append(eid)
                    break
        locked = tuple(locked_l)
        k.stack.append(BeginStealerActions())
        roll = self.game.opts.reinforcement_roll
        for r in reversed(self.game.mission.genestealers.reinforcements):
            if r.from_turn <= k.turn and (r.to_turn is None or k.turn <= r.to_turn) and (
                    (k.turn - r.from_turn) % r.every == 0):
                if roll is not None:
                    # RULES.md §10 variant: the row's blips come only on a roll of `roll` or more.
                    die = k.dice.d6()
                    k.note(f"reinforcement roll {die} (needs {roll}+): {'blips come' if die >= roll else 'none'}")
                    if die < roll:
                        continue
                k.stack.append(LurkDecision(r.per_turn, tuple(r.entry_areas), r.pool, locked))

    def run_begin_stealer_actions(self, frame: BeginStealerActions) -> None:
        for pc in self.k.p.values():
            if pc.kind != "marine":
                pc.ap = STEALER_AP if pc.kind == "stealer" else BLIP_AP
                pc.st, pc.acted = 0, False

    def end_phase(self) -> None:
        k = self.k
        if self.game.markers:
            # [2e] models that did not move out of a flamed square are hit again
            for t in sorted(k.flames):
                tid = k.occ.get(t)
                if tid is not None:
                    self.fire.burn(k.p[tid], None)
        self.victory.check(end_phase=True)
        if k.result is not None:
            return
        if self.game.fire_module:
            # [AE-F] the reset phase removes only the top-most layer of each fire counter
            k.burn_down_flames()
        else:
            k.clear_flames()
        k.clear_barriers()
        k.cp = 0
        keep_jams = self.game.ruleset == "classic"  # [2e] jammed bolters stay jammed until cleared
        for pc in k.p.values():
            pc.ow = pc.guard = False
            pc.jam = pc.jam and keep_jams
            pc.sus = ""
            pc.lock = False
        if k.turn >= self.game.turn_cap:
            self.victory.finish("draw", f"turn cap {self.game.turn_cap} reached")
            return
        k.turn += 1
        if self.game.fire_module and k.flames:
            # [AE-F] at the start of each new turn, whoever is still inside a lasting fire is attacked again
            for t in sorted(k.flames):
                tid = k.occ.get(t)
                if tid is not None:
                    self.fire.burn(k.p[tid], None)
            self.victory.check(end_phase=False)
            if k.result is not None:
                return
        k.stack.append(BeginMarineTurn())
