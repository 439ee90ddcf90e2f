"""The policy interface every AI player implements, and the registry that names them.

A policy picks one of the legal actions. Its randomness comes only from the `rng` it is handed, which the
simulator derives from the game's seed (see `policy_rng`), so replaying a seed replays the decisions too;
the dice stay in the game's own RNG.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

SIDES: tuple[str, str] = ("marines", "genestealers")


@runtime_checkable
class Policy(Protocol):
    """An AI player: `choose` returns one element of `actions` (never builds a new action).

    `choose` reads only what its side may know, `state.observation(side)` (engine.rules.observation; `state` may
    also be that observation itself), and never mutates it; a look-ahead plays on
    `state.copy(resample_dice=True, seed=..., hidden_from=side)`, whose dice and hidden values are not the real
    game's. One instance plays many games in a worker, one after the other; a policy that keeps memory between
    decisions may define `start_game(state)`, which the simulator calls before each game's first decision.

    The simulator passes `actions` as a lazy `engine.rules.lazy_legal.LegalActions`: iterating, indexing or
    len() build the whole list once; `a in actions` and `actions.of(pid)` (one piece's actions) ask the rules
    about just that, which is what makes the heuristic players fast. Other callers pass a plain list.
    """

    name: str
    params: dict[str, float]

    def choose(self, state: Any, actions: Sequence[Any], rng: random.Random) -> Any:
        """Pick one of the legal actions for the player to move in `state`."""
        ...


PolicyFactory = Callable[[dict[str, float]], Policy]


@dataclass(frozen=True)
class PolicyInfo:
    """A registered policy: its factory, the side it plays (None: either) and its tunable defaults."""

    name: str
    factory: PolicyFactory
    side: str | None
    defaults: Mapping[str, float]
    description: str


class UnknownPolicyError(KeyError):
    """No policy is registered under that name."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown policy"


_REGISTRY: dict[str, PolicyInfo] = {}


def register(
    name: str,
    factory: PolicyFactory,
    *,
    side: str | None = None,
    defaults: Mapping[str, float] | None = None,
    description: str = "",
) -> None:
    """Register a policy factory under `name`; registering the same name again replaces it."""
    if side is not None and side not in SIDES:
        raise ValueError(f"side must be one of {SIDES} or None, not {side!r}")
    _REGISTRY[name] = PolicyInfo(name, factory, side, dict(defaults or {}), description)


def policy_info(name: str) -> PolicyInfo:
    """The registry entry for `name`; raises UnknownPolicyError listing the known names."""
    _load_builtin()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(policy_names()) or "none"
        broken = "".join(f"; engine.ai.{m} failed to load: {e}" for m, e in sorted(LOAD_ERRORS.items()))
        raise UnknownPolicyError(f"unknown policy {name!r} (known: {known}){broken}") from None


def resolve_policy(text: str) -> tuple[str, dict[str, float]]:
    """'NAME' -> (NAME, {}); 'NAME:WEIGHTS.json' -> (NAME, the weights the file holds for the side NAME plays);
    'NAME:KEY=V[,KEY=V...]' -> (NAME, those parameters), e.g. 'search-marines:games=8'.

    Raises UnknownPolicyError for an unknown name, and ValueError (a WeightsFileError naming the file and the
    place) for a weights file that cannot be used or a parameter the policy does not have.
    """
    name, sep, path = text.partition(":")
    if not sep or name not in policy_names():
        policy_info(text)  # raises for an unknown name; a registered name with a colon in it is kept whole
        return text, {}
    info = policy_info(name)
    if "=" in path and not path.lower().endswith(".json"):
        return name, _inline_params(info, path)
    if info.side is None or not info.defaults:
        raise ValueError(f"policy {name!r} takes no weights file")
    from engine.ai.weights import WeightsFileError, load_weights_file

    sides = load_weights_file(path)
    if info.side not in sides:
        raise WeightsFileError(path, f"$.weights: no weights for the {info.side} (it has {', '.join(sides)})")
    return name, dict(sides[info.side])


def _inline_params(info: PolicyInfo, text: str) -> dict[str, float]:
    """The parameters of 'KEY=V,KEY=V' for the policy `info` (an unknown name or a bad number: ValueError)."""
    params: dict[str, float] = {}
    for item in text.split(","):
        key, eq, value = (part.strip() for part in item.partition("="))
        if not eq or not key:
            raise ValueError(f"policy {info.name!r}: expected KEY=VALUE, got {item!r}")
        if key not in info.defaults:
            known = ", ".join(sorted(info.defaults)) or "none"
            raise ValueError(f"policy {info.name!r} has no parameter {key!r} (parameters: {known})")
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f"policy {info.name!r}: {key}={value!r} is not a number") from None
        if number != number or number in (float("inf"), float("-inf")):
            raise ValueError(f"policy {info.name!r}: {key}={value!r} is not a finite number")
        params[key] = number
    return params


def make_policy(name: str, params: Mapping[str, float] | None = None) -> Policy:
    """A new policy instance; `params` override the registered defaults (unknown names are an error).

    `name` may carry a weights file, 'heuristic-marines:weights.json', or parameters, 'search-marines:games=8':
    they come before `params`.
    """
    if ":" in name:
        name, from_file = resolve_policy(name)
        params = {**from_file, **(params or {})}
    info = policy_info(name)
    merged = dict(info.defaults)
    for key, value in (params or {}).items():
        if info.defaults and key not in info.defaults:
            raise ValueError(
                f"policy {name!r} has no parameter {key!r} (parameters: {', '.join(sorted(info.defaults))})"
            )
        merged[key] = float(value)
    return info.factory(merged)


def policy_names(side: str | None = None) -> list[str]:
    """Registered policy names, sorted; with `side`, only those that can play it."""
    _load_builtin()
    return sorted(n for n, i in _REGISTRY.items() if side is None or i.side in (None, side))


def default_policy(side: str) -> str:
    """The policy a batch uses for `side` when none is named: the heuristic one if present, else random."""
    heuristic = f"heuristic-{side}"
    return heuristic if heuristic in policy_names() else "random"


def policy_rng(seed: int, side: str) -> random.Random:
    """The decision RNG of one side in the game played from `seed`: independent of the dice, reproducible."""
    # A str seed is hashed with SHA-512 by random.Random, identically in every process and Python run.
    return random.Random(f"hulkforge-policy/{side}/{seed}")


# Modules of engine.ai that hold no policy: the registry itself.
_NOT_POLICIES = frozenset({"base"})
_loaded = False
_loading = False  # set while this thread imports the modules (a module may call policy_names())
_load_lock = threading.RLock()
# Policy modules that failed to import, by module name: shown when a policy name is not found.
LOAD_ERRORS: dict[str, str] = {}


def _load_builtin() -> None:
    """Import every module of engine.ai once, so a policy registers itself just by living in the package."""
    global _loaded, _loading
    if _loaded:
        return
    # Dask runs jobs on threads: a second thread must wait for the registry, not see it half filled.
    # The lock is re-entrant because a policy module may itself ask for policy names while importing.
    with _load_lock:
        if _loaded or _loading:
            return
        _loading = True
        import importlib
        import pkgutil

        import engine.ai as package

        for mod in sorted(m.name for m in pkgutil.iter_modules(package.__path__)):
            if mod not in _NOT_POLICIES and not mod.startswith("_"):
                try:
                    importlib.import_module(f"engine.ai.{mod}")
                except Exception as exc:  # one broken policy module must not take `random` and the rest down
                    LOAD_ERRORS[mod] = f"{type(exc).__name__}: {exc}"
        _loaded = True
