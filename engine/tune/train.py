"""`train`: tune the heuristic players' weights for one mission by self-play.

Each round optimises one side's weights (optuna's TPE over engine.ai.weights.SEARCH_RANGES, every trial on the
same game seeds) against the other side's current best, then re-plays the few best trials and the incumbent on
fresh seeds and keeps the winner there (the trials' own scores are biased upwards by the choice of the best).
Rounds alternate sides. A side's score is its wins plus half its draws, per game.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.ai.base import SIDES
from engine.ai.weights import SEARCH_RANGES, WEIGHT_CLASSES, defaults
from engine.sim.batch import iter_batch, prepare_spec
from engine.sim.local import LocalPool, RunStatus
from engine.sim.spec import BatchSpec
from engine.stats.intervals import paired_diff, wilson

FINALISTS = 3  # best trials re-played on fresh seeds beside the incumbent
CHECK_SHARE = 0.25  # of a round's games, for that re-play


class TrainStopped(Exception):
    """Cancelled."""


def other(side: str) -> str:
    """The opposing side."""
    return SIDES[1] if side == SIDES[0] else SIDES[0]


@dataclass
class Outcomes:
    """Winners by game index of one batch ("" for a failed game)."""

    winners: list[str]

    def score(self, side: str) -> float:
        """Wins plus half the draws, per finished game."""
        done = [w for w in self.winners if w]
        return sum(1.0 if w == side else 0.5 if w == "draw" else 0.0 for w in done) / max(1, len(done))

    def wins(self, side: str) -> list[bool]:
        """Did `side` win, game by game."""
        return [w == side for w in self.winners]


@dataclass
class Round:
    """One round: the side trained, its trials' scores, the finalists' check and the weights kept."""

    side: str
    trials: int
    best_trial_score: float
    incumbent_check: float
    kept_check: float
    changed: bool
    weights: dict[str, float]
    games: int
    worst: float | None = None  # against a population: the kept weights' worst win rate minus the defaults'
    worst_against: str = ""  # ...and against which opponent
    rejected: int = 0  # finalists refused because they fell more than the gate below the defaults somewhere
    refused: list[tuple[str, float]] = field(default_factory=list)  # each refused one's worst opponent and gap


@dataclass
class Comparison:
    """Tuned against start weights for one side, both against the opponent's start weights, paired by seed."""

    side: str
    games: int
    start_rate: float
    start_ci: tuple[float, float]
    tuned_rate: float
    tuned_ci: tuple[float, float]
    diff: tuple[float, float, float]  # tuned - start, with its paired 95% interval
    start_score: float
    tuned_score: float

    @property
    def significant(self) -> bool:
        """The tuned player wins more often, at 95%."""
        return self.diff[1] > 0

    def to_json(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"side": self.side, "games": self.games, "start_win_rate": self.start_rate,
                "start_win_ci95": list(self.start_ci), "tuned_win_rate": self.tuned_rate,
                "tuned_win_ci95": list(self.tuned_ci), "diff": self.diff[0], "diff_ci95": list(self.diff[1:]),
                "start_score": self.start_score, "tuned_score": self.tuned_score, "significant": self.significant}


@dataclass
class TrainResult:
    """Trained weights by side (full sets), the rounds, and the check of each trained side."""

    weights: dict[str, dict[str, float]]
    rounds: list[Round] = field(default_factory=list)
    checks: list[Comparison] = field(default_factory=list)
    population: list[Any] = field(default_factory=list)  # engine.tune.population.PopulationCheck per side
    notes: list[str] = field(default_factory=list)  # opponents skipped (their policies are not registered)
    spent: int = 0
    seconds: float = 0.0
    cancelled: bool = False


class Trainer:
    """Plays batches for a training run on one pool, counting games."""

    def __init__(self, base: BatchSpec, *, backend: str, workers: int | None, scheduler: str | None,
                 cancel: threading.Event | None, on_games: Callable[[int], None] | None) -> None:
        self.base = prepare_spec(base)
        self.backend = backend
        self.workers = workers
        self.scheduler = scheduler
        self.cancel = cancel
        self.on_games = on_games
        self.spent = 0
        self.pool = LocalPool(workers) if backend == "local" else None

    def play(self, weights: dict[str, dict[str, float]], seed: int, games: int,
             policies: dict[str, str] | None = None) -> Outcomes:
        """Games 0..games-1 of `seed` with these weights (parameters) per side, and these policies if given."""
        spec = self.base.with_changes(games=games, seed=seed, params={s: dict(w) for s, w in weights.items()},
                                      policies={**self.base.policies, **(policies or {})})
        winners = [""] * games
        status = RunStatus()
        n = 0
        for rec in iter_batch(spec, backend=self.backend, workers=self.workers, scheduler=self.scheduler,
                              cancel=self.cancel, status=status, pool=self.pool):
            winners[rec.index] = rec.winner or ""
            n += 1
            if self.on_games is not None:
                self.on_games(1)
        self.spent += n
        if n < games:
            raise TrainStopped(status.stopped or "cancelled")
        return Outcomes(winners)

    def close(self) -> None:
        """Stop the workers."""
        if self.pool is not None:
            self.pool.close()
            self.pool = None


