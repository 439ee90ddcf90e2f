"""Levers: which number of a mission moves the Marine win rate most, one step either way, on shared seeds.

The mission as it is plays one batch; each parameter plays one batch a step down and one a step up from its
value (a choice: one batch per other value), every batch on the same game seeds. Each step's effect is the paired
difference of the Marine win rate against the mission as it is, with its 95% interval (engine.stats.intervals):
shared seeds make it far tighter than two independent rates. The table is ranked by the largest effect.
"""

from __future__ import annotations

import copy
import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.sim.batch import iter_batch, prepare_spec
from engine.sim.local import LocalPool, RunStatus
from engine.sim.paths import ParamInfo, mission_parameters
from engine.sim.spec import BatchSpec
from engine.stats.intervals import paired_diff, wilson


@dataclass(frozen=True)
class Arm:
    """One step of a lever: the value played, its Marine win rate and the paired difference to the mission."""

    value: Any
    games: int
    rate: float
    diff: float
    low: float
    high: float

    @property
    def significant(self) -> bool:
        """The 95% interval of the difference leaves out 0."""
        return self.low > 0 or self.high < 0


@dataclass
class Lever:
    """A parameter, its value in the mission, and its steps (down then up; a choice: each other value)."""

    name: str
    value: Any
    kind: str = "int"
    arms: list[Arm] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # steps not played, and why

    @property
    def effect(self) -> float:
        """The largest effect of a step, in absolute value (0 when no step was played)."""
        return max((abs(a.diff) for a in self.arms), default=0.0)

    @property
    def slope(self) -> float | None:
        """A whole-number lever's effect per unit of its value (positive: raising it helps the Marines)."""
        pts = [(a.value - self.value, a.diff) for a in self.arms if isinstance(a.value, int) and a.value != self.value]
        if self.kind != "int" or not pts:
            return None
        if len(pts) == 2:
            (x1, y1), (x2, y2) = pts
            return float((y2 - y1) / (x2 - x1))
        return float(pts[0][1] / pts[0][0])

    def describe(self, arm: Arm) -> str:
        """A step in words: 'genestealers.limited.total 12 → 10 (−2)'."""
        if self.kind == "int":
            return f"{self.name} {self.value} → {arm.value} ({arm.value - self.value:+d})"
        return f"{self.name} {_show(self.value)} → {_show(arm.value)}"


def _show(v: Any) -> str:
    return "null" if v is None else ("true" if v is True else "false" if v is False else str(v))


@dataclass
class LeversReport:
    """The mission's own rate and every lever, ranked by effect (largest first)."""

    games: int
    seed: int
    base_wins: int = 0
    base_games: int = 0
    levers: list[Lever] = field(default_factory=list)
    spent: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    cancelled: bool = False

    @property
    def base_rate(self) -> float:
        """The Marine win rate of the mission as it is."""
        return self.base_wins / self.base_games if self.base_games else 0.0

    def ranked(self) -> list[Lever]:
        """The levers with at least one step played, largest effect first (ties by name, for a stable order)."""
        return sorted((lv for lv in self.levers if lv.arms), key=lambda lv: (-lv.effect, lv.name))

    def toward(self, target: float, exclude: Sequence[str] = ()) -> tuple[Lever, Arm] | None:
        """The step that moves the Marine win rate most toward `target` (significantly), outside `exclude`."""
        want = 1 if target > self.base_rate else -1
        best: tuple[Lever, Arm] | None = None
        for lv in self.ranked():
            if lv.name in exclude:
                continue
            for a in lv.arms:
                if a.significant and a.diff * want > 0 and (best is None or abs(a.diff) > abs(best[1].diff)):
                    best = (lv, a)
        return best

    def to_json(self) -> dict[str, Any]:
        """JSON-ready (levers --json)."""
        lo, hi = wilson(self.base_wins, self.base_games)
        return {
            "games": self.games, "seed": self.seed, "games_spent": self.spent, "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds, "cancelled": self.cancelled,
            "mission": {"games": self.base_games, "marine_win_rate": self.base_rate, "marine_win_ci95": [lo, hi]},
            "levers": [{"name": lv.name, "value": lv.value, "kind": lv.kind, "effect": lv.effect,
                        "slope": lv.slope, "skipped": lv.skipped,
                        "steps": [{"value": a.value, "games": a.games, "marine_win_rate": a.rate,
                                   "diff": a.diff, "diff_ci95": [a.low, a.high]} for a in lv.arms]}
                       for lv in self.ranked() + [lv for lv in self.levers if not lv.arms]],
        }


