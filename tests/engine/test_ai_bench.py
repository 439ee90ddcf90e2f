"""The results-matrix benchmark: cells are reproducible and printed with Wilson intervals."""

from __future__ import annotations

from benchmarks.ai import main, markdown, play_cell


def test_cell_is_reproducible_and_rendered_with_intervals(capsys: object) -> None:
    a = play_cell("tutorial", "heuristic-marines", "random", 4, seed=3)
    b = play_cell("tutorial", "heuristic-marines", "random", 4, seed=3)
    assert (a.marine_wins, a.draws, a.stealer_wins, a.turns) == (b.marine_wins, b.draws, b.stealer_wins, b.turns)
    assert a.marine_wins + a.draws + a.stealer_wins == 4
    assert 0 < a.policy_seconds < a.seconds
    text = markdown([a])
    assert "### tutorial (4 games per cell)" in text and "[" in text and "–" in text


def test_main_writes_the_matrix(tmp_path: object) -> None:
    out = tmp_path / "m.md"  # type: ignore[operator]
    assert main(["--games", "1", "--missions", "tutorial", "--marines", "random", "--genestealers", "random",
                 "--jobs", "1", "--out", str(out)]) == 0
    assert "| **random** |" in out.read_text()
