"""Legal actions of the Marine and Genestealer action phases, piece by piece."""

from __future__ import annotations

from engine.rules.actions import END, PASS, Action, act
from engine.rules.blips import BlipRules
from engine.rules.board import FACE_NAMES
from engine.rules.pieces import Piece


class LegalRules(BlipRules):
    """Legal actions of the Marine and Genestealer action phases, piece by piece."""

    def _marine_phase_actions(self) -> list[Action]:
        out: list[Action] = [PASS]
        if self.active is not None:
            out.append(END)
        for pc in self.p.values():
            if pc.kind == "marine" and pc.sq >= 0:
                self._marine_actions(pc, self._budget(pc, False), out, in_turn=True)
        return out

    def _stealer_phase_actions(self) -> list[Action]:
        out: list[Action] = [PASS]
        if self.active is not None:
            out.append(END)
        for pc in self.p.values():
            if pc.kind == "marine" or pc.st == 2:
                continue
            if pc.kind == "stealer":
                self._stealer_actions(pc, out)
            else:
                self._blip_actions(pc, out)
        return out

    def _marine_actions(self, pc: Piece, budget: int, out: list[Action], in_turn: bool) -> None:
        if budget <= 0 and not (pc.free and pc.ranged in ("storm_bolter", "assault_cannon")):
            if pc.carry and in_turn:
                out.append(act("drop", pc.id))
            return
        pid = pc.id
        b = self.game.board
        s = pc.sq
        if pc.prone:
            if budget >= 2:
                for fname in FACE_NAMES:
                    out.append(act("stand", pid, fname))
            return
        nb = b.nbr[s]
        feat = self.feat
        tab = self.game.move_table(pid)
        occ, closed, flames, rubble = self.occ, self.closed, self.flames, feat.rubble
        in_flames = s in flames and not self.game.fire_module and not self.game.markers
        f0 = pc.facing
        bar, pits = self.barriers, feat.pit_down
        for d, t, cost in b.steps(s, f0, True):
            if t in occ or t in closed or t in bar or (t in flames and not in_flames):
                continue
            if t in rubble:
                cost += 1
            if cost > budget or (d & 1 and not self._diag_ok(s, d)):
                continue
            out.append(tab[d * 6])
            if t in pits:
                out.append(tab[d * 6 + 5])
        if self.game.fire_module and s in flames:
            return  # [AE-F] a unit in fire may only step out of it
        turns = self.game.turn_table(pid)
        for f in range(4):
            if f != f0 and (1 if (f - f0) % 4 != 2 else 2) <= budget:
                out.append(turns[f])
        shoot_cost = 0 if pc.free else 1
        if pc.ranged in ("storm_bolter", "assault_cannon") and not pc.jam and shoot_cost <= budget and (
            pc.ranged == "storm_bolter" or pc.ammo > 0
        ):
            for tid in self._shoot_targets(pc, None):
                out.append(act("shoot", pid, tid))
        if budget >= 2 and pc.ranged == "heavy_flamer" and pc.ammo > 0:
            for t in self._flame_targets(pc):
                out.append(act("flame", pid, b.name(t)))
        if pc.ranged == "heavy_flamer" and self.game.ruleset == "classic" and budget >= 4 and pc.ammo < int(
            self.game.options["flamer_shots"]  # type: ignore[call-overload]
        ):
            out.append(act("reload", pid))  # [2e] the heavy flamer reloads for 4 AP
        if pc.ranged in ("storm_bolter", "assault_cannon"):
            if budget >= 2 and not pc.ow:
                out.append(act("overwatch", pid))
            if pc.jam and budget >= 1:
                out.append(act("unjam", pid))
            if pc.ranged == "assault_cannon" and budget >= 4 and not pc.reloaded and pc.ammo < int(
                self.game.options["assault_cannon_shots"]  # type: ignore[call-overload]
            ):
                out.append(act("reload", pid))
        if budget >= 2 and not pc.guard:
            out.append(act("guard", pid))
        if budget >= 1:
            t = nb[pc.facing * 2]
            if not self.game.pf_ladders and s in feat.ladder:
                below_id = self.occ.get(feat.ladder[s])
                if below_id is not None and self.p[below_id].kind == "stealer":
                    out.append(act("assault", pid, below_id))
            if t >= 0:
                front_id = self.occ.get(t)
                if front_id is not None and self.p[front_id].kind == "stealer":
                    out.append(act("assault", pid, front_id))
                did = self.closed.get(t)
                if did is not None and b.door_kind[did] == "door":
                    out.append(act("assault", pid, did))
        self._door_actions(pc, budget, out)
        if budget >= 1 and s in b.exit_at:
            out.append(act("exit", pid))
        if s in feat.ladder:
            other = feat.ladder[s]
            cost = 2
            if cost <= budget and self._free_square(other) and (other not in self.flames):
                out.append(act("climb", pid))
        if budget >= 1 and (s in feat.pit_down or (s in feat.ladder_top and self.game.pf_ladders)):
            out.append(act("jump", pid))
        if pc.carry and in_turn:
            out.append(act("drop", pid))
            t = nb[pc.facing * 2]
            if budget >= 1 and t >= 0:
                oid = self.occ.get(t)
                if oid is not None and self.p[oid].kind == "marine" and not self.p[oid].carry:
                    out.append(act("give", pid, oid))
        if pc.rank == "archivist" and in_turn and not self.psi_used:
            self._psi_actions(pc, out)

    def _stealer_actions(self, pc: Piece, out: list[Action]) -> None:
        pid = pc.id
        budget = pc.ap
        if budget <= 0:
            return
        b = self.game.board
        feat = self.feat
        if pc.sq < 0:
            t = b.entries[pc.entry]
            if not pc.lock and self._can_enter(pc, t):
                out.append(act("enter", pid))
            return
        s = pc.sq
        nb = b.nbr[s]
        f0 = pc.facing
        tab = self.game.move_table(pid)
        occ, closed, flames, rubble = self.occ, self.closed, self.flames, feat.rubble
        in_flames = s in flames and not self.game.fire_module and not self.game.markers
        left, right = (f0 + 3) % 4 + 1, (f0 + 1) % 4 + 1
        bar, pits = self.barriers, feat.pit_down
        for d, t, cost in b.steps(s, f0, False):
            if t in occ or t in closed or t in bar or (t in flames and not in_flames):
                continue
            if t in rubble:
                cost += 1
            if cost > budget or (d & 1 and not self._diag_ok(s, d)):
                continue
            k = d * 6
            out += (tab[k], tab[k + right], tab[k + left])
            if pits.get(t, -1) >= 0 and self._can_enter(pc, pits[t]):
                out.append(tab[k + 5])
        if self.game.fire_module and s in flames:
            return  # [AE-F] a unit in fire may only step out of it
        turns = self.game.turn_table(pid)
        for f in range(4):
            if f != f0:
                out.append(turns[f])
        t = nb[f0 * 2]
        if t >= 0:
            tid = self.occ.get(t)
            if tid is not None and self.p[tid].kind == "marine":
                out.append(act("assault", pid, tid))
            did = self.closed.get(t)
            if did is not None and b.door_kind[did] == "door":
                out.append(act("assault", pid, did))
        for other in feat.through(s):
            tid = self.occ.get(other)
            if tid is not None and self.p[tid].kind == "marine":
                out.append(act("assault", pid, tid))
        self._door_actions(pc, budget, out)
        self._hole_moves(pc, budget, out)

    def _blip_actions(self, pc: Piece, out: list[Action]) -> None:
        pid = pc.id
        budget = pc.ap
        if not pc.acted:
            out.append(act("reveal", pid))
        if budget <= 0:
            return
        b = self.game.board
        if pc.sq < 0:
            t = b.entries[pc.entry]
            if not pc.lock and self._can_enter(pc, t):
                out.append(act("enter", pid))
            return
        s = pc.sq
        nb = b.nbr[s]
        tab = self.game.move_table(pid)
        rubble = self.feat.rubble
        # _can_enter for a blip, inlined: this loop is the hottest of the Genestealer turn.
        occ, closed, bar, flames, obj = self.occ, self.closed, self.barriers, self.flames, self.obj_at
        flames_ok = s in flames and not self.game.fire_module and not self.game.markers
        near, seen = self._adjacent_to_marine, self._seen_by_marine
        cand: frozenset[int] | None = None
        if self._seen_memo is not None:
            self._blip_eyes()
            cand = self._seen_cand  # squares in some Marine's view: no need to ask about the others
        for d in range(8):
            t = nb[d]
            if t < 0 or (budget < 2 and t in rubble):
                continue
            if d % 2 and not self._diag_ok(s, d):
                continue
            if t in occ or t in closed or t in bar or (t in flames and not flames_ok) or t in obj or near(t):
                continue
            if (cand is None or t in cand) and seen(t):
                continue
            out.append(tab[d * 6])
            below = self.feat.pit_down.get(t, -1)
            if below >= 0 and self._can_enter(pc, below):
                out.append(tab[d * 6 + 5])  # jump straight through, declared on entering (no extra AP)
        self._door_actions(pc, budget, out)
        self._hole_moves(pc, budget, out)