def option_parameters(doc: dict[str, Any], overrides: dict[str, Any] | None = None) -> list[ParamInfo]:
    """The rule options as parameters, with the values in force for this mission (and `overrides`)."""
    from engine.mission import mission_from_dict
    from engine.rules.options import choice_options, integer_ranges, resolve_options

    values = resolve_options(mission_from_dict(copy.deepcopy(doc)), overrides)
    out = [ParamInfo(n, "int", values[n], lo, hi, nullable=values[n] is None)
           for n, (lo, hi) in integer_ranges().items()]
    out += [ParamInfo(n, "choice", values[n], choices=c) for n, c in choice_options().items()]
    return out


def lever_candidates(doc: dict[str, Any], names: Sequence[str] = (),
                     options: dict[str, Any] | None = None) -> list[ParamInfo]:
    """The parameters a levers table moves: `names` if given (paths or rule options), else every whole-number
    parameter of the mission with a value, entry areas on/off, the Alpha and each reinforcement row's pool (a
    Marine's equipment only when named: four weapons each would multiply the batches)."""
    params = mission_parameters(doc)
    if names:
        by_name = {p.name: p for p in params + option_parameters(doc, options)}
        missing = [n for n in names if n not in by_name]
        if missing:
            raise ValueError(f"unknown mission parameter {missing[0]!r} (hulkforge tune --list-params MISSION)")
        return [by_name[n] for n in names]
    archivist = any(m.get("rank") == "archivist" for m in doc.get("marines", {}).get("squad", []))
    out = []
    for p in params:
        if p.name.startswith("marines.squad["):
            continue
        if p.name == "marines.psi_points" and not archivist:
            continue  # only an Archivist spends psi points
        if p.kind == "int" and not isinstance(p.value, int):
            continue  # null (a row with no last turn): no step from it
        out.append(p)
    return out


def steps(p: ParamInfo) -> list[Any]:
    """The values a lever plays: a step down and a step up inside what it accepts; a choice's other values."""
    if p.kind == "choice":
        return [c for c in p.choices if c != p.value]
    assert p.lo is not None and p.hi is not None
    s = p.step()
    return [v for v in (p.value - s, p.value + s) if p.lo <= v <= p.hi]


def _problem(doc: dict[str, Any], fixed: dict[str, Any], name: str, value: Any) -> str | None:
    """Why the mission with `name` = `value` cannot be played (a validation error), or None."""
    from engine.mission import mission_from_dict, mission_to_dict, validate_document
    from engine.sim.params import apply_mission_params

    try:
        m = apply_mission_params(mission_from_dict(copy.deepcopy(doc)), {**fixed, name: value})
    except ValueError as exc:
        return str(exc)
    errors = [i for i in validate_document(mission_to_dict(m)) if i.severity == "error"]
    return f"{errors[0].rule}: {errors[0].message}" if errors else None


def levers(
    base: BatchSpec,
    params: list[ParamInfo],
    *,
    doc: dict[str, Any] | None = None,
    backend: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    cancel: threading.Event | None = None,
    on_games: Callable[[int], None] | None = None,
    on_lever: Callable[[Lever], None] | None = None,
) -> LeversReport:
    """Play the mission and each parameter a step either way for `base.games` games on `base.seed`.

    `doc` (the mission document before `base.mission_params`) lets a step that breaks a placement rule be
    skipped with the reason instead of failing in the workers.
    """
    spec0 = prepare_spec(base)
    report = LeversReport(base.games, base.seed)
    pool = LocalPool(workers) if backend == "local" else None
    began, cpu0 = time.perf_counter(), _cpu_seconds()

    def play(options: dict[str, Any], mparams: dict[str, Any]) -> list[int] | None:
        spec = spec0.with_changes(options={**spec0.options, **options},
                                  mission_params={**spec0.mission_params, **mparams})
        won = [-1] * spec.games
        status = RunStatus()
        for rec in iter_batch(spec, backend=backend, workers=workers, scheduler=scheduler, cancel=cancel,
                              status=status, pool=pool):
            won[rec.index] = -1 if rec.winner is None else int(rec.winner == "marines")
            report.spent += 1
            if on_games is not None:
                on_games(1)
        if status.stopped is not None:
            report.cancelled = True
            return None
        return won

    try:
        base_won = play({}, {})
        if base_won is not None:
            report.base_games = sum(1 for w in base_won if w >= 0)
            report.base_wins = sum(1 for w in base_won if w == 1)
            for p in params:
                lever = Lever(p.name, p.value, p.kind)
                report.levers.append(lever)
                for v in steps(p):
                    why = _problem(doc, spec0.mission_params, p.name, v) if doc is not None else None
                    if why is not None:
                        lever.skipped.append(f"{_show(v)}: {why}")
                        continue
                    option = p.name if not _is_mission(p.name) else None
                    won = play({option: v} if option else {}, {} if option else {p.name: v})
                    if won is None:
                        break
                    pairs = [(a, b) for a, b in zip(won, base_won, strict=True) if a >= 0 and b >= 0]
                    d, lo, hi = paired_diff([a == 1 for a, _ in pairs], [b == 1 for _, b in pairs])
                    n = len(pairs)
                    lever.arms.append(Arm(v, n, sum(a for a, _ in pairs) / n if n else 0.0, d, lo, hi))
                if on_lever is not None:
                    on_lever(lever)
                if report.cancelled:
                    break
    finally:
        if pool is not None:
            pool.close()
    report.seconds = time.perf_counter() - began
    report.cpu_seconds = _cpu_seconds() - cpu0
    return report


