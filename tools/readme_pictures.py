"""The README's pictures, made by the project's own tools so they stay true: the editor on the Pitfall sample (what
`hulkforge edit --screenshot` saves), the balance lab's charts and heatmap after a seeded batch, and a print sheet
(what `hulkforge render` writes).

    python tools/readme_pictures.py [OUTDIR]        # default: docs/pictures

Headless (Qt's offscreen platform unless QT_QPA_PLATFORM says otherwise), light theme, a throw-away settings
folder; the pictures are scaled down to 1000 pixels across to keep the repository small.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import numpy as np
from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

WIDTH = 1000  # pixels across, every picture


def common_colours(image: QImage, n: int = 256) -> list[int]:
    """The n commonest colours of an image (a screenshot is mostly flat colours): its palette for an 8-bit PNG."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB32)
    pixels = np.frombuffer(rgb.constBits(), dtype=np.uint32, count=rgb.width() * rgb.height())
    # Shades that differ in the low bits (antialiasing) count as one, so a small patch of a rare colour (an entry
    # arrow) still makes the palette.
    values, counts = np.unique(pixels & np.uint32(0xFFF0F0F0), return_counts=True)
    return [int(v) for v in values[np.argsort(counts)[::-1][:n]]]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("outdir", nargs="?", type=Path, default=ROOT / "docs" / "pictures")
    p.add_argument("--games", type=int, default=150, help="games of the lab's batch (default 150)")
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["HULKFORGE_THEME"] = "light"
    os.environ["HULKFORGE_CONFIG_DIR"] = tempfile.mkdtemp(prefix="hulkforge-pictures-")

    from editor.app import create_main_window
    from editor.render import render_mission
    from engine.mission import load_mission
    from engine.resources import sample_mission

    _app = QApplication.instance() or QApplication(sys.argv[:1])
    out: Path = args.outdir
    out.mkdir(parents=True, exist_ok=True)

    def settle(ms: int = 400) -> None:
        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    def save(image: QImage, name: str) -> None:
        small = image.scaledToWidth(min(WIDTH, image.width()), Qt.TransformationMode.SmoothTransformation)
        small = small.convertToFormat(QImage.Format.Format_Indexed8, common_colours(small),
                                      Qt.ImageConversionFlag.ThresholdDither)
        target = out / name
        if not small.save(str(target), "PNG", 0):
            raise OSError(f"{target}: cannot write")
        print(f"{target} ({target.stat().st_size // 1024} KiB)")

    pitfall = str(sample_mission("pitfall"))
    window = create_main_window(pitfall, with_lab=True, tell=False)
    window.autosave_timer.stop()
    window.resize(1400, 860)
    window.show()
    settle(800)
    save(window.grab().toImage(), "editor.png")

    dock = window.lab_window
    lab = dock.lab
    dock.resize(1400, 860)
    dock.open()
    lab.run_panel.games.setValue(args.games)
    lab.run_panel.workers.setValue(args.workers)
    lab.run_panel.seed.setValue(1)
    loop = QEventLoop()
    lab.jobFinished.connect(loop.quit)
    if lab.start_batch() and lab.job is not None:
        loop.exec()
    settle()
    lab.tabs.setCurrentIndex(0)
    settle()
    save(dock.grab().toImage(), "lab-charts.png")
    lab.tabs.setCurrentIndex(1)
    lab.side_tabs.setCurrentWidget(lab.heatmaps)
    lab.heatmaps.set_kind("marine_deaths")
    hottest = max(lab.lab_map.level_ids(), key=lambda lv: sum(lab.heatmaps.values(lv).values()))
    lab.lab_map.show_level(hottest)
    settle()
    save(dock.grab().toImage(), "lab-heatmap.png")
    lab.shutdown()

    with tempfile.TemporaryDirectory() as tmp:
        sheet = render_mission(load_mission(pitfall), Path(tmp) / "sheet.png", "png", dpi=70, levels=["upper"])[0]
        save(QImage(str(sheet)), "print-sheet.png")
    window.doc.undo_stack.setClean()
    window.close()
    return 0


if __name__ == "__main__":  # the lab's worker processes import this module again: run only as a script
    sys.exit(main())
