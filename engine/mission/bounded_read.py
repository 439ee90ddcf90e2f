"""Reading a file someone named, whatever it is, within a byte limit and a time limit.

A path on the command line may name a regular file, a pipe (`<(...)`, a FIFO whose writer never comes or never
stops), or a device (`/dev/zero`, `/dev/urandom`, a terminal). Size checks on `stat()` hold for regular files
only, and opening a FIFO blocks until a writer appears: so the file is opened without blocking, read in chunks
up to one byte past the limit whatever its type, and a pipe is waited on with a deadline.
"""

from __future__ import annotations

import os
import stat
import time

CHUNK = 1 << 16
# How long a pipe may keep a command waiting for its data, in all. Long enough for a slow producer of a few
# megabytes; short enough that a FIFO nobody writes to stops the command with a message, not forever.
PIPE_TIMEOUT_S = 30.0


class ReadRefused(Exception):
    """The file cannot be read within the limits; the message says why, without the file's name."""


def read_bounded(path: str | os.PathLike[str], max_bytes: int, *, what: str = "file",
                 timeout: float | None = None) -> bytes:
    """The bytes of path, refusing more than max_bytes; a pipe is read with a deadline (timeout seconds,
    PIPE_TIMEOUT_S by default), a device or a socket is refused. Raises ReadRefused, FileNotFoundError,
    PermissionError or another OSError."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)  # O_NONBLOCK: opening a FIFO with no writer returns at once
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise ReadRefused(f"is a directory, not a {what}")
        if stat.S_ISREG(mode):
            size = os.fstat(fd).st_size
            if size > max_bytes:
                raise ReadRefused(f"file is {size} bytes, more than the {max_bytes} allowed")
            data = _read_file(fd, max_bytes)
        elif stat.S_ISFIFO(mode):
            data = _read_pipe(fd, max_bytes, PIPE_TIMEOUT_S if timeout is None else timeout)
        else:
            kind = "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file"
            raise ReadRefused(f"is {kind}, not a {what}")
    finally:
        os.close(fd)
    if len(data) > max_bytes:  # a file that grew after fstat(), or a pipe or a device that did not stop
        raise ReadRefused(f"more than the {max_bytes} bytes allowed")
    return data


def _read_file(fd: int, max_bytes: int) -> bytes:
    parts: list[bytes] = []
    got = 0
    while got <= max_bytes:
        chunk = os.read(fd, min(CHUNK, max_bytes + 1 - got))
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def _read_pipe(fd: int, max_bytes: int, timeout: float) -> bytes:
    import select

    deadline = time.monotonic() + timeout
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    parts: list[bytes] = []
    got = 0
    while got <= max_bytes:
        left = deadline - time.monotonic()
        # Before a writer opens the FIFO, poll() waits and read() would say end of file: poll first.
        if left <= 0 or not poller.poll(max(1, int(left * 1000))):
            if got:
                raise ReadRefused(f"the pipe's data did not end within {timeout:g} s")
            raise ReadRefused(f"nothing to read within {timeout:g} s (a pipe with no writer?)")
        try:
            chunk = os.read(fd, min(CHUNK, max_bytes + 1 - got))
        except BlockingIOError:
            continue
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)
