"""`hulkforge simulate MISSION --games N --seed S ...`: a Monte Carlo batch of AI-vs-AI games."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.sim.cli_support import (
    Progress,
    UsageError,
    add_batch_arguments,
    build_spec,
    dask_options,
    format_summary,
    parse_value,
    set_help_text,
    split_assignment,
)


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "simulate",
        help="play a batch of AI-vs-AI games and print win rates",
        description="Play a reproducible batch of games between two AI policies and summarise it: win rates "
        "with Wilson 95% intervals, game length, casualties. The same --seed and --games give the same "
        "games whatever --workers or --backend. Ctrl-C or SIGTERM stops early and keeps the games that finished; "
        "with --out every finished game is journalled as it ends, so --resume can finish a stopped batch. "
        "Exit 0: done; 1: the batch could not run or games failed; 2: bad input, or --out cannot be written; "
        "130: Ctrl-C; 143: SIGTERM (the finished games written).",
    )
    add_batch_arguments(p, set_help_text())
    p.add_argument("--out", "-o", metavar="FILE", default=None,
                   help="write summary + one row per game as JSON (schemas/results.schema.json)")
    p.add_argument("--keep-actions", action="store_true", help="also store every game's action texts in --out")
    p.add_argument("--resume", action="store_true",
                   help="finish the batch of --out that a crash, a kill or a full disk stopped (its OUT.journal), or "
                   "that Ctrl-C or SIGTERM stopped (OUT itself): play only the games it lacks. Same arguments "
                   "as the first run; without anything to resume, plays the whole batch")
    p.add_argument("--strength-check", action="store_true",
                   help="play --games games for each pairing of random, novice, heuristic, look-ahead and tuned "
                   "players; report the Marine win rate at equal strength tier by tier (the skill curve: CONVERGED "
                   "when the two strongest tiers agree within 5 points, paired) and whether tuned players change "
                   "it (--out: the report as JSON)")
    p.add_argument("--tiers", metavar="TIERS", default=None,
                   help="with --strength-check: the skill tiers, weakest first (default random,novice,heuristic,"
                   "search; search:GAMES sets the look-ahead budget; a tier whose players are not in this build "
                   "is skipped with a note)")
    p.add_argument("--tuned", metavar="WEIGHTS.json", default=None,
                   help="with --strength-check: the tuned players' weights (hulkforge train)")
    p.add_argument("--diagonal", action="store_true",
                   help="with --strength-check: only equal strengths on both sides (one batch per strength instead "
                   "of one per pairing)")
    return p


def parse_sets(items: list[str]) -> dict[str, Any]:
    """--set NAME=VALUE items as a dict."""
    out: dict[str, Any] = {}
    for text in items:
        name, value = split_assignment(text, "--set")
        out[name] = parse_value(value)
    return out


def run(args: argparse.Namespace) -> int:
    if args.strength_check:
        from engine.commands.strength import run_strength_check

        return run_strength_check(args)
    from engine.commands.playable import report_invalid
    from engine.mission.playable import InvalidMission
    from engine.sim.batch import prepare_spec
    from engine.sim.outputs import OutputClaim, OutputError

    try:
        if args.resume and not args.out:
            raise UsageError("--resume needs --out: the results file of the batch to finish")
        spec = build_spec(args, parse_sets(args.sets))
        dask = dask_options(args)
    except UsageError as exc:
        print(f"hulkforge simulate: {exc}", file=sys.stderr)
        return 2
    except InvalidMission as exc:
        return report_invalid("hulkforge simulate", exc)
    spec.keep_actions = bool(args.keep_actions)
    spec = prepare_spec(spec)
    if not args.out:
        return _play(args, spec, dask, None)
    try:
        claim = OutputClaim(args.out)  # before the first game: a batch never plays for a file it cannot write
    except OutputError as exc:
        print(f"hulkforge simulate: {exc}", file=sys.stderr)
        return 2
    try:
        return _play(args, spec, dask, claim.target)
    finally:
        claim.release()


def _play(args: argparse.Namespace, spec: Any, dask: dict[str, Any], out: Path | None) -> int:
    """Play the batch (the games its journal lacks, with --resume), write the results from the journal, report."""
    from engine.sim.batch import BatchError, batch_summary, run_batch
    from engine.sim.journal import journal_path, write_results_from_journal
    from engine.sim.stopping import stop_exit_code, stop_name

    journal = missing = None
    if out is not None:
        try:
            journal, missing = open_journal(out, spec, resume=args.resume)
        except UsageError as exc:
            print(f"hulkforge simulate: {exc}", file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"hulkforge simulate: {journal_path(out)}: cannot write: {exc.strerror or exc}", file=sys.stderr)
            return 2
    progress = Progress(len(missing) if missing is not None else spec.games, "simulate: ")

    def on_result(rec: Any) -> None:
        if journal is not None:
            journal.add(rec.to_json())
        progress.update()

    try:
        result = run_batch(spec, on_result=on_result, backend=args.backend, workers=args.workers,
                           scheduler=args.scheduler, keep_records=False, dask_options=dask, indices=missing)
        if journal is not None:
            journal.close()
    except BatchError as exc:
        progress.close()
        if journal is not None:
            _drop_if_empty(journal)
        print(f"hulkforge simulate: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        # The journal could not be written (a full disk, a lost network drive), or the OS refused the workers.
        progress.close()
        if journal is None:
            print(f"hulkforge simulate: the batch stopped: {exc.strerror or exc}", file=sys.stderr)
            return 1
        _drop_if_empty(journal)
        kept = _kept(journal) if journal.rows else "no game had finished"
        print(f"hulkforge simulate: {journal.path}: cannot write: {exc.strerror or exc}; {kept}", file=sys.stderr)
        return 2
    progress.close()
    stopped = result.status.stopped
    in_force = options_in_force(spec)

    def summary_of(stats: Any) -> dict[str, Any]:
        s = batch_summary(spec, stats, seconds=result.seconds, games_per_second=result.games_per_second,
                          backend=result.backend, workers=result.workers, stopped=stopped,
                          worker_deaths=result.status.worker_deaths)
        s["options_in_force"] = in_force
        return s

    stats = result.stats
    if journal is not None and out is not None:
        try:
            stats = write_results_from_journal(journal.path, out, spec_json(spec), summary_of)
        except OSError as exc:
            print(f"hulkforge simulate: {out}: cannot write: {exc.strerror or exc}; {_kept(journal)}",
                  file=sys.stderr)
            return 2
        except KeyboardInterrupt as exc:
            from engine.sim.stopping import stop_reason

            print(f"hulkforge simulate: stopped while writing {out}; {_kept(journal)}", file=sys.stderr)
            return stop_exit_code(stop_reason(exc)) or 130
        journal.remove()
    summary = summary_of(stats)
    if args.json:
        print(json.dumps(summary, indent=2, sort_keys=True))
    else:
        print(format_summary(summary))
        if out is not None:
            print(f"  results written to {out}")
    for msg in result.status.messages[:5]:
        print(f"hulkforge simulate: {msg}", file=sys.stderr)
    if stopped is not None:
        done = stats.games + stats.failed
        where = f" in {out}; run the same command with --resume to play the rest" if out is not None else ""
        print(f"hulkforge simulate: stopped ({stop_name(stopped)}): kept the {done} finished games "
              f"of {spec.games}{where}", file=sys.stderr)
    code = stop_exit_code(stopped)
    if code is not None:
        return code
    return 1 if stats.failed or stopped not in (None, "cancelled") else 0


def _kept(journal: Any) -> str:
    return (f"the {journal.rows} finished games are kept in {journal.path}: run the same command with --resume "
            "to finish the batch")


def _drop_if_empty(journal: Any) -> None:
    """Remove a journal that holds no game (nothing to resume), else just close it."""
    if journal.rows == 0:
        journal.remove()
    else:
        try:
            journal.close()
        except OSError:
            pass


def spec_json(spec: Any) -> dict[str, Any]:
    """The spec as its JSON text reads back, so a spec and the one stored in a journal compare equal."""
    loaded: dict[str, Any] = json.loads(json.dumps(spec.to_json(), sort_keys=True))
    return loaded


def open_journal(out: Path, spec: Any, *, resume: bool) -> tuple[Any, Any]:
    """(the journal to append to, the games it lacks or None for all): a new journal, or with `resume` the one a
    stopped batch left (else the rows of a results file of a batch that stopped early)."""
    from engine.sim.journal import Journal, JournalError, MissingGames, journal_path, read_journal
    from engine.sim.results import ResultsFileError, read_results

    path = journal_path(out)
    want = spec_json(spec)
    other = "it holds another batch (mission, settings, seed or games differ): resume with the command that " \
            "started it"
    if path.exists():
        try:
            contents = read_journal(path)
        except JournalError as exc:
            raise UsageError(f"{exc}; move it away to start again") from None
        if contents.rows and not resume:
            raise UsageError(f"{path} holds {contents.rows} finished games of a batch that did not end: run the "
                             "same command with --resume to play the rest, or delete it to start again")
        if contents.rows:
            if contents.spec != want:
                raise UsageError(f"{path}: {other}")
            return Journal.reopen(contents), MissingGames(contents.done)
    if resume and out.exists():
        try:
            doc = read_results(out)
        except ResultsFileError as exc:
            raise UsageError(f"--resume: {exc}") from None
        if json.loads(json.dumps(doc["spec"], sort_keys=True)) != want:
            raise UsageError(f"--resume: {out}: {other}")
        journal = Journal.start(path, want)
        done = bytearray(spec.games)
        for row in doc["games"]:
            if 0 <= row["index"] < spec.games and not done[row["index"]]:
                done[row["index"]] = 1
                journal.add(row)
        return journal, MissingGames(done)
    return Journal.start(path, want), None


def options_in_force(spec: Any) -> dict[str, Any]:
    """Every rule option as the games played them (defaults, mission, overrides)."""
    from engine.rules.options import resolve_options
    from engine.sim.runner import load_spec_mission

    return dict(resolve_options(load_spec_mission(spec), spec.options))
