"""Output files of the batch commands: checked before the first game, written by one process at a time.

A batch that can only fail to save its results at the end must fail before it plays. And two batches told to
write the same file would each replace the other's: the second is refused while the first runs. The claim is a
lock file `.NAME.lock` beside the output, locked with flock: the kernel releases it when its process dies,
however it dies, so a lock left by a dead process is free and simply taken over.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType

try:
    import fcntl
except ImportError:  # Windows: the path is checked, the claim is not enforced
    fcntl = None  # type: ignore[assignment]


class OutputError(Exception):
    """An output that cannot be written, or that another process is writing: one line, exit 2."""


def lock_path(target: str | os.PathLike[str]) -> Path:
    """The lock file of an output: `.NAME.lock` in the same folder."""
    p = Path(target)
    return p.with_name(f".{p.name}.lock")


def check_output_path(target: str | os.PathLike[str]) -> None:
    """Raise OutputError when `target` cannot be written as a file: a folder, a missing or read-only folder."""
    p = Path(target)
    if not p.name or p.is_dir():
        raise OutputError(f"{target}: is a folder; name a file to write")
    folder = p.parent
    if not folder.exists():
        raise OutputError(f"{target}: cannot write: the folder {folder} does not exist")
    if not folder.is_dir():
        raise OutputError(f"{target}: cannot write: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{target}: cannot write: no permission to create files in {folder}")


class OutputClaim:
    """Checks `target` and holds its lock file until `release` (or the end of a with block).

    Raises OutputError when the path cannot be written or another live process holds the claim.
    """

    def __init__(self, target: str | os.PathLike[str]) -> None:
        check_output_path(target)
        self.target = Path(target)
        self.lock = lock_path(target)
        self._fd: int | None = None
        if fcntl is None:
            return
        while self._fd is None:
            try:
                fd = os.open(self.lock, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise OutputError(f"{target}: cannot write: {exc.strerror or exc}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = _read_pid(fd)
                os.close(fd)
                who = f"another hulkforge (pid {holder})" if holder else "another process"
                raise OutputError(f"{target}: {who} is writing it; wait for it to finish or choose another "
                                  "output file") from None
            # The previous holder may have removed the file between our open and our lock: then this lock is
            # on a file nobody else will look at; try again with the one on disk.
            try:
                same = os.stat(self.lock).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if not same:
                os.close(fd)
                continue
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
            self._fd = fd

    def release(self) -> None:
        """Remove the lock file and let go of it; nothing when already released."""
        if self._fd is None:
            return
        try:
            os.unlink(self.lock)  # while still locked, so nobody takes a file that is going away
        except OSError:
            pass
        os.close(self._fd)
        self._fd = None

    def __enter__(self) -> OutputClaim:
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
