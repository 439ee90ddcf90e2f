"""The batch journal: every finished game appended to `OUT.journal` as it arrives, so no fault loses a batch.

`simulate --out OUT` writes a header line (the spec) and then one JSON row per finished game, in completion
order, to `OUT.journal`; each row is handed to the OS at once (a killed process loses none) and the file is
fsynced every SYNC_ROWS rows or SYNC_SECONDS (a power cut loses at most those). At the end (all games, Ctrl-C,
SIGTERM) the results file is made from the journal and the journal removed. After a crash, kill -9 or a full
disk the journal stays: `simulate ... --resume` reads it, plays only the games it lacks and writes the results.
A torn last line (the process died while writing it) is ignored and cut off.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from engine.sim.record import GameRecord
from engine.sim.results import ResultsWriter, square_totals
from engine.sim.spec import game_seed
from engine.stats.aggregate import BatchStats

JOURNAL_FORMAT = "hulkforge-journal"
JOURNAL_VERSION = 1
JOURNAL_SUFFIX = ".journal"
SYNC_ROWS = 64
SYNC_SECONDS = 1.0
_WINNERS = ("marines", "genestealers", "draw", None)


class JournalError(Exception):
    """A journal that cannot be read or does not belong to this batch; the message names the file and line."""


def journal_path(out: str | os.PathLike[str]) -> Path:
    """The journal of a results file: `OUT.journal` beside it."""
    return Path(f"{os.fspath(out)}{JOURNAL_SUFFIX}")


class Journal:
    """An open journal, appended to row by row."""

    def __init__(self, path: Path, fh: IO[bytes], rows: int) -> None:
        self.path = path
        self._fh = fh
        self.rows = rows  # rows in the file, earlier runs' included
        self._unsynced = 0
        self._synced_at = time.monotonic()

    @classmethod
    def start(cls, path: str | os.PathLike[str], spec_json: dict[str, Any]) -> Journal:
        """A new journal holding only the header (an old file of that name is replaced)."""
        p = Path(path)
        fh = open(p, "wb")  # held open for the whole batch; close() closes it
        j = cls(p, fh, 0)
        try:
            head = {"format": JOURNAL_FORMAT, "version": JOURNAL_VERSION, "spec": spec_json}
            fh.write(json.dumps(head, sort_keys=True).encode() + b"\n")
            j.sync()
        except BaseException:
            fh.close()
            raise
        return j

    @classmethod
    def reopen(cls, contents: JournalContents) -> Journal:
        """Append to a journal read by read_journal, cutting off a torn last line first."""
        fh = open(contents.path, "r+b")
        try:
            fh.truncate(contents.end)
            fh.seek(contents.end)
        except BaseException:
            fh.close()
            raise
        return cls(contents.path, fh, contents.rows)

    def add(self, row: dict[str, Any]) -> None:
        """Append one finished game's row (GameRecord.to_json)."""
        self._fh.write(json.dumps(row, separators=(",", ":")).encode() + b"\n")
        self._fh.flush()  # in the OS now: a kill -9 from here on loses nothing
        self.rows += 1
        self._unsynced += 1
        if self._unsynced >= SYNC_ROWS or time.monotonic() - self._synced_at >= SYNC_SECONDS:
            self.sync()

    def sync(self) -> None:
        """Flush and fsync: what was added survives a power cut."""
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self._unsynced = 0
        self._synced_at = time.monotonic()

    def close(self) -> None:
        """Sync and close; an error here (a full disk) is the caller's to report, the file is closed anyway."""
        if self._fh.closed:
            return
        try:
            self.sync()
        finally:
            try:
                self._fh.close()
            except OSError:
                pass

    def remove(self) -> None:
        """Close and delete the journal (its games are safely in the results file)."""
        try:
            self.close()
        except OSError:
            pass
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass


class JournalContents:
    """What a journal holds: its spec, its rows (complete lines), where the complete lines end."""

    def __init__(self, path: Path, spec: dict[str, Any], rows: int, end: int, done: bytearray) -> None:
        self.path = path
        self.spec = spec
        self.rows = rows
        self.end = end
        self.done = done  # 1 per game index with a row


def _lines(path: Path) -> Iterator[tuple[int, int, bytes]]:
    """(line number, offset after the line, line) of the complete lines; a torn last line is left out."""
    with open(path, "rb") as fh:
        end = 0
        for number, line in enumerate(fh, 1):
            if not line.endswith(b"\n"):
                return
            end += len(line)
            yield number, end, line


