"""Real-window screenshots of the editor on pitfall.json, one per dock, for a person to look at.

xvfb-run -a -s "-screen 0 1600x1000x24" env QT_QPA_PLATFORM=xcb python tools/screenshots.py OUTDIR
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HULKFORGE_CONFIG_DIR", tempfile.mkdtemp(prefix="hulkforge-shots-"))

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from editor.app import create_main_window
from engine.mission.model import Pitfall


def settle(app: QApplication, ms: int = 300) -> None:
    """Let the window map and paint (a real X server needs a few event-loop turns)."""
    loop_done = []
    QTimer.singleShot(ms, lambda: loop_done.append(1))
    while not loop_done:
        app.processEvents()


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "screenshots")
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([])
    w = create_main_window(None)
    w.resize(1600, 1000)
    w.show()
    settle(app, 800)
    shots: list[str] = []

    def shoot(name: str) -> None:
        settle(app)
        path = out / f"{name}.png"
        w.grab().save(str(path))
        shots.append(str(path))

    w.current_view().fit()  # type: ignore[union-attr]
    shoot("01_main_upper")
    # A pitfall next to rubble makes issues for the validation dock to show.
    from editor.commands import AddFeatureCommand
    from engine.mission.model import Rubble

    w.doc.undo_stack.push(AddFeatureCommand(w.doc, "pitfalls", Pitfall("A", "upper", 15, 11)))
    w.doc.undo_stack.push(AddFeatureCommand(w.doc, "rubble", Rubble("upper", 16, 11)))
    w.doc.validate_now()
    w.validation_dock.raise_()
    shoot("02_validation")
    if w.doc.issues:
        w.show_issue(next((i for i in w.doc.issues if i.squares), w.doc.issues[0]))
    shoot("03_issue_zoom")
    w.show_level("lower")
    w.current_view().fit()  # type: ignore[union-attr]
    shoot("04_lower_level")
    w.show_level("upper")
    w.act_below.setChecked(True)
    w.toggle_below()
    w.current_view().fit()  # type: ignore[union-attr]
    shoot("04b_upper_with_level_below")
    w.act_below.setChecked(False)
    w.toggle_below()
    for i in range(w.properties.count()):
        w.properties.setCurrentIndex(i)
        shoot(f"05_properties_{i}_{w.properties.tabText(i).lower()}")
    w.history_dock.raise_()
    shoot("06_history")
    from editor.scene.overlay import Token

    scene = w.scene("upper")
    scene.set_heatmap({(x, 10): float(x) for x in range(2, 28)})
    scene.set_tokens([Token("marine", "M1", 3, 10, "E", "Sg"), Token("genestealer", "G1", 14, 9, "W"),
                      Token("blip", "B1", 20, 10, None, "2")])
    w.show_level("upper")
    shoot("07_overlay_api")
    for s in shots:
        print(s)
    w.doc.undo_stack.setClean()
    w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
