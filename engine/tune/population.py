"""Training against a population: the trained side meets every opponent, and never trades one for another.

Weights tuned against one opponent overfit it (Genestealers that hold the heuristic Marines down can let the
novices' straight walk through). With `--against random,novice,heuristic,search,rounds` each trial plays the
same games against every opponent of the population: the players of those skill tiers (engine.tune.tiers) on
the other side, and with `rounds` the other side's weights from the start and from every earlier round. A
trial's score is its mean score over the opponents, less any shortfall beyond the gate against the defaults'
score on the same seeds. The finalists are re-played on fresh seeds beside the defaults, and a candidate is
kept only if against every opponent its win rate there is within GATE of the defaults' (paired, same seeds);
the defaults are always eligible, so a round that finds nothing safe keeps them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.stats.intervals import paired_diff, wilson
from engine.tune.tiers import TIERS
from engine.tune.train import Outcomes, Round, Trainer, other

GATE = 0.03  # the most a trained side may lose against any opponent, as a share of games (3 points)
POPULATION = ("random", "novice", "heuristic", "search", "rounds")
ROUNDS_KEPT = 3  # with `rounds`: the other side's most recent distinct weights met, besides its start weights
# Of a round's games, for re-playing the finalists beside the incumbent and the defaults. The gate compares
# point estimates per opponent, so these games matter more than in single-opponent training: with 25 games a
# single game is 4 points and every candidate that loses one is refused.
POPULATION_CHECK_SHARE = 0.4
FINALISTS = 2


@dataclass(frozen=True)
class Opponent:
    """One member of the population: a name for the report, the other side's policy and its parameters."""

    name: str
    policy: str
    params: dict[str, float]


