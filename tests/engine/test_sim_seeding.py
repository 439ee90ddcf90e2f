"""The pure-Python SeedSequence (engine.sim.seeding) against NumPy's, and a batch worker that starts light."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.sim.seeding import generate_uint64, generate_words
from engine.sim.spec import game_seed

ROOT = Path(__file__).resolve().parents[2]

# Edge cases of the 32-bit word split (0, one word, exactly two words, past 2**64) and of NumPy's padding
# (a spawn key with short entropy is padded to the pool size; entropy longer than the pool is mixed in after).
ENTROPIES = [0, 1, 7, 2**32 - 1, 2**32, 2**32 + 1, 2**53 - 1, 2**64 + 5, 2**96, 2**128 + 3, 2**160 + 2**70 + 9]
SPAWN_KEYS: list[tuple[int, ...]] = [(), (0,), (1,), (999,), (2**31,), (2**32 - 1,), (2**32,), (2**40 + 7,), (3, 5),
                                     (2**40, 1, 2)]


@pytest.mark.parametrize("entropy", ENTROPIES)
@pytest.mark.parametrize("key", SPAWN_KEYS)
def test_words_are_numpys(entropy: int, key: tuple[int, ...]) -> None:
    ss = np.random.SeedSequence(entropy, spawn_key=key)
    assert generate_words(entropy, key, 7) == [int(w) for w in ss.generate_state(7)]
    assert generate_uint64(entropy, key) == int(ss.generate_state(1, dtype=np.uint64)[0])


def test_game_seeds_match_numpy_on_random_batches() -> None:
    rng = random.Random(11)
    for _ in range(300):
        seed = rng.getrandbits(rng.choice([4, 31, 32, 33, 53, 64, 90]))
        index = rng.getrandbits(rng.choice([3, 16, 32, 36]))
        child = np.random.SeedSequence(seed, spawn_key=(index,))
        expected = int(child.generate_state(1, dtype=np.uint64)[0]) & ((1 << 53) - 1)
        assert game_seed(seed, index) == expected, (seed, index)


def test_negative_words_are_refused() -> None:
    with pytest.raises(ValueError):
        generate_uint64(-1, (0,))


def test_a_batch_worker_builds_its_game_without_numpy_networkx_or_jsonschema() -> None:
    # What a local worker imports and builds (engine.sim.local, then runner_for on a spec that embeds its mission):
    # these libraries cost a worker tenths of a second of CPU at start-up and it plays games without them.
    code = f"""
import json, sys
from engine.sim.local import _worker_main
from engine.sim.runner import runner_for
from engine.sim.spec import BatchSpec
doc = json.loads(open({str(ROOT / "sample_missions" / "pitfall.json")!r}, encoding="utf-8").read())
spec = BatchSpec(games=1, seed=1, mission_doc=doc,
                 policies={{"marines": "heuristic-marines", "genestealers": "heuristic-genestealers"}})
rec = runner_for(spec)(0, 5)
assert rec.winner in ("marines", "genestealers", "draw"), rec
print(json.dumps(sorted(m for m in ("numpy", "networkx", "jsonschema", "optuna") if m in sys.modules)))
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
