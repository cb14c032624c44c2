"""Side by side with MahjongPantheon's seating engine (npm mahjong-seatings-rs-node@3.0.0).

    .venv/bin/python benchmarks/pantheon.py [--npm-dir DIR] [--seed N] [--report PATH]

Installs the package with npm into a cache directory under /tmp (never into the repository),
then, in one run, for 200 players x 14 hanchans (the default event, config/config.yaml) and
32 players x 10 hanchans (one player per country):
  - ours: seating.core.plan in this process (stages 1-6), timed;
  - Pantheon: its shuffled seating (make_seating_shuffled), called once per hanchan with all
    earlier hanchans as previousSeatings, exactly as Pantheon builds a tournament round by
    round, from a small node script written to /tmp; once with windShuffle "balanced" and once
    with "random". Its time is that of the calls inside node (and, apart, the node process).
Pantheon takes only player ids and ratings (no country or team), so it gets the players only;
both seatings are recounted with seating.check.recount against the same event (the default
event's countries for 200 x 14). Pantheon's table order is its table number and its seat order
at a table is the wind order (East first). Exits 2 if npm or the package is not available.
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

import benchlib as bl
import numpy as np

from seating.check import public, recount

PACKAGE = "mahjong-seatings-rs-node"
VERSION = "3.0.0"

NODE_SCRIPT = r"""
// Written by benchmarks/pantheon.py: Pantheon's shuffled seating, one call per hanchan.
const fs = require("fs");
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const t0 = process.hrtime.bigint();
const lib = require(input.module);
const t1 = process.hrtime.bigint();
const players = [];
for (let i = 1; i <= input.players; i++) players.push([i, 1500]);  // ids 1..P, equal ratings
const previous = [];
const hanchans = [];
for (let h = 0; h < input.hanchans; h++) {
  const result = lib.make_seating_shuffled({
    playersMap: players,
    previousSeatings: previous,
    groupsCount: input.groupsCount,
    randFactor: input.seed + 1000003 * h,
    windShuffle: input.windShuffle,
  });
  const ids = result.map((entry) => Number(entry[0]));
  const tables = [];
  for (let t = 0; t < ids.length; t += 4) tables.push(ids.slice(t, t + 4));
  previous.push(...tables);  // seat order kept: Pantheon balances winds from it
  hanchans.push(tables);
}
const t2 = process.hrtime.bigint();
process.stdout.write(JSON.stringify({
  load_seconds: Number(t1 - t0) / 1e9,
  seconds: Number(t2 - t1) / 1e9,
  hanchans: hanchans,
}));
"""


def fail(message: str) -> None:
    print(f"pantheon.py: {message}", file=sys.stderr)
    sys.exit(2)


def install(npm_dir: Path) -> Path:
    """The package's folder in node_modules of npm_dir, installed there if missing."""
    for tool in ("node", "npm"):
        if not shutil.which(tool):
            fail(f"`{tool}` is not on PATH; cannot run MahjongPantheon's engine")
    pkg = npm_dir / "node_modules" / PACKAGE
    meta = pkg / "package.json"
    if not meta.exists() or json.loads(meta.read_text()).get("version") != VERSION:
        npm_dir.mkdir(parents=True, exist_ok=True)
        bl.progress(f"npm install {PACKAGE}@{VERSION} into {npm_dir} ...")
        try:
            done = subprocess.run(
                [
                    "npm",
                    "install",
                    "--prefix",
                    str(npm_dir),
                    "--no-audit",
                    "--no-fund",
                    "--no-save",
                    f"{PACKAGE}@{VERSION}",
                ],
                capture_output=True,
                text=True,
                timeout=600,
            )
        except subprocess.TimeoutExpired:
            fail(f"npm install {PACKAGE}@{VERSION} did not finish in 600 s (no network?)")
        if done.returncode or not meta.exists():
            fail(
                f"npm install {PACKAGE}@{VERSION} failed (exit {done.returncode}):\n"
                f"{(done.stderr or done.stdout)[-2000:]}"
            )
    version = json.loads(meta.read_text()).get("version")
    if version != VERSION:
        fail(f"{PACKAGE} in {npm_dir} is version {version}, not {VERSION}")
    return pkg


