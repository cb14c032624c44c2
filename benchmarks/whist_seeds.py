"""How long finding a Z-cyclic whist seed takes, per size, and whether it checks.

    .venv/bin/python benchmarks/whist_seeds.py [--sizes 8,12,...] [--seconds 60]

For every size: the search (table shapes annealed, then a tiling of the residues by exact
cover; seating.whist.search) up to --search-max players,
and every construction that reaches the size from the stored seeds (seeds/whist/): mirror
tables, rows kept by an involution x -> m x, multiplier orbits by exact backtracking and
annealed (seating.whist.construct).
Each line says the method, the seconds taken (wall clock, this machine) and whether
seating.whist.check accepts the row; nothing is written to seeds/.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from seating import whist  # noqa: E402


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(str(P) for P in range(8, 201, 4)))
    parser.add_argument("--seconds", type=float, default=30.0, help="cap per size and method")
    parser.add_argument("--search-max", type=int, default=100, help="largest P searched")
    args = parser.parse_args(argv)
    seeds = {int(p.stem): whist.read_row(p) for p in (ROOT / "seeds" / "whist").glob("*.txt")}
    whist.search(8, seconds=5)  # compile the search once, outside the timings
    print(f"{'P':>4} {'M':>4}  {'method':<60} {'seconds':>8}  check")
    for P in [int(x) for x in args.sizes.split(",")]:
        lines = []
        if P <= args.search_max:
            start = time.perf_counter()
            progress: dict = {}
            row = whist.search(P, seconds=args.seconds, seed=1, progress=progress)
            took = time.perf_counter() - start
            verdict = (
                "valid"
                if row and whist.check(row).ok
                else f"none in time ({progress['tilings']} tilings tried)"
            )
            lines.append(
                (f"search: shapes, then tiling ({progress['tilings']} tilings)", took, verdict)
            )
        smaller = {Q: r for Q, r in seeds.items() if Q < P}
        if (
            whist.mirror_options(P - 1)
            or whist.involution_options(P - 1)
            or whist.multiplier_options(P - 1)
            or whist.backtrack_options(P - 1, smaller, max_free=4)
        ):
            start = time.perf_counter()
            built = whist.construct(P, smaller, seconds=args.seconds, seed=1)
            took = time.perf_counter() - start
            if built is None:
                lines.append(("construction", took, "none in time"))
            else:
                lines.append(
                    (
                        built[1][:60],
                        took,
                        "valid" if whist.check(built[0]).ok else whist.check(built[0]).explain(),
                    )
                )
        if P in seeds:
            start = time.perf_counter()
            verdict = whist.check(seeds[P])
            took = time.perf_counter() - start
            lines.append(
                ("stored seed, checked", took, "valid" if verdict.ok else verdict.explain())
            )
        if not lines:
            lines.append(("no construction, not searched, none stored", 0.0, "-"))
        for method, took, verdict in lines:
            print(f"{P:>4} {P - 1:>4}  {method:<60} {took:>8.2f}  {verdict}", flush=True)


if __name__ == "__main__":
    main()
