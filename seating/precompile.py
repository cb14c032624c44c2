"""Compile the search's numba code once, at install: `python -m seating.precompile`.

numba compiles a function the first time it is called and caches the machine code in
seating/__pycache__ (keyed on the source file and this machine's CPU). Without this step a
machine's first `snakemake` run pays that compilation inside its stages: about 36 s of a
57 s first run of the default event at 147f9e9, where the runs after it took about 21 s
(2-core machine, a quiet hour). The Makefile's install runs this module: it plans a small event
(64 places at tables of 4, two areas, two days) through the same stage functions and
recounts it, and the default event then finds everything it calls compiled
(tests/test_engine.py checks that). Other shapes compile their own extra code on first use
(tables of 3, areas given to places before the draft, tables numbered nearly alone). Run it
again after editing the package, or let the next run compile what changed.
"""

from __future__ import annotations

import sys
import time

from .check import recount
from .cli import ROOT
from .core import plan
from .event import load_event

WARMUP = {
    "event": "precompile",
    "hanchans": 6,
    "days": [3, 3],
    "table_size": 4,
    "seed": 3,
    "countries": {"AAA": 10, "BBB": 8, "CCC": 7, "DDD": 6, "EEE": 6, "FFF": 5, "GGG": 5,
                  "HHH": 4, "III": 3, "JJJ": 3, "KKK": 2, "LLL": 2, "MMM": 2, "NNN": 1},
    "areas": {"Hall": 10, "Room": 6},
    "search": {"goal_moves": 500, "anneal_steps": 200_000, "wind_moves": 20_000},
}


def main() -> int:
    import yaml

    schema = yaml.safe_load((ROOT / "workflow" / "schemas" / "config.schema.yaml").read_text())
    event = load_event(WARMUP, schema)
    start = time.perf_counter()
    seating, _ = plan(event)
    recount(event, seating)
    print(f"precompile: the search's compiled code is cached ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
