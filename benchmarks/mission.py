"""Validation speed: `python -m benchmarks.mission [--repeat N]` prints ms per validation for each sample."""

from __future__ import annotations

import argparse
import time

from engine.mission import load_mission, read_document, validate_document, validate_mission
from engine.resources import sample_missions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=50, help="validations per sample (default 50)")
    args = parser.parse_args()
    print(f"{'mission':<22}{'document ms':>12}{'model ms':>10}{'load ms':>9}")
    for path in sample_missions():
        doc = read_document(path)
        mission = load_mission(path)
        validate_document(doc)  # warm the schema cache
        t0 = time.perf_counter()
        for _ in range(args.repeat):
            validate_document(doc)
        t1 = time.perf_counter()
        for _ in range(args.repeat):
            validate_mission(mission)
        t2 = time.perf_counter()
        for _ in range(args.repeat):
            load_mission(path)
        t3 = time.perf_counter()
        n = args.repeat
        print(f"{path.stem:<22}{(t1 - t0) / n * 1e3:>12.2f}{(t2 - t1) / n * 1e3:>10.2f}{(t3 - t2) / n * 1e3:>9.2f}")


if __name__ == "__main__":
    main()
