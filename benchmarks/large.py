"""A large event: 400 players, 16 hanchans, 100 tables in three areas, delegations up to 40.

    .venv/bin/python benchmarks/large.py [--configfile F] [--cores 2] [--core] [--report PATH]

Runs the whole workflow (`snakemake -c2`) on benchmarks/data/large-400.yaml in a fresh
temporary working directory, timed against the target of issue 5 (under 60 s), and prints
every figure recounted from results/<event>/seating.csv with seating.check.recount (and
whether the workflow's check.json agrees). --core also times seating.core.plan in this
process on the same event, before the workflow run (benchlib.event_benchmark).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import benchlib as bl

TARGET = 60.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--configfile", default=str(bl.DATA / "large-400.yaml"))
    ap.add_argument("--cores", type=int, default=2, help="snakemake -c (default 2)")
    ap.add_argument("--core", action="store_true", help="also time seating.core.plan")
    ap.add_argument("--report", help="also write a markdown report to this path")
    args = ap.parse_args()
    event = bl.event_of(bl.read_config(args.configfile))
    sizes = sorted(event.delegation_sizes.tolist(), reverse=True)
    rep = bl.Report(f"Large event: {event.name}", args.report)
    rep.text(
        f"{event.players} players in {len(sizes)} delegations (largest {sizes[:5]}, "
        f"{sizes.count(1)} of one player), {event.hanchans} hanchans over days "
        f"{list(event.days)}, {event.tables} tables in areas "
        f"{', '.join(f'{a} {n}' for a, n in event.areas)}.\n"
    )
    return bl.event_benchmark(
        rep,
        Path(args.configfile),
        cores=args.cores,
        run_target=TARGET,
        core_calls=1 if args.core else 0,
    )


if __name__ == "__main__":
    sys.exit(main())
