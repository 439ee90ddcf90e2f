"""Simulation: play one game, run reproducible batches on local processes or Dask, replay a game.

Names are imported on first use, so `engine.stats` can use the record types without a cycle.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "BatchError": "engine.sim.local",
    "BatchResult": "engine.sim.batch",
    "batch_summary": "engine.sim.batch",
    "iter_batch": "engine.sim.batch",
    "prepare_spec": "engine.sim.batch",
    "run_batch": "engine.sim.batch",
    "LocalPool": "engine.sim.local",
    "RunStatus": "engine.sim.local",
    "default_workers": "engine.sim.local",
    "play_game": "engine.sim.play",
    "GameRecord": "engine.sim.record",
    "BatchSpec": "engine.sim.spec",
    "game_seed": "engine.sim.spec",
    "game_seeds": "engine.sim.spec",
    "replay_game": "engine.sim.replay",
    "replay_states": "engine.sim.replay",
    "read_results": "engine.sim.results",
    "ResultsWriter": "engine.sim.results",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'engine.sim' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
