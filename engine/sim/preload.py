"""What a batch worker needs before its first game. The local pool's fork server imports this module once
(engine.sim.local.start_method), and every worker forked from it starts with the rules, the players and the runner
in memory."""

from __future__ import annotations

import gc

from engine.ai.base import policy_names
from engine.rules import game  # noqa: F401  (what the workers run: imported here, once)
from engine.sim import local, runner  # noqa: F401

policy_names()  # imports every player module: each registers its policies
# Objects alive now live as long as a worker: its collector need not walk them, and by not touching them it leaves
# more of their memory pages shared with the server instead of copied into each worker.
gc.freeze()