def pantheon(pkg: Path, players: int, hanchans: int, seed: int, wind: str) -> dict:
    """Run Pantheon's engine in node; its seating as seating[hanchan, table, wind] (0-based)."""
    script = Path(tempfile.gettempdir()) / "bench-pantheon-seating.cjs"
    script.write_text(NODE_SCRIPT)
    payload = {
        "module": str(pkg),
        "players": players,
        "hanchans": hanchans,
        "seed": seed,
        "groupsCount": 1,
        "windShuffle": wind,
    }
    start = time.perf_counter()
    try:
        done = subprocess.run(
            ["node", str(script)],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            timeout=3600,
        )
    except subprocess.TimeoutExpired:
        fail(f"Pantheon's engine did not finish {players} x {hanchans} in an hour")
    wall = time.perf_counter() - start
    if done.returncode:
        fail(f"node failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    out = json.loads(done.stdout)
    seating = np.array(out["hanchans"], dtype=np.int64) - 1  # Pantheon ids 1..P -> places
    if seating.shape != (hanchans, players // 4, 4):
        fail(f"unexpected seating shape {seating.shape} from Pantheon")
    for h in range(hanchans):
        if sorted(seating[h].ravel().tolist()) != list(range(players)):
            fail(f"Pantheon's hanchan {h + 1} does not seat every player exactly once")
    return {
        "seconds": out["seconds"],
        "load_seconds": out["load_seconds"],
        "process_seconds": wall,
        "seating": seating,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--npm-dir",
        default=str(Path(tempfile.gettempdir()) / "bench-pantheon-npm"),
        help="npm cache/install directory (default /tmp/bench-pantheon-npm)",
    )
    ap.add_argument("--seed", type=int, default=1, help="Pantheon's randFactor base (default 1)")
    ap.add_argument("--report", help="also write a markdown report to this path")
    args = ap.parse_args()
    pkg = install(Path(args.npm_dir))

    cases = [
        ("200 x 14, default event", bl.read_config(bl.DEFAULT_CONFIG)),
        ("32 x 10, one per country", bl.one_per_country(32, 10, name="solo-32x10")),
    ]
    rep = bl.Report(
        f"Ours against MahjongPantheon ({PACKAGE}@{VERSION}, shuffled seating)", args.report
    )
    rep.text(
        "Pantheon's shuffled seating takes player ids and ratings only (no country or "
        "team input), so it gets the players only; both plans are recounted against the "
        "same event.\n"
    )
    for title, config in cases:
        event = bl.event_of(config)
        bl.progress(f"{title}: ours (seating.core.plan) ...")
        ours = bl.core_run(event)
        times = [["ours (seating.core.plan, stages 1-6)", bl.sec(ours["seconds"]), "", ""]]
        runs = {"ours": ours["figures"]}
        for wind in ("balanced", "random"):
            bl.progress(f"{title}: Pantheon, windShuffle {wind} ...")
            got = pantheon(pkg, event.players, event.hanchans, args.seed, wind)
            runs[f"Pantheon {wind}"] = public(recount(event, got["seating"]))
            times.append(
                [
                    f"Pantheon, windShuffle {wind}",
                    bl.sec(got["seconds"]),
                    bl.sec(got["process_seconds"]),
                    f"{ours['seconds'] / got['seconds']:.2f}",
                ]
            )
        rep.text(f"### {title}: {event.players} players, {event.hanchans} hanchans\n")
        rep.table(
            [
                "engine",
                "seconds (engine)",
                "seconds (node process, incl. start and wasm load)",
                "ours / this engine (time)",
            ],
            times,
            caption="Wall times, measured in this run one after the other:",
        )
        bl.figure_tables(rep, runs)
    rep.text("Times of both engines were measured in this one run, one after the other.")
    rep.done()
    return 0


if __name__ == "__main__":
    sys.exit(main())
