"""Run the default event end to end with snakemake and print wall time and every figure.

    .venv/bin/python benchmarks/default_event.py [--configfile other.yaml] [--keep]

Runs in a fresh temporary working directory (so nothing is reused), reads check.json
(never the optimizer's own counters) and prints one table. Numba's compiled code is cached
in seating/__pycache__; the first run on a new clone also compiles (reported separately
with --cold, which clears that cache first).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def run(configfile: Path, cold: bool) -> tuple[float, dict, Path]:
    if cold:
        shutil.rmtree(ROOT / "seating" / "__pycache__", ignore_errors=True)
    work = Path(tempfile.mkdtemp(prefix="bench-"))
    event = yaml.safe_load(configfile.read_text())["event"]
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"),
                           "-d", str(work), "--configfile", str(configfile), "-c2", "--quiet"],
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode:
        sys.exit(done.stderr[-3000:])
    out = work / "results" / event
    stages = {}
    for tsv in sorted((out / "benchmarks").glob("*.tsv")):
        stages[tsv.stem] = float(tsv.read_text().splitlines()[1].split("\t")[0])
    check = json.loads((out / "check.json").read_text())
    check["_stage_seconds"] = stages
    return wall, check, work


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--configfile", default=str(ROOT / "config" / "config.yaml"))
    ap.add_argument("--cold", action="store_true", help="clear numba's cache first")
    ap.add_argument("--keep", action="store_true", help="keep the working directory")
    args = ap.parse_args()
    wall, check, work = run(Path(args.configfile), args.cold)
    print(f"event {check['event']}: {check['players']} players, {check['hanchans']} hanchans")
    print(f"{'wall time of the whole snakemake run (s)':<44} {wall:8.1f}")
    for stage, seconds in check.pop("_stage_seconds").items():
        print(f"  {stage + ' stage (s)':<42} {seconds:8.1f}")
    skip = {"event", "players", "hanchans", "tables", "table_size", "worst",
            "compatriot_meetings_by_country", "targets"}
    for key, value in check.items():
        if key not in skip:
            print(f"{key:<44} {value!s:>8}")
    print(f"{'targets':<44} {check['targets']}")
    if args.keep:
        print(f"outputs kept in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
