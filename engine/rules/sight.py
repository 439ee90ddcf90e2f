"""Lines of sight: what a Marine sees, and whether any Marine sees a square (blips)."""

from __future__ import annotations

from collections.abc import Callable

from engine.rules.board import Line
from engine.rules.features import Features
from engine.rules.pieces import Piece
from engine.rules.victory import VictoryRules

# (marine id, level, view, squares seen through holes) of one seeing Marine, and of each
Eye = tuple[str, int, dict[int, Line], frozenset[int]]
BlipEyes = tuple[Eye, ...]


class MarineSight:
    """What the Marines on the board see, for one set of Marine poses (feat, then (id, square, facing, prone) of
    each Marine on the board): immutable once made but for `cand` and `near`, which are worked out from those
    poses on first use. Shared by copies of a state (a state whose Marines moved makes a new one)."""

    __slots__ = ("_near", "cand", "eyes", "feat", "poses")

    def __init__(self, feat: Features, poses: tuple[tuple[str, int, int, bool], ...], eyes: BlipEyes) -> None:
        self.feat = feat
        self.poses = poses
        self.eyes = eyes  # the seeing (not prone) Marines'
        # Every square in their views (candidates()): built on first use, since in the Marine turn the poses
        # change with nearly every action and the conversion check alone does without it.
        self.cand: frozenset[int] | None = None
        self._near: frozenset[int] | None = None

    def candidates(self) -> frozenset[int]:
        """Every square some seeing Marine might see (_seen_by_marine_now is false for all others)."""
        cand = self.cand
        if cand is None:
            eyes = self.eyes
            cand = self.cand = frozenset().union(*[e[2] for e in eyes], *[e[3] for e in eyes])
        return cand

    def near(self, nbr: list[tuple[int, ...]]) -> frozenset[int]:
        """Every square next to a Marine on the board (nbr: the board's neighbour table)."""
        near = self._near
        if near is None:
            near = self._near = frozenset().union(*[nbr[sq] for _pid, sq, _f, _prone in self.poses])
        return near


