"""`hulkforge tune MISSION --target 0.5 --param NAME[=LO..HI]`: parameter values that hit a target win rate."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.ai.base import SIDES
from engine.commands.playable import report_invalid
from engine.mission.playable import InvalidMission
from engine.sim.batch import BACKENDS
from engine.sim.cli_support import (
    UsageError,
    add_param_file_argument,
    build_spec,
    pct,
    short_number,
    split_assignment,
)
from engine.sim.spec import DEFAULT_MAX_ACTIONS, MAX_GAMES
from engine.sim.stopping import EXIT_CODES, stop_name, stop_reason


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "tune",
        help="find parameter values that give a target Marine win rate",
        description="Search one or more mission parameters or numeric rule options for values whose Marine win "
        "rate is the target within the tolerance at 95% confidence (the Wilson interval of the answer lies "
        "inside target ± tolerance), spending as few games as it can: every value plays the same game seeds, "
        "a value far from the target is dropped after a hundred games, only the answer gets the games a tight "
        "interval needs. One parameter: a root finder on the log-odds; several: optuna's TPE sampler. Prints "
        "the path and writes the tuned mission. Exit 0: target hit (and -o written); 1: out of reach in the "
        "range, or the budget ran out (nothing written); 2: bad input, or -o cannot be written (checked before "
        "the first game); 130: Ctrl-C; 143: SIGTERM (the last line gives the closest value so far and the "
        "command that goes on over the narrowed range).",
    )
    p.add_argument("mission", metavar="MISSION", help="mission file (.json) or a sample name such as pitfall")
    p.add_argument("--target", type=float, default=None, help="Marine win rate to reach, e.g. 0.5 (required)")
    p.add_argument("--param", dest="tune_params", action="append", default=[], metavar="NAME[=LO..HI]",
                   help="a mission parameter or rule option to tune, with its range (repeatable): any number of "
                   "the mission by its path (genestealers.limited.total, victory.turn_limit.turn), a choice "
                   "(marines.squad[2].ranged, entry_areas.NE.on) or e.g. reinforcements.per_turn=0..6")
    p.add_argument("--list-params", action="store_true",
                   help="list the mission's parameters with their values and default ranges, and exit")
    p.add_argument("--levers-games", type=int, default=100, metavar="N",
                   help="when one parameter cannot reach the target, games per step of the levers table that "
                   "names a second lever (0: none; default 100, on top of --budget)")
    p.add_argument("--tolerance", type=float, default=0.02, help="half-width of the target band (default 0.02)")
    p.add_argument("--budget", type=int, default=20_000, help="most games to play in all (default 20000)")
    p.add_argument("--seed", "-s", type=int, default=1, help="seed of the games and of the search (default 1)")
    p.add_argument("--workers", "-w", type=int, default=None, help="worker processes (default: one per CPU)")
    p.add_argument("--backend", choices=BACKENDS, default="local", help="local process pool (default) or Dask")
    p.add_argument("--scheduler", metavar="ADDR", default=None,
                   help="Dask scheduler (tcp://host:8786); without it --backend dask starts a local cluster")
    for side in SIDES:
        p.add_argument(f"--{side}", metavar="POLICY", default=None,
                       help=f"policy playing the {side} (default heuristic-{side}); POLICY:WEIGHTS.json too")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule option or mission parameter held fixed (repeatable)")
    p.add_argument("--policy-param", dest="params", action="append", default=[], metavar="SIDE.NAME=V",
                   help="a policy parameter held fixed, e.g. marines.caution=0.7 (repeatable)")
    add_param_file_argument(p)
    p.add_argument("--max-actions", type=int, default=DEFAULT_MAX_ACTIONS, help=argparse.SUPPRESS)
    p.add_argument("-o", "--out", metavar="FILE", default=None, help="write the tuned mission here")
    p.add_argument("--json", action="store_true", help="print the result as JSON on stdout")
    return p


def run(args: argparse.Namespace) -> int:
    from engine.mission import MissionFileError, read_document
    from engine.resources import mission_path
    from engine.sim.cli_support import parse_value
    from engine.sim.outputs import OutputClaim, OutputError
    from engine.tune.space import parse_param

    if args.list_params:
        return list_params(args)
    try:
        if args.target is None:
            raise UsageError("give the win rate to reach: --target 0.5")
        if not args.tune_params:
            raise UsageError("name a parameter to tune: --param NAME[=LO..HI] (--list-params MISSION lists them)")
        if args.levers_games < 0:
            raise UsageError(f"--levers-games must be >= 0, not {args.levers_games}")
        try:
            doc: dict[str, Any] | None = read_document(mission_path(args.mission))
        except MissionFileError:
            doc = None  # build_spec below says why, in its words
        params = [parse_param(t, doc) for t in args.tune_params]
        names = [p.name for p in params]
        if len(set(names)) != len(names):
            raise UsageError("--param: each parameter once")
        if not 0 < args.target < 1:
            raise UsageError(f"--target must be a win rate between 0 and 1, not {args.target}")
        if not 0 < args.tolerance < 0.5:
            raise UsageError(f"--tolerance must be between 0 and 0.5, not {args.tolerance}")
        if not 1 <= args.budget <= MAX_GAMES:
            raise UsageError(f"--budget must be between 1 and {MAX_GAMES:,}, not {short_number(args.budget)}")
        sets = {}
        for text in args.sets:
            name, value = split_assignment(text, "--set")
            if name in names:
                raise UsageError(f"--set {name}: it is the parameter being tuned")
            sets[name] = parse_value(value)
        args.games = 0
        base = build_spec(args, sets)
        # Every point of the range must be a valid setting of this mission (marines.count past the squad...).
        for p in params:
            for x in (p.lo, p.hi):
                build_spec(args, {**sets, p.name: p.value(x)}, like=base)
    except (UsageError, ValueError) as exc:
        print(f"hulkforge tune: {exc}", file=sys.stderr)
        return 2
    except InvalidMission as exc:
        return report_invalid("hulkforge tune", exc)
    out = args.out
    try:
        claim = OutputClaim(out) if out else None  # checked and held before the first game
    except OutputError as exc:
        print(f"hulkforge tune: {exc}", file=sys.stderr)
        return 2
    steps: list[Any] = []
    try:
        return _tune(args, base, params, names, out, doc, steps)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM as Terminated: the looks so far are printed above
        reason = stop_reason(exc)
        print(f"hulkforge tune: stopped ({stop_name(reason)}) before an answer; {found_so_far(args, params, steps)}",
              file=sys.stderr)
        return EXIT_CODES[reason]
    finally:
        if claim is not None:
            claim.release()


def found_so_far(args: argparse.Namespace, params: list[Any], steps: list[Any]) -> str:
    """What a stopped tune found (looks, games, the closest value with its interval) and the command that goes
    on from there over the narrowed range: one clause of the last line, since no tuned mission is written."""
    from engine.tune.search import closest, narrowed, rate_text

    if not steps:
        return "no look finished, nothing written"
    best = closest(steps, args.target)
    assert best is not None
    where = ", ".join(f"{p.name}={p.label(x)}" for p, x in zip(params, best.point, strict=True))
    ranges = narrowed(params, steps, args.target)
    flags = []
    for text, p, (lo, hi) in zip(args.tune_params, params, ranges, strict=True):
        same = (lo, hi) == (p.lo, p.hi)
        flags.append(f"--param {text}" if same else f"--param {p.name}={_bound(p, lo)}..{_bound(p, hi)}")
    again = " ".join(["hulkforge tune", args.mission, f"--target {args.target:g}", *flags, *_fixed_args(args),
                      f"--seed {args.seed}", *([f"-o {args.out}"] if args.out else [])])
    return (f"{len(steps)} looks, {steps[-1].spent} games; closest so far: {where} at {rate_text(best)}; "
            f"nothing written; go on with: {again}")


def _bound(p: Any, x: float) -> str:
    return str(round(x)) if p.integer else f"{x:.4g}"


def _tune(args: argparse.Namespace, base: Any, params: list[Any], names: list[str], out: str | None,
          doc: dict[str, Any] | None, steps: list[Any]) -> int:
    from engine.mission import read_document
    from engine.tune.search import tune

    head = (f"tune {', '.join(names)} on {args.mission}: Marine win rate {pct(args.target).strip()} ± "
            f"{pct(args.tolerance).strip()} (95%), seed {args.seed}, budget {args.budget} games, "
            f"{base.policies['marines']} vs {base.policies['genestealers']}")
    width = max(len(", ".join(names)), 12)
    if not args.json:
        print(head)
        print(f"  {'look':>4}  {', '.join(names):<{width}}  {'games':>5}  {'Marines':>7}  {'95% CI':<16}  "
              f"{'verdict':<8}  spent", flush=True)
    looks = 0

    def on_step(s: Any) -> None:
        nonlocal looks
        looks += 1
        steps.append(s)
        if args.json:
            return
        values = ", ".join(p.label(x) for p, x in zip(params, s.point, strict=True))
        print(f"  {looks:>4}  {values:<{width}}  {s.games:>5}  {pct(s.rate)}  [{pct(s.low)}, {pct(s.high)}]  "
              f"{s.verdict:<8}  {s.spent}", flush=True)

    result = tune(base, params, target=args.target, tolerance=args.tolerance, budget=args.budget,
                  backend=args.backend, workers=args.workers, scheduler=args.scheduler, on_step=on_step)
    if result.status == "out_of_reach" and len(params) == 1 and args.levers_games and doc is not None:
        from engine.tune.levers import second_lever

        if not args.json:
            print(f"  looking for a second lever: {args.levers_games} games a step at "
                  f"{result.label(result.best.point) if result.best else ''}", flush=True)
        hint = second_lever(base, doc, result, games=args.levers_games, backend=args.backend,
                            workers=args.workers, scheduler=args.scheduler, mission_arg=args.mission,
                            extra_args=_fixed_args(args))
        result.message += "; " + hint
    code = 0 if result.ok else 1
    written = False
    if result.ok and out:
        try:
            written = write_tuned(base.mission_doc or read_document(base.mission or ""), result, out, base.options,
                                  base.mission_params)
        except OSError as exc:
            print(f"hulkforge tune: {out}: cannot write: {exc.strerror or exc}; nothing written; found: "
                  f"{result.message}", file=sys.stderr)
            return 2
        if not written:
            print(f"hulkforge tune: {out}: not written, the tuned mission breaks a placement rule", file=sys.stderr)
            code = 1
    if args.json:
        print(json.dumps({**result.to_json(), "written": out if written else None}, indent=2, sort_keys=True))
    else:
        verb = "hit" if result.ok else {"out_of_reach": "out of reach", "budget": "budget spent"}.get(
            result.status, result.status)
        print(f"  {verb}: {result.message}")
        print(f"  {result.spent} games in {len(result.steps)} looks at {len(set(s.point for s in result.steps))} "
              f"values, {result.seconds:.1f} s ({result.cpu_seconds:.1f} CPU s)"
              + (f", {result.failed} failed games" if result.failed else ""))
        if written:
            print(f"  tuned mission written to {out}")
    if result.status == "cancelled":
        return 130
    return code


def _fixed_args(args: argparse.Namespace) -> list[str]:
    """The command-line flags that a suggested next tune repeats (players, settings held fixed, seed)."""
    out = [f"--tolerance {args.tolerance:g}"] if args.tolerance != 0.02 else []
    out += [f"--set {s}" for s in args.sets]
    out += [f"--{side} {getattr(args, side)}" for side in SIDES if getattr(args, side)]
    out += [f"--param-file {f}" for f in getattr(args, "param_files", [])]
    out += [f"--policy-param {p}" for p in getattr(args, "params", [])]
    return out


def list_params(args: argparse.Namespace) -> int:
    """--list-params: every parameter of the mission, its value and its default range; then the rule options."""
    from engine.mission import MissionFileError, read_document
    from engine.resources import mission_path
    from engine.sim.paths import mission_parameters
    from engine.tune.levers import option_parameters
    from engine.tune.space import parse_param

    try:
        doc = read_document(mission_path(args.mission))
        params, options = mission_parameters(doc), option_parameters(doc)
    except MissionFileError as exc:
        print(f"hulkforge tune: {exc}", file=sys.stderr)
        return 2
    except (KeyError, TypeError, ValueError) as exc:
        print(f"hulkforge tune: {args.mission}: not a playable mission ({exc})", file=sys.stderr)
        return 2

    def row(p: Any) -> dict[str, Any]:
        out = {"name": p.name, "kind": p.kind, "value": p.value}
        if p.kind == "choice":
            out["choices"] = list(p.choices)
        else:
            out["accepts"] = [p.lo, p.hi]
            if isinstance(p.value, int):
                out["default_range"] = list(p.default_range())
        return out

    if args.json:
        print(json.dumps({"mission": [row(p) for p in params], "options": [row(p) for p in options]}, indent=2))
        return 0
    width = max(len(p.name) for p in params + options)
    print(f"parameters of {args.mission} (--param NAME[=LO..HI], --set NAME=VALUE):")
    for p in params:
        print(f"  {p.name:<{width}}  {json.dumps(p.value):>14}  {p.describe()}")
    print("  also: reinforcements.per_turn (every row at once), reinforcements.scale (every row times a number), "
          "genestealers.starting_blips")
    print("rule options:")
    for p in options:
        text = p.describe()
        if p.kind == "int":
            t = parse_param(p.name)
            text = f"{t.lo:g}..{t.hi:g} (accepts {p.lo}..{p.hi}{', null' if p.nullable else ''})"
        print(f"  {p.name:<{width}}  {json.dumps(p.value):>14}  {text}")
    return 0


def write_tuned(doc: dict[str, Any], result: Any, path: str, options: dict[str, Any] | None = None,
                mission_params: dict[str, Any] | None = None) -> bool:
    """Write the mission with the settings held fixed (`options`, `mission_params`: the games were played with
    them) and the tuned values, atomically, if it still passes validation (else False). The file keeps the
    source's order of sections and keys, so a diff against the source shows only the tuned lines."""
    import copy

    from engine.mission import has_errors, mission_dumps, mission_from_dict, mission_to_dict, validate_document
    from engine.mission.codec import dumps
    from engine.mission.io import atomic_write_text
    from engine.mission.keep_order import carry_changes
    from engine.tune.space import tuned_document

    assert result.best is not None
    tuned = tuned_document(doc, result.params, result.best.point, options, mission_params)
    if has_errors(validate_document(tuned)):
        return False
    out = carry_changes(doc, mission_to_dict(mission_from_dict(copy.deepcopy(doc))), tuned)
    # The source's spelling must read as the tuned mission; if it ever did not, the codec's own text is right.
    same = mission_from_dict(copy.deepcopy(out)) == mission_from_dict(copy.deepcopy(tuned))
    atomic_write_text(path, dumps(out) if same else mission_dumps(mission_from_dict(tuned)))
    return True
