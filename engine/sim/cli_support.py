"""What `hulkforge simulate` and `hulkforge sweep` share: batch arguments, the spec, progress, the summary."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from engine.ai.base import SIDES, UnknownPolicyError, default_policy, make_policy, policy_info, resolve_policy
from engine.resources import mission_path
from engine.sim.batch import BACKENDS, BatchError
from engine.sim.params import MISSION_PARAMS, apply_mission_params, is_mission_param
from engine.sim.paths import is_path
from engine.sim.spec import DEFAULT_MAX_ACTIONS, MAX_GAMES, BatchSpec


class UsageError(Exception):
    """Bad input on the command line or an unreadable mission: one line on stderr, exit 2."""


def parse_value(text: str) -> Any:
    """A --set value: JSON literals (true, false, null, numbers) as such, anything else as a string."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return text
    return value if isinstance(value, bool | int | float) or value is None else text


def split_assignment(text: str, flag: str) -> tuple[str, str]:
    """NAME=VALUE -> (NAME, VALUE)."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise UsageError(f"{flag} expects NAME=VALUE, got {text!r}")
    return name.strip(), value.strip()


def short_number(n: int) -> str:
    """A number as it fits in a one-line message: 10**20 is shown as 1e+20."""
    return str(n) if abs(n) < 10**12 else f"a {len(str(abs(n)))}-digit number"


def add_batch_arguments(p: argparse.ArgumentParser, set_help: str) -> None:
    """The arguments every batch command takes."""
    p.add_argument("mission", metavar="MISSION", help="mission file (.json) or a sample name such as pitfall")
    p.add_argument("--games", "-n", type=int, default=1000,
                   help=f"games to play (default 1000, at most {MAX_GAMES:,})")
    p.add_argument("--seed", "-s", type=int, default=1, help="batch seed: same seed, same games (default 1)")
    p.add_argument("--workers", "-w", type=int, default=None, help="worker processes (default: one per CPU)")
    p.add_argument("--backend", choices=BACKENDS, default="local",
                   help="local process pool (default) or a Dask cluster")
    p.add_argument("--scheduler", metavar="ADDR", default=None,
                   help="Dask scheduler (tcp://host:8786, or tls://host:8786 with --dask-security); without it "
                        "--backend dask starts a local cluster. A Dask scheduler runs the code clients send it: "
                        "use TLS on a shared network (docs/dask.md)")
    p.add_argument("--dask-security", metavar="FILE", default=None,
                   help="a Dask configuration file (YAML) with the distributed.comm TLS settings: CA, client "
                        "certificate and key, require-encryption")
    p.add_argument("--worker-wait", metavar="SECONDS", type=float, default=None,
                   help="--backend dask: stop when the cluster has no worker for this long, at the start or "
                        "mid-batch (default 60)")
    for side in SIDES:
        p.add_argument(f"--{side}", metavar="POLICY", default=None,
                       help=f"policy playing the {side} (default: heuristic-{side} if present, else random); "
                       f"POLICY:WEIGHTS.json plays it with the weights of a file written by hulkforge train")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE", help=set_help)
    p.add_argument("--param", dest="params", action="append", default=[], metavar="SIDE.NAME=V",
                   help="a policy parameter, e.g. marines.aggression=0.7 (repeatable)")
    add_param_file_argument(p)
    p.add_argument("--max-actions", type=int, default=DEFAULT_MAX_ACTIONS,
                   help=f"safety cap on actions per game, reported when hit (default {DEFAULT_MAX_ACTIONS})")
    p.add_argument("--json", action="store_true", help="print the summary as JSON on stdout")


def add_param_file_argument(p: argparse.ArgumentParser) -> None:
    """--param-file WEIGHTS.json: policy parameters of both sides from a weights file (hulkforge train)."""
    p.add_argument("--param-file", dest="param_files", action="append", default=[], metavar="WEIGHTS.json",
                   help="policy parameters from a weights file (hulkforge train), for each side it holds; "
                   "--param wins over it (repeatable)")


def policy_params(args: argparse.Namespace) -> tuple[dict[str, str], dict[str, dict[str, float]]]:
    """(policy name per side, parameters per side) of --marines/--genestealers, --param-file and --param.

    A weights file named with a policy (POLICY:FILE) is read here, so the spec carries plain numbers and a
    worker anywhere (Dask) needs no file.
    """
    from engine.ai.weights import load_weights_file

    policies: dict[str, str] = {}
    params: dict[str, dict[str, float]] = {}
    for side in SIDES:
        try:
            policies[side], from_file = resolve_policy(getattr(args, side, None) or default_policy(side))
        except (UnknownPolicyError, ValueError) as exc:
            raise UsageError(f"--{side}: {exc}") from None
        if from_file:
            params[side] = from_file
    for path in getattr(args, "param_files", []):
        try:
            for side, weights in load_weights_file(path).items():
                params.setdefault(side, {}).update(weights)
        except ValueError as exc:
            raise UsageError(f"--param-file: {exc}") from None
    for text in args.params:
        name, value = split_assignment(text, "--param")
        side, dot, pname = name.partition(".")
        if not dot or side not in SIDES:
            raise UsageError(f"--param expects marines.NAME=V or genestealers.NAME=V, got {text!r}")
        try:
            params.setdefault(side, {})[pname] = float(value)
        except ValueError:
            raise UsageError(f"--param {name}: {value!r} is not a number") from None
    for side in SIDES:
        try:
            make_policy(policies[side], params.get(side))
            plays = policy_info(policies[side]).side
        except (UnknownPolicyError, ValueError) as exc:
            raise UsageError(f"--{side}: {exc}") from None
        if plays not in (None, side):
            raise UsageError(f"--{side}: policy {policies[side]!r} plays the {plays}, not the {side}")
    return policies, params


def set_help_text() -> str:
    """Help for --set listing the mission parameters."""
    names = ", ".join(MISSION_PARAMS)
    return (f"a rule option (RULES.md) or a mission parameter ({names}, or any number or choice of the mission by "
            f"its path, e.g. genestealers.limited.total: hulkforge tune --list-params MISSION); repeatable")


def build_spec(args: argparse.Namespace, sets: dict[str, Any], like: BatchSpec | None = None) -> BatchSpec:
    """The BatchSpec of the command line, checked here so mistakes are usage errors, not worker crashes.

    like: a spec built before from the same file, whose mission document is used instead of reading the file
    again (a command building several specs reads its mission once: it may be a pipe)."""
    import copy

    from engine.mission import MissionFileError, mission_from_dict
    from engine.mission.playable import load_playable_document

    if not 0 <= args.games <= MAX_GAMES:
        raise UsageError(f"--games must be between 0 and {MAX_GAMES:,}, not {short_number(args.games)}")
    if args.seed < 0:
        raise UsageError(f"--seed must be >= 0, not {args.seed}")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be >= 1, not {args.workers}")
    if args.max_actions < 1:
        raise UsageError(f"--max-actions must be >= 1, not {args.max_actions}")
    path = mission_path(args.mission)
    try:
        # InvalidMission (exit 1) goes to the caller. The document rides in the spec: the file is read once (a
        # pipe cannot be read twice, a file may change meanwhile).
        if like is not None and like.mission_doc is not None:
            doc = like.mission_doc
            mission = mission_from_dict(copy.deepcopy(doc))
        else:
            doc, mission = load_playable_document(path)
    except MissionFileError as exc:
        raise UsageError(str(exc)) from None
    options = {k: v for k, v in sets.items() if not is_mission_param(k)}
    mparams = {k: v for k, v in sets.items() if is_mission_param(k)}
    try:
        apply_mission_params(mission, mparams)
        from engine.rules.options import resolve_options

        resolve_options(mission, options)
    except ValueError as exc:
        raise UsageError(f"--set: {exc}") from None
    if any(is_path(k) for k in mparams):
        # A number set by its path can break a placement rule (a storm shield beside a storm bolter): say so
        # as validate would, before any game is played.
        from engine.mission import mission_to_dict, validate_document
        from engine.mission.playable import InvalidMission

        errors = [i for i in validate_document(mission_to_dict(mission)) if i.severity == "error"]
        if errors:
            held = ", ".join(f"{k}={json.dumps(v)}" for k, v in mparams.items())
            raise InvalidMission(f"{path} with {held}", errors)
    policies, params = policy_params(args)
    return BatchSpec(games=args.games, seed=args.seed, mission=path, mission_doc=doc, options=options,
                     mission_params=mparams, policies=policies, params=params, max_actions=args.max_actions)


def dask_options(args: argparse.Namespace) -> dict[str, Any]:
    """The Dask-only arguments, checked: a bad scheduler address or security file is a usage error (exit 2)."""
    dask_only = [flag for flag, value in (("--scheduler", args.scheduler), ("--dask-security", args.dask_security),
                                          ("--worker-wait", args.worker_wait)) if value is not None]
    if args.backend != "dask":
        if dask_only:
            raise UsageError(f"{dask_only[0]} applies to --backend dask only")
        return {}
    from engine.sim.dask_backend import load_security, scheduler_address_problem

    try:
        out: dict[str, Any] = {}
        if args.scheduler is not None:
            problem = scheduler_address_problem(args.scheduler)
            if problem:
                raise UsageError(problem)
        if args.worker_wait is not None:
            if not 0 < args.worker_wait < 1e6:
                raise UsageError(f"--worker-wait must be a positive number of seconds, not {args.worker_wait:g}")
            out["worker_wait"] = args.worker_wait
        if args.dask_security is not None:
            if args.scheduler is None:
                raise UsageError("--dask-security needs --scheduler (the local cluster needs no certificates)")
            out["security"] = load_security(args.dask_security)
    except BatchError as exc:  # dask not installed, an unreadable security file
        raise UsageError(str(exc)) from None
    return out


class Progress:
    """Progress on stderr: a redrawn bar on a terminal, a line every 10% otherwise (logs stay short)."""

    def __init__(self, total: int, label: str = "", stream: TextIO | None = None) -> None:
        self.total = total
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.done = 0
        self.start = time.perf_counter()
        self._last_draw = 0.0
        self._next_line = max(1, total // 10)

    def update(self, n: int = 1) -> None:
        """Count finished games."""
        self.done += n
        now = time.perf_counter()
        if self.tty:
            if now - self._last_draw >= 0.1 or self.done >= self.total:
                self._last_draw = now
                self._draw(now)
        elif self.done >= self._next_line or self.done == self.total:
            self._next_line = self.done + max(1, self.total // 10)
            rate = self.done / max(now - self.start, 1e-9)
            line = f"{self.label}{self.done}/{self.total} games ({rate:.1f} games/s)"
            print(line, file=self.stream, flush=True)

    def _draw(self, now: float) -> None:
        width = 30
        frac = self.done / self.total if self.total else 1.0
        bar = "#" * int(frac * width) + "." * (width - int(frac * width))
        rate = self.done / max(now - self.start, 1e-9)
        print(f"\r{self.label}[{bar}] {self.done}/{self.total} {rate:.1f} games/s ", end="", file=self.stream,
              flush=True)

    def close(self) -> None:
        """End the bar's line."""
        if self.tty and self.done:
            print(file=self.stream, flush=True)


