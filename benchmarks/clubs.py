"""Clubs: k delegations of m places at m tables of k, one place of each at every table.

    .venv/bin/python benchmarks/clubs.py [--seed 1] [--only K,M,H ...] [--report PATH]

Plans k clubs of m places over H hanchans (one day of 5 hanchans after another) with
seating.core.plan and recounts every hard rule with seating.check.recount. Such events
fit a transversal design (seating.draft.clubs_fit) at the orders of
seating.designs.design_order; the column "draft" names the one taken. The default list
holds the orders whose design comes from a difference matrix (designs.DIFFERENCE_ORDERS:
12 and 15 tables of 3 or 4, 21 and 24 of 3), which also numbers the tables, and two
orders still without one at tables of 4: 20 (the design over GF(4) x GF(5) numbers no
tables) and 24 (no design).
"""

from __future__ import annotations

import argparse
import sys

import benchlib as bl

from seating.draft import first_plan

EVENTS = ((4, 12, 12), (4, 12, 10), (4, 15, 15), (4, 15, 12), (3, 12, 12), (3, 15, 15),
          (3, 15, 12), (3, 21, 21), (3, 24, 24), (4, 20, 20), (4, 20, 16), (4, 24, 20))


def shape(text: str) -> tuple[int, int, int]:
    k, m, h = (int(x) for x in text.split(","))
    return k, m, h


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", type=shape, action="append", metavar="K,M,H",
                    help="plan only these clubs (table size, tables, hanchans)")
    ap.add_argument("--report", help="also write a markdown report to this path")
    args = ap.parse_args()
    rep = bl.Report(f"Clubs of one place per table (seed {args.seed})", args.report)
    rows = []
    failed: dict[str, int] = {}
    for k, m, h in args.only or EVENTS:
        config = {"event": f"clubs-{k}x{m}x{h}", "hanchans": h, "days": bl.split_days(h),
                  "table_size": k, "seed": args.seed,
                  "countries": {f"C{i}": m for i in range(k)}}
        event = bl.event_of(config)
        bl.progress(f"{k} clubs of {m} over {h} hanchans ...")
        run = bl.core_run(event)
        fig = run["figures"]
        bl.tally_failures(failed, fig)
        rows.append([k, m, h, first_plan(event)[1], bl.sec(run["seconds"]), bl.hard_summary(fig),
                     fig["repeat_meetings"], fig["compatriot_meetings"], fig["table_repeats"],
                     fig["unlinked_pairs"]])
    rep.table(["k", "m", "hanchans", "draft", "time (s)", "hard rules", "repeat meetings",
               "compatriot meetings", "tables seen twice", "unlinked pairs"],
              rows, align="rrrllrrrrr",
              caption="Every event planned by seating.core.plan, recounted with "
                      "seating.check.recount:")
    rep.text(bl.passed_line(sum(1 for r in rows if r[5] == "PASS"), len(rows), failed))
    rep.done()
    return 0


if __name__ == "__main__":
    sys.exit(main())
