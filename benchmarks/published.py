"""Against the best published precomputed plans: one player per country, P players, h hanchans.

    .venv/bin/python benchmarks/published.py [--quick] [--only P,h ...] [--comparisons]
                                             [--players 16:200:24] [--hanchans 10,14,15]
                                             [--seed N] [--search KEY=VALUE ...] [--report PATH]

For every cell of the grid P = 16..200 step 4 x h in {8, 10, 14, 15} (tables of 4, days of at
most 5 hanchans, one area) runs seating.core.plan with the default search settings (--quick:
smaller budgets, see benchlib.QUICK_SEARCH) and recounts the seating with
seating.check.recount. Prints one line per cell, then the comparisons issue 5 states against
the published plans:
  P=100 h=14: indirect_min >= 11 (published minimum 10) and no table repeat;
  P=172 h=14: indirect_min >= 2 (published 1) and every wind count 3 or 4 (published: 9
              players off), i.e. wind_count_bad == 0;
  P=160 h=14: unlinked_pairs == 0 (published 96).
The full grid (188 cells) takes long: a progress line per cell goes to stderr, and with
--report the markdown is rewritten after every cell. --only P,h runs single cells (repeat it);
--comparisons runs just the three cells compared; --players and --hanchans run a sub-grid.
"""

from __future__ import annotations

import argparse
import sys
import time

import benchlib as bl

PLAYERS = list(range(16, 201, 4))
HANCHANS = [8, 10, 14, 15]
COLUMNS = [
    "seconds",
    "repeat_meetings",
    "unlinked_pairs",
    "indirect_min",
    "table_repeats",
    "wind_count_bad",
    "prefix_wind_bad",
]
# (P, h, what is needed, what the best published plan has)
COMPARISONS = [
    (
        100,
        14,
        "indirect_min >= 11 and table_repeats == 0",
        "indirect minimum 10",
        lambda f: (f["indirect_min"] or 0) >= 11 and f["table_repeats"] == 0,
    ),
    (
        172,
        14,
        "indirect_min >= 2 and wind_count_bad == 0",
        "indirect minimum 1, 9 players' wind counts off",
        lambda f: (f["indirect_min"] or 0) >= 2 and f["wind_count_bad"] == 0,
    ),
    (160, 14, "unlinked_pairs == 0", "96 unlinked pairs", lambda f: f["unlinked_pairs"] == 0),
]


def cells_of(args) -> list[tuple[int, int]]:
    if args.only:
        cells = []
        for item in args.only:
            try:
                p, h = (int(x) for x in item.split(","))
            except ValueError:
                sys.exit(f"--only wants P,h (e.g. 100,14), got {item!r}")
            cells.append((p, h))
        return cells
    if args.comparisons:
        return [(p, h) for p, h, *_ in COMPARISONS]
    players = numbers(args.players) if args.players else PLAYERS
    hanchans = numbers(args.hanchans) if args.hanchans else HANCHANS
    if any(p % 4 for p in players):
        sys.exit("--players: every count must be a multiple of 4 (tables of 4)")
    return [(p, h) for h in hanchans for p in players]


