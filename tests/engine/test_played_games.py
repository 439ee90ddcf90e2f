"""A designer's kept games read back: the person's side, the opponent, the end; other missions and other files
skipped with the reason; the person's win rate per side with its interval."""

from __future__ import annotations

from pathlib import Path

from engine.mission.io import read_document
from engine.resources import sample_mission
from engine.sim.played_games import person_results, read_played_games
from engine.sim.session import HUMAN, PlaySession


def _kept(path: Path, mission: str, seats: dict[str, str | None], resign: str | None = None) -> dict[str, object]:
    doc = read_document(str(sample_mission(mission)))
    s = PlaySession(doc, seats, 3)
    if resign:
        s.resign(resign)
    else:
        while not s.is_over():
            s.apply(s.legal()[0]) if s.human_to_move() else s.play_ai()
    s.write_record(str(path))
    return doc


def test_kept_games_of_the_mission_and_the_persons_results(tmp_path: Path) -> None:
    doc = _kept(tmp_path / "a.json", "tutorial", {"marines": HUMAN}, resign="marines")
    _kept(tmp_path / "b.json", "tutorial", {"genestealers": HUMAN}, resign="marines")
    _kept(tmp_path / "c.json", "tutorial", {"marines": HUMAN, "genestealers": HUMAN})
    _kept(tmp_path / "d.json", "pitfall", {"marines": HUMAN}, resign="marines")
    (tmp_path / "e.json").write_text("{}")
    games, skipped = read_played_games([tmp_path], doc)
    assert sorted((Path(g.path).name, g.side, g.winner) for g in games) == [
        ("a.json", "marines", "genestealers"), ("b.json", "genestealers", "genestealers"),
        ("c.json", "both", games[2].winner)]
    assert games[0].opponent == "heuristic-genestealers"
    assert any("d.json: a game of another mission" in s for s in skipped)
    assert any("e.json" in s for s in skipped)
    results = {r.side: r for r in person_results(games)}
    assert (results["marines"].wins, results["marines"].games) == (0, 1)
    assert (results["genestealers"].wins, results["genestealers"].games) == (1, 1)
    assert 0 < results["genestealers"].interval[0] < 1 == results["genestealers"].interval[1]