def _is_mission(name: str) -> bool:
    from engine.sim.params import is_mission_param

    return is_mission_param(name)


def _cpu_seconds() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def format_levers(report: LeversReport, title: str = "") -> str:
    """The levers table: one line per step, levers ranked by their largest effect."""
    lo, hi = wilson(report.base_wins, report.base_games)
    lines = [f"levers{(' of ' + title) if title else ''}: {report.games} games per step, seed {report.seed}, "
             f"shared seeds; the mission as it is: Marines win {100 * report.base_rate:.1f}% "
             f"[{100 * lo:.1f}–{100 * hi:.1f}]",
             f"  {'rank':>4}  {'step':<56}  {'Marines':>7}  effect (paired 95% CI)"]
    for i, lv in enumerate(report.ranked(), 1):
        for j, a in enumerate(lv.arms):
            mark = "" if a.significant else "  (not significant)"
            lines.append(f"  {(str(i) if j == 0 else ''):>4}  {lv.describe(a):<56}  {100 * a.rate:6.1f}%  "
                         f"{100 * a.diff:+5.1f} pts [{100 * a.low:+.1f}, {100 * a.high:+.1f}]{mark}")
    for lv in report.levers:
        for s in lv.skipped:
            lines.append(f"  skipped {lv.name} = {s}")
    lines.append(f"  {report.spent} games, {report.seconds:.1f} s ({report.cpu_seconds:.1f} CPU s)"
                 + ("; stopped early" if report.cancelled else ""))
    return "\n".join(lines)


def second_lever(
    base: BatchSpec,
    doc: dict[str, Any],
    result: Any,
    *,
    games: int = 100,
    backend: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    mission_arg: str = "MISSION",
    extra_args: Sequence[str] = (),
    cancel: threading.Event | None = None,
    on_games: Callable[[int], None] | None = None,
) -> str:
    """When one parameter cannot reach the target: a levers table at its closest value, and the sentence naming
    the lever that moves the rate most toward the target with the exact command that tunes it."""
    from engine.mission import mission_from_dict, mission_to_dict
    from engine.sim.params import apply_mission_params

    (p,) = result.params
    assert result.best is not None
    held = p.value(result.best.point[0])
    fixed = {**base.mission_params, **({} if p.is_option else {p.name: held})}
    options = {**base.options, **({p.name: held} if p.is_option else {})}
    spec = base.with_changes(games=games, mission_params=fixed, options=options)
    try:
        fixed_doc = mission_to_dict(apply_mission_params(mission_from_dict(copy.deepcopy(doc)), fixed))
    except ValueError:
        return "no second lever: the mission with the closest value cannot be read"
    candidates = [c for c in lever_candidates(fixed_doc) if c.name != p.name]
    report = levers(spec, candidates, doc=doc, backend=backend, workers=workers, scheduler=scheduler, cancel=cancel,
                    on_games=on_games)
    if report.cancelled:
        return "the levers table was cancelled"
    best = report.toward(result.target, exclude=[p.name])
    if best is None:
        return (f"no other number of the mission moves the Marine win rate toward the target significantly "
                f"({report.spent} games of levers at {p.name}={p.label(result.best.point[0])})")
    lever, arm = best
    head = [f"hulkforge tune {mission_arg} --target {result.target:g}", *extra_args]
    if lever.kind == "int":
        info = next(c for c in candidates if c.name == lever.name)
        assert info.lo is not None and info.hi is not None
        span = 4 * abs(arm.value - lever.value)
        lo, hi = ((lever.value, min(info.hi, lever.value + span)) if arm.value > lever.value
                  else (max(info.lo, lever.value - span), lever.value))
        cmd = " ".join([*head, f"--set {p.name}={json_value(held)}", f"--param {lever.name}={lo}..{hi}"])
    else:
        cmd = " ".join([*head, f"--set {lever.name}={json_value(arm.value)}",
                        f"--param {p.name}={p.label(p.lo)}..{p.label(p.hi)}" if not p.choices else
                        f"--param {p.name}"])
    return (f"best second lever: {lever.describe(arm)} moves the Marine win rate {100 * arm.diff:+.1f} points "
            f"[{100 * arm.low:+.1f}, {100 * arm.high:+.1f}] at {p.name}={p.label(result.best.point[0])} "
            f"({report.spent} games of levers); run: {cmd}")


def json_value(v: Any) -> str:
    """A value as --set reads it back."""
    import json

    return v if isinstance(v, str) else json.dumps(v)
