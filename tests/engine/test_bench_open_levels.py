"""benchmarks/open_levels.py: its missions are legal and it reports each game and each size."""

from __future__ import annotations

import pytest

from benchmarks.open_levels import main, open_level_doc
from engine.mission import validate_document


@pytest.mark.parametrize("size", [12, 40, 200])
def test_the_open_levels_are_legal_missions(size: int) -> None:
    doc = open_level_doc(size)
    assert [i for i in validate_document(doc) if i.severity == "error"] == []
    assert doc["levels"][0]["rows"] == ["a" * size] * size


def test_a_size_off_the_limits_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--sizes", "8"])
    assert exc.value.code == 2 and "must be 12 to 200" in capsys.readouterr().err


def test_it_reports_every_game_and_the_rate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--sizes", "12", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "12x12 game 0:" in out and "12x12 game 1:" in out and "games per CPU-second" in out
