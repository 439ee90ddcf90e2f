"""Lines of sight: what a Marine sees, and whether any Marine sees a square (blips)."""

from __future__ import annotations

from collections.abc import Callable

from engine.rules.board import Line
from engine.rules.features import Features
from engine.rules.kernel import Kernel, Scope
from engine.rules.pieces import Piece
from engine.rules.views import View, weight

# (marine id, level, view, squares seen through holes) of one seeing Marine, and of each
Eye = tuple[str, int, View, frozenset[int]]
BlipEyes = tuple[Eye, ...]


class MarineSight:
    """What the Marines on the board see, for one set of Marine poses (feat, then (id, square, facing, prone) of
    each Marine on the board): immutable once made but for `cand` and `near`, which are worked out from those
    poses on first use. Shared by copies of a state (a state whose Marines moved makes a new one)."""

    __slots__ = ("_near", "cand", "eyes", "feat", "open_eyes", "poses")

    def __init__(self, feat: Features, poses: tuple[tuple[str, int, int, bool], ...], eyes: BlipEyes) -> None:
        self.feat = feat
        self.poses = poses
        self.eyes = eyes  # the seeing (not prone) Marines'
        # Every square in their views (candidates()): built on first use, since in the Marine turn the poses
        # change with nearly every action and the conversion check alone does without it.
        self.cand: frozenset[int] | None = None
        # (open_eyes, the eyes whose views are not drawn whole: views.py OpenView, large arcs, is set with cand.)
        self._near: frozenset[int] | None = None

    def candidates(self) -> frozenset[int]:
        """Every square of the drawn views and hole targets of the seeing Marines: seen_now(t, eyes) is false for
        all others unless some eye's view is an open one (open_eyes, set here too), which alone decides it then."""
        cand = self.cand
        if cand is None:
            eyes = self.eyes
            drawn = [e[2] for e in eyes if type(e[2]) is dict]
            self.open_eyes: BlipEyes = () if len(drawn) == len(eyes) else tuple(
                [e for e in eyes if type(e[2]) is not dict])
            cand = self.cand = frozenset().union(*drawn, *[e[3] for e in eyes])
        return cand

    def near(self, nbr: list[tuple[int, ...]]) -> frozenset[int]:
        """Every square next to a Marine on the board (nbr: the board's neighbour table)."""
        near = self._near
        if near is None:
            near = self._near = frozenset().union(*[nbr[sq] for _pid, sq, _f, _prone in self.poses])
        return near


