"""Legal actions of the Marine and Genestealer action phases, piece by piece."""

from __future__ import annotations

from collections.abc import Iterable

from engine.rules.actions import END, PASS, Action, act
from engine.rules.blips import BlipRules
from engine.rules.board import DIR_INDEX, FACE_NAMES
from engine.rules.pieces import Piece
from engine.rules.sight import MarineSight

_ONE_DIR = tuple((d,) for d in range(8))


class LegalRules(BlipRules):
    """Legal actions of the Marine and Genestealer action phases, piece by piece."""

    def _phase_actions(self) -> list[Action]:
        """The legal actions of the current action phase: pass, end, then every piece's own actions."""
        out: list[Action] = [PASS]
        if self.active is not None:
            out.append(END)
        for pc in self.p.values():
            self._piece_actions(pc, out)
        return out

    def _piece_actions(self, pc: Piece, out: list[Action]) -> None:
        """Piece pc's own actions in the current action phase (none if it does not act in this phase)."""
        if self.phase == "marines":
            if pc.kind == "marine" and pc.sq >= 0:
                self._marine_actions(pc, self._budget(pc, False), out, in_turn=True)
        elif pc.kind != "marine" and pc.st != 2:
            if pc.kind == "stealer":
                self._stealer_actions(pc, out)
            else:
                self._blip_actions(pc, out)

    def _marine_actions(self, pc: Piece, budget: int, out: list[Action], in_turn: bool) -> None:
        pid = pc.id
        ranged = pc.ranged
        gun = ranged == "storm_bolter" or ranged == "assault_cannon"
        orders = self.game.order_table(pid)
        if budget <= 0 and not (pc.free and gun):
            if pc.carry and in_turn:
                out.append(orders["drop"])
            return
        b = self.game.board
        s = pc.sq
        if pc.prone:
            if budget >= 2:
                for fname in FACE_NAMES:
                    out.append(act("stand", pid, fname))
            return
        nb = b.nbr[s]
        feat = self.feat
        f0 = pc.facing
        self._marine_steps(pc, budget, out, b.steps(s, f0, True))
        if self.game.fire_module and s in self.flames:
            return  # [AE-F] a unit in fire may only step out of it
        turns = self.game.turn_table(pid)
        for f in range(4):
            if f != f0 and (1 if (f - f0) % 4 != 2 else 2) <= budget:
                out.append(turns[f])
        self._marine_shots(pc, budget, out)
        if ranged == "heavy_flamer":
            self._marine_flames(pc, budget, out)
            if self.game.ruleset == "classic" and budget >= 4 and pc.ammo < self.game.opts.flamer_shots:
                out.append(orders["reload"])  # [2e] the heavy flamer reloads for 4 AP
        elif gun:
            if budget >= 2 and not pc.ow:
                out.append(orders["overwatch"])
            if pc.jam and budget >= 1:
                out.append(orders["unjam"])
            cannon = ranged == "assault_cannon"
            if cannon and budget >= 4 and not pc.reloaded and pc.ammo < self.game.opts.assault_cannon_shots:
                out.append(orders["reload"])
        if budget >= 2 and not pc.guard:
            out.append(orders["guard"])
        occ = self.occ
        if budget >= 1:
            t = nb[f0 * 2]
            if not self.game.pf_ladders and s in feat.ladder:
                below_id = occ.get(feat.ladder[s])
                if below_id is not None and self.p[below_id].kind == "stealer":
                    out.append(act("assault", pid, below_id))
            if t >= 0:
                front_id = occ.get(t)
                if front_id is not None and self.p[front_id].kind == "stealer":
                    out.append(act("assault", pid, front_id))
                did = self.closed.get(t)
                if did is not None and b.door_kind[did] == "door":
                    out.append(act("assault", pid, did))
            self._door_actions(pc, budget, out)
            if s in b.exit_at:
                out.append(orders["exit"])
        if s in feat.ladder:
            other = feat.ladder[s]
            if 2 <= budget and self._free_square(other) and (other not in self.flames):
                out.append(orders["climb"])
        if budget >= 1 and (s in feat.pit_down or (s in feat.ladder_top and self.game.pf_ladders)):
            out.append(orders["jump"])
        if pc.carry and in_turn:
            out.append(orders["drop"])
            t = nb[f0 * 2]
            if budget >= 1 and t >= 0:
                oid = occ.get(t)
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
        if pc.sq < 0:
            t = b.entries[pc.entry]
            if not pc.lock and self._can_enter(pc, t):
                out.append(act("enter", pid))
            return
        s = pc.sq
        f0 = pc.facing
        self._stealer_steps(pc, out, b.steps(s, f0, False))
        if self.game.fire_module and s in self.flames:
            return  # [AE-F] a unit in fire may only step out of it
        turns = self.game.turn_table(pid)
        for f in range(4):
            if f != f0:
                out.append(turns[f])
        self._stealer_blows(pc, out)
        self._door_actions(pc, budget, out)
        self._hole_moves(pc, budget, out)

    # -- the parts quick_legal.py also lists on their own (past their generator's early returns) -------------
    def _marine_past_steps(self, pc: Piece) -> int | None:
        """Marine pc's budget when _marine_actions lists more than his steps now (its turns, shots, flames,
        orders and powers): the Marine phase, on the board, standing, with AP, CP or a free shot, not held in a
        lasting fire [AE-F]. None otherwise."""
        s = pc.sq
        if self.phase != "marines" or pc.kind != "marine" or s < 0 or pc.prone:
            return None
        if self.game.fire_module and s in self.flames:
            return None
        budget = self._budget(pc, False)
        if budget <= 0 and not (pc.free and (pc.ranged == "storm_bolter" or pc.ranged == "assault_cannon")):
            return None
        return budget

    def _marine_shots(self, pc: Piece, budget: int, out: list[Action]) -> None:
        ranged = pc.ranged
        if (ranged == "storm_bolter" or ranged == "assault_cannon") and not pc.jam and (
            (0 if pc.free else 1) <= budget and (ranged == "storm_bolter" or pc.ammo > 0)
        ):
            pid = pc.id
            for tid in self._shoot_targets(pc, None):
                out.append(act("shoot", pid, tid))

    def _marine_flames(self, pc: Piece, budget: int, out: list[Action]) -> None:
        if pc.ranged == "heavy_flamer" and budget >= 2 and pc.ammo > 0:
            pid = pc.id
            name = self.game.board.name
            for t in self._flame_targets(pc):
                out.append(act("flame", pid, name(t)))

    def _stealer_blows(self, pc: Piece, out: list[Action]) -> None:
        """Assaults of a Genestealer on the board: the Marine or door in front, Marines through a hole."""
        pid = pc.id
        b = self.game.board
        occ, p = self.occ, self.p
        t = b.nbr[pc.sq][pc.facing * 2]
        if t >= 0:
            tid = occ.get(t)
            if tid is not None and p[tid].kind == "marine":
                out.append(act("assault", pid, tid))
            did = self.closed.get(t)
            if did is not None and b.door_kind[did] == "door":
                out.append(act("assault", pid, did))
        for other in self.feat.through(pc.sq):
            tid = occ.get(other)
            if tid is not None and p[tid].kind == "marine":
                out.append(act("assault", pid, tid))

    def _blip_actions(self, pc: Piece, out: list[Action]) -> None:
        pid = pc.id
        budget = pc.ap
        if not pc.acted:
            out.append(self.game.order_table(pid)["reveal"])
        if budget <= 0:
            return
        b = self.game.board
        if pc.sq < 0:
            t = b.entries[pc.entry]
            if not pc.lock and self._can_enter(pc, t):
                out.append(act("enter", pid))
            return
        self._blip_steps(pc, out, range(8))
        self._door_actions(pc, budget, out)
        self._hole_moves(pc, budget, out)

    # -- steps: one loop per kind of piece, run over all directions or (apply's legality check) just one ------
    def _move_is_legal(self, actor: str, action: Action) -> bool:
        """Action phase, a move whose actor's actions are not listed yet (GameState.is_legal): the moves its actor's
        step loop lists toward the move's direction, kept per (actor, direction) for this version (one direction
        serves every move that way: a Genestealer's three facings, a jump).

        Exact: moves come from their actor's step loop only (never from another piece's, nor PASS / END), a step's
        legality depends on its direction only, and the loop run for one direction lists that direction's moves,
        under the early returns of _marine_actions / _stealer_actions / _blip_actions that a step passes."""
        version = self.version
        memo = self._quick_memo
        if memo[0] != version:
            memo = self._quick_memo = (version, {}, {})
        args = action.args
        if len(args) < 2:
            return False
        key = (actor, args[1])
        moves = memo[1].get(key)
        if moves is None:
            moves = memo[1][key] = []
            pc = self.p.get(actor)
            d = DIR_INDEX.get(args[1])
            if pc is not None and d is not None and pc.sq >= 0:
                if self._memo_v != version:  # _open_memo() and _begin_memo(), inlined
                    self._memo_v = version
                    self._seen_memo = {}
                    self._sight_memo = None
                kind = pc.kind
                if self.phase == "marines":
                    if kind == "marine" and not pc.prone:
                        # Every step costs 1 AP or more: with no budget left the loop lists none, as _marine_actions.
                        steps = self.game.board.steps_by_dir(pc.sq, pc.facing, True)[d]
                        self._marine_steps(pc, self._budget(pc, False), moves, steps)
                elif kind != "marine" and pc.st != 2 and pc.ap > 0:
                    if kind == "blip":
                        self._blip_steps(pc, moves, _ONE_DIR[d])
                    else:
                        self._stealer_steps(pc, moves, self.game.board.steps_by_dir(pc.sq, pc.facing, False)[d])
        for x in moves:  # _listed, inlined (a direction lists four moves at most)
            if x is action:
                return True
        return action in moves

    def _marine_steps(self, pc: Piece, budget: int, out: list[Action], steps: Iterable[tuple[int, int, int]]) -> None:
        s = pc.sq
        tab = self.game.move_table(pc.id)
        feat = self.feat
        occ, closed, flames, bar = self.occ, self.closed, self.flames, self.barriers
        rubble, pits = feat.rubble, feat.pit_down
        in_flames = s in flames and not self.game.fire_module and not self.game.markers
        for d, t, cost in steps:
            if t in occ or t in closed or t in bar or (t in flames and not in_flames):
                continue
            if t in rubble:
                cost += 1
            if cost > budget or (d & 1 and not self._diag_ok(s, d)):
                continue
            out.append(tab[d * 6])
            if t in pits:
                out.append(tab[d * 6 + 5])

    def _stealer_steps(self, pc: Piece, out: list[Action], steps: Iterable[tuple[int, int, int]]) -> None:
        s = pc.sq
        budget = pc.ap
        f0 = pc.facing
        tab = self.game.move_table(pc.id)
        feat = self.feat
        occ, closed, flames, bar = self.occ, self.closed, self.flames, self.barriers
        rubble, pits = feat.rubble, feat.pit_down
        in_flames = s in flames and not self.game.fire_module and not self.game.markers
        left, right = (f0 + 3) % 4 + 1, (f0 + 1) % 4 + 1
        for d, t, cost in steps:
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

    def _blip_steps(self, pc: Piece, out: list[Action], dirs: Iterable[int]) -> None:
        s = pc.sq
        budget = pc.ap
        game = self.game
        nb = game.board.nbr[s]
        feat = self.feat
        rubble = feat.rubble
        # _can_enter for a blip, inlined: this loop is the hottest of the Genestealer turn. A player's question
        # about one step runs it for one direction (apply's check, _move_is_legal), so what the loop needs is set
        # up only once a step passes the cheap tests, and the Marines' sight only then.
        occ, closed, bar, flames, obj = self.occ, self.closed, self.barriers, self.flames, self.obj_at
        flames_ok = s in flames and not game.fire_module and not game.markers
        sight: MarineSight | None = None
        for d in dirs:
            t = nb[d]
            if t < 0 or t in occ or t in closed or t in bar or t in obj:
                continue
            if (budget < 2 and t in rubble) or (t in flames and not flames_ok):
                continue
            if d & 1:
                # _diag_ok inlined: a diagonal step is refused when both squares beside it are blocked
                o1, o2 = nb[d - 1], nb[(d + 1) & 7]
                if (o1 < 0 or o1 in occ or o1 in closed) and (o2 < 0 or o2 in occ or o2 in closed):
                    continue
            if sight is None:
                scoped = self._memo_v == self.version
                sight = self._sight_memo if scoped else None  # _sight(), inlined
                if sight is None:
                    sight = self._trusted_sight() if scoped else None
                    if sight is not None:
                        self._sight_memo = sight  # what _sight() keeps: the cache, valid (_marine_sight's own test)
                    else:
                        sight = self._sight()
                # Squares in some Marine's view (no need to ask about the others), squares next to a Marine.
                cand = sight.cand if sight.cand is not None else sight.candidates()
                near = sight._near if sight._near is not None else sight.near(game.board.nbr)
                # _seen_by_marine(t) for t in cand, inlined: in a memo scope its answer is kept per square.
                seen_memo = self._seen_memo if scoped else None
                tab = game._moves.get(pc.id) or game.move_table(pc.id)
                pits = feat.pit_down
            if t in near:
                continue
            if t in cand:
                if seen_memo is None:
                    if self._seen_by_marine(t):
                        continue
                else:
                    r = seen_memo.get(t)
                    if r is None:
                        r = seen_memo[t] = self._seen_by_marine_now(t, sight.eyes)
                    if r:
                        continue
            out.append(tab[d * 6])
            below = pits.get(t, -1)
            if below >= 0 and self._can_enter(pc, below):
                out.append(tab[d * 6 + 5])  # jump straight through, declared on entering (no extra AP)