def parse_against(text: str) -> list[str]:
    """'random,novice,heuristic' -> the names; ValueError naming an unknown or repeated one."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise ValueError(f"--against: name at least one opponent ({', '.join(POPULATION)})")
    for n in names:
        if n not in POPULATION:
            raise ValueError(f"--against: unknown opponent {n!r} (opponents: {', '.join(POPULATION)})")
        if names.count(n) > 1:
            raise ValueError(f"--against: {n!r} is given twice")
    return names


def build_population(names: Sequence[str], side: str, start_other: dict[str, float],
                     earlier_other: Sequence[tuple[int, dict[str, float]]]) -> tuple[list[Opponent], list[str]]:
    """The opponents `side` meets, and a note per opponent skipped (its policy is not registered).

    `earlier_other`: (round number, the other side's weights after it) for each earlier round that trained the
    other side, oldest first; `rounds` meets its start weights (unless `heuristic` already does) and the last
    ROUNDS_KEPT distinct ones.
    """
    opp = other(side)
    tiers = {t.name: t for t in TIERS}
    out: list[Opponent] = []
    notes: list[str] = []
    for name in names:
        if name == "rounds":
            seen = [start_other]
            if "heuristic" not in names:
                out.append(Opponent("start weights", f"heuristic-{opp}", dict(start_other)))
            later: list[Opponent] = []
            for i, w in earlier_other:
                if w not in seen:
                    later.append(Opponent(f"{opp} of round {i}", f"heuristic-{opp}", dict(w)))
                    seen.append(w)
            out += later[-ROUNDS_KEPT:]
            continue
        tier = tiers[name]
        missing = tier.missing()
        if missing:
            notes.append(f"opponent {name} skipped: {', '.join(missing)} not registered in this build")
            continue
        policy, params = tier.player(opp)
        out.append(Opponent(name, policy, dict(start_other) if name == "heuristic" else params))
    return out, notes


def play_against(tr: Trainer, side: str, weights: dict[str, float], opponents: Sequence[Opponent], seed: int,
                 games: int) -> dict[str, Outcomes]:
    """The heuristic `side` with `weights` against each opponent, on games 0..games-1 of `seed`."""
    opp = other(side)
    return {o.name: tr.play({side: weights, opp: o.params}, seed, games,
                            policies={side: f"heuristic-{side}", opp: o.policy}) for o in opponents}


def _win_rate(o: Outcomes, side: str) -> float:
    w = o.wins(side)
    return sum(w) / max(1, len(w))


def worst_shortfall(side: str, cand: dict[str, Outcomes], base: dict[str, Outcomes]) -> tuple[float, str]:
    """The lowest candidate-minus-defaults win rate over the opponents, and against whom."""
    diffs = {n: _win_rate(cand[n], side) - _win_rate(base[n], side) for n in cand}
    name = min(diffs, key=lambda n: (diffs[n], n))
    return diffs[name], name


def population_round(tr: Trainer, side: str, start: dict[str, float], incumbent: dict[str, float],
                     opponents: Sequence[Opponent], games: int, trial_games: int, seed: int) -> Round:
    """Optimise `side` against the whole population; keep only weights within GATE of the defaults everywhere."""
    import optuna

    from engine.tune.train import _in_space, _suggest

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    n = len(opponents)
    candidates_checked = FINALISTS + (1 if start == incumbent else 2)  # the finalists, incumbent, defaults
    per_check = max(trial_games, int(games * POPULATION_CHECK_SHARE) // (candidates_checked * n))
    trial_cost = trial_games * n
    n_trials = max(2, (games - trial_cost - per_check * candidates_checked * n) // trial_cost)
    train_seed, check_seed = 2 * seed + 1, 2 * seed + 2
    spent0 = tr.spent
    ref = {k: v.score(side) for k, v in play_against(tr, side, start, opponents, train_seed, trial_games).items()}

    def objective(out: dict[str, Outcomes]) -> float:
        scores = {k: v.score(side) for k, v in out.items()}
        shortfall = min(scores[k] - ref[k] for k in scores) + GATE
        return sum(scores.values()) / n + min(0.0, shortfall)

    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed))
    study.enqueue_trial(_in_space(side, incumbent))  # the incumbent is trial 0
    tried: list[tuple[float, dict[str, float]]] = []
    for _ in range(n_trials):
        trial = study.ask()
        w = _suggest(trial, side)
        score = objective(play_against(tr, side, w, opponents, train_seed, trial_games))
        study.tell(trial, score)
        tried.append((score, w))
    ranked = [w for _, w in sorted(tried[1:], key=lambda t: -t[0])]
    finalists = [dict(incumbent)]
    for w in ([start] if start != incumbent else []) + ranked[:FINALISTS]:
        if w not in finalists:
            finalists.append(dict(w))
    base = play_against(tr, side, start, opponents, check_seed, per_check)
    checks: list[tuple[float, float, str]] = []  # (mean score, worst shortfall, against whom)
    for w in finalists:
        out = base if w == start else play_against(tr, side, w, opponents, check_seed, per_check)
        worst, who = worst_shortfall(side, out, base)
        checks.append((sum(v.score(side) for v in out.values()) / n, worst, who))
    eligible = [i for i, c in enumerate(checks) if c[1] >= -GATE - 1e-12]
    best = max(eligible, key=lambda i: (checks[i][0], -i))  # ties keep the incumbent
    return Round(side, n_trials, max(t[0] for t in tried), checks[0][0], checks[best][0],
                 finalists[best] != incumbent, dict(finalists[best]), tr.spent - spent0,
                 worst=checks[best][1], worst_against=checks[best][2],
                 rejected=len(finalists) - len(eligible),
                 refused=[(c[2], c[1]) for i, c in enumerate(checks) if i not in eligible])


@dataclass
class Matchup:
    """Trained and default weights of one side against one opponent, on the same fresh seeds."""

    opponent: str
    policy: str
    games: int
    default_rate: float
    default_ci: tuple[float, float]
    trained_rate: float
    trained_ci: tuple[float, float]
    diff: tuple[float, float, float]  # trained - defaults, with its paired 95% interval

    def to_json(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"opponent": self.opponent, "policy": self.policy, "games": self.games,
                "default_win_rate": self.default_rate, "default_win_ci95": list(self.default_ci),
                "trained_win_rate": self.trained_rate, "trained_win_ci95": list(self.trained_ci),
                "diff": self.diff[0], "diff_ci95": list(self.diff[1:])}


@dataclass
class PopulationCheck:
    """One trained side against every opponent, defaults beside; `fell_back` when it failed the gate."""

    side: str
    rows: list[Matchup]
    fell_back: bool = False

    @property
    def worst(self) -> Matchup:
        """The opponent against which the trained side does worst relative to the defaults."""
        return min(self.rows, key=lambda r: (r.diff[0], r.opponent))

    @property
    def within_gate(self) -> bool:
        """Within GATE of the defaults against every opponent (point estimates, paired)."""
        return self.worst.diff[0] >= -GATE - 1e-12

    def to_json(self) -> dict[str, Any]:
        """JSON-ready."""
        w = self.worst
        return {"side": self.side, "opponents": [r.to_json() for r in self.rows], "worst_opponent": w.opponent,
                "worst_diff": w.diff[0], "worst_diff_ci95": list(w.diff[1:]), "within_gate": self.within_gate,
                "gate": GATE, "fell_back_to_defaults": self.fell_back}


def check_population(tr: Trainer, side: str, start: dict[str, float], trained: dict[str, float],
                     opponents: Sequence[Opponent], games: int, seed: int) -> PopulationCheck:
    """Trained against default weights of `side` against each opponent, on the same fresh seeds."""
    base = play_against(tr, side, start, opponents, seed, games)
    tuned = base if trained == start else play_against(tr, side, trained, opponents, seed, games)
    rows = []
    for o in opponents:
        wa, wb = base[o.name].wins(side), tuned[o.name].wins(side)
        rows.append(Matchup(o.name, o.policy, games, sum(wa) / games, wilson(sum(wa), games), sum(wb) / games,
                            wilson(sum(wb), games), paired_diff(wb, wa)))
    return PopulationCheck(side, rows)


def format_check(c: PopulationCheck) -> list[str]:
    """The table of one trained side: per opponent, defaults and trained win rates and the paired difference."""

    def ci(rate: float, lo_hi: tuple[float, float]) -> str:
        return f"{100 * rate:.1f}% [{100 * lo_hi[0]:.1f}–{100 * lo_hi[1]:.1f}]"

    games = c.rows[0].games if c.rows else 0
    lines = [f"  {c.side} against the population, {games} fresh games per opponent (win rate, Wilson 95%; "
             f"trained − defaults paired by seed):",
             f"    {'opponent':<22}{'defaults':>22}{'trained':>22}   trained − defaults"]
    for r in c.rows:
        d, lo, hi = r.diff
        lines.append(f"    {r.opponent:<22}{ci(r.default_rate, r.default_ci):>22}"
                     f"{ci(r.trained_rate, r.trained_ci):>22}   {100 * d:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]")
    w = c.worst
    verdict = (f"within {100 * GATE:.0f} points of the defaults against every opponent" if c.within_gate else
               f"more than {100 * GATE:.0f} points worse than the defaults")
    lines.append(f"    worst case: {w.opponent}, {100 * w.diff[0]:+.1f} pts [{100 * w.diff[1]:+.1f}, "
                 f"{100 * w.diff[2]:+.1f}]: {verdict}"
                 + ("; the file keeps the defaults for this side" if c.fell_back else ""))
    return lines