def numbers(text: str) -> list[int]:
    """`16,40,64` or a range `16:200:24` (start:stop:step, stop included)."""
    if ":" in text:
        start, stop, step = (int(x) for x in text.split(":"))
        return list(range(start, stop + 1, step))
    return [int(x) for x in text.split(",") if x.strip()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller search budgets")
    ap.add_argument("--only", action="append", metavar="P,h", help="run this cell only")
    ap.add_argument("--comparisons", action="store_true", help="run the three compared cells")
    ap.add_argument("--players", help="a sub-grid: P values, `16,40` or `16:200:24`")
    ap.add_argument("--hanchans", help="a sub-grid: h values, e.g. `14,15`")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--search",
        action="append",
        metavar="KEY=VALUE",
        help="override a search setting (after --quick)",
    )
    ap.add_argument("--report", help="also write a markdown report to this path")
    args = ap.parse_args()
    search = {**(bl.QUICK_SEARCH if args.quick else {}), **bl.parse_search(args.search)}
    cells = cells_of(args)
    rep = bl.Report("One player per country against the best published plans", args.report)
    settings = ", ".join(f"{k}={v}" for k, v in search.items()) or "the defaults of the schema"
    rep.text(
        f"seating.core.plan, seed {args.seed}, search settings: {settings}; "
        f"{len(cells)} cell(s); figures recounted with seating.check.recount.\n"
    )
    headers = [
        "P",
        "h",
        "seconds",
        "repeat_meetings",
        "(bound)",
        "unlinked_pairs",
        "indirect_min",
        "(ceiling)",
        "table_repeats",
        "(bound)",
        "wind_count_bad",
        "prefix_wind_bad",
        "time limit",
        "hard at bound",
    ]
    rows, results = [], {}
    start = time.perf_counter()
    for i, (p, h) in enumerate(cells, 1):
        event = bl.event_of(bl.one_per_country(p, h, args.seed, search))
        got = bl.core_run(event)
        f = got["figures"]
        results[(p, h)] = got
        rows.append(
            [
                p,
                h,
                bl.sec(got["seconds"]),
                f["repeat_meetings"],
                f["repeat_meetings_bound"],
                f["unlinked_pairs"],
                f["indirect_min"],
                f["indirect_ceiling"],
                f["table_repeats"],
                f["table_repeats_bound"],
                f["wind_count_bad"],
                f["prefix_wind_bad"],
                ",".join(got["capped"]) or "-",
                bl.hard_summary(f),
            ]
        )
        elapsed = time.perf_counter() - start
        eta = elapsed / i * (len(cells) - i)
        print(
            f"[{i}/{len(cells)}] P={p} h={h}: {got['seconds']:.1f} s, repeats "
            f"{f['repeat_meetings']} (bound {f['repeat_meetings_bound']}), unlinked "
            f"{f['unlinked_pairs']}, indirect_min {f['indirect_min']}, table repeats "
            f"{f['table_repeats']}, wind_count_bad {f['wind_count_bad']}, prefix_wind_bad "
            f"{f['prefix_wind_bad']}  (elapsed {elapsed:.0f} s, about {eta:.0f} s left)",
            file=sys.stderr,
            flush=True,
        )
        if rep.path:  # keep a long run's results even if it is stopped
            rep.write(
                f" In progress: {i} of {len(cells)} cells done.",
                extra=[bl.md_table(headers, rows, align="rrrrrrrrrrrrll")],
            )
    rep.table(
        headers,
        rows,
        align="rrrrrrrrrrrrll",
        caption="Every cell (bounds in brackets; 'hard at bound': every hard rule of "
        "benchlib.HARD_RULES at its counting bound, which small P cannot always "
        "reach):",
    )

    comp = []
    for p, h, need, published, test in COMPARISONS:
        got = results.get((p, h))
        if got is None:
            comp.append([f"P={p} h={h}", need, published, "not run", "", "", "", "-"])
            continue
        f = got["figures"]
        comp.append(
            [
                f"P={p} h={h}",
                need,
                published,
                f["indirect_min"],
                f["table_repeats"],
                f["wind_count_bad"],
                f["unlinked_pairs"],
                bl.verdict(test(f)),
            ]
        )
    rep.table(
        [
            "cell",
            "needed",
            "published",
            "indirect_min",
            "table_repeats",
            "wind_count_bad",
            "unlinked_pairs",
            "verdict",
        ],
        comp,
        align="lllrrrrl",
        caption="Against the best published plans (issue 5):",
    )
    total = time.perf_counter() - start
    rep.text(
        f"{len(cells)} cell(s) in {total:.0f} s; every hard rule at its counting bound "
        f"in {sum(bl.hard_ok(r['figures']) for r in results.values())} of them."
    )
    rep.done()
    return 0


if __name__ == "__main__":
    sys.exit(main())
