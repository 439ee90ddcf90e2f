"""`tune`: find parameter values whose Marine win rate is the target within a tolerance, at 95% confidence.

One parameter: a stochastic root finder. The win rate is read at both ends of the range; then a logit secant
(regula falsi on the log-odds, kept inside the middle of the bracket so noise cannot stall it) proposes the
next value, and each look is a sequential test: a point gets a first batch, then more games only while its
interval still straddles the target, or while its estimate lies inside the band and its interval does not
yet (how many more is projected from the estimate: a point far from the target is dropped after a hundred
games, only the answer gets the ~2,400 games that a ±2% interval needs; a value still off the middle of the band
after 1,600 games is set aside for the end). Several whole-number parameters: a screen (a small levers table over
the box) orders them by effect, and the root finder runs on the strongest, then the next with the first held at
its closest value; optuna's TPE sampler over the whole box (points scored by their distance to the target, with the
same sequential test on any point that may land in the band) only when none reaches the target. Every
point plays the same game seeds (common random numbers), so a new point is also read through a deeper one: its
rate plus the paired difference on the seeds both played (docs/balance.md).
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable
from itertools import pairwise

from engine.sim.spec import BatchSpec
from engine.stats.intervals import Z95, paired_diff, wilson
from engine.tune.evaluate import Evaluator, PointData, TuneStopped
from engine.tune.result import BUDGET, CANCELLED, HIT, OUT_OF_REACH, Step, TuneResult
from engine.tune.space import TunedParam

FIRST_LOOK = 100  # games of a point's first look
# A point is dropped, or the search turns, on a 99% interval: a tune looks at many points and each point
# several times, and one wrong turn on 95% would send the search away from the answer for good. A hit is
# judged on the 95% interval, as promised.
Z_TURN = 2.5758293035489004
# In a search over several parameters, a point whose estimate is still off the middle of the band after this many
# games is set aside for the end: confirming one near the band's edge costs ten thousand games or more.
PURSUE_GAMES = 1600
MAX_GROWTH = 4  # a look at most quadruples a point's games: the projection rests on a noisy estimate


def judge(d: PointData, target: float, tol: float) -> str:
    """The verdict of a look: hit, too high/low (the interval misses the band), above/below, or unsure."""
    lo, hi = d.interval()
    if d.games and lo >= target - tol and hi <= target + tol:
        return "hit"
    lo, hi = wilson(d.wins, d.games, Z_TURN)
    if lo > target + tol:
        return "too high"
    if hi < target - tol:
        return "too low"
    if lo > target:
        return "above"
    if hi < target:
        return "below"
    return "unsure"


def side(verdict: str) -> int:
    """+1 when the rate is known to be above the target, -1 below, 0 not known."""
    return {"too high": 1, "above": 1, "too low": -1, "below": -1}.get(verdict, 0)


def games_needed(d: PointData, target: float, tol: float) -> int:
    """How many games the next look gives the point: projected from its estimate, at most MAX_GROWTH times."""
    n = max(d.played, 1)
    p = min(max(d.rate, 0.02), 0.98)
    gap = tol - abs(p - target)
    # Games for a 95% half-width equal to the estimate's distance from the band's edge, plus 10% for the noise.
    need = math.ceil(1.1 * Z95 * Z95 * p * (1 - p) / (gap * gap)) if gap > 0.002 else MAX_GROWTH * n
    return int(min(max(need, n + FIRST_LOOK // 2), MAX_GROWTH * n))


class Tuner:
    """One tune: owns the evaluator and the path; `run()` returns the TuneResult."""

    def __init__(self, ev: Evaluator, target: float, tol: float, seed: int,
                 on_step: Callable[[Step], None] | None = None) -> None:
        self.ev = ev
        self.target = target
        self.tol = tol
        self.seed = seed
        self.on_step = on_step
        self.steps: list[Step] = []

    # --- looks ------------------------------------------------------------------------------------------
    def _record(self, d: PointData) -> Step:
        lo, hi = d.interval()
        s = Step(d.point, d.games, d.rate, lo, hi, judge(d, self.target, self.tol), self.ev.spent)
        self.steps.append(s)
        if self.on_step is not None:
            self.on_step(s)
        return s

    def settle(self, point: tuple[float, ...], pursue: float | None = None, set_aside: bool = True) -> Step:
        """Look at a point until it is a hit, or its side of the target is known and it cannot be one.

        With `pursue`, a point gets more games only while its rate may still be that close to the target (its
        99% interval reaches the inner band): a search over several parameters has better points to try than
        one on the band's edge, which would need thousands of games to be confirmed or dropped. With
        `set_aside`, a point still off the middle of the band after PURSUE_GAMES is left for the end
        (`_confirm_plausible`), its side taken from its estimate, if nothing better turns up.
        """
        d = self.ev.data(point)
        n = max(FIRST_LOOK, d.played)
        inner = self.tol / 2 if pursue is None else pursue
        while True:
            before = d.played
            d = self.ev.ensure(point, n)
            # A point taken up again (set aside earlier) is not looked at twice before it gets more games.
            seen = d.played == before and any(t.point == d.point and t.games == d.games for t in self.steps)
            s = self._last(d.point) if seen else self._record(d)
            if s.verdict == "hit" or s.verdict.startswith("too"):
                return s
            if pursue is not None:
                lo, hi = self.reach(d)
                if hi < self.target - pursue or lo > self.target + pursue:
                    return s
            elif side(s.verdict) and abs(d.rate - self.target) > self.tol:
                return s
            if set_aside and self._off_middle(d, inner):
                return s
            n = games_needed(d, self.target, self.tol)

    def leaning(self, s: Step) -> int:
        """The side of the target a look puts its point on: known at 99%, else the estimate's."""
        return side(s.verdict) or (1 if s.rate >= self.target else -1)

    def reach(self, d: PointData) -> tuple[float, float]:
        """Where the point's win rate may be (99%): its own interval, or the shared-seed estimate's (`through`)
        if that is narrower."""
        own = wilson(d.wins, d.games, Z_TURN)
        cv = self.through(d)
        return (cv[1], cv[2]) if cv is not None and cv[2] - cv[1] < own[1] - own[0] else own

    def through(self, d: PointData) -> tuple[float, float, float] | None:
        """The point's rate read through the point played deepest on the same seeds (at least 4 times as many
        games): that point's rate plus the paired difference on the seeds both played, with a 99% interval.

        Shared seeds make the difference far less noisy than either rate: a point that merely shares the first
        seeds' luck with a known one is seen through after a few hundred games (a control variate).
        """
        refs = [r for r in self.ev.points.values() if r is not d and r.games >= 4 * max(d.played, 1)]
        if not refs or not d.games:
            return None
        ref = max(refs, key=lambda r: r.games)
        pairs = [(x, y) for x, y in zip(d.outcomes, ref.outcomes[:d.played], strict=True) if x and y]
        diff, dlo, dhi = paired_diff([x == 1 for x, _ in pairs], [y == 1 for _, y in pairs], Z_TURN)
        rlo, rhi = wilson(ref.wins, ref.games, Z_TURN)
        est = ref.rate + diff
        # The two errors are independent (the reference's other seeds, the difference on the shared ones):
        # their half-widths add in quadrature, as in Newcombe's intervals.
        return est, est - math.hypot(ref.rate - rlo, diff - dlo), est + math.hypot(rhi - ref.rate, dhi - diff)

    def _off_middle(self, d: PointData, inner: float) -> bool:
        """Known well enough to be off the middle of the band: after PURSUE_GAMES games, or sooner when its
        shared-seed estimate is about as precise as the deep point it is read through, itself past PURSUE_GAMES."""
        if d.games >= PURSUE_GAMES:
            return abs(d.rate - self.target) > inner
        cv = self.through(d)
        if cv is None:
            return False
        ref = max((r for r in self.ev.points.values() if r is not d), key=lambda r: r.games)
        rlo, rhi = wilson(ref.wins, ref.games, Z_TURN)
        # As precise as the deep point itself (the difference adds at most 15% to its interval): the point plays
        # like it, and is judged as it was.
        return (ref.games >= PURSUE_GAMES and cv[2] - cv[1] <= 1.15 * (rhi - rlo)
                and abs(cv[0] - self.target) > inner)

    # --- one parameter ----------------------------------------------------------------------------------
    def one(self, p: TunedParam, index: int = 0, base: tuple[float, ...] | None = None) -> tuple[str, str]:
        """The root finder on one parameter: (status, message). With several, on coordinate `index` of the
        points, the others held at `base`'s values."""
        base = base if base is not None else (p.lo,)

        def at(x: float) -> tuple[float, ...]:
            return tuple(x if i == index else v for i, v in enumerate(base))

        ends = [self.settle(at(p.lo)), self.settle(at(p.hi))]
        for s in ends:
            if s.verdict == "hit":
                return HIT, "hit"
        sa, sb = self.leaning(ends[0]), self.leaning(ends[1])
        if sa == sb:
            where = "above" if sa > 0 else "below"
            status, message = self._confirm_plausible([p], "")
            if status == HIT:
                return status, message
            return OUT_OF_REACH, (
                f"the target {_pct(self.target)} is out of reach in {p.name}={p.label(p.lo)}..{p.label(p.hi)}: "
                f"the Marine win rate is {where} it at both ends ({_rate(ends[0])} and {_rate(ends[1])}); "
                f"widen the range or tune another parameter")
        a, b = (ends[0], ends[1]) if sa < 0 else (ends[1], ends[0])  # a below the target, b above
        resolution = 1.0 if p.integer else (p.hi - p.lo) * 1e-3
        while True:
            if abs(b.point[index] - a.point[index]) <= resolution:
                status, message = self._confirm_plausible([p], "")
                if status == HIT:
                    return status, message
                a, b = sorted((self._last(a.point), self._last(b.point)), key=lambda t: t.point[index])
                return OUT_OF_REACH, (
                    f"no value of {p.name} gives {_pct(self.target)} ± {_pct(self.tol)}: it lies between "
                    f"{p.label(a.point[index])} ({_rate(a)}) and {p.label(b.point[index])} ({_rate(b)}); "
                    f"tune a second parameter with it, or widen the tolerance")
            s = self.settle(at(self._propose(p, a, b, index)))
            if s.verdict == "hit":
                return HIT, "hit"
            if self.leaning(s) < 0:
                a = s
            else:
                b = s

    def _propose(self, p: TunedParam, a: Step, b: Step, index: int = 0) -> float:
        """Next value between a (below the target) and b (above): logit secant, kept in the middle 60%."""
        def logit(s: Step) -> float:
            q = (s.rate * s.games + 0.5) / (s.games + 1)
            return math.log(q / (1 - q))

        xa, xb = a.point[index], b.point[index]
        la, lb, lt = logit(a), logit(b), math.log(self.target / (1 - self.target))
        frac = (lt - la) / (lb - la) if lb != la else 0.5
        frac = min(max(frac, 0.2), 0.8)
        x = xa + frac * (xb - xa)
        if p.integer:
            lo, hi = min(xa, xb) + 1, max(xa, xb) - 1
            x = float(min(max(round(x), lo), hi))
        return x

    # --- several parameters -----------------------------------------------------------------------------
    def screen(self, params: list[TunedParam]) -> tuple[tuple[float, ...], list[int]]:
        """A levers table over the box: the centre, and each parameter at both ends with the others at the centre,
        FIRST_LOOK games each on shared seeds. Returns the centre and the parameters' indices, largest effect
        (the paired difference between a parameter's two ends) first."""
        centre = tuple(p.coord(p.lo + (p.hi - p.lo) / 2) for p in params)
        self.ev.ensure(centre, FIRST_LOOK)
        effects = []
        for i, p in enumerate(params):
            ends = [self.ev.ensure(tuple(x if j == i else c for j, c in enumerate(centre)), FIRST_LOOK)
                    for x in (p.lo, p.hi)]
            n = min(d.played for d in ends)
            pairs = [(x, y) for x, y in zip(ends[1].outcomes[:n], ends[0].outcomes[:n], strict=True) if x and y]
            diff, _, _ = paired_diff([x == 1 for x, _ in pairs], [y == 1 for _, y in pairs])
            effects.append(abs(diff))
        return centre, sorted(range(len(params)), key=lambda i: (-effects[i], i))

    def guided(self, params: list[TunedParam]) -> tuple[str, str]:
        """Several whole-number parameters, where the screen says the effect is: the root finder on the strongest
        lever with the others at the centre; if the target is out of its reach, that lever held at its closest
        value and the next one searched, and so on; optuna's TPE over the whole box only when none reaches it."""
        point, order = self.screen(params)
        for i in order:
            status, message = self.one(params[i], i, point)
            if status == HIT:
                return status, message
            line = [s for s in self._bests() if all(s.point[j] == point[j] for j in range(len(point)) if j != i)]
            point = min(line, key=self._miss).point
        return self.many(params)

    def many(self, params: list[TunedParam]) -> tuple[str, str]:
        """optuna's TPE over the box, each point scored by |rate - target|, band hits confirmed by settle."""
        import optuna

        optuna.logging.set_verbosity(optuna.logging.WARNING)
        dists: dict[str, optuna.distributions.BaseDistribution] = {
            p.name: (optuna.distributions.IntDistribution(int(p.lo), int(p.hi)) if p.integer
                     else optuna.distributions.FloatDistribution(p.lo, p.hi))
            for p in params
        }
        sampler = optuna.samplers.TPESampler(seed=self.seed, n_startup_trials=max(6, 3 * len(params)))
        study = optuna.create_study(direction="minimize", sampler=sampler)
        size = math.prod(int(p.hi - p.lo) + 1 for p in params) if all(p.integer for p in params) else None
        repeats = 0
        while True:
            trial = study.ask(dists)
            point = tuple(float(trial.params[p.name]) for p in params)
            known = self.ev.data(point).played > 0
            s = self.settle(point, pursue=self.tol / 2) if not known else self._last(point)
            study.tell(trial, abs(s.rate - self.target))
            if s.verdict == "hit":
                return HIT, "hit"
            repeats = repeats + 1 if known else 0
            tried = sum(1 for d in self.ev.points.values() if d.played)
            exhausted = size is not None and tried >= size
            if exhausted or repeats >= 50:
                return self._confirm_plausible(params, "every point tried" if exhausted else
                                               "the search stopped moving")

    def _confirm_plausible(self, params: list[TunedParam], why: str) -> tuple[str, str]:
        """Once the search has nothing new to try: give the points that may still hit more games, those whose
        interval reaches least far from the target first."""
        for s in sorted(self._bests(), key=self._miss):
            lo, hi = wilson(round(s.rate * s.games), s.games, Z_TURN)
            if hi < self.target - self.tol or lo > self.target + self.tol:
                continue
            if self.settle(s.point, set_aside=False).verdict == "hit":
                return HIT, "hit"
        best = min(self._bests(), key=self._miss)
        return OUT_OF_REACH, (f"no point of the box gives {_pct(self.target)} ± {_pct(self.tol)} ({why}; "
                              f"closest: {self._label(params, best.point)} at {_rate(best)})")

    def _last(self, point: tuple[float, ...]) -> Step:
        key = self.ev.key(point)
        return next(s for s in reversed(self.steps) if s.point == key)

    def _bests(self) -> list[Step]:
        """The last look at every point."""
        return last_looks(self.steps)

    @staticmethod
    def _label(params: list[TunedParam], point: tuple[float, ...]) -> str:
        return ", ".join(f"{p.name}={p.label(x)}" for p, x in zip(params, point, strict=True))

    def best(self) -> Step | None:
        """The hit if any, else the point whose interval reaches least far from the target."""
        return closest(self.steps, self.target)

    def _miss(self, s: Step) -> tuple[float, int]:
        return miss(s, self.target)


