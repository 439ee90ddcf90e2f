"""The README's pictures exist, are small, and the tool that makes them keeps a screenshot's rare colours."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from PySide6.QtGui import QColor, QImage

ROOT = Path(__file__).resolve().parents[2]


def test_every_picture_the_readme_shows_is_in_the_repository_and_small() -> None:
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(pictures) >= 4
    for rel in pictures:
        path = ROOT / rel
        assert path.is_file(), rel
        assert path.stat().st_size < 100_000, rel  # a README picture, not a full-size capture


def test_the_palette_keeps_a_small_patch_of_a_rare_colour(qapp) -> None:  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        from readme_pictures import common_colours
    finally:
        sys.path.pop(0)
    image = QImage(200, 100, QImage.Format.Format_RGB32)
    image.fill(QColor("#dddddd"))
    for i in range(256 * 5):  # 256 shades of one grey-blue, 5 pixels each, as antialiasing makes
        shade = i % 256
        image.setPixelColor(i % 200, i // 200 + 50, QColor(0x90 + shade % 16, 0xa0 + shade // 16, 0xb0))
    for x in range(4):
        image.setPixelColor(x, 0, QColor("#8e24aa"))  # an entry arrow's purple
    palette = {QColor(c).rgb() & 0xF0F0F0 for c in common_colours(image, 16)}
    assert QColor("#8e24aa").rgb() & 0xF0F0F0 in palette
