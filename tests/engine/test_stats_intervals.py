"""Wilson and Newcombe intervals against published values; the paired interval's properties."""

from __future__ import annotations

import pytest

from engine.stats.intervals import newcombe_diff, paired_diff, wilson


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17:857-872, Table I (Wilson score, no continuity correction).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
    ],
)
def test_wilson_matches_published_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=5e-5)
    assert hi == pytest.approx(high, abs=5e-5)


def test_wilson_edges() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 10)[0] == 0.0
    lo, hi = wilson(3, 10)
    lo2, hi2 = wilson(300, 1000)
    assert hi2 - lo2 < hi - lo  # more games, narrower interval
    with pytest.raises(ValueError):
        wilson(11, 10)


@pytest.mark.parametrize(
    ("k1", "n1", "k2", "n2", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17:873-890, method 10.
        (56, 70, 48, 80, 0.0524, 0.3339),
        (9, 10, 3, 10, 0.1705, 0.8090),
    ],
)
def test_newcombe_difference_matches_published_values(
    k1: int, n1: int, k2: int, n2: int, low: float, high: float
) -> None:
    d, lo, hi = newcombe_diff(k1, n1, k2, n2)
    assert d == pytest.approx(k1 / n1 - k2 / n2)
    assert lo == pytest.approx(low, abs=5e-4)
    assert hi == pytest.approx(high, abs=5e-4)


def test_paired_interval_is_narrower_than_unpaired_when_outcomes_agree() -> None:
    # 200 shared seeds; the change flips 12 losses to wins and 2 wins to losses.
    a = [True] * 80 + [True] * 12 + [False] * 2 + [False] * 106
    b = [True] * 80 + [False] * 12 + [True] * 2 + [False] * 106
    d, lo, hi = paired_diff(a, b)
    assert d == pytest.approx(10 / 200)
    assert lo < d < hi
    assert lo > 0  # 12 vs 2 discordant pairs is a real difference
    _, ulo, uhi = newcombe_diff(sum(a), 200, sum(b), 200)
    assert hi - lo < uhi - ulo
    assert ulo < 0  # the unpaired interval cannot tell


def test_paired_interval_of_identical_samples_is_centred_and_not_degenerate() -> None:
    d, lo, hi = paired_diff([False] * 50 + [True] * 50, [False] * 50 + [True] * 50)
    assert d == 0 and lo < 0 < hi
    with pytest.raises(ValueError):
        paired_diff([True], [True, False])
