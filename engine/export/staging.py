"""Writing the files of one export all or nothing: each is staged beside its target, then all are moved into place.

An export writes several files (a map and its tileset, a mission and its segment library, one page per level). If
one of them cannot be written, none may be left behind: a half-written set looks like a finished export.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

from engine.mission.io import atomic_write_bytes


def _temp_beside(target: Path) -> Path:
    # Named like the atomic-write helper's own temporaries (".name.XXXXXXXX.tmp"), so whatever cleans stale ones
    # after a crash cleans these too.
    return target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")


def _sync_folders(paths: list[Path]) -> None:
    """Make the renames durable; a folder that cannot be opened for this (some platforms) is skipped."""
    for folder in {p.parent for p in paths}:
        try:
            fd = os.open(folder, os.O_RDONLY)
        except OSError:
            continue
        try:
            os.fsync(fd)
        except OSError:
            pass
        finally:
            os.close(fd)


def _unlink(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


class StagedFiles:
    """Files written to temporaries beside their targets; commit() moves them all into place, discard() drops them."""

    def __init__(self) -> None:
        self._staged: list[tuple[Path, Path]] = []  # (temporary, target)
        self.files: list[Path] = []  # the targets in the order staged; after commit, the files written

    def write_bytes(self, path: str | os.PathLike[str], data: bytes) -> None:
        """Stage data for path (written and synced now; path itself is untouched until commit)."""
        target = Path(path)
        if any(t == target for _, t in self._staged):
            raise ValueError(f"{target} would be written twice by one export")
        temp = _temp_beside(target)
        atomic_write_bytes(temp, data)
        self._staged.append((temp, target))
        self.files.append(target)

    def write_text(self, path: str | os.PathLike[str], text: str) -> None:
        """Stage UTF-8 text for path."""
        self.write_bytes(path, text.encode("utf-8"))

    def discard(self) -> None:
        """Remove every staged temporary; the targets are untouched."""
        for temp, _ in self._staged:
            _unlink(temp)
        self._staged.clear()
        self.files = []

    def commit(self) -> list[Path]:
        """Move every staged file onto its target; if one move fails, put back what the others replaced."""
        moved: list[tuple[Path, Path | None, bool]] = []  # (target, its old content kept aside, whether it existed)
        try:
            for temp, target in self._staged:
                existed, backup = target.exists(), None
                if existed:
                    backup = _temp_beside(target)
                    try:
                        os.link(target, backup)  # the old file stays reachable until every new one is in place
                    except OSError:
                        backup = None  # no hard links here: the old file cannot be put back, but is still replaced
                moved.append((target, backup, existed))
                os.replace(temp, target)
        except BaseException:
            for target, backup, existed in reversed(moved):
                if backup is not None:
                    with contextlib.suppress(OSError):
                        os.replace(backup, target)
                elif not existed:
                    _unlink(target)
            self.discard()
            raise
        for _, backup, _ in moved:
            if backup is not None:
                _unlink(backup)
        self._staged.clear()
        _sync_folders(self.files)
        return self.files


@contextlib.contextmanager
def staged_files() -> Iterator[StagedFiles]:
    """A StagedFiles committed when the block ends normally and discarded when it raises."""
    staged = StagedFiles()
    try:
        yield staged
    except BaseException:
        staged.discard()
        raise
    staged.commit()
