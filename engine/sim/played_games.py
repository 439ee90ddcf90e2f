"""A designer's games against the players, read back: which side the person played, against whom, and how it
ended, for the games of one mission, and the person's win rate per side beside the players' own.

A played game is the one-game results file `hulkforge play --record` and the playtest write (a seat "human" in
its spec). Files that are not one, or are of another mission, are skipped with the reason.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.ai.base import SIDES
from engine.sim.results import ResultsFileError, read_results
from engine.sim.session import HUMAN
from engine.stats.intervals import wilson


@dataclass(frozen=True)
class PlayedGame:
    """One kept game: the file, the person's side ("both": hot-seat), the opponent, and its end."""

    path: str
    side: str
    opponent: str
    winner: str
    turns: int
    reason: str
    undone: int  # decisions taken back


@dataclass(frozen=True)
class SideResult:
    """A person's games as one side: wins of games, with the Wilson 95% interval of the win rate."""

    side: str
    wins: int
    games: int
    interval: tuple[float, float]

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def same_mission(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Two mission documents hold the same mission (key order and spacing aside)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _files(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        out.extend(sorted(p.glob("*.json")) if p.is_dir() else [p])
    return out


def read_played_games(paths: Iterable[str | os.PathLike[str]], mission_doc: Mapping[str, Any] | None = None
                      ) -> tuple[list[PlayedGame], list[str]]:
    """The played games among `paths` (files, or folders of .json files) of `mission_doc` (any mission when None),
    and one line per file skipped and why."""
    games: list[PlayedGame] = []
    skipped: list[str] = []
    for path in _files(paths):
        try:
            doc = read_results(path)
        except ResultsFileError as exc:
            skipped.append(str(exc))
            continue
        spec = doc.get("spec") or {}
        seats = spec.get("policies") or {}
        people = [s for s in SIDES if seats.get(s) == HUMAN]
        rows = doc.get("games") or []
        if not people or len(rows) != 1:
            skipped.append(f"{path}: not a game a person played")
            continue
        if mission_doc is not None and not same_mission(spec.get("mission_doc") or {}, mission_doc):
            skipped.append(f"{path}: a game of another mission")
            continue
        row = rows[0]
        if row.get("winner") is None:
            skipped.append(f"{path}: the game has no result")
            continue
        side = people[0] if len(people) == 1 else "both"
        opponent = seats.get(SIDES[1 - SIDES.index(side)], "") if side != "both" else HUMAN
        games.append(PlayedGame(str(path), side, str(opponent), str(row["winner"]), int(row.get("turns", 0)),
                                str(row.get("reason", "")), len(row.get("undone") or [])))
    return games, skipped


def person_results(games: Iterable[PlayedGame]) -> list[SideResult]:
    """The person's wins per side played against a policy (hot-seat games are both sides' own: not counted)."""
    out: list[SideResult] = []
    games = list(games)
    for side in SIDES:
        mine = [g for g in games if g.side == side]
        if mine:
            wins = sum(g.winner == side for g in mine)
            out.append(SideResult(side, wins, len(mine), wilson(wins, len(mine))))
    return out