class Sight:
    """Lines of sight: what a Marine sees, and whether any Marine sees a square (blips). The Marines' sight is kept
    in the kernel (sight_cache, and the decision's memo) while their poses stay the same."""

    def __init__(self, k: Kernel) -> None:
        self.k = k
        self.game = k.game

    def clear_line(self, a: int, t: int, ignore_fire: bool = False) -> bool:
        line = self.game.board.line(a, t)
        return line is not None and self.line_clear(line, ignore_fire)

    def line_clear(self, line: Line, ignore_fire: bool = False) -> bool:
        """No model, closed door, flame (unless ignored) or barrier on a static line (corners: both squares)."""
        k = self.k
        occ, closed, bar = k.occ, k.closed, k.barriers
        flames: dict[int, int] = _NO_FLAMES if ignore_fire else k.flames
        if not flames and not bar:
            # No flames (or fire is no obstacle) and no barriers, as nearly always: only pieces and doors block.
            for c in line or ():
                if type(c) is int:
                    if c in occ or c in closed:
                        return False
                else:
                    p, q = c  # type: ignore[misc]
                    if (p in occ or p in closed) and (q in occ or q in closed):
                        return False
            return True
        for c in line or ():
            if type(c) is int:
                if c in occ or c in closed or c in flames or c in bar:
                    return False
            else:
                p, q = c  # type: ignore[misc]
                if (p in occ or p in closed or p in flames or p in bar) and (
                    q in occ or q in closed or q in flames or q in bar
                ):
                    return False
        return True

    def sees(self, m: Piece, t: int) -> bool:
        """Marine m has LOS to square t: on his level, t in his front arc with a clear line; on another, through a
        hole he stands on or next to (Pitfall), or [4e] the other end of his ladder."""
        ms = m.sq
        if m.prone or ms < 0:
            return False
        g = self.game
        b = g.board
        if ms // b.plane == t // b.plane:
            line = b.static_view(ms, m.facing).get(t)
            return line is not None and self.line_clear(line, g.fire_module and m.ranged == "assault_cannon")
        feat = self.k.feat
        if not g.pf_ladders and feat.ladder.get(ms) == t:
            return True  # [4e] the two ends of a ladder are adjacent, whatever the facing
        if ms in feat.lift and any(u == t for _level, u in feat.lift[ms]):
            return True  # a turbo-lift's entrances likewise (docs/RULES.md, 15)
        if ms not in feat._views:
            return False
        k = self.k
        return feat.hole_sees(b, k.occ, k.closed, self.clear_line, m, t)

    def eye_squares(self, m: Piece) -> tuple[View, frozenset[int]] | None:
        """(Marine m's walls-only view, the squares of other levels he might see through a hole): sees(m, t) is
        false for every square in neither. None when he sees nothing (prone or off the board)."""
        ms = m.sq
        if m.prone or ms < 0:
            return None
        g = self.game
        return g.board.static_view(ms, m.facing), self.k.feat.hole_targets(ms, not g.pf_ladders)

    def seer(self, m: Piece) -> Callable[[int], bool]:
        """sees() specialised to one Marine (his view and flags looked up once): for loops over many squares."""
        ms = m.sq
        if m.prone or ms < 0:
            return _blind
        g = self.game
        b = g.board
        view = b.static_view(ms, m.facing)
        ignore_fire = g.fire_module and m.ranged == "assault_cannon"
        plane = b.plane
        lvl = ms // plane
        feat = self.k.feat
        holes = ms in feat._views or (not g.pf_ladders and ms in feat.ladder) or ms in feat.lift
        line_clear = self.line_clear
        sees = self.sees

        def seer(t: int) -> bool:
            if t // plane == lvl:
                line = view.get(t)
                return line is not None and line_clear(line, ignore_fire)
            return holes and sees(m, t)

        return seer

    def seen_by_marine(self, t: int) -> bool:
        """Some Marine sees square t (for blips: [2e] Marines see to the front and sides, fire only to the front)."""
        sc = self.k.scoped()
        return self.seen_in(self.current(sc), sc, t)

    def hidden_from_marines(self, t: int) -> bool:
        """A blip may stand on square t: no Marine sees it and none stands next to it."""
        k = self.k
        sc: Scope | None = k._scope
        if sc is not None and sc.version != k.version:  # (k.scoped(), inlined: the hottest question of the turn)
            sc = None
        sight = sc.sight if sc is not None and sc.sight is not None else self.current(sc)
        near = sight._near if sight._near is not None else sight.near(self.game.board.nbr)
        return t not in near and not self.seen_in(sight, sc, t)

    def seen_in(self, sight: MarineSight, sc: Scope | None, t: int) -> bool:
        """seen_by_marine(t) with the Marines' sight now, kept in the decision's memo `sc` (None: no memo)."""
        cand = sight.cand
        if cand is None:
            cand = sight.candidates()
        if t not in cand:
            # Most squares asked about are out of every drawn view, even on an empty board; only the open views
            # (large arcs) may hold them.
            if not sight.open_eyes:
                return False
            return self.seen_memo(t, sight.open_eyes, sc)
        if sc is None:  # (seen_memo, inlined: this is the hottest question of the Genestealer turn)
            return self.seen_now(t, sight.eyes)
        memo = sc.seen
        r = memo.get(t)
        if r is None:
            r = memo[t] = self.seen_now(t, sight.eyes)
        return r

    def seen_memo(self, t: int, eyes: BlipEyes, sc: Scope | None) -> bool:
        """seen_now(t, eyes), kept in the decision's memo `sc` (None: no memo)."""
        if sc is None:
            return self.seen_now(t, eyes)
        memo = sc.seen
        r = memo.get(t)
        if r is None:
            r = memo[t] = self.seen_now(t, eyes)
        return r

    def current(self, sc: Scope | None) -> MarineSight:
        """marine_sight(), kept for the decision in its memo `sc` (None: no memo)."""
        if sc is None:
            return self.marine_sight()
        sight = sc.sight
        if sight is None:
            # A version that no apply made (the state was edited by hand: rulebook scenarios, tests) has its
            # Marines' poses compared, not only the pose counter.
            k = self.k
            sight = sc.sight = self.marine_sight(check_poses=k.version != k.settled)
        return sight

    def trusted_sight(self) -> MarineSight | None:
        """The kept sight when it surely holds the Marines' poses now (between two applies): none moved, turned,
        fell, stood up or left since it was checked (sight_rev == pose_rev), for these features, and no hand
        edit since the last apply. None otherwise."""
        k = self.k
        sight = k.sight_cache
        if sight is not None and k.sight_rev == k.pose_rev and sight.feat is k.feat and k.version == k.settled:
            return sight
        return None

    def marine_poses(self) -> tuple[tuple[str, int, int, bool], ...]:
        """(id, square, facing, prone) of each Marine on the board, in squad order: the same tuple object while
        none of them changed (the rules' own record), so a player can key a memo on it cheaply."""
        sight = self.trusted_sight()
        return sight.poses if sight is not None else self.poses_now()

    def poses_now(self) -> tuple[tuple[str, int, int, bool], ...]:
        get = self.k.p.get
        # Marines are only ever created with the state (the mission's squad, in p's order), never re-added.
        return tuple([(mid, pc.sq, pc.facing, pc.prone) for mid in self.game.marine_ids
                      if (pc := get(mid)) is not None and pc.sq >= 0 and pc.kind == "marine"])

    def marine_sight(self, check_poses: bool = False) -> MarineSight:
        """What the Marines see now, kept from call to call (the kernel's sight_cache) while they stay put (the
        Genestealer turn, mostly). Eyes: (marine id, level, walls-only view for spotting blips, squares it might
        see through holes) of each seeing Marine."""
        k = self.k
        cached = k.sight_cache
        feat = k.feat
        if cached is not None and cached.feat is feat and k.sight_rev == k.pose_rev and not check_poses:
            return cached  # no Marine moved, turned, fell, stood up or left since the cache was checked
        poses = self.poses_now()
        k.sight_rev = k.pose_rev
        if cached is not None and cached.feat is feat and cached.poses == poses:
            return cached
        memo = feat.eye_memo
        eyes_l: list[Eye] = []
        for pose in poses:
            if not pose[3]:  # prone Marines see nothing
                eye = memo.get(pose)
                if eye is None:
                    eye = self.pose_eye(pose[0], pose[1], pose[2])
                    feat.keep_eye(pose, eye, weight(eye[2]))
                eyes_l.append(eye)
        sight = k.sight_cache = MarineSight(feat, poses, tuple(eyes_l))
        return sight

    def pose_eye(self, mid: str, ms: int, facing: int) -> Eye:
        """Marine mid's eye on square ms facing `facing`: (marine id, level, walls-only view for spotting blips,
        squares it might see through holes). The Board's and Features' own tables are read first."""
        g = self.game
        b = g.board
        view = (b._wide if g.wide_sight else b._views).get(ms * 4 + facing)
        if view is None:
            view = b.wide_view(ms, facing) if g.wide_sight else b.static_view(ms, facing)
        feat = self.k.feat
        through = feat._hole_targets.get(ms)
        if through is None:
            through = feat.hole_targets(ms, not g.pf_ladders)
        return mid, ms // b.plane, view, through

    def seen_now(self, t: int, eyes: BlipEyes) -> bool:
        tl = t // self.game.board.plane
        p = self.k.p
        for pid, lvl, view, through in eyes:
            if lvl == tl:
                line = view.get(t)
                if line is not None and self.line_clear(line):
                    return True
            elif t in through and self.sees(p[pid], t):
                return True
        return False

_NO_FLAMES: dict[int, int] = {}  # never written


def _blind(t: int) -> bool:
    return False
