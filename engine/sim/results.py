"""The results file: summary + one row per game, streamed to disk in index order and replaced atomically."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from types import TracebackType
from typing import Any

from engine.mission import strict_json
from engine.mission.atomic import AtomicFile
from engine.mission.io import MAX_NESTING, MissionFileError, check_mission_content, read_limited, short_repr
from engine.sim.record import SQUARE_FIELDS, GameRecord

RESULTS_FORMAT = "hulkforge-results"
RESULTS_VERSION = 1
MAX_RESULTS_BYTES = 512 * 1024 * 1024


class ResultsFileError(Exception):
    """A results file that cannot be read; the message names the file and the place."""

    def __init__(self, path: str | os.PathLike[str], message: str) -> None:
        self.path = str(path)
        self.detail = message
        super().__init__(f"{self.path}: {message}")


class ResultsWriter:
    """Writes rows as games finish, in index order (a small reorder buffer), then the summary; atomic.

    The text goes to a temporary file beside the target, renamed over it only by `finish`, so a crash
    or Ctrl-C never leaves half a results file; the parent never holds all rows in memory.
    """

    def __init__(self, path: str | os.PathLike[str], spec_json: dict[str, Any]) -> None:
        self.path = Path(path)
        # Results are as shareable as any output. (Reading the umask means setting it, which races with other
        # threads, so take the common default.) Temporary files that a killed batch left are removed here.
        self._out = AtomicFile(self.path, mode=0o644)
        self._fh = io.TextIOWrapper(self._out.file, encoding="utf-8", newline="\n")
        self._next = 0
        self._waiting: dict[int, dict[str, Any]] = {}
        self._first = True
        self._finished = False
        try:
            self._fh.write(f'{{"format": "{RESULTS_FORMAT}", "version": {RESULTS_VERSION},\n')
            self._fh.write(f' "spec": {json.dumps(spec_json, sort_keys=True)},\n "games": [')
        except BaseException:
            self.abort()
            raise

    def add(self, rec: GameRecord) -> None:
        """Queue one game's row; rows are written as soon as every lower index is written."""
        self._waiting[rec.index] = rec.to_json()
        while self._next in self._waiting:
            self._write_row(self._waiting.pop(self._next))
            self._next += 1

    def _write_row(self, row: dict[str, Any]) -> None:
        self._fh.write(("\n  " if self._first else ",\n  ") + json.dumps(row, separators=(",", ":")))
        self._first = False

    def finish(self, summary: dict[str, Any], squares: dict[str, list[list[Any]]]) -> None:
        """Write the rows left (a stopped batch has gaps), the summary and the totals; replace the target."""
        for index in sorted(self._waiting):
            self._write_row(self._waiting.pop(index))
        self._fh.write("\n ],\n")
        self._fh.write(f' "summary": {json.dumps(summary, sort_keys=True)},\n')
        self._fh.write(f' "squares": {json.dumps(squares, sort_keys=True)}\n}}\n')
        self._fh.detach()  # flushes into the temporary file, which commit() then owns alone
        self._out.commit()
        self._finished = True

    def abort(self) -> None:
        """Drop the temporary file, leaving the target as it was; does nothing after finish()."""
        if self._finished:
            return
        self._finished = True
        try:
            self._fh.detach()
        except (ValueError, OSError):  # already detached, or the disk is full: the file goes anyway
            pass
        self._out.abort()

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.abort()


def square_totals(stats: Any) -> dict[str, list[list[Any]]]:
    """The per-square totals of a BatchStats as {name: [[level, x, y, n], ...]}."""
    return {name: stats.square_rows(name) for name in SQUARE_FIELDS}


