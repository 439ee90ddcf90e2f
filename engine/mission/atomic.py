"""Atomic file replacement: write a locked temporary file beside the target, fsync, rename, fsync the folder.

A process killed in the middle (kill -9, a power cut) leaves the target as it was and, at worst, its
temporary file `.NAME.XXXXXXXX.tmp`. The next write of the same target removes such leftovers: a temporary
file is locked (flock) while its writer lives, so an unlocked one belongs to a writer that is gone. (Without
flock, on Windows, a file still open cannot be deleted, which gives the same answer.)
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from types import TracebackType
from typing import IO

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

TEMP_SUFFIX = ".tmp"
# mkstemp's random part: 8 characters of this alphabet (tempfile._RandomNameSequence).
_RANDOM_PART = "[a-z0-9_]{8}"


def _temp_pattern(target_name: str) -> re.Pattern[str]:
    return re.compile(rf"\.{re.escape(target_name)}\.{_RANDOM_PART}{re.escape(TEMP_SUFFIX)}\Z")


def _lock(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX)


def _is_abandoned(path: str) -> bool:
    """True when no live writer holds this temporary file (its lock is free)."""
    if fcntl is None:
        return True  # deleting will fail if a writer still has it open
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False  # locked: a writer is at work
    finally:
        os.close(fd)  # also releases the lock we may have taken
    return True


def remove_stale_temp_files(target: str | os.PathLike[str]) -> list[Path]:
    """Delete the temporary files that dead writers of `target` left beside it; returns what was removed."""
    path = Path(target)
    folder = path.parent if str(path.parent) else Path(".")
    pattern = _temp_pattern(path.name)
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if pattern.match(entry.name) and entry.is_file(follow_symlinks=False) and _is_abandoned(entry.path):
            try:
                os.unlink(entry.path)
            except OSError:
                continue
            removed.append(Path(entry.path))
    return removed


def fsync_folder(folder: str | os.PathLike[str]) -> None:
    """Make a rename in `folder` durable (POSIX); a no-op where folders cannot be opened (Windows)."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    try:
        fd = os.open(folder, flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some filesystems refuse fsync on a folder; the rename itself is done
        pass
    finally:
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class AtomicFile:
    """A binary temporary file beside `target` that replaces it on commit() and vanishes on abort().

    Stale temporary files of the same target are removed first. Usable as a context manager: leaving the
    block without commit() aborts.
    """

    def __init__(self, target: str | os.PathLike[str], mode: int | None = None) -> None:
        self.target = Path(target)
        self.folder = self.target.parent if str(self.target.parent) else Path(".")
        remove_stale_temp_files(self.target)
        fd, self.temp = tempfile.mkstemp(prefix=f".{self.target.name}.", suffix=TEMP_SUFFIX, dir=self.folder)
        try:
            _lock(fd)
            # mkstemp creates the file 0600; what we write is meant to be shared: the usual mode, unless told.
            os.chmod(self.temp, mode if mode is not None else 0o666 & ~_umask())
            self.file: IO[bytes] = os.fdopen(fd, "wb")
        except BaseException:
            os.close(fd)
            os.unlink(self.temp)
            raise
        self.done = False

    def commit(self) -> None:
        """Flush to disk, rename over the target, and make the rename durable."""
        try:
            self.file.flush()
            os.fsync(self.file.fileno())
            os.replace(self.temp, self.target)
        except BaseException:
            self.abort()
            raise
        self.done = True
        self.file.close()
        fsync_folder(self.folder)

    def abort(self) -> None:
        """Drop the temporary file, leaving the target as it was; nothing after commit()."""
        if self.done:
            return
        self.done = True
        self.file.close()
        try:
            os.unlink(self.temp)
        except OSError:
            pass

    def __enter__(self) -> AtomicFile:
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.abort()
