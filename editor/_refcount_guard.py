"""Work around a refcount bug of the installed shiboken6 6.12 on Python 3.11.

Measured here: every wrapped C++ method that returns void (or bool) drops one reference to None (or
True/False) it never took — shiboken6 6.12 assumes the Python 3.12 rule that these singletons are immortal.
On 3.11 a few thousand QPainter calls bring None's count to zero and the interpreter aborts
("deallocating None"). Giving the singletons an enormous reference count makes them immortal in practice,
which is exactly what Python 3.12 does. Nothing to do on 3.12 and later.
"""

from __future__ import annotations

import ctypes
import sys

_BOOST = 1 << 40  # a trillion leaked decrements before anything can go wrong
_done = False


def make_singletons_immortal() -> None:
    """Raise the reference count of None, True, False, Ellipsis and NotImplemented once (CPython < 3.12)."""
    global _done
    if _done or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    for obj in (None, True, False, Ellipsis, NotImplemented):
        # ob_refcnt is the first field of every object in a release build of CPython.
        ctypes.c_ssize_t.from_address(id(obj)).value += _BOOST
    _done = True
