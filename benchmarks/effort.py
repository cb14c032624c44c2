"""What more annealing buys on one event: the lower goals against a search budget.

    .venv/bin/python benchmarks/effort.py [--configfile F] [--key anneal_steps]
                                          [--steps 3e6,3e7,1e8,3e8] [--report PATH]

For each budget, seating.core.plan of the event (stages 1-6 in this process) with the
search key `--key` set to it (`anneal_steps`, the steps of each goal's phase, or
`back_to_back_steps`, those of the back-to-back phase; every other key as in the config,
`time_limit` raised so that no stage stops early), timed, and its plan recounted by
seating.check.recount: the hard rules (benchlib.HARD_RULES, PASS at every budget) and the
figures below them in the order of the goals (day and event mix, back to back, same area
twice in a row). The first budget's time includes loading numba's cached code.
"""

from __future__ import annotations

import argparse

import benchlib as bl

SOFT = ("countries_met_min", "indirect_min", "day_mix_max_excess", "day_mix_two_off",
        "total_mix_max_excess", "total_mix_two_off", "day_mix_outside", "total_mix_outside",
        "back_to_back_country", "consecutive_same_area")
TIME_LIMIT = 24 * 3600  # seconds a search stage may take here (the config's cap is 300 s)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--configfile", default=str(bl.DEFAULT_CONFIG))
    ap.add_argument("--key", default="anneal_steps", choices=("anneal_steps", "back_to_back_steps"),
                    help="the search budget swept")
    ap.add_argument("--steps", default="3e6,3e7,1e8,3e8", help="its values, comma-separated")
    ap.add_argument("--report", help="also write a markdown report to this path")
    args = ap.parse_args()
    config = bl.read_config(args.configfile)
    report = bl.Report(f"Effort: {config['event']} against {args.key}", args.report)
    search = config.setdefault("search", {})
    # a budget's whole search, not what a stage's wall-clock cap leaves of it
    search["time_limit"] = TIME_LIMIT
    rows = []
    for steps in [int(float(x)) for x in args.steps.split(",")]:
        search[args.key] = steps
        run = bl.core_run(bl.event_of(config))
        f = run["figures"]
        rows.append([f"{steps:,}", f"{run['seconds']:.1f}", bl.hard_summary(f)]
                    + [f[k] for k in SOFT] + [", ".join(run["capped"]) or "-"])
        print(rows[-1], flush=True)
    report.table([args.key, "core plan (s)", "hard rules"] + list(SOFT) + ["capped"],
                 rows, caption=f"`{args.configfile}`, seed {config['seed']}:")
    report.done()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
