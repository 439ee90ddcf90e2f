"""`hulkforge validate FILE... [--json]`."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.mission import MissionFileError, read_document, validate_document
from engine.resources import mission_path


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        "validate",
        help="check missions against the schema and the placement rules",
        description="Check mission files against schemas/mission.schema.json and the placement rules. "
        "Exit 0: all valid (warnings allowed); 1: a mission breaks a rule; 2: a file cannot be read. "
        "Each issue prints as FILE:LEVEL:X,Y: RULE-ID: message.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="mission files (.json), or sample names such as pitfall")
    p.add_argument("--json", action="store_true", help="print all issues as one JSON array")
    p.add_argument("--quiet", "-q", action="store_true", help="print errors only, not warnings")
    p.add_argument("--explain", action="store_true",
                   help="also print the ruleset and every rule option in force, with where each value comes from "
                   "(the ruleset's default, the mission file, the mission's contents, a --set); with --json the "
                   "output becomes {\"issues\": [...], \"rules\": [...]}")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="OPTION=VALUE",
                   help="with --explain: a rule option set as a batch would set it (repeatable)")
    return p


def _overrides(sets: list[str]) -> dict[str, Any]:
    from engine.sim.cli_support import UsageError, parse_value, split_assignment

    try:
        return dict((name, parse_value(value)) for name, value in (split_assignment(t, "--set") for t in sets))
    except UsageError as exc:
        raise ValueError(str(exc)) from None


def _rules_in_force(doc: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """The ruleset and the options a game of the document plays with, each with its source."""
    from engine.mission.salvage import salvage_document
    from engine.rules.options import explain_options

    mission = salvage_document(doc).mission
    ruleset_source = "mission file" if "ruleset" in doc else "default"
    options = explain_options(mission, overrides)
    return {
        "ruleset": {"value": mission.ruleset, "source": ruleset_source},
        "options": [{"name": o.name, "value": o.value, "source": o.source, "why": o.why} for o in options],
    }


def _print_rules(name: str, rules: dict[str, Any]) -> None:
    rs = rules["ruleset"]
    print(f"{name}: rules in force: ruleset {rs['value']} ({rs['source']})")
    width = max(len(o["name"]) for o in rules["options"])
    for o in rules["options"]:
        value = json.dumps(o["value"]) if not isinstance(o["value"], str) else o["value"]
        why = f" ({o['why']})" if o["why"] else ""
        print(f"  {o['name']:<{width}}  {value:<8}  {o['source']}{why}")


def run(args: argparse.Namespace) -> int:
    worst = 0
    collected: list[dict[str, Any]] = []
    explained: list[dict[str, Any]] = []
    overrides: dict[str, Any] = {}
    if args.sets and not args.explain:
        print("hulkforge validate: --set goes with --explain", file=sys.stderr)
        return 2
    try:
        overrides = _overrides(args.sets)
    except ValueError as exc:
        print(f"hulkforge validate: {exc}", file=sys.stderr)
        return 2
    for name in args.files:
        try:
            doc = read_document(mission_path(name))
        except MissionFileError as exc:
            print(f"hulkforge validate: {exc}", file=sys.stderr)
            if args.json:
                collected.append(
                    {
                        "file": name,
                        "rule": "FILE",
                        "path": "$",
                        "level": None,
                        "squares": [],
                        "message": exc.detail,
                        "severity": "error",
                    }
                )
            worst = 2
            continue
        issues = validate_document(doc)
        for issue in issues:
            if args.json:
                collected.append({"file": name, **issue.to_json()})
            elif issue.severity == "error" or not args.quiet:
                line = issue.line(name)
                print(line if issue.severity == "error" else f"{line} (warning)")
        if any(i.severity == "error" for i in issues):
            worst = max(worst, 1)
        if args.explain:
            try:
                rules = _rules_in_force(doc, overrides)
            except ValueError as exc:  # a --set naming no option, or a value it does not take
                print(f"hulkforge validate: --set: {exc}", file=sys.stderr)
                return 2
            explained.append({"file": name, **rules})
            if not args.json:
                _print_rules(name, rules)
    if args.json:
        print(json.dumps({"issues": collected, "rules": explained} if args.explain else collected, indent=2))
    elif worst == 0:
        print(f"{len(args.files)} mission(s) valid", file=sys.stderr)
    return worst
