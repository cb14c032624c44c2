"""Back to back country on the throwaway search's terms, and what each goal above it costs.

    .venv/bin/python benchmarks/back_to_back.py [--configfile F] [--seed S]
                                                [--steps N] [--report PATH]

Issue 2 names 49 (player, hanchan) pairs meeting a country twice in a row, from a throwaway
swap search that held only countries met >= 20. Our plan holds more above back to back: the
class mixes (each day's and the event's) rank above it, and every table seats one place of
each planned wind, so that the wind stage can meet every wind rule. This script drafts the
event once (stages 2 and 3: seating.core.meetings), then runs stages 4-6 from that draft four
times (seating.core.finish) with the same annealing (`--steps` back-to-back steps; by
default the config's `back_to_back_steps`, else the goals stage's own default):

- the throwaway's terms: the meeting rules, common opponents and countries met, seats free;
- the same with the wind patterns (every table one place of each planned wind);
- the class mixes too, seats free;
- every goal, with the wind patterns: the plan's own goals stage.

Each seating is recounted (seating.check.recount): back to back, countries met, the class
mixes' largest gaps from a fair share, and the wind rules, which free seats may leave unmet.
"""

from __future__ import annotations

import argparse

import benchlib as bl
import numpy as np

from seating import engine
from seating.check import public, recount
from seating.core import finish, meetings
from seating.draft import seat_keys
from seating.goals import FINER_GOALS

NO_MIX = tuple(g for g in FINER_GOALS if g not in (engine.DAY_MIX, engine.TOTAL_MIX))
VARIANTS = (  # name, finer goals, seats free of the wind patterns
    ("countries met only, seats free (the throwaway's terms)", NO_MIX, True),
    ("countries met only, wind patterns", NO_MIX, False),
    ("class mixes too, seats free", FINER_GOALS, True),
    ("every goal, wind patterns (the plan)", FINER_GOALS, False),
)
FIGURES = ("back_to_back_country", "countries_met_min", "indirect_min", "day_mix_max_excess",
           "day_mix_two_off", "total_mix_max_excess", "total_mix_two_off", "wind_count_bad",
           "day_wind_bad", "consecutive_same_wind", "prefix_wind_bad")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--configfile", default=str(bl.DEFAULT_CONFIG))
    ap.add_argument("--seed", type=int, help="the event's seed (default: the config's)")
    ap.add_argument("--steps", type=float, help="back-to-back steps (default: the config's)")
    ap.add_argument("--report", help="also write a markdown report to this path")
    args = ap.parse_args()
    config = bl.read_config(args.configfile)
    if args.seed is not None:
        config["seed"] = args.seed
    event = bl.event_of(config)
    search = event.search
    # None: the goals stage's own default; each row shows the steps the phase counted
    steps = int(args.steps) if args.steps else search.get("back_to_back_steps")
    report = bl.Report(f"Back to back on {config['event']}: the throwaway's terms and the "
                       "goals above it", args.report)
    draft, _ = meetings(event)
    rows = []
    for name, goals, free in VARIANTS:
        bl.progress(f"{name} ...")
        keys = seat_keys(event, draft)
        if free:
            keys = np.full_like(keys, -1)
        seating, seconds, summary = finish(event, draft, keys=keys, goals=goals, b2b_steps=steps)
        fig = public(recount(event, seating))
        rows.append([name, f"{summary['moves']['back_to_back']:,}", f"{seconds['goals']:.1f}",
                     f"{seconds['winds']:.1f}"] + [fig[k] for k in FIGURES]
                    + [bl.hard_summary(fig)])
        print(rows[-1], flush=True)
    report.table(["goals", "back-to-back steps", "goals stage (s)", "winds stage (s)", *FIGURES,
                  "hard rules"], rows,
                 caption=f"`{args.configfile}`, seed {config['seed']}, one draft (stages 2-3) "
                 "for all four (issue 2's throwaway search on the default event: 49)")
    report.done()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
