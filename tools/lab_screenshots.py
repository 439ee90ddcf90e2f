"""Screenshots of the balance lab in a real window: after a batch, the heatmap, a replay, compare and sweep.

    xvfb-run -a -s "-screen 0 1600x1000x24" env QT_QPA_PLATFORM=xcb python tools/lab_screenshots.py OUTDIR
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    """Run small batches on the Pitfall sample and save PNGs of the lab into OUTDIR."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("outdir", type=Path)
    p.add_argument("--mission", default="pitfall", help="sample name or mission file (default pitfall)")
    p.add_argument("--games", type=int, default=120)
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args(argv)

    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from editor.app import create_main_window
    from editor.lab import install_lab
    from editor.lab.lab_widget import LabWidget
    from editor.lab.replay_frames import Frame
    from engine.sim.cli_support import mission_path

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("hulkforge")
    out: Path = args.outdir
    out.mkdir(parents=True, exist_ok=True)
    window = create_main_window(mission_path(args.mission))
    dock = getattr(window, "lab_window", None) or install_lab(window)
    window.resize(1600, 1000)
    window.show()
    dock.open()

    def settle(ms: int = 300) -> None:
        """Let Qt process events for a while."""
        loop = QEventLoop()
        QTimer.singleShot(ms, loop.quit)
        loop.exec()

    def wait_job(lab: LabWidget) -> None:
        """Run the event loop until the lab job ends."""
        loop = QEventLoop()
        lab.jobFinished.connect(loop.quit)
        if lab.job is not None:
            loop.exec()
        settle()

    def shot(widget: object, name: str) -> None:
        """Save a grab of the widget."""
        settle()
        widget.grab().save(str(out / name))  # type: ignore[attr-defined]
        print(out / name)

    lab = dock.lab
    assert lab is not None
    dock.resize(1560, 960)
    dock.move(20, 20)
    lab.run_panel.games.setValue(args.games)
    lab.run_panel.workers.setValue(args.workers)
    lab.start_batch()
    wait_job(lab)
    lab.tabs.setCurrentIndex(0)
    shot(dock, "lab_charts.png")

    lab.tabs.setCurrentWidget(lab.map_tab)
    lab.side_tabs.setCurrentWidget(lab.heatmaps)
    lab.heatmaps.set_kind("marine_deaths")
    hottest = max(lab.lab_map.level_ids(), key=lambda lv: sum(lab.heatmaps.values(lv).values()))
    lab.lab_map.show_level(hottest)
    shot(dock, "lab_heatmap.png")
    lab.heatmaps.set_kind("genestealer_traffic")
    lab.lab_map.show_level(max(lab.lab_map.level_ids(), key=lambda lv: sum(lab.heatmaps.values(lv).values())))
    shot(dock, "lab_traffic.png")

    lab.side_tabs.setCurrentWidget(lab.replay)
    lab.heatmaps.set_kind("")
    run = lab.run
    assert run is not None
    game = next((r.index for r in run.rows if r.winner == "marines"), 0)
    lab.replay.load(game)
    while lab.replay._loader is not None:
        settle(100)
    frames = lab.replay.frames

    def changed(f: Frame) -> bool:
        """Fire on the board or a door no longer closed: what the replay shows beyond the counters."""
        return any(m.kind == "fire" or (m.kind == "door" and m.state != "closed")
                   for ms in f.marks.values() for m in ms)

    fights = [i for i, f in enumerate(frames) if f.dice and f.tokens
              and any(w in f.action for w in ("shoot", "assault", "flame", "overwatch"))]
    lively = [i for i in fights if changed(frames[i])] or fights
    mid = lively[len(lively) // 2] if lively else next(
        (i for i in range(len(frames) // 2, len(frames)) if frames[i].dice and frames[i].tokens), 0)
    lab.replay.go(mid)
    fire_levels = [lv for lv, ms in frames[mid].marks.items() if any(m.kind == "fire" for m in ms)]
    level = next(iter(fire_levels or list(frames[mid].tokens)), None)
    if level:
        lab.lab_map.show_level(level)
    shot(dock, "lab_replay.png")
    # The other levels of the same step: pitfall bottoms and ladder feet below the drawn counters.
    for other in lab.lab_map.level_ids():
        if other != level:
            lab.lab_map.show_level(other)
            shot(dock, f"lab_replay_{other}.png")

    small = max(30, args.games // 3)
    lab.run_panel.games.setValue(small)
    lab.compare.overrides_b.set_override("reinforcements.scale", 2)
    lab.start_compare()
    wait_job(lab)
    shot(dock, "lab_compare.png")
    lab.sweep.param.setCurrentText("marines.count")
    lab.sweep.values.setText("2..5")
    lab.start_sweep()
    wait_job(lab)
    shot(dock, "lab_sweep.png")

    # Back in the main window: the heatmap painted on the editor's own map.
    lab.run = run
    lab.show_run(run)
    lab.replay.clear_tokens()
    window.raise_()  # the lab stays open: its heatmap shows on the editor's map only while it is
    lab.tabs.setCurrentWidget(lab.map_tab)
    lab.side_tabs.setCurrentWidget(lab.heatmaps)
    lab.heatmaps.set_kind("marine_deaths")
    window.show_level(hottest)
    shot(window, "editor_with_lab.png")
    lab.shutdown()
    window.doc.undo_stack.setClean()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
