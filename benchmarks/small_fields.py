"""Small fields with large delegations: random events where a delegation fills every table.

    .venv/bin/python benchmarks/small_fields.py [--seed S] [--events N] [--report PATH]

Draws N configs from a seeded generator: m tables (5 to 13) of k = 3 or 4 players, one or
two delegations of m places and the other places cut into delegations at random, m - 3 to
m hanchans, one area. A delegation of m places must sit at every table in every hanchan to
meet no compatriot, so such fields are tight, and the search can leave repeat and
compatriot meetings that a design avoids. Each event is planned by seating.core.plan and
recounted with seating.check.recount; the table gives every hard rule against its bound
and the swap stage's last restart, as its log names it (none: the search from the draft
met both meeting rules; the wind patterns that keep delegations whole; a design; the
transversal design over rows of whole delegations, seating.draft.rows_fit)"""

from __future__ import annotations

import argparse
import random
import sys

import benchlib as bl

from seating.draft import rows_fit

STARTS = (("transversal design over rows", "rows design"),
          ("keep delegations whole", "whole delegations"),
          ("from a design", "design"))


def random_config(rng: random.Random, number: int) -> dict:
    """One small field: m tables of k, one or two delegations of m, the rest at random."""
    k = rng.choice([3, 4])
    m = rng.randint(5, 13)
    full = rng.choice([1, 2]) if k == 4 else 1
    sizes = [m] * full
    left = k * m - full * m
    while left:
        n = min(left, rng.randint(1, max(1, m // 2)))
        sizes.append(n)
        left -= n
    hanchans = rng.randint(max(3, m - 3), m)
    days = bl.split_days(hanchans, rng.choice([3, 4, 5]))
    return {
        "event": f"small-{number}",
        "hanchans": hanchans,
        "days": days,
        "table_size": k,
        "seed": rng.randint(1, 99),
        "countries": {f"C{i:02d}": n for i, n in enumerate(sorted(sizes, reverse=True))},
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1, help="seed of the config generator")
    ap.add_argument("--events", type=int, default=12)
    ap.add_argument("--report", help="also write a markdown report to this path")
    args = ap.parse_args()
    rep = bl.Report(f"Small fields: {args.events} random events with delegations that fill "
                    f"every table (generator seed {args.seed})", args.report)
    rng = random.Random(args.seed)
    rows = []
    failed: dict[str, int] = {}
    for number in range(args.events):
        config = random_config(rng, number)
        event = bl.event_of(config)
        bl.progress(f"{config['event']}: {event.players} players at {event.tables} tables, "
                    f"{event.hanchans} hanchans ...")
        lines: list[str] = []
        run = bl.core_run(event, log=lines.append)
        fig = run["figures"]
        bl.tally_failures(failed, fig)
        began = "none"
        for line in lines:
            for text, name in STARTS:
                if line.startswith("swaps:") and text in line:
                    began = name
        rows.append([
            config["event"], event.players, event.table_size, event.tables, event.hanchans,
            "/".join(str(n) for n in config["countries"].values()),
            "yes" if rows_fit(event) else "no", began, bl.sec(run["seconds"]),
            bl.hard_summary(fig),
            *(f"{fig[k]} / {fig[k + '_bound']}" for k in ("repeat_meetings",
                                                          "compatriot_meetings",
                                                          "table_repeats")),
            fig["unlinked_pairs"], fig["countries_met_min"],
        ])
    rep.table(
        ["event", "players", "k", "tables", "hanchans", "delegations", "rows fit",
         "last restart tried", "time (s)", "hard rules", "repeats / bound",
         "compatriot meetings / bound", "tables seen twice / bound", "unlinked pairs",
         "countries min"],
        rows, align="lrrrrllllrrrrrr",
        caption="Every event planned by seating.core.plan, recounted with seating.check.recount:",
    )
    passed = sum(1 for r in rows if r[9] == "PASS")
    rep.text(bl.passed_line(passed, len(rows), failed))
    rep.done()
    return 0


if __name__ == "__main__":
    sys.exit(main())
