"""Events like the default that the planner has never seen: random championship configs.

    .venv/bin/python benchmarks/unseen.py [--seed S] [--events N] [--table-size K]
                                          [--hanchans LO-HI] [--report PATH]

Draws N configs from a seeded generator (25-60 tables of K players, K = 4 by default: 100-240
players; delegations of 1 up to 8-24 players, LO-HI hanchans, 10-16 by default, over days of
at most 4-6, one to three areas cut at random table numbers), plans each with
seating.core.plan (stages 1-6 in this process) and prints every hard rule
(benchlib.HARD_RULES) recounted from the seating with seating.check.recount, with the main
lower figures beside it (countries met beside their target, seating.rules.targets; how far
the class mix gets off a day's and the event's fair share; pairs with no common opponent, a
hard rule, by number, beside the most common opponents an unmet pair can have on average,
seating.bounds.link_capacity, which short events bring near 1).
The issue asks the hard rules of the default event of "events like it that you have not
seen"; this is where they are checked.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import benchlib as bl

from seating.bounds import link_capacity
from seating.rules import COUNTRIES, targets


def random_config(rng: random.Random, number: int, table_size: int = 4,
                  hanchans: tuple[int, int] = (10, 16)) -> dict:
    """One championship-like config: sizes, days and areas drawn from rng (hanchans: the
    range of their number)."""
    tables = rng.randint(25, 60)
    players = table_size * tables
    largest = rng.randint(8, 24)
    sizes = []
    left = players
    while left:
        if rng.random() < 0.6:
            n = max(1, int(rng.paretovariate(0.9)))
        else:
            n = rng.randint(1, largest)
        n = min(n, largest, left)
        sizes.append(n)
        left -= n
    hanchans = rng.randint(*hanchans)
    days = bl.split_days(hanchans, rng.choice([4, 5, 6]))
    areas = rng.choice([1, 2, 3])
    cuts = sorted(rng.sample(range(1, tables), areas - 1))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, tables])]
    codes = [f"{chr(65 + i // 26 % 26)}{chr(65 + i % 26)}X" for i in range(len(sizes))]
    return {
        "event": f"unseen-{number}",
        "hanchans": hanchans,
        "days": days,
        "table_size": table_size,
        "seed": rng.randint(1, 99),
        "countries": dict(zip(codes, sorted(sizes, reverse=True))),
        "areas": {f"Area {i + 1}": n for i, n in enumerate(parts)},
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=8, help="seed of the config generator")
    ap.add_argument("--events", type=int, default=10)
    ap.add_argument("--table-size", type=int, choices=(3, 4), default=4)
    ap.add_argument("--hanchans", default="10-16",
                    help="range of the number of hanchans, LO-HI (default 10-16)")
    ap.add_argument("--report", help="also write a markdown report to this path")
    args = ap.parse_args()
    lo, _, hi = args.hanchans.partition("-")
    span = (int(lo), int(hi or lo))
    rep = bl.Report(f"Unseen events: {args.events} random championship configs "
                    f"(generator seed {args.seed}, tables of {args.table_size}"
                    + ("" if span == (10, 16) else f", {span[0]}-{span[1]} hanchans") + ")",
                    args.report)
    rng = random.Random(args.seed)
    rows = []
    failed: dict[str, int] = {}
    for k in range(args.events):
        config = random_config(rng, k, args.table_size, span)
        event = bl.event_of(config)
        bl.progress(f"{config['event']}: {event.players} players, {event.hanchans} hanchans ...")
        start = time.perf_counter()
        run = bl.core_run(event)
        fig = run["figures"]
        bl.tally_failures(failed, fig)
        target = targets(event)[COUNTRIES]
        rows.append([
            config["event"], event.players, event.hanchans,
            "/".join(map(str, config["days"])), len(config["countries"]),
            max(config["countries"].values()),
            "/".join(str(n) for n in config["areas"].values()),
            bl.sec(time.perf_counter() - start), bl.hard_summary(fig),
            bl.fmt(fig["area_max_deviation"]), f"{fig['countries_met_min']} / {target}",
            f"{fig['day_mix_max_excess']} ({fig['day_mix_two_off']}) / "
            f"{fig['total_mix_max_excess']} ({fig['total_mix_two_off']})",
            fig["back_to_back_country"],
            f"{fig['consecutive_same_area']} / {fig['consecutive_same_area_bound']}",
            f"{fig['unlinked_pairs']} ({link_capacity(event):.2f})",
        ])
    rep.table(
        ["event", "players", "hanchans", "days", "delegations", "largest", "areas (tables)",
         "time (s)", "hard rules", "area deviation", "countries min / target",
         "mix off (counts 2+ off): day / event", "back to back", "same area / bound",
         "unlinked pairs (link capacity)"],
        rows, align="lllllllrlrrrrrr",
        caption="Every event planned by seating.core.plan, recounted with seating.check.recount:",
    )
    passed = sum(1 for r in rows if r[8] == "PASS")
    rep.text(bl.passed_line(passed, len(rows), failed))
    rep.done()
    return 0


if __name__ == "__main__":
    sys.exit(main())