class SightRules(VictoryRules):
    """Lines of sight: what a Marine sees, and whether any Marine sees a square (blips)."""

    def _blocked(self, c: int) -> bool:
        return c in self.occ or c in self.closed or c in self.flames or c in self.barriers

    def _clear_line(self, a: int, t: int, ignore_fire: bool = False) -> bool:
        line = self.game.board.line(a, t)
        return line is not None and self._line_clear(line, ignore_fire)

    def _line_clear(self, line: Line, ignore_fire: bool = False) -> bool:
        """No model, closed door, flame (unless ignored) or barrier on a static line (corners: both squares)."""
        occ, closed, bar = self.occ, self.closed, self.barriers
        flames: dict[int, int] = _NO_FLAMES if ignore_fire else self.flames
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

    def _sees(self, m: Piece, t: int) -> bool:
        """Marine m has LOS to square t (front arc; through holes per the Pitfall rules)."""
        ms = m.sq
        if m.prone or ms < 0:
            return False
        b = self.game.board
        if ms // b.plane == t // b.plane:
            line = b.static_view(ms, m.facing).get(t)
            return line is not None and self._line_clear(line, self.game.fire_module and m.ranged == "assault_cannon")
        if not self.game.pf_ladders and self.feat.ladder.get(ms) == t:
            return True  # [4e] the two ends of a ladder are adjacent, whatever the facing
        if ms not in self.feat._views:
            return False
        return self.feat.hole_sees(self, m, t)

    def _own_level_sight(self, m: Piece) -> tuple[dict[int, Line], bool] | None:
        """(m's walls-only view, whether fire is no obstacle to him) for the squares of his own level: there he
        sees t when view[t] is a clear line (_sees). None when he sees nothing (prone or off the board)."""
        if m.prone or m.sq < 0:
            return None
        return self.game.board.static_view(m.sq, m.facing), self.game.fire_module and m.ranged == "assault_cannon"

    def _seer(self, m: Piece) -> Callable[[int], bool]:
        """_sees specialised to one Marine (its view and flags looked up once): for loops over many squares."""
        own = self._own_level_sight(m)
        if own is None:
            return _blind
        view, ignore_fire = own
        ms = m.sq
        plane = self.game.board.plane
        lvl = ms // plane
        holes = ms in self.feat._views or (not self.game.pf_ladders and ms in self.feat.ladder)
        line_clear = self._line_clear
        sees = self._sees

        def seer(t: int) -> bool:
            if t // plane == lvl:
                line = view.get(t)
                return line is not None and line_clear(line, ignore_fire)
            return holes and sees(m, t)

        return seer

    def _seen_by_marine(self, t: int) -> bool:
        """Some Marine sees square t (for blips: [2e] Marines see to the front and sides, fire only to the front)."""
        if self._memo_v != self.version:
            sight = self._marine_sight()
            return t in sight.candidates() and self._seen_by_marine_now(t, sight.eyes)
        sight = self._sight()
        cand = sight.cand
        if cand is None:
            cand = sight.candidates()
        if t not in cand:
            return False  # most squares asked about are out of every Marine's view, even on an empty board
        memo = self._seen_memo
        r = memo.get(t)
        if r is None:
            r = memo[t] = self._seen_by_marine_now(t, sight.eyes)
        return r

    def _sight(self) -> MarineSight:
        """_marine_sight(), kept for the memo scope's version when one is open."""
        if self._memo_v != self.version:
            return self._marine_sight()
        sight = self._sight_memo
        if sight is None:
            # A version that no apply made (the state was edited by hand: rulebook scenarios, tests) has its
            # Marines' poses compared, not only _pose_rev.
            sight = self._sight_memo = self._marine_sight(check_poses=self.version != self._settled_v)
        return sight

    def _trusted_sight(self) -> MarineSight | None:
        """_sight_cache when it surely holds the Marines' poses now (between two applies): none moved, turned,
        fell, stood up or left since it was checked (_sight_rev == _pose_rev), for these features, and no hand
        edit since the last apply. None otherwise."""
        sight = self._sight_cache
        if (
            sight is not None
            and self._sight_rev == self._pose_rev
            and sight.feat is self.feat
            and self.version == self._settled_v
        ):
            return sight
        return None

    def marine_poses(self) -> tuple[tuple[str, int, int, bool], ...]:
        """(id, square, facing, prone) of each Marine on the board, in squad order: the same tuple object while
        none of them changed (the rules' own record), so a player can key a memo on it cheaply."""
        sight = self._trusted_sight()
        return sight.poses if sight is not None else self._poses_now()

    def _poses_now(self) -> tuple[tuple[str, int, int, bool], ...]:
        get = self.p.get
        # Marines are only ever created with the state (the mission's squad, in p's order), never re-added.
        return tuple([(mid, pc.sq, pc.facing, pc.prone) for mid in self.game.marine_ids
                      if (pc := get(mid)) is not None and pc.sq >= 0 and pc.kind == "marine"])

    def _marine_sight(self, check_poses: bool = False) -> MarineSight:
        """What the Marines see now, kept from call to call (in _sight_cache) while they stay put (the Genestealer
        turn, mostly). Eyes: (marine id, level, walls-only view for spotting blips, squares it might see through
        holes) of each seeing Marine."""
        cached = self._sight_cache
        feat = self.feat
        if cached is not None and cached.feat is feat and self._sight_rev == self._pose_rev and not check_poses:
            return cached  # no Marine moved, turned, fell, stood up or left since the cache was checked
        poses = self._poses_now()
        self._sight_rev = self._pose_rev
        if cached is not None and cached.feat is feat and cached.poses == poses:
            return cached
        memo = feat.eye_memo
        eyes_l: list[Eye] = []
        for pose in poses:
            if not pose[3]:  # prone Marines see nothing
                eye = memo.get(pose)
                if eye is None:
                    eye = memo[pose] = self._pose_eye(pose[0], pose[1], pose[2])
                eyes_l.append(eye)
        sight = self._sight_cache = MarineSight(feat, poses, tuple(eyes_l))
        return sight

    def _pose_eye(self, mid: str, ms: int, facing: int) -> Eye:
        """Marine mid's eye on square ms facing `facing`: (marine id, level, walls-only view for spotting blips,
        squares it might see through holes). The Board's and Features' own tables are read first."""
        g = self.game
        b = g.board
        view = (b._wide if g.wide_sight else b._views).get(ms * 4 + facing)
        if view is None:
            view = b.wide_view(ms, facing) if g.wide_sight else b.static_view(ms, facing)
        feat = self.feat
        through = feat._hole_targets.get(ms)
        if through is None:
            through = feat.hole_targets(ms, not g.pf_ladders)
        return mid, ms // b.plane, view, through

    def _seen_by_marine_now(self, t: int, eyes: BlipEyes) -> bool:
        tl = t // self.game.board.plane
        for pid, lvl, view, through in eyes:
            if lvl == tl:
                line = view.get(t)
                if line is not None and self._line_clear(line):
                    return True
            elif t in through and self._sees(self.p[pid], t):
                return True
        return False

    def _adjacent_to_marine(self, t: int) -> bool:
        return t in self._sight().near(self.game.board.nbr)

    def _open_memo(self) -> None:
        """Make sure a memo scope is open for this state version. Legal actions are asked for between two
        applies, when nothing moves (apply changes the version first), so one scope serves a whole version."""
        if self._memo_v != self.version:
            self._begin_memo()

    def _begin_memo(self) -> None:
        """Open a fresh scope in which nothing moves (legal actions, looking for seen blips); it lasts until
        _end_memo or until the version changes."""
        self._memo_v = self.version
        self._seen_memo = {}
        self._sight_memo = None

    def _end_memo(self) -> None:
        self._memo_v = -1
        self._seen_memo = {}
        self._sight_memo = None


_NO_FLAMES: dict[int, int] = {}  # never written


def _blind(t: int) -> bool:
    return False