def read_results(path: str | os.PathLike[str], validate: bool = True) -> dict[str, Any]:
    """Read a results file, checking format, version and (by default) the schema; raises ResultsFileError."""
    data = read_limited(path, what="results file", error=ResultsFileError, max_bytes=MAX_RESULTS_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ResultsFileError(path, f"not UTF-8 text (byte {exc.start})") from None
    try:
        doc = strict_json.loads(text, "results file")
        # A results file nests its spec's mission document two levels down.
        strict_json.check(doc, max_nesting=MAX_NESTING + 2)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        raise ResultsFileError(path, f"{where}: not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise ResultsFileError(path, "nested too deeply") from None
    except ValueError as exc:  # a duplicate key, NaN, a lone surrogate, an integer of too many digits
        raise ResultsFileError(path, str(exc)) from None
    if not isinstance(doc, dict) or doc.get("format") != RESULTS_FORMAT:
        raise ResultsFileError(path, f"$.format is not {RESULTS_FORMAT!r}: not a hulkforge results file")
    found = doc.get("version")
    if type(found) is not int or found != RESULTS_VERSION:  # True == 1 in Python
        raise ResultsFileError(path, f"$.version is {short_repr(found)}: this hulkforge reads version 1 only")
    if validate:
        error = schema_error(doc)
        if error:
            raise ResultsFileError(path, error)
    return doc


def replay_spec(doc: dict[str, Any], path: str | os.PathLike[str]) -> Any:
    """The BatchSpec of a results document (read_results), checked before any of it is played again.

    A results file may come from someone else: its mission is read like a mission file (characters, whole
    numbers) and validated (schema and placement rules), its policies must exist, and only the rules engine
    replays (the `fake` runner is a stand-in for tests). Raises ResultsFileError naming the place.
    """
    from engine.ai.base import SIDES, UnknownPolicyError, policy_info
    from engine.mission import validate_document
    from engine.sim.spec import BatchSpec

    raw = doc["spec"]
    runner = raw.get("runner", "rules")
    if runner != "rules":
        raise ResultsFileError(path, f"$.spec.runner is {short_repr(runner)}: only games of the rules engine "
                                     "can be replayed")
    mission_doc = raw.get("mission_doc")
    if mission_doc is None:
        raise ResultsFileError(path, "$.spec.mission_doc is missing: the file does not hold the mission it played")
    try:
        check_mission_content(mission_doc, str(path), prefix=("spec", "mission_doc"))
    except MissionFileError as exc:
        raise ResultsFileError(path, exc.detail) from None
    errors = [i for i in validate_document(mission_doc) if i.severity == "error"]
    if errors:
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        first = errors[0]
        raise ResultsFileError(path, f"$.spec.mission_doc{first.path[1:]}: {first.rule}: {first.message}{more}")
    for side in SIDES:
        name = raw.get("policies", {}).get(side, "random")
        if name == "human":  # a person's game (hulkforge play): its recorded actions are played back
            continue
        try:
            policy_info(name.partition(":")[0] if ":" in name else name)  # 'NAME:WEIGHTS.json' (a playtest's seat)
        except UnknownPolicyError as exc:
            raise ResultsFileError(path, f"$.spec.policies.{side}: {exc}") from None
    try:
        return BatchSpec.from_json(raw)
    except ValueError as exc:
        raise ResultsFileError(path, f"$.spec: {exc}") from None


def schema_error(doc: dict[str, Any]) -> str | None:
    """The first schema error of a results document as '$.path: message', or None when it conforms."""
    import jsonschema

    from engine.schema_validator import schema_validator

    best = jsonschema.exceptions.best_match(schema_validator("results.schema.json").iter_errors(doc))
    if best is None:
        return None
    where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in best.absolute_path)
    return f"{where}: {best.message}"


def stats_from_results(doc: dict[str, Any]) -> Any:
    """A BatchStats rebuilt from the rows of a results document (to chart a saved batch)."""
    from engine.stats.aggregate import BatchStats

    stats = BatchStats()
    for row in doc.get("games", []):
        stats.add(GameRecord.from_json(row))
    return stats