def last_looks(steps: list[Step]) -> list[Step]:
    """The last look at every point, in the order the points were first looked at."""
    last: dict[tuple[float, ...], Step] = {}
    for s in steps:
        last[s.point] = s
    return list(last.values())


def miss(s: Step, target: float) -> tuple[float, int]:
    """How far a point's 95% interval reaches from the target: the closest point is the one surest to be near it,
    not a point whose estimate of a hundred games happens to fall on it."""
    return max(abs(s.low - target), abs(s.high - target)), -s.games


def closest(steps: list[Step], target: float) -> Step | None:
    """The hit if any, else the point whose 95% interval reaches least far from the target."""
    hits = [s for s in steps if s.verdict == "hit"]
    if hits:
        return hits[-1]
    pool = last_looks(steps)
    return min(pool, key=lambda s: miss(s, target)) if pool else None


def narrowed(params: list[TunedParam], steps: list[Step], target: float) -> list[tuple[float, float]]:
    """The ranges a search stopped early may go on with: for one number, the two neighbouring values looked at
    whose estimates lie on either side of the target, the one nearest the closest point; else the full ranges."""
    full = [(p.lo, p.hi) for p in params]
    best = closest(steps, target)
    if len(params) != 1 or params[0].choices or best is None:
        return full
    looks = sorted(last_looks(steps), key=lambda s: s.point[0])
    brackets = [(a.point[0], b.point[0]) for a, b in pairwise(looks)
                if (a.rate - target) * (b.rate - target) <= 0]
    if not brackets:
        return full
    x = best.point[0]
    return [min(brackets, key=lambda ab: 0.0 if ab[0] <= x <= ab[1] else min(abs(ab[0] - x), abs(ab[1] - x)))]