def pct(x: float) -> str:
    """0.4567 -> ' 45.7%'."""
    return f"{100 * x:5.1f}%"


def format_summary(s: dict[str, Any]) -> str:
    """The human-readable summary of a batch."""
    stopped = f" - {s['stopped']}" if s.get("stopped") else ""
    pol = s["policies"]
    lines = [
        f"{s.get('mission') or 'mission'}: {s['games']} of {s['games_requested']} games, seed {s['seed']}, "
        f"{s['workers']} worker(s) ({s['backend']}), {s['seconds']:.1f} s, "
        f"{s['games_per_second']:.1f} games/s{stopped}",
        f"  policies: marines={pol.get('marines')}, genestealers={pol.get('genestealers')}",
    ]
    for label, rate, ci, n in (
        ("Marines win", "marine_win_rate", "marine_win_ci95", "marine_wins"),
        ("Genestealers win", "genestealer_win_rate", "genestealer_win_ci95", "genestealer_wins"),
        ("Draws", "draw_rate", "draw_ci95", "draws"),
    ):
        lo, hi = s[ci]
        lines.append(f"  {label:<17}{pct(s[rate])}  95% CI [{pct(lo)}, {pct(hi)}]  ({s[n]})")
    cas = s["mean_casualties"]
    lines.append(f"  Turns: mean {s['mean_turns']:.2f}, median {s['median_turns']:g}")
    lines.append(f"  Casualties per game: Marines {cas['marines']:.2f}, "
                 f"Genestealers {cas['genestealers']:.2f}; Marines escaped {s['mean_marines_escaped']:.2f}")
    if s.get("failed_games"):
        lines.append(f"  FAILED games: {s['failed_games']} (first errors: {'; '.join(s.get('errors', {}))})")
    if s.get("capped_games"):
        lines.append(f"  games stopped by the action cap: {s['capped_games']}")
    return "\n".join(lines)
