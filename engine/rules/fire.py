"""Shooting, the heavy flamer and overwatch: targets, resolution and their decisions."""

from __future__ import annotations

from typing import Any

from engine.rules import combat as cb
from engine.rules.actions import PASS, Action, act
from engine.rules.decisions import (
    ChainDecision,
    DoorOverwatchCheck,
    DoorOverwatchDecision,
    OverwatchCheck,
    OverwatchDecision,
    SustainedCheck,
)
from engine.rules.kernel import FLAME_COST, GUNS, OVERWATCH_COST, RELOAD_COST, SHOT_COST, UNJAM_COST, Kernel
from engine.rules.pieces import Piece
from engine.rules.sight import Sight
from engine.rules.victory import Victory
from engine.rules.views import among


class Fire:
    """Shooting, the heavy flamer and overwatch: targets, resolution and their decisions."""

    def __init__(self, k: Kernel, sight: Sight, victory: Victory) -> None:
        self.k = k
        self.game = k.game
        self.sight = sight
        self.victory = victory

    def shoot_targets(self, pc: Piece) -> list[str]:
        """The Genestealers (in p's order), then the closed doors, Marine pc sees: what he may shoot at."""
        k = self.k
        view_through = self.sight.eye_squares(pc)
        if view_through is None:
            return []
        view, through = view_through
        # He can see only squares of his walls-only view and, on other levels, those beyond a hole: the Genestealers
        # and doors on them are the only ones to ask about (most of the time there are none).
        occ, closed = k.occ.keys(), k.closed.keys()
        occupied = among(view, occ)
        doors = among(view, closed)
        if through:
            occupied |= occ & through
            doors |= closed & through
        if not occupied and not doors:
            return []
        sees = self.sight.seer(pc)
        res = [q.id for q in k.p.values() if q.kind == "stealer" and q.sq in occupied and sees(q.sq)]
        if doors:
            kind = self.game.board.door_kind
            res.extend(did for t, did in k.closed.items() if t in doors and kind[did] == "door" and sees(t))
        return res

    def flame_targets(self, pc: Piece) -> list[int]:
        """One target square per visible section within flamer range (the first visible square found)."""
        k = self.k
        b = self.game.board
        rng = self.game.flamer_range
        sees = self.sight.seer(pc)
        closed = k.closed
        feat = k.feat
        if self.game.markers:
            # [2e] per-square markers: any visible square in range without a closed door, at most 2 markers.
            flames = k.flames
            return [t for t in feat.arc_squares(b, pc.sq, pc.facing, rng)
                    if t not in closed and flames.get(t, 0) < 2 and sees(t)]
        seen: dict[tuple[int, str | None], int] = {}
        lvl, section = pc.sq // b.plane, b.section
        for t in feat.arc_squares(b, pc.sq, pc.facing, rng):  # squares of his own level
            key = (lvl, section[t])
            if key not in seen and t not in closed and sees(t):
                seen[key] = t
        # [PF] the flamer also fires up or down through a ladder or pitfall square (that section only)
        for _here, there, opp, _upper in feat._views.get(pc.sq, ()):
            for t in (there, opp):
                key = (t // b.plane, b.section[t]) if t >= 0 else (-1, None)
                if t >= 0 and key not in seen and t not in closed and sees(t):
                    seen[key] = t
        return list(seen.values())

    def marine_shots(self, pc: Piece, budget: int, out: list[Action]) -> None:
        """A storm bolter or assault cannon shot (free right after a move or turn) at each target he sees."""
        ranged = pc.ranged
        if ranged in GUNS and not pc.jam and (0 if pc.free else SHOT_COST) <= budget and (
            ranged == "storm_bolter" or pc.ammo > 0
        ):
            pid = pc.id
            for tid in self.shoot_targets(pc):
                out.append(act("shoot", pid, tid))

    def marine_weapon(self, pc: Piece, budget: int, out: list[Action]) -> None:
        """The heavy flamer's shots and [2e] reload; a gun's overwatch, unjam and the assault cannon's reload."""
        opts = self.game.opts
        orders = self.game.order_table(pc.id)
        if pc.ranged == "heavy_flamer":
            if budget >= FLAME_COST and pc.ammo > 0:
                pid = pc.id
                name = self.game.board.name
                for t in self.flame_targets(pc):
                    out.append(act("flame", pid, name(t)))
            if self.game.ruleset == "classic" and budget >= RELOAD_COST and pc.ammo < opts.flamer_shots:
                out.append(orders["reload"])  # [2e] the heavy flamer reloads for 4 AP
        elif pc.ranged in GUNS:
            if budget >= OVERWATCH_COST and not pc.ow:
                out.append(orders["overwatch"])
            if pc.jam and budget >= UNJAM_COST:
                out.append(orders["unjam"])
            if pc.ranged == "assault_cannon" and budget >= RELOAD_COST and not pc.reloaded and (
                pc.ammo < opts.assault_cannon_shots
            ):
                out.append(orders["reload"])

    def act_overwatch(self, pc: Piece, a: Action, reaction: bool) -> None:
        self.k.pay(pc, OVERWATCH_COST, reaction)
        pc.ow = True
        pc.guard = False

    def act_unjam(self, pc: Piece, a: Action, reaction: bool) -> None:
        self.k.pay(pc, UNJAM_COST, reaction)
        pc.jam = False

    def act_reload(self, pc: Piece, a: Action, reaction: bool) -> None:
        self.k.pay(pc, RELOAD_COST, reaction)
        opts = self.game.opts
        pc.ammo = opts.flamer_shots if pc.ranged == "heavy_flamer" else opts.assault_cannon_shots
        pc.reloaded = pc.ranged == "assault_cannon"

    def act_shoot(self, pc: Piece, a: Action, reaction: bool) -> None:
        self.k.pay(pc, 0 if pc.free else SHOT_COST, reaction)
        pc.free = False
        self.shoot(pc, a.args[1], overwatch=False)

    def shot_terms(self, pc: Piece, tid: str, overwatch: bool) -> dict[str, Any]:
        """The keyword arguments of combat.ranged_attack for `pc` shooting at `tid` now (odds.ShotSpec's too)."""
        k = self.k
        g = self.game
        b = g.board
        door_sq = b.doors.get(tid)
        target = k.p.get(tid)
        tsq = door_sq if door_sq is not None else (target.sq if target else -1)
        feat = k.feat
        return {
            "ruleset": g.ruleset, "sustained": g.sustained_on and pc.sus == tid, "overwatch": overwatch,
            "alpha": bool(target and target.alpha),
            "rubble_piles": feat.rubble_between(b, pc.sq, tsq) if feat.rubble else 0,
            "ac_reloaded": pc.reloaded,
        }

    def shoot(self, pc: Piece, tid: str, overwatch: bool) -> None:
        k = self.k
        g = self.game
        terms = self.shot_terms(pc, tid, overwatch)
        sustained = terms["sustained"]
        if pc.ranged == "assault_cannon":
            pc.ammo -= 1
        door_sq = g.board.doors.get(tid)
        target = k.p.get(tid)
        res = cb.ranged_attack(self.k.dice, pc.ranged, **terms)
        k.note(f"{pc.id} shoots {tid}{' (sustained)' if sustained else ''}: {'kill' if res.kill else 'miss'}")
        if res.kill:
            if door_sq is not None:
                self.destroy_door(tid)
            elif target is not None:
                killed_sq = target.sq
                self.victory.kill(target, pc.id, "shot")
                if g.opts.overkill and pc.ranged == "storm_bolter":
                    need = 5 if sustained else 6
                    if sum(1 for d in res.dice if d >= need) >= 2:
                        self.overkill(pc, killed_sq)
            pc.sus = ""
        elif g.sustained_on:
            k.set_sustained(pc, tid)
        if res.jam:
            pc.jam = True
            k.note(f"{pc.id} jams")
        if res.explode:
            self.explode(pc)

    def overkill(self, pc: Piece, sq: int) -> None:
        k = self.k
        for n in self.game.board.nbr[sq]:
            tid = k.occ.get(n)
            if tid is not None and k.p[tid].kind == "stealer" and self.sight.sees(pc, n):
                self.victory.kill(k.p[tid], pc.id, "overkill")
                return

    def explode(self, pc: Piece) -> None:
        k = self.k
        b = self.game.board
        sq = pc.sq
        k.note(f"{pc.id}'s assault cannon explodes")
        self.victory.kill(pc, None, "explosion")
        for t in b.section_squares(sq):
            tid = k.occ.get(t)
            # [4e] a die for every model and door of the section: blips are counters, not models.
            if tid is not None and k.p[tid].kind != "blip" and k.dice.d6() >= 4:
                self.victory.kill(k.p[tid], pc.id, "explosion")
            did = b.door_at.get(t)
            if did is not None and k.door_state[did] != "destroyed" and b.door_kind[did] == "door":
                if self.k.dice.d6() >= 4:
                    self.destroy_door(did)

    def destroy_door(self, did: str) -> None:
        self.k.set_door(did, "destroyed")
        self.k.note(f"door {did} destroyed")

    def act_flame(self, pc: Piece, a: Action, reaction: bool) -> None:
        k = self.k
        k.pay(pc, FLAME_COST, reaction)
        game = self.game
        b = game.board
        t = b.parse_sq(a.args[1])
        if game.markers:
            self.flame_marker(pc, t)
            return
        pc.ammo -= 1
        area = self.flame_area(t)
        if game.fire_module:
            # [AE-F] fire counters fall through pitfalls and ladder tops to the level below, never upward.
            feat = k.feat
            below = [feat.pit_down[sq] if sq in feat.pit_down else feat.ladder[sq]
                     for sq in area if sq in feat.pit_down or sq in feat.ladder_top]
            area = sorted(set(area) | {sq for sq in below if sq >= 0})
        # [AE-F] each counter is a layer for one turn; fire that lasts longer is stacked, and new fire on old
        # fire keeps the longer of the two.
        k.lay_flames(area, game.opts.fire_turns if game.fire_module else 1)
        k.mark_flamed(t)
        k.note(f"{pc.id} flames {b.name(t)} ({len(area)} squares)")
        for sq in area:
            tid = k.occ.get(sq)
            if tid is not None:
                self.burn(k.p[tid], pc.id)

    def flame_marker(self, pc: Piece, t: int) -> None:
        """[2e] one flamer marker on t (a shot may chain more on adjacent squares: the "chain" decision)."""
        k = self.k
        pc.ammo -= 1
        k.add_flame_marker(t)
        k.mark_flamed(t)
        k.note(f"{pc.id} flames {self.game.board.name(t)}")
        tid = k.occ.get(t)
        if tid is not None:
            self.burn(k.p[tid], pc.id)
        if pc.id in k.p and pc.ammo > 0:
            k.stack.append(ChainDecision(pc.id, t))

    def chain_options(self, frame: ChainDecision) -> list[Action]:
        pc = self.k.p.get(frame.marine)
        if pc is None or pc.ammo <= 0:
            return []
        b = self.game.board
        near = {*b.nbr[frame.square], frame.square}  # the next marker goes next to the last, or stacks on it
        out = [act("flame", pc.id, b.name(t)) for t in self.flame_targets(pc) if t in near]
        return [*out, PASS] if out else []

    def answer_chain(self, frame: ChainDecision, a: Action) -> None:
        if a.verb == "flame":
            self.flame_marker(self.k.p[a.args[0]], self.game.board.parse_sq(a.args[1]))

    def burn(self, q: Piece, killer: str | None) -> None:
        """A model or blip caught in flames: 4e 2+ (classic: dies unless 6); [AE-F] Marines die on 3+."""
        if self.game.fire_module and q.kind == "marine":
            killed = self.k.dice.d6() >= 3
        else:
            _die, killed = cb.flamer_attack(self.k.dice, ruleset=self.game.ruleset, alpha=q.alpha)
        if killed:
            self.victory.kill(q, killer, "flamed")

    def flame_area(self, t: int) -> list[int]:
        """The flamed squares: t's section, not past closed doors."""
        b = self.game.board
        closed = self.k.closed
        sec = b.section[t]
        seen = {t: None}
        todo = [t]
        while todo:
            s = todo.pop()
            for n in b.nbr[s]:
                if n >= 0 and n not in seen and b.section[n] == sec and n not in closed:
                    seen[n] = None
                    todo.append(n)
        return sorted(seen)

    def run_sustained_check(self, frame: SustainedCheck) -> None:
        """Sustained fire is lost when another Genestealer acts or the shooter loses LOS to the target."""
        p = self.k.p
        gid = frame.genestealer
        g = p.get(gid)
        doors = self.game.board.doors
        for mid in self.game.marine_ids:  # the Marines in p (only ever the mission's squad)
            m = p.get(mid)
            if m is not None and m.kind == "marine" and m.sus and m.sus not in doors:
                if m.sus != gid or g is None or not self.sight.sees(m, g.sq):
                    m.sus = ""

    def run_overwatch_check(self, frame: OverwatchCheck) -> None:
        k = self.k
        p = k.p
        g = p.get(frame.genestealer)
        if g is None or g.sq < 0:
            return
        b = self.game.board
        rng = self.game.ow_range
        shooters: list[str] = []
        # The Marines in p's order: they are the mission's squad, created in squad order and never re-added.
        for mid in self.game.marine_ids:
            m = p.get(mid)
            if m is None or not m.ow:  # most Marines are not on overwatch
                continue
            if m.kind == "marine" and not m.jam and m.sq >= 0 and (m.ranged != "assault_cannon" or m.ammo > 0) and (
                m.sq // b.plane != g.sq // b.plane or b.rng(m.sq, g.sq) <= rng
            ) and self.sight.sees(m, g.sq):
                shooters.append(m.id)
        if shooters:
            k.stack.append(OverwatchDecision(g.id, tuple(shooters), ()))

    def overwatch_options(self, frame: OverwatchDecision) -> list[Action]:
        mid = frame.remaining[0]
        if self.game.opts.overwatch_compulsory:
            return [act("fire", mid)]
        return [act("fire", mid), act("hold", mid)]

    def answer_overwatch(self, frame: OverwatchDecision, a: Action) -> None:
        gid, remaining, declared = frame.genestealer, frame.remaining, frame.declared
        if a.verb == "fire":
            declared = (*declared, a.args[0])
        remaining = remaining[1:]
        p = self.k.p
        if remaining:
            self.k.stack.append(OverwatchDecision(gid, remaining, declared))
            return
        for mid in declared:
            m, g = p.get(mid), p.get(gid)
            if m is None or g is None:
                break
            self.shoot(m, gid, overwatch=True)

    def run_door_overwatch_check(self, frame: DoorOverwatchCheck) -> None:
        k = self.k
        did = frame.door
        b = self.game.board
        t = b.doors[did]
        if k.door_state.get(did) != "closed":
            return
        shooters = tuple(
            m.id for m in k.p.values()
            if m.kind == "marine" and m.ow and not m.jam and m.sq >= 0
            and m.ranged in ("storm_bolter", "assault_cannon")
            and m.sq // b.plane == t // b.plane and b.rng(m.sq, t) <= self.game.ow_range and self.sight.sees(m, t)
        )
        if shooters:
            k.stack.append(DoorOverwatchDecision(did, shooters, ()))

    def door_overwatch_options(self, frame: DoorOverwatchDecision) -> list[Action]:
        mid = frame.remaining[0]
        return [act("fire", mid), act("hold", mid)]

    def answer_door_overwatch(self, frame: DoorOverwatchDecision, a: Action) -> None:
        did, remaining, declared = frame.door, frame.remaining, frame.declared
        if a.verb == "fire":
            declared = (*declared, a.args[0])
        if remaining[1:]:
            self.k.stack.append(DoorOverwatchDecision(did, remaining[1:], declared))
            return
        for mid in declared:
            m = self.k.p.get(mid)
            if m is None or self.k.door_state.get(did) != "closed":
                break
            self.shoot(m, did, overwatch=True)