def read_journal(path: str | os.PathLike[str]) -> JournalContents:
    """Read and check a journal: header, then rows whose seeds are this batch's. Raises JournalError."""
    p = Path(path)
    spec: dict[str, Any] | None = None
    done = bytearray()
    rows = end = 0
    scratch = BatchStats()  # counting a row is the surest check that the results can be made from it
    try:
        for number, line_end, line in _lines(p):
            end = line_end
            where = f"{p}: line {number}"
            try:
                value = json.loads(line)
            except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
                raise JournalError(f"{where}: not valid JSON ({exc})") from None
            if spec is None:
                spec = _header_spec(value, where)
                done = bytearray(int(spec["games"]))
                continue
            index = _checked_row(value, spec, where)
            try:
                scratch.add(GameRecord.from_json(value))
            except (TypeError, ValueError, KeyError, AttributeError) as exc:
                raise JournalError(f"{where}: not a game row ({type(exc).__name__}: {exc})") from None
            if not done[index]:
                done[index] = 1
                rows += 1
    except OSError as exc:
        raise JournalError(f"{p}: cannot be read: {exc.strerror or exc}") from None
    if spec is None:
        raise JournalError(f"{p}: empty: it holds no batch")
    return JournalContents(p, spec, rows, end, done)


def _header_spec(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict) or value.get("format") != JOURNAL_FORMAT:
        raise JournalError(f"{where}: not a hulkforge journal")
    if value.get("version") != JOURNAL_VERSION or type(value.get("version")) is not int:
        raise JournalError(f"{where}: journal version {value.get('version')!r}: this hulkforge reads version 1")
    spec = value.get("spec")
    if not isinstance(spec, dict) or type(spec.get("games")) is not int or type(spec.get("seed")) is not int:
        raise JournalError(f"{where}: the header has no batch spec")
    from engine.sim.spec import MAX_GAMES

    if not 0 <= spec["games"] <= MAX_GAMES or spec["seed"] < 0:
        raise JournalError(f"{where}: the header's games or seed is out of range")
    return spec


def _checked_row(value: Any, spec: dict[str, Any], where: str) -> int:
    """The index of a row that belongs to this batch: a known winner and the seed of its index."""
    if not isinstance(value, dict):
        raise JournalError(f"{where}: a game row must be an object")
    index = value.get("index")
    if type(index) is not int or not 0 <= index < spec["games"]:
        raise JournalError(f"{where}: $.index must be a game index below {spec['games']}")
    if value.get("seed") != game_seed(spec["seed"], index):
        raise JournalError(f"{where}: $.seed is not game {index}'s seed: the row is from another batch")
    if value.get("winner") not in _WINNERS:
        raise JournalError(f"{where}: $.winner must be marines, genestealers, draw or null")
    return index


def journal_rows(path: str | os.PathLike[str], games: int) -> Iterator[dict[str, Any]]:
    """The rows of a journal of `games` games (checked by read_journal, or written by this process), the first
    row of each index only."""
    seen = bytearray(games)
    for number, _end, line in _lines(Path(path)):
        if number == 1:
            continue
        row = json.loads(line)
        if not seen[row["index"]]:
            seen[row["index"]] = 1
            yield row


class MissingGames:
    """The game indices a journal lacks, read lazily (a Collection for iter_batch)."""

    def __init__(self, done: bytearray) -> None:
        self._done = done
        self._count = len(done) - sum(done)

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[int]:
        return (i for i, d in enumerate(self._done) if not d)

    def __contains__(self, index: object) -> bool:
        return isinstance(index, int) and 0 <= index < len(self._done) and not self._done[index]


def write_results_from_journal(
    journal: str | os.PathLike[str], out: str | os.PathLike[str], spec_json: dict[str, Any],
    summary: Callable[[BatchStats], dict[str, Any]],
) -> BatchStats:
    """Write the results file of every row in the journal (index order; summary and totals of those rows)."""
    stats = BatchStats()
    with ResultsWriter(out, spec_json) as writer:
        for row in journal_rows(journal, int(spec_json["games"])):
            rec = GameRecord.from_json(row)
            stats.add(rec)
            writer.add(rec)
        writer.finish(summary(stats), square_totals(stats))
    return stats
