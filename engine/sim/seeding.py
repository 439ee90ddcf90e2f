"""NumPy's SeedSequence, the part game seeds use, in pure Python.

Game seeds have always been `SeedSequence(batch_seed, spawn_key=(index,)).generate_state(1, uint64)`, and
results files hold seeds made that way. Importing NumPy costs a batch worker about 0.1-0.2 s of CPU (its
start-up, with its BLAS threads) for this one function, so the worker computes the same words here.
tests/engine/test_sim_seeding.py holds this to NumPy's own SeedSequence.

The algorithm is NumPy's (numpy/random/bit_generator.pyx, after Melissa O'Neill's seed_seq): every value is
a 32-bit unsigned word, so each product and difference is taken modulo 2**32.
"""

from __future__ import annotations

from collections.abc import Iterable

_POOL_SIZE = 4
_INIT_A = 0x43B0D7E5
_MULT_A = 0x931E8875
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_MIX_MULT_L = 0xCA01F9DD
_MIX_MULT_R = 0x4973F715
_XSHIFT = 16
_M32 = 0xFFFFFFFF


def _words(n: int) -> list[int]:
    """A non-negative int as 32-bit words, least significant first (0 is one word)."""
    if n < 0:
        raise ValueError(f"seed words must be non-negative, not {n}")
    out = [n & _M32]
    n >>= 32
    while n:
        out.append(n & _M32)
        n >>= 32
    return out


def _pool(entropy: int, spawn_key: Iterable[int]) -> list[int]:
    """The mixed entropy pool of SeedSequence(entropy, spawn_key=spawn_key)."""
    run = _words(entropy)
    spawn = [w for k in spawn_key for w in _words(k)]
    if spawn and len(run) < _POOL_SIZE:
        run += [0] * (_POOL_SIZE - len(run))  # NumPy pads only when there is a spawn key
    data = run + spawn
    h = _INIT_A

    def hashmix(value: int) -> int:
        nonlocal h
        value ^= h
        h = (h * _MULT_A) & _M32
        value = (value * h) & _M32
        return value ^ (value >> _XSHIFT)

    def mix(x: int, y: int) -> int:
        r = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _M32
        return r ^ (r >> _XSHIFT)

    pool = [hashmix(data[i] if i < len(data) else 0) for i in range(_POOL_SIZE)]
    for i_src in range(_POOL_SIZE):
        for i_dst in range(_POOL_SIZE):
            if i_src != i_dst:
                pool[i_dst] = mix(pool[i_dst], hashmix(pool[i_src]))
    for i_src in range(_POOL_SIZE, len(data)):
        for i_dst in range(_POOL_SIZE):
            pool[i_dst] = mix(pool[i_dst], hashmix(data[i_src]))
    return pool


def generate_words(entropy: int, spawn_key: Iterable[int], n_words: int) -> list[int]:
    """SeedSequence(entropy, spawn_key=spawn_key).generate_state(n_words) (uint32 words) as ints."""
    pool = _pool(entropy, spawn_key)
    h = _INIT_B
    out: list[int] = []
    for i in range(n_words):
        v = pool[i % _POOL_SIZE] ^ h
        h = (h * _MULT_B) & _M32
        v = (v * h) & _M32
        out.append(v ^ (v >> _XSHIFT))
    return out


def generate_uint64(entropy: int, spawn_key: Iterable[int]) -> int:
    """SeedSequence(entropy, spawn_key=spawn_key).generate_state(1, dtype=uint64)[0] as an int."""
    lo, hi = generate_words(entropy, spawn_key, 2)
    return lo | (hi << 32)  # NumPy reads the two words as one little-endian uint64
