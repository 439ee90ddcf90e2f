"""The heuristic Genestealer player (docs/playbook.md, "Genestealers"); the novice one (novice.py) is a subclass.

Distances are "walking cost to an attack square": the squares orthogonally next to a Marine, where a
Genestealer can strike; the Marine's front square costs `flank` more, so paths come round the side. Blips
close in unseen (the rules keep them out of sight) and convert when near; Genestealers wait out of the
overwatch arcs at a stand-off distance until enough are gathered, or the path is cheap in expected
overwatch shots, or the watcher has jammed — then they charge together and strike.

The player is built up in layers, each module named after what it holds: genestealer_maps.py (the attack and
route maps) under genestealer_setup.py (entries, placing, facing); genestealer_field.py holds what a decision
reads, genestealer_terms.py the scoring terms; this module holds the moves of the action phase.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from engine.ai import decisions as dec
from engine.ai.base import register
from engine.ai.genestealer_field import _Field, _path_shots
from engine.ai.genestealer_setup import GenestealerSetup
from engine.ai.genestealer_terms import (
    _SLOTS,
    DOOR_TIE,
    FACING_TIE,
    HOLE_TIE,
    MOVE_TIE,
    _approach,
    term_gathered,
    term_nerve,
    term_path_shots,
    term_reveal,
)
from engine.ai.situation import Situation, observe
from engine.ai.tables import INF
from engine.ai.weights import GenestealerWeights, defaults
from engine.rules.actions import FACES, PASS, Action, act
from engine.rules.decisions import (
    Decision,
    FaceDecision,
    LurkDecision,
    PutDecision,
    ScuttleDecision,
    ShoveDecision,
    TurnToFaceDecision,
)
from engine.rules.moves import LINK_VERBS, Move, piece_moves
from engine.rules.pieces import Piece


class GenestealerPlayer(GenestealerSetup):
    """Scored, rule-of-thumb Genestealer player."""


    def choose(self, state: Any, actions: Sequence[Action], rng: random.Random) -> Action:
        """Pick one of the legal actions, reading only what the Genestealers may know (`observe`)."""
        obs = observe(state, "genestealers")
        sit = Situation(obs, actions)
        pending = obs.decision()
        a = self._phase(sit) if pending is None else self._decide(pending, sit)
        if a is None or a not in sit.legal:
            a = dec.find(actions, "pass") or actions[0]
        return a


    # ------------------------------------------------------------------ sub-decisions
    def _decide(self, pending: Decision, sit: Situation) -> Action | None:
        if isinstance(pending, LurkDecision):
            return self._lurk(sit)
        if isinstance(pending, TurnToFaceDecision):
            return act("face", pending.piece, FACES[pending.facing])
        if isinstance(pending, FaceDecision):
            return self._face(sit, pending.piece)
        if isinstance(pending, (PutDecision, ScuttleDecision)):
            return self._place(sit)
        if isinstance(pending, ShoveDecision):
            return self._shove(sit)
        return None


    # ------------------------------------------------------------------ action phase
    # Candidates -> scores -> choice. A piece's candidates are the rules' own moves from its square (Game.steps:
    # direction, square and AP; the doors next to it; its climb or jump), left out only where the rules' own
    # predicate (free_square) says no step can go. Each is scored by named terms (below), and the least score
    # wins. The rules are asked about a candidate only when its score would win.
    def _phase(self, sit: Situation) -> Action | None:
        if not sit.marines:
            return PASS
        dm = self._attack_map(sit)
        fld = _Field(sit, dm, self.w.standoff + 3, self)
        for pc in _movers(sit, dm):
            a = self._stealer(pc, fld) if pc.kind == "stealer" else self._blip(pc, fld)
            if a is not None and a in sit.legal:
                return a
        return PASS


    def _blip(self, pc: Piece, fld: _Field) -> Action | None:
        dm = fld.dm
        pid = pc.id
        if pc.sq < 0:
            # Convert before entering when the Marines are close: the Genestealers then act at once (#7).
            if not pc.acted and term_reveal(self.w, dm[fld.sit.board.entries[pc.entry]]) >= 0:
                return act("reveal", pid)
            return act("enter", pid)
        here = dm[pc.sq]
        if not pc.acted and term_reveal(self.w, here) >= 0:
            return act("reveal", pid)
        if pc.ap <= 0 or fld.route[pc.sq] <= 1 or here <= self.w.standoff:
            return None
        return self._blip_step(pc, fld)

    def _blip_step(self, pc: Piece, fld: _Field) -> Action | None:
        """A blip's step: its square's route cost (#3) plus a tie-break (a move, then a climb or jump, then a
        door); the least wins, the earliest in legal-action order on ties, if it gains over half a square.

        Sorting the candidates by (score, legal order) and taking the first legal one gives the same action as
        scoring every legal action, and usually asks the rules about one step instead of listing them all.
        """
        dm = fld.route
        cands = self._blip_cands(pc, fld.sit, dm, dm[pc.sq] - 0.5)
        cands.sort()  # each candidate's order is unique: the tuples sort by (score, order)
        legal = fld.sit.legal
        for c in cands:
            if c[2] in legal:
                return c[2]
        return None

    def _blip_cands(self, pc: Piece, sit: Situation, dm: list[int], limit: float
                    ) -> list[tuple[float, tuple[int, int], Action]]:
        """(score, legal order, action) of a blip's steps, door openings, climb and jump scoring under `limit`."""
        st = sit.state
        s = pc.sq
        free = st.free_square
        tab = st.game.move_table(pc.id)
        # The rules' steps from s (Game.steps: direction, square, AP), in direction order; whether one may be taken
        # now is the rules' answer, asked of the best first (`_blip_step`).
        cands = [(v, (0, d), tab[d * 6]) for d, t, _ap in st.game.steps(s, pc.facing, "blip")
                 if (v := dm[t] + MOVE_TIE) < limit and free(t)]
        door_state = st.door_state
        for i, (did, t) in enumerate(sit.gt.mt.blip_doors[s]):
            if dm[t] + DOOR_TIE < limit and door_state[did] == "closed":
                cands.append((dm[t] + DOOR_TIE, (1, i), act("open", pc.id, did)))
        t = sit.gt.hole_dest.get(s, -1)
        if t >= 0 and dm[t] + HOLE_TIE < limit:
            cands.extend((dm[t] + HOLE_TIE, (2, k), a) for k, a in _hole_moves(pc, sit))
        if s in sit.gt.link_dest:
            cands.extend((dm[mv.to] + HOLE_TIE, (3, k), mv.action) for k, mv in enumerate(_rides(pc, sit))
                         if dm[mv.to] + HOLE_TIE < limit)
        return cands

    def _stealer(self, pc: Piece, fld: _Field) -> Action | None:
        if pc.ap <= 0:
            return None
        a = self._strike(pc, fld)
        if a is not None:
            return a
        if pc.sq < 0:
            t = fld.sit.board.entries[pc.entry]
            return act("enter", pc.id) if self._may_enter(t, fld) else None
        if fld.dm[pc.sq] >= INF:
            return None
        return self._advance(pc, fld)

    def _may_enter(self, t: int, fld: _Field) -> bool:
        """A Genestealer waiting at an entry comes on at square t when a lone charger's nerve takes its shots."""
        return fld.danger(t) <= self.w.shot_tolerance

    def _strike(self, pc: Piece, fld: _Field) -> Action | None:
        """A blow at the Marine in front; beside a Marine, the turn to face him, unless his side is one step
        away while he faces us (#2)."""
        sit = fld.sit
        st = sit.state
        for a in sit.actions_of(pc.id, "assault"):
            if a.args[1] in st.p:
                return a
        if pc.sq < 0:
            return None
        nb = sit.board.nbr[pc.sq]
        for d in (0, 2, 4, 6):
            oid = st.occ.get(nb[d]) if nb[d] >= 0 else None
            if oid is not None and st.p[oid].kind == "marine":
                if not self._better_flank(pc, st.p[oid], fld):
                    return act("turn", pc.id, FACES[d // 2])
        return None

    def _advance(self, pc: Piece, fld: _Field) -> Action | None:
        """Close a watched door (#5), charge (#1, #4, #8) or close in to the stand-off line (#6, #9)."""
        door = self._door_to_close(pc, fld)
        if door is not None and not self._should_charge(pc, fld):
            return door
        charging = self._open_steps(pc, fld, True)
        waiting = None
        if not self._may_step(pc, fld, charging):
            waiting = self._open_steps(pc, fld, False)
            if not self._may_step(pc, fld, waiting):
                return None  # no step either way (often a Genestealer queued behind others): no charge to weigh
        charge = self._should_charge(pc, fld)
        return self._step(pc, fld, charge=charge, opened=charging if charge else waiting)

    def _door_to_close(self, pc: Piece, fld: _Field) -> Action | None:
        """#5: an open door in front of the Genestealer that a Marine on overwatch sees, while the Genestealer
        itself stands out of sight: shut, it blocks his fire lane and he must come through it."""
        if not self.w.close_doors or pc.ap < 1:
            return None
        sit = fld.sit
        st = sit.state
        for did, t in sit.board.doors_near(pc.sq, pc.facing):
            if st.door_state[did] == "open" and st.free_square(t) and fld.danger(t) >= 1.0:
                a = act("close", pc.id, did)
                return a if fld.danger(pc.sq) == 0 and a in sit.legal else None
        return None

    @staticmethod
    def _may_step(pc: Piece, fld: _Field, opened: _Opened) -> bool:
        """False when `_step` with `opened` (what `_open_steps` found) surely returns None: no step or door can come
        in under its limit, and there is no hole to climb or jump (its candidate is not always built, so any counts)."""
        return bool(opened[1] or opened[2]) or fld.sit.gt.hole_dest.get(pc.sq, -1) >= 0

    def _square_score(self, t: int, fld: _Field, charge: bool) -> float:
        """The terms of ending an action on square t: the approach (#1, #6) and the overwatch shots there (#9)."""
        v = _approach(fld.dm[t], charge, self.w.standoff)
        if self._caution:
            v += self._caution * fld.danger(t)
        return v

    def _open_steps(self, pc: Piece, fld: _Field, charge: bool) -> _Opened:
        """What `_step` weighs before facings and legality: its limit (the score of the square it stands on, less
        half a square), the steps (i, d, t, lo, ap) and the closed doors (i, door id, t, lo) whose lower bound lo
        (the approach term alone), plus the least tie-break it adds, is under that limit; i is the index in the
        rules' list. Any other step or door scores at least the limit and cannot be chosen.
        """
        sit = fld.sit
        st = sit.state
        dm = fld.dm
        s = pc.sq
        stand = self.w.standoff
        limit = self._square_score(s, fld, charge) - 0.5
        free = st.free_square
        steps: list[tuple[int, int, int, float, int]] = []
        for i, (d, t, ap) in enumerate(st.game.steps(s, pc.facing, "stealer")):
            lo = _approach(dm[t], charge, stand)
            if lo + MOVE_TIE < limit and free(t):
                steps.append((i, d, t, lo, ap))
        doors: list[tuple[int, str, int, float]] = []
        door_state = st.door_state
        for i, (did, t) in enumerate(sit.board.doors_near(s, pc.facing)):
            if door_state[did] == "closed":
                lo = _approach(dm[t], charge, stand)
                if lo + DOOR_TIE < limit:
                    doors.append((i, did, t, lo))
        return limit, steps, doors

    def _better_flank(self, pc: Piece, marine: Piece, fld: _Field) -> bool:
        """Next to a Marine who faces us: is a side or rear square one cheap step away? Then go there."""
        b = fld.sit.board
        st = fld.sit.state
        if b.nbr[marine.sq][marine.facing * 2] != pc.sq or marine.prone:
            return False
        if pc.ap < 3:
            return False
        for d in (0, 2, 4, 6):
            if d == marine.facing * 2:
                continue
            t = b.nbr[marine.sq][d]
            if t >= 0 and t not in st.occ and t in fld.sit.gt.mt.steps[pc.sq] and fld.danger(t) == 0:
                return True
        return False

    def _should_charge(self, pc: Piece, fld: _Field) -> bool:
        """Charge when the charge scores 0 or more: a lone charger's nerve and the friends gathered to soak shots,
        less the expected overwatch shots on the way."""
        w = self.w
        dm = fld.dm
        s = pc.sq
        if dm[s] <= 1 or fld.urgent:
            return True
        shots, rest = _path_shots(fld, s, min(pc.ap, dm[s]))
        if rest > 0 and shots == 0.0:
            # Not there this turn but unseen on the way: keep closing in up to the stand-off line.
            return True
        return term_nerve(w) + term_gathered(w, fld.near) - term_path_shots(w, shots, pc.alpha) >= 0.0

    def _step(self, pc: Piece, fld: _Field, *, charge: bool, opened: _Opened | None = None) -> Action | None:
        """A Genestealer's move (or door opening, climb, jump) toward an attack square, or the stand-off line.

        Each candidate scores its square (`_square_score`) plus its tie-breaks: `FACING_TIE` when a move does
        not end facing the way onward, `MOVE_TIE` per AP of a move (the rules' cost), `HOLE_TIE` a climb or jump,
        `DOOR_TIE` opening a door. The least score wins, the earliest in legal-action order on ties, if it gains
        over half a square. `opened`: what `_open_steps` gives for this piece and `charge`, if already asked.
        """
        limit, steps, doors = opened if opened is not None else self._open_steps(pc, fld, charge)
        cands = self._move_cands(pc, fld, steps)
        for i, did, t, lo in doors:
            cands.append((lo + DOOR_TIE, (1, i, 0), t, (DOOR_TIE,), act("open", pc.id, did)))
        t = fld.sit.gt.hole_dest.get(pc.sq, -1)
        if t >= 0:
            lo = _approach(fld.dm[t], charge, self.w.standoff) + HOLE_TIE
            if lo < limit:  # (the rules are asked for the climb and jump only when one could win)
                cands.extend((lo, (2, k, 0), t, (HOLE_TIE,), a) for k, a in _hole_moves(pc, fld.sit))
        if pc.sq in fld.sit.gt.link_dest:
            for k, mv in enumerate(_rides(pc, fld.sit)):
                lo = _approach(fld.dm[mv.to], charge, self.w.standoff) + HOLE_TIE
                cands.append((lo, (3, k, 0), mv.to, (HOLE_TIE,), mv.action))
        return self._best(cands, limit, fld, charge)

    def _move_cands(self, pc: Piece, fld: _Field, steps: list[tuple[int, int, int, float, int]]) -> list[_Cand]:
        """The moves of `steps`, each with the three facings it may end with (keep, right, left)."""
        sit = fld.sit
        dm = fld.dm
        tab = sit.state.game.move_table(pc.id)
        slots = _SLOTS[pc.facing]
        cands: list[_Cand] = []
        for i, d, t, lo, ap in steps:
            # Each step goes to a different square, so each square's wanted facing is worked out once.
            want = self._want_facing(t, dm, sit)
            cost = MOVE_TIE * ap
            k = d * 6
            for j, (new_f, slot) in enumerate(slots):
                if new_f != want:
                    cands.append((lo + FACING_TIE + cost, (0, i, j), t, (FACING_TIE, cost), tab[k + slot]))
                else:
                    cands.append((lo + cost, (0, i, j), t, (cost,), tab[k + slot]))
        return cands

    def _best(self, cands: list[_Cand], limit: float, fld: _Field, charge: bool) -> Action | None:
        """The least-scoring legal candidate under `limit`. Candidates are taken by their lower bound (the score
        without the overwatch term, which only adds) while one could still win, and the rules are asked about
        one only when its score would win: the same action as scoring every legal action."""
        cands.sort()  # by (lower bound, order): each order is unique, so later fields are never compared
        legal = fld.sit.legal
        best_v, best_o, best_a = limit, (-1, 0, 0), None
        for lo, order, t, adds, a in cands:
            if lo > best_v or (lo == best_v and order > best_o):
                break  # the rest score at least this much: none can win
            v = self._square_score(t, fld, charge)
            for e in adds:
                v += e
            if (v < best_v or (v == best_v and order < best_o)) and a in legal:
                best_v, best_o, best_a = v, order, a
        return best_a


def _movers(sit: Situation, dm: list[int]) -> Iterator[Piece]:
    """The pieces to ask, in order: the active one (usually a blip in mid-move, which settles the decision),
    then the fresh ones, Genestealers before blips, nearest first."""
    st = sit.state
    active = st.active
    if active is not None:
        pc = st.p.get(active)
        if pc is not None:
            yield pc
    # Sorted as (blip?, distance, id, piece) tuples: ids are unique, so the pieces are never compared.
    fresh = [(pc.kind == "blip", dm[pc.sq] if pc.sq >= 0 else INF, pc.id, pc) for pc in sit.enemies if pc.st == 0]
    fresh.sort()
    for _, _, pid, pc in fresh:
        if pid != active:
            yield pc


def _hole_moves(pc: Piece, sit: Situation) -> list[tuple[int, Action]]:
    """(0, climb) and (1, jump) as the rules offer them from the piece's square (asked only on a hole square)."""
    out = [(0, a) for a in sit.actions_of(pc.id, "climb")]
    out.extend((1, a) for a in sit.actions_of(pc.id, "jump"))
    return out


def _rides(pc: Piece, sit: Situation) -> list[Move]:
    """The links (turbo-lift rides) the rules offer the piece, each with where it comes out (asked only on a link's
    square)."""
    return piece_moves(sit.state, pc.id, sit.of, LINK_VERBS)


# What GenestealerPlayer._open_steps finds: (limit, steps (i, d, t, lo), closed doors (i, door id, t, lo)).
_Opened = tuple[float, list[tuple[int, int, int, float, int]], list[tuple[int, str, int, float]]]

# A candidate of _step: (lower bound, legal order, square, tie-breaks added to the square's score, action).
_Cand = tuple[float, tuple[int, int, int], int, tuple[float, ...], Action]


def heuristic_genestealers(params: dict[str, float]) -> GenestealerPlayer:
    """Factory for the registry."""
    return GenestealerPlayer(params)


register(
    "heuristic-genestealers",
    heuristic_genestealers,
    side="genestealers",
    defaults=defaults(GenestealerWeights),
    description="blips close in unseen, gather out of the arcs, charge together from the flank, strike the jammed",
)
