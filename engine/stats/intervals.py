"""Confidence intervals for win rates and for differences of win rates."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion; (0, 1) when there are no trials.

    >>> [round(v, 4) for v in wilson(5, 10)]
    [0.2366, 0.7634]
    """
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be in 0..{n}, not {successes}")
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # At p = 0 or 1 the bound is exactly 0 or 1; rounding would put it a hair inside or outside.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


def newcombe_diff(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """p1 - p2 with Newcombe's hybrid score interval (method 10) for independent samples."""
    if n1 <= 0 or n2 <= 0:
        return (0.0, -1.0, 1.0)
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return (d, max(-1.0, low), min(1.0, high))


def paired_diff(a: Sequence[bool], b: Sequence[bool], z: float = Z95) -> tuple[float, float, float]:
    """Rate(a) - rate(b) for outcomes paired by game seed, with Newcombe's score interval for paired data.

    Shared seeds make the two outcomes of one index correlated; the interval uses that correlation (phi),
    so it is narrower than newcombe_diff when the change being tested affects few games.
    """
    if len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    n = len(a)
    if n == 0:
        return (0.0, -1.0, 1.0)
    both = sum(1 for x, y in zip(a, b, strict=True) if x and y)
    only_a = sum(1 for x, y in zip(a, b, strict=True) if x and not y)
    only_b = sum(1 for x, y in zip(a, b, strict=True) if y and not x)
    neither = n - both - only_a - only_b
    k1, k2 = both + only_a, both + only_b
    p1, p2 = k1 / n, k2 / n
    l1, u1 = wilson(k1, n, z)
    l2, u2 = wilson(k2, n, z)
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    # Newcombe's continuity-corrected phi: without it, all-concordant pairs give a zero-width interval.
    phi = (max(both * neither - n / 2, 0) - only_a * only_b) / math.sqrt(margins) if margins else 0.0
    d = p1 - p2
    delta = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    eps = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    return (d, max(-1.0, d - delta), min(1.0, d + eps))