def _suggest(trial: Any, side: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for name, r in SEARCH_RANGES[side].items():
        if r.step is not None:
            out[name] = float(trial.suggest_int(name, int(r.lo), int(r.hi)))
        else:
            out[name] = float(trial.suggest_float(name, r.lo, r.hi))
    return out


def _in_space(side: str, w: dict[str, float]) -> dict[str, Any]:
    """Weights as optuna's distributions take them (clipped into the search ranges, integers as int)."""
    out: dict[str, Any] = {}
    for name, r in SEARCH_RANGES[side].items():
        v = min(max(w[name], r.lo), r.hi)
        out[name] = round(v) if r.step is not None else v
    return out


def train_round(tr: Trainer, side: str, current: dict[str, dict[str, float]], games: int, trial_games: int,
                seed: int) -> Round:
    """Optimise `side` against current[other side]; returns the round with the weights kept."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    check_games = max(trial_games, int(games * CHECK_SHARE) // (FINALISTS + 1))
    n_trials = max(2, (games - check_games * (FINALISTS + 1)) // trial_games)
    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed))
    study.enqueue_trial(_in_space(side, current[side]))  # the incumbent is trial 0
    train_seed, check_seed = 2 * seed + 1, 2 * seed + 2
    spent0 = tr.spent
    tried: list[tuple[float, dict[str, float]]] = []
    for _ in range(n_trials):
        trial = study.ask()
        w = _suggest(trial, side)
        score = tr.play({**current, side: w}, train_seed, trial_games).score(side)
        study.tell(trial, score)
        tried.append((score, w))
    incumbent = tried[0][1]
    ranked = sorted(tried[1:], key=lambda t: -t[0])
    finalists = [incumbent] + [w for _, w in ranked[:FINALISTS]]
    checks = [tr.play({**current, side: w}, check_seed, check_games).score(side) for w in finalists]
    best = max(range(len(finalists)), key=lambda i: (checks[i], -i))  # ties keep the incumbent
    return Round(side, n_trials, max(t[0] for t in tried), checks[0], checks[best], best != 0,
                 dict(finalists[best]), tr.spent - spent0)


def compare(tr: Trainer, side: str, start: dict[str, dict[str, float]], tuned: dict[str, float], games: int,
            seed: int) -> Comparison:
    """Tuned vs start weights for `side` on the same fresh seeds, both against the opponent's start weights."""
    a = tr.play(start, seed, games)
    b = tr.play({**start, side: tuned}, seed, games)
    wa, wb = a.wins(side), b.wins(side)
    return Comparison(side, games, sum(wa) / games, wilson(sum(wa), games), sum(wb) / games,
                      wilson(sum(wb), games), paired_diff(wb, wa), a.score(side), b.score(side))


def train(
    base: BatchSpec,
    side: str,
    *,
    games: int,
    rounds: int = 1,
    trial_games: int = 100,
    check_games: int = 1000,
    backend: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    cancel: threading.Event | None = None,
    on_round: Callable[[Round], None] | None = None,
    on_games: Callable[[int], None] | None = None,
    against: Sequence[str] | None = None,
) -> TrainResult:
    """Train `side` (then the other, alternately, for `rounds`) from the weights in `base.params`.

    `games` is shared by the rounds; `check_games` more per trained side compare its tuned and start weights
    on seeds no round used. Reproducible from `base.seed`. With `against` (names of
    engine.tune.population.POPULATION), each round trains against that population instead of the other side's
    current weights, and the check plays `check_games` per opponent; a side whose check falls more than the
    gate below the defaults against any opponent keeps the defaults.
    """
    if side not in SIDES:
        raise ValueError(f"side must be marines or genestealers, not {side!r}")
    if rounds < 1 or games < 1 or trial_games < 1:
        raise ValueError("games, rounds and trial games must be at least 1")
    start = {s: {**defaults(WEIGHT_CLASSES[s]), **base.params.get(s, {})} for s in SIDES}
    current = {s: dict(w) for s, w in start.items()}
    tr = Trainer(base, backend=backend, workers=workers, scheduler=scheduler, cancel=cancel, on_games=on_games)
    result = TrainResult({})
    began = time.perf_counter()
    trained: list[str] = []
    history: dict[str, list[tuple[int, dict[str, float]]]] = {s: [] for s in SIDES}
    try:
        for r in range(rounds):
            s = side if r % 2 == 0 else other(side)
            r_seed = base.seed * 1000 + r
            if against is None:
                rd = train_round(tr, s, current, games // rounds, trial_games, r_seed)
            else:
                from engine.tune.population import build_population, population_round

                opponents, notes = build_population(against, s, start[other(s)], history[other(s)])
                result.notes += [n for n in notes if n not in result.notes]
                rd = population_round(tr, s, start[s], current[s], opponents, games // rounds, trial_games,
                                      r_seed)
            current[s] = rd.weights
            history[s].append((r + 1, dict(rd.weights)))
            result.rounds.append(rd)
            if s not in trained:
                trained.append(s)
            if on_round is not None:
                on_round(rd)
        if check_games and against is None:
            for s in trained:
                result.checks.append(compare(tr, s, start, current[s], check_games, base.seed * 1000 + 999))
        elif check_games and against is not None:
            from engine.tune.population import build_population, check_population

            for s in trained:
                opponents, _ = build_population(against, s, start[other(s)], history[other(s)])
                c = check_population(tr, s, start[s], current[s], opponents, check_games, base.seed * 1000 + 999)
                if not c.within_gate:  # the promise holds for what is written: never worse by more than the gate
                    current[s], c.fell_back = dict(start[s]), True
                result.population.append(c)
    except TrainStopped:
        result.cancelled = True
    finally:
        tr.close()
    result.weights = {s: current[s] for s in trained}
    result.spent = tr.spent
    result.seconds = time.perf_counter() - began
    return result
