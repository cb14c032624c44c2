"""The bound on the same area twice in a row: the count against the program of players
moving alone, over random events.

    .venv/bin/python benchmarks/area_bound.py [--seeds FIRST LAST] [--events N]
                                              [--whole] [--report PATH]

For every generator seed from FIRST to LAST (benchmarks/unseen.py's random_config, N events
a seed, tables of 3 and of 4; events with one area are left out, they leave nothing to
bound), prints the events where seating.bounds' program of players moving alone
(_players_alone_floor) is above the count (_consecutive_area_count), and the totals. With
--whole, the same program is also solved as an integer program (scipy's milp) to show where
its linear relaxation, which the bound uses, falls short of the integer optimum.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import benchlib as bl
import numpy as np
from unseen import random_config

from seating.bounds import _consecutive_area_count, _players_alone_floor, players_alone_program


def integer_optimum(event) -> int | None:
    """The program of players moving alone solved whole (None when it is not built)."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    program = players_alone_program(event)
    if program is None:
        return None
    cost, matrix, need = program
    result = milp(cost, integrality=np.ones(len(cost)), bounds=Bounds(0, np.inf),
                  constraints=LinearConstraint(matrix, need, need))
    return int(round(result.fun)) if result.status == 0 else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, nargs=2, default=(100, 139), metavar=("FIRST", "LAST"))
    ap.add_argument("--events", type=int, default=5, help="events a seed and table size")
    ap.add_argument("--whole", action="store_true", help="also solve the integer program")
    ap.add_argument("--report", help="also write a markdown report to this path")
    args = ap.parse_args()
    first, last = args.seeds
    rep = bl.Report(f"The same-area bound: count and program of players moving alone "
                    f"(generator seeds {first}-{last}, {args.events} events each at tables "
                    f"of 3 and 4)", args.report)
    rows = []
    compared = above = short = built = 0
    seconds = 0.0
    for seed in range(first, last + 1):
        for size in (3, 4):
            rng = random.Random(seed)
            for k in range(args.events):
                config = random_config(rng, k, size)
                if len(config["areas"]) < 2:
                    continue
                event = bl.event_of(config)
                start = time.perf_counter()
                alone = _players_alone_floor(event)
                seconds += time.perf_counter() - start
                counted = _consecutive_area_count(event)
                whole = integer_optimum(event) if args.whole else None
                is_above = alone is not None and alone > counted
                falls_short = alone is not None and args.whole and whole != alone
                compared += 1
                built += alone is not None
                above += is_above
                short += falls_short
                if is_above or falls_short:
                    rows.append([seed, size, config["event"], event.players, event.hanchans,
                                 "/".join(str(n) for n in config["areas"].values()), counted,
                                 alone, "" if whole is None else whole])
    rep.table(["seed", "table size", "event", "players", "hanchans", "areas (tables)",
               "count", "program", "integer optimum"], rows, align="rrlrrlrrr",
              caption="Events where the program is above the count (or, with --whole, its "
                      "relaxation below the integer optimum):")
    rep.text(f"{compared} events with two or more areas, the program built for {built} "
             f"({bl.sec(seconds)} s in all): above the count on {above}"
             + (f"; the relaxation below the integer optimum on {short}." if args.whole
                else "."))
    rep.done()
    return 0


if __name__ == "__main__":
    sys.exit(main())
