"""The 4th edition's sand timer (seed 003, "Le Sablier"): the Marine player's action phase lasts a set real time.

The Genestealer player turns the timer when the Marine command phase ends; when the sand has run out the Marine
action phase ends at once, the action under way completing. Time comes from an injected clock, so a test moves
it by hand instead of waiting.
"""

from __future__ import annotations

import time
from typing import Protocol

# The default length in seconds (docs/RULES.md §2 states it; a play session may set another).
DEFAULT_SECONDS = 180.0


class Clock(Protocol):
    """Seconds from any fixed origin, never going back."""

    def __call__(self) -> float: ...


class ManualClock:
    """A clock that moves only when told to (tests, and replays that must not depend on real time)."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Let `seconds` pass."""
        self.now += seconds


class SandTimer:
    """A timer of `seconds` read from `clock`: turned (`turn`), read (`left`, `run_out`) and put down (`stop`)."""

    def __init__(self, seconds: float = DEFAULT_SECONDS, clock: Clock = time.monotonic) -> None:
        if not seconds > 0:
            raise ValueError(f"the sand timer's length must be a positive number of seconds, not {seconds!r}")
        self.seconds = float(seconds)
        self.clock = clock
        self._turned_at: float | None = None

    @property
    def running(self) -> bool:
        """The timer was turned and not put down (it may have run out)."""
        return self._turned_at is not None

    def turn(self) -> None:
        """Turn the timer over: the full length of sand starts to run."""
        self._turned_at = self.clock()

    def stop(self) -> None:
        """Put the timer down (the Marine action phase is over)."""
        self._turned_at = None

    def left(self) -> float:
        """Seconds of sand left (the full length while the timer is down)."""
        if self._turned_at is None:
            return self.seconds
        return max(0.0, self.seconds - (self.clock() - self._turned_at))

    def run_out(self) -> bool:
        """The timer is turned and its sand has run out."""
        return self._turned_at is not None and self.left() <= 0.0