def rate_text(s: Step) -> str:
    """A look's Marine win rate with its 95% interval and games, as messages print it."""
    return _rate(s)


def tune(
    base: BatchSpec,
    params: list[TunedParam],
    *,
    target: float,
    tolerance: float = 0.02,
    budget: int = 20_000,
    backend: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    cancel: threading.Event | None = None,
    on_step: Callable[[Step], None] | None = None,
    on_games: Callable[[int], None] | None = None,
) -> TuneResult:
    """Search `params` for a Marine win rate of `target` ± `tolerance`; `base.seed` seeds games and search."""
    if not 0 < target < 1:
        raise ValueError(f"the target must be a win rate strictly between 0 and 1, not {target}")
    if not 0 < tolerance < 0.5:
        raise ValueError(f"the tolerance must be between 0 and 0.5, not {tolerance}")
    if not params:
        raise ValueError("name at least one parameter to tune")
    ev = Evaluator(base, params, budget=budget, backend=backend, workers=workers, scheduler=scheduler,
                   cancel=cancel, on_games=on_games)
    tuner = Tuner(ev, target, tolerance, base.seed, on_step)
    began, cpu0 = time.perf_counter(), _cpu_seconds()
    try:
        status, message = (tuner.one(params[0]) if len(params) == 1 else
                           tuner.guided(params) if all(p.integer for p in params) else tuner.many(params))
    except TuneStopped as stop:
        status = CANCELLED if stop.reason == "cancelled" else BUDGET
        message = ("cancelled" if status == CANCELLED else
                   f"the budget of {budget} games ran out before a point was confirmed; give a larger --budget")
    finally:
        ev.close()
    best = tuner.best()
    if status == HIT:
        assert best is not None
        message = f"{tuner._label(params, best.point)} gives {_rate(best)}, inside {_pct(target)} ± {_pct(tolerance)}"
    elif status == BUDGET and best is not None:
        message += f" (closest so far: {tuner._label(params, best.point)} at {_rate(best)})"
    return TuneResult(params, target, tolerance, status, message, tuner.steps, best, ev.spent, ev.failed,
                      time.perf_counter() - began, _cpu_seconds() - cpu0)


def _cpu_seconds() -> float:
    """CPU time of this process and its finished children (the pool's workers, once they have exited)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _rate(s: Step) -> str:
    return f"{_pct(s.rate)} [{_pct(s.low)}–{_pct(s.high)}] over {s.games} games"
