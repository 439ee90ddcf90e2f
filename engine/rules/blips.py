"""Blips: the pile, reinforcement (lurking), conversion and placing the revealed Genestealers."""

from __future__ import annotations

from engine.rules.actions import Action, act
from engine.rules.board import FACE_INDEX, FACE_NAMES
from engine.rules.decisions import (
    CONVERSION_CHECK,
    AfterPlacement,
    AlphaDecision,
    ConversionCheck,
    FaceDecision,
    LurkDecision,
    OverwatchCheck,
    PutDecision,
    ReactionCheck,
)
from engine.rules.kernel import BLIP_AP, STEALER_AP, G, Kernel, M, Player
from engine.rules.pieces import Piece
from engine.rules.sight import BlipEyes, Eye, Sight
from engine.rules.views import meets


class Blips:
    """Blips: the pile, reinforcement (lurking), conversion and placing the revealed Genestealers."""

    def __init__(self, k: Kernel, sight: Sight) -> None:
        self.k = k
        self.game = k.game
        self.sight = sight
        gs = k.game.mission.genestealers
        self.limited_unit = gs.limited.unit if gs.limited else None
        self.model_cap = gs.model_cap

    def draw(self, pool: str) -> int | None:
        """The next blip's value from the pile (reshuffled from the used blips when it runs out); None when the
        pool is spent."""
        k = self.k
        limited = pool == "limited" and k.limited_left is not None
        if limited and k.limited_left is not None and k.limited_left <= 0:
            return None
        if not k.pile:
            if not k.used:
                return None
            k.pile.extend(k.used)
            k.used.clear()
            k.dice.rng.shuffle(k.pile)
        v = k.pile.pop()
        if limited and k.limited_left is not None:
            if self.limited_unit == "stealers":
                v = min(v, k.limited_left)
                k.limited_left -= v
            else:
                k.limited_left -= 1
        return v

    def pool_has(self, pool: str) -> bool:
        k = self.k
        if pool == "limited" and k.limited_left is not None and k.limited_left <= 0:
            return False
        return bool(k.pile or k.used)

    def lurk_options(self, frame: LurkDecision) -> list[Action]:
        if frame.count <= 0:
            return []
        b = self.game.board
        cap = self.game.opts.max_lurking
        counts: dict[str, int] = {}
        for pc in self.k.p.values():
            if pc.sq < 0 and pc.entry:
                counts[pc.entry] = counts.get(pc.entry, 0) + 1
        out = [act("lurk", e) for e in frame.entries if e in b.entries and counts.get(e, 0) < cap]
        if out and not self.pool_has(frame.pool):
            return []
        return out

    def answer_lurk(self, frame: LurkDecision, a: Action) -> None:
        v = self.draw(frame.pool)
        if v is not None:
            bl = Piece(self.k.new_id("b"), "blip")
            bl.entry = a.args[0]
            bl.lock = a.args[0] in frame.locked
            bl.ap = BLIP_AP
            self.k.add(bl, v)
            self.k.note(f"{bl.id} lurks at {bl.entry}")
        if frame.count > 1:
            self.k.stack.append(LurkDecision(frame.count - 1, frame.entries, frame.pool, frame.locked))

    def run_conv(self, frame: ConversionCheck) -> None:
        # The first blip on the board (in p's order) that some Marine sees.
        k = self.k
        p = k.p
        seen = self.sight.seen_now
        sight = k.sight_cache
        fresh = sight is not None and sight.cand is not None and k.sight_rev == k.pose_rev and sight.feat is k.feat
        if not fresh and k.phase == "stealers":
            # In the Genestealer turn the Marines seldom move (a reaction, a death): their sight, squares in view
            # included, is what the next questions about blips (the CP reaction's, the Genestealer player's) work
            # out anyway, so it is worked out here (and kept) rather than looking up every Marine's pose as below.
            sight = self.sight.marine_sight()
            sight.candidates()
            fresh = True
        if fresh and sight is not None and sight.cand is not None:
            # The Marines have not moved since their sight was worked out, squares in view included (the
            # Genestealer turn): only squares in some Marine's view can be seen, and every piece on the board
            # stands on its square in occ, so the occupied squares of the view (a C-level intersection) hold every
            # candidate; after most actions none of them is a blip seen.
            occ = k.occ
            eyes = sight.eyes
            # (With a view not drawn whole, every occupied square is asked about: a few dozen pieces.)
            for t in (occ if sight.open_eyes else sight.cand.intersection(occ)):
                if p[occ[t]].kind == "blip" and seen(t, eyes):
                    break
            else:
                return
            self.convert_first_seen(eyes)
            return
        # Otherwise (the Marine turn: poses change with nearly every action) each Marine's eye is read off the
        # Board's and Features' tables directly, as marine_sight would make it, but only the Marines whose view or
        # hole targets hold a blip's square are kept: seen_now(t) is false unless t is in one of those of
        # some seeing Marine, so these Marines decide it alone. After most actions there are none.
        # The blips' squares are kept while no blip moved, came or went (blip_rev): in the Marine turn they rarely do.
        # With them, whether a pose's view or hole targets hold one of them, by pose (square * 4 + facing): only
        # the Marine who just moved has a pose not asked about yet. Both depend on nothing else (the Board's and
        # Features' tables are fixed for the state), so copies share them.
        known = k.blip_squares
        if known is None or known[0] != k.blip_rev:
            known = k.blip_squares = (
                k.blip_rev,
                frozenset([pc.sq for pc in p.values() if pc.kind == "blip" and pc.sq >= 0]),
                {},
            )
        squares = known[1]
        if not squares:
            return
        looks = known[2]
        eyes_l: list[Eye] = []
        for mid in self.game.marine_ids:  # the Marines in p (only ever the mission's squad), as marine_sight
            m = p.get(mid)
            if m is None or m.kind != "marine" or m.prone or m.sq < 0:
                continue  # not on the board, or prone: sees nothing
            key = m.sq * 4 + m.facing
            hit = looks.get(key)
            eye = None
            if hit is None:
                eye = self.sight.pose_eye(mid, m.sq, m.facing)
                hit = looks[key] = meets(eye[2], squares) or not eye[3].isdisjoint(squares)
            if hit:
                eyes_l.append(eye or self.sight.pose_eye(mid, m.sq, m.facing))
        if not eyes_l:
            return
        self.convert_first_seen(tuple(eyes_l))

    def convert_first_seen(self, eyes: BlipEyes) -> None:
        """Involuntary conversion of the first blip on the board (in p's order) that one of `eyes` sees."""
        seen = self.sight.seen_now
        for pc in self.k.p.values():
            if pc.kind == "blip" and pc.sq >= 0 and seen(pc.sq, eyes):
                self.k.stack.append(CONVERSION_CHECK)
                self.convert(pc, voluntary=False)
                return

    def act_reveal(self, pc: Piece, a: Action, reaction: bool) -> None:
        self.k.end_activation()
        self.convert(pc, voluntary=True)

    def convert(self, blip: Piece, voluntary: bool) -> None:
        """Replace a blip by its Genestealers; placement decisions follow."""
        k = self.k
        n = k.blip_value[blip.id]
        k.note(f"{blip.id} reveals {n} ({'voluntary' if voluntary else 'involuntary'})")
        may_act = not blip.acted and k.phase == "stealers"
        sq, entry, held = blip.sq, blip.entry, blip.lock
        k.used.append(n)
        k.remove(blip)
        if sq >= 0 and sq in k.flames:
            k.note(f"{blip.id} burns in the flames")
            return
        if self.game.mission.genestealers.alpha and not k.alpha_used and n == 3:
            # [4e] once per game a revealed "3" may be the Alpha instead: the Genestealer player decides.
            k.stack.append(AlphaDecision(sq, entry, n, may_act, voluntary, held))
            return
        self.place_revealed(sq, entry, n, may_act, voluntary, False, held)

    def alpha_options(self, frame: AlphaDecision) -> list[Action]:
        return [act("alpha", "yes"), act("alpha", "no")]

    def answer_alpha(self, frame: AlphaDecision, a: Action) -> None:
        sq, entry, n, may_act, voluntary = frame.square, frame.entry, frame.value, frame.may_act, frame.voluntary
        if a.args[0] == "yes":
            self.k.note("the Genestealer Alpha")
        self.place_revealed(sq, entry, n, may_act, voluntary, a.args[0] == "yes", frame.held)

    def place_revealed(
        self, sq: int, entry: str, n: int, may_act: bool, voluntary: bool, alpha: bool, held: bool = False
    ) -> None:
        """Put the Genestealers of a blip revealed on square sq, or off the board at `entry` (sq < 0: they lurk
        there, held back this turn when the blip was)."""
        b = self.game.board
        if alpha:
            n = 1
            self.k.alpha_used = True
        k = self.k
        room = max(0, self.model_cap - k.stealer_count())
        n = min(n, room)
        if n <= 0:
            return
        if sq < 0:
            for _ in range(n):
                g = self.spawn(-1, entry, may_act, alpha)
                g.facing = b.entry_facing[entry]
                g.lock = held  # [4e] reinforcements held back by a Marine near the entry keep waiting
            return
        g = self.spawn(sq, "", may_act, alpha)
        player: Player = G if voluntary else M
        if n > 1:
            k.stack.append(PutDecision(player, sq, n - 1, may_act, voluntary))
        k.stack.append(AfterPlacement(g.id))
        k.stack.append(FaceDecision(g.id, G))

    def spawn(self, sq: int, entry: str, may_act: bool, alpha: bool) -> Piece:
        g = Piece(self.k.new_id("g"), "stealer")
        g.facing = 0
        g.alpha = alpha
        g.ap = STEALER_AP if may_act else 0
        g.st = 0 if may_act else 2
        g.entry = entry
        if sq >= 0:
            self.k.place(g, sq)
        self.k.add(g)
        return g

    def put_squares(self, frame: PutDecision) -> list[int]:
        sq, voluntary = frame.square, frame.voluntary
        k = self.k
        if k.free_square(sq) and sq not in k.flames:
            return [sq]  # [4e] the blip's own square, freed by a kill, must be used again
        opts = []
        objects = k.obj_at
        ramps = self.game.board.ramp_at
        for t in k.empty_adjacent(sq):
            # RULES.md §10: an object's square is not empty; a Genestealer is never placed on it (nor picks it up).
            if t in objects or (voluntary and self.sight.seen_by_marine(t)) or (ramps and k.ramp_held(t)):
                continue
            opts.append(t)
        return opts

    def put_options(self, frame: PutDecision) -> list[Action]:
        if self.k.stealer_count() >= self.model_cap:
            return []
        b = self.game.board
        return [act("put", b.name(t)) for t in self.put_squares(frame)]

    def answer_put(self, frame: PutDecision, a: Action) -> None:
        player, sq, n, may_act, voluntary = frame.side, frame.square, frame.count, frame.may_act, frame.voluntary
        t = self.game.board.parse_sq(a.args[0])
        k = self.k
        if n > 1:
            k.stack.append(PutDecision(player, sq, n - 1, may_act, voluntary))
        g = self.spawn(t, "", may_act, False)
        k.note(f"{g.id} placed at {a.args[0]}")
        k.stack.append(AfterPlacement(g.id))
        k.stack.append(FaceDecision(g.id, G))

    def run_after_placement(self, frame: AfterPlacement) -> None:
        k = self.k
        g = k.p.get(frame.genestealer)
        if g is not None and k.phase == "stealers":
            k.stack.append(OverwatchCheck(g.id))
            k.stack.append(ReactionCheck(g.id))

    def face_options(self, frame: FaceDecision) -> list[Action]:
        if frame.piece not in self.k.p:
            return []
        return [act("face", frame.piece, f) for f in FACE_NAMES]

    def answer_face(self, frame: FaceDecision, a: Action) -> None:
        k = self.k
        k.set_pose(k.p[a.args[0]], facing=FACE_INDEX[a.args[1]])
