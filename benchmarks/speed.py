"""Speed of the default event against the targets of issues 5 and 2, with every figure of the
check.

    .venv/bin/python benchmarks/speed.py [--cold] [--repeat N] [--configfile F] [--cores 2]
                                         [--keep] [--report PATH]

Measures, in one run (benchlib.event_benchmark):
  1. seating.core.plan (stages 1-6 in this process): wall time of the first call (it loads
     numba's cached code; Python imports are timed apart) and each stage's seconds;
     --repeat N calls it N times and also prints the fastest call;
  2. the whole `snakemake -c2` run in a fresh temporary working directory (wall time, and the
     seconds of each stage that has a benchmark file); --keep keeps that directory.
Both plans are recounted with seating.check.recount (the workflow's check.json is compared
with that recount). Targets: whole run < 10 s and core plan < 2.5 s (issue 5), whole run
< 60 s (issue 2), every hard rule met. The default event anneals 20 M steps a phase and 140 M
for back to back (config/config.yaml), past issue 5's times; a config with `search:
anneal_steps: 3000000` and no `back_to_back_steps` measures those (about 17 s whole run).
--cold clears seating/__pycache__ (numba's compiled code) before each of the two measurements,
so both include compiling.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

T0 = time.perf_counter()
import benchlib as bl  # noqa: E402  (timed: the imports of seating, numpy, numba)

IMPORT_SECONDS = time.perf_counter() - T0

TARGET_RUN = 10.0
TARGET_CORE = 2.5
TARGET_RUN_ISSUE_2 = 60.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--configfile", default=str(bl.DEFAULT_CONFIG))
    ap.add_argument(
        "--cold",
        action="store_true",
        help="clear seating/__pycache__ (numba cache) before each measurement",
    )
    ap.add_argument("--repeat", type=int, default=1, help="calls of the core plan (default 1)")
    ap.add_argument("--cores", type=int, default=2, help="snakemake -c (default 2)")
    ap.add_argument("--keep", action="store_true", help="keep the workflow's working directory")
    ap.add_argument("--report", help="also write a markdown report to this path")
    args = ap.parse_args()
    event = bl.event_of(bl.read_config(args.configfile))
    rep = bl.Report(
        f"Speed: {event.name} ({event.players} players, {event.hanchans} hanchans, "
        f"{event.tables} tables)",
        args.report,
    )
    imports = [
        "python imports of the benchmark (seating, numpy, numba)",
        bl.sec(IMPORT_SECONDS),
        "",
        "",
    ]
    return bl.event_benchmark(
        rep,
        Path(args.configfile),
        cores=args.cores,
        run_target=TARGET_RUN,
        more_run_targets=(("issue 2's target", TARGET_RUN_ISSUE_2),),
        core_target=TARGET_CORE,
        core_calls=max(1, args.repeat),
        cold=args.cold,
        keep=args.keep,
        extra_rows=[imports],
    )


if __name__ == "__main__":
    sys.exit(main())
