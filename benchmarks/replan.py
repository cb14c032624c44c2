"""Re-planning with a table replaced by one in another area: every area share met?

    .venv/bin/python benchmarks/replan.py [--after H ...] [--tables T ...] [--no-swaps]
                                          [--report PATH]

Plans tests/data/replay-120.yaml (120 places over 14 hanchans, a hall of 18 tables and a
room of 12) with seating.core.plan, then re-plans it once for every change "table T moves
to the room after hanchan H" (seating.replan.replan, nothing else changed) and recounts
each result: seconds, the largest gap to an area share (every hard rule asks for less than
1), tables seen twice, the other hard rules, places whose seats changed, and the place
swaps that brought places within their shares (replan._meet_area_shares). --no-swaps
re-plans without those swaps, as before they were added, to compare.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import benchlib as bl
import numpy as np

import seating.replan as replan_module
from seating.check import recount
from seating.core import plan
from seating.tables import earlier_tables

EVENT = Path(__file__).resolve().parent.parent / "tests" / "data" / "replay-120.yaml"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--after", type=int, nargs="+", default=[1, 2, 3, 4, 6, 7, 8, 9])
    ap.add_argument("--tables", type=int, nargs="+", default=[3, 7])
    ap.add_argument("--no-swaps", action="store_true", help="re-plan without the place swaps")
    ap.add_argument("--report", help="also write a markdown report to this path")
    args = ap.parse_args()
    if args.no_swaps:
        replan_module._meet_area_shares = lambda event, seating, *args, **kwargs: seating
    how = "without the place swaps" if args.no_swaps else "with the place swaps"
    rep = bl.Report(f"Re-planning replay-120 with a table moved to the room ({how})",
                    args.report)
    event = bl.event_of(bl.read_config(EVENT))
    start = time.perf_counter()
    seating, _ = plan(event)
    rep.text(f"Plan of {event.name}: {bl.sec(time.perf_counter() - start)} s.")
    rows, met = [], 0
    for after in args.after:
        for table in args.tables:
            change = {"after_hanchan": after, "replace_tables": [{"table": table,
                                                                  "area": "Room"}]}
            lines: list[str] = []

            def keep(line: str, lines: list[str] = lines) -> None:
                if line.startswith("area shares"):
                    lines.append(line)

            start = time.perf_counter()
            new, result, changes = replan_module.replan(event, seating, change, log=keep)
            seconds = time.perf_counter() - start
            fig = recount(new, result)
            others = [key for key in bl.hard_failures(fig) if key != "area_max_deviation"]
            met += fig["area_max_deviation"] < 1
            moved, unchanged = moved_groups(seating, result, after)
            rows.append([after, table, bl.sec(seconds), fig["area_max_deviation"],
                         fig["area_max_deviation_bound"], fig["table_repeats"],
                         ", ".join(others) or "none", len(changes), f"{moved} of {unchanged}",
                         sum(int(line.split()[2]) for line in lines)])
            bl.progress(f"after {after}, table {table}: {rows[-1][3]} off, {rows[-1][2]} s")
    rep.table(["after hanchan", "table", "seconds", "largest gap to a share", "(bound)",
               "tables seen twice", "other hard rules broken", "places changed",
               "groups at another table", "place swaps"], rows, align="rrrrrrlrrr",
              caption="Every change, recounted (seating.check.recount):")
    rep.text(f"Every area share met (largest gap below 1) in {met} of {len(rows)} changes.")
    rep.done()
    return 0


def moved_groups(before, after_plan, after: int) -> tuple[int, int]:
    """Of the groups of the hanchans to come that the re-planning left as they were (the
    same places), how many sit at another table, and how many there are."""
    earlier = earlier_tables(after_plan[after:], before[after:])  # group g sits at table g
    kept = earlier >= 0
    return int((kept & (earlier != np.arange(earlier.shape[1]))).sum()), int(kept.sum())


if __name__ == "__main__":
    sys.exit(main())
