"""What an export wrote and what it had to leave out, and writing files atomically."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class ExportReport:
    """The files an export wrote and what the target could not represent."""

    files: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write bytes through a temporary file and a rename, so a crash never leaves half a file."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        # mkstemp creates the file 0600; an exported map is meant to be shared, so use the usual mode.
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write UTF-8 text with LF line ends atomically."""
    atomic_write_bytes(path, text.encode("utf-8"))
