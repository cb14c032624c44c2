"""How cost grows: time and peak memory of seating.core.plan for P = 48..800 at 14 hanchans.

    .venv/bin/python benchmarks/scaling.py [--players 48,100,200,300,400,600,800]
        [--hanchans 14] [--quick] [--search KEY=VALUE ...] [--svg PATH] [--report PATH]

Every P is planned in a fresh child process (this script with --child), one after the other:
  - time: wall time of seating.core.plan (and of each stage), measured in the child;
  - memory: peak resident set size of the child, resource.getrusage(RUSAGE_SELF).ru_maxrss
    (Linux: KiB), read after the plan; also read before it (after the imports and building
    the event), so the plan's own share is the difference. RSS counts numpy and numba memory,
    which tracemalloc would not see.
The events: the default event's 28 delegations scaled to P players (largest remainder, at
least one player each), days 5/5/4 for 14 hanchans (else days of at most 5), and the default
event's three areas scaled to P/4 tables. Figures of each plan are recounted with
seating.check.recount. Writes an SVG plot (hand-written, no plotting library: matplotlib is
not installed here) to --svg (default benchmarks/out/scaling.svg, or next to --report).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import benchlib as bl

DEFAULT_PLAYERS = [48, 100, 200, 300, 400, 600, 800]
STAGES = ["draft", "swaps", "goals", "winds", "tables"]


def largest_remainder(weights: list[float], total: int, floor: int = 1) -> list[int]:
    """Whole numbers proportional to weights, each at least `floor`, adding up to total."""
    share = [w * total / sum(weights) for w in weights]
    out = [max(floor, int(s)) for s in share]
    while sum(out) < total:
        i = max(range(len(out)), key=lambda k: share[k] - out[k])
        out[i] += 1
    while sum(out) > total:
        i = max((k for k in range(len(out)) if out[k] > floor), key=lambda k: out[k] - share[k])
        out[i] -= 1
    return out


def scaled_config(players: int, hanchans: int, search: dict) -> dict:
    """The default event with its delegations and areas scaled to `players`."""
    base = bl.read_config(bl.DEFAULT_CONFIG)
    codes = list(base["countries"])
    sizes = largest_remainder([base["countries"][c] for c in codes], players)
    tables = players // base["table_size"]
    names = list(base["areas"])
    areas = largest_remainder([base["areas"][a] for a in names], tables)
    days = base["days"] if sum(base["days"]) == hanchans else bl.split_days(hanchans)
    return {
        "event": f"scaled-{players}",
        "hanchans": hanchans,
        "days": days,
        "table_size": base["table_size"],
        "seed": base["seed"],
        "countries": dict(zip(codes, sizes)),
        "areas": dict(zip(names, areas)),
        "search": dict(search),
    }


def child(players: int, hanchans: int, search: dict) -> None:
    """Plan one event in this (fresh) process and print one JSON line."""
    event = bl.event_of(scaled_config(players, hanchans, search))
    got = bl.core_run(event)  # peak RSS read before and right after the plan
    f = got["figures"]
    print(
        json.dumps(
            {
                "players": players,
                "seconds": got["seconds"],
                "stages": got["stages"],
                "capped": got["capped"],
                "rss_before_kib": got["rss_before_kib"],
                "rss_peak_kib": got["rss_peak_kib"],
                "delegations": sorted(event.delegation_sizes.tolist(), reverse=True),
                "areas": [n for _, n in event.areas],
                "hard": bl.hard_summary(f),
                "figures": {
                    k: f[k]
                    for k in (
                        "repeat_meetings",
                        "compatriot_meetings",
                        "unlinked_pairs",
                        "indirect_min",
                        "countries_met_min",
                        "wind_count_bad",
                        "prefix_wind_bad",
                        "table_repeats",
                    )
                },
            }
        )
    )


# ---- the plot -------------------------------------------------------------------------


def nice_max(value: float) -> float:
    """A round number at least value (1, 2, 2.5, 5 times a power of ten)."""
    if value <= 0:
        return 1.0
    power = 10 ** len(str(int(value))) / 10 if value >= 1 else 0.1
    while power * 10 < value:
        power *= 10
    for step in (1, 2, 2.5, 5, 10):
        if step * power >= value:
            return step * power
    return 10 * power


def panel(
    x0: float,
    y0: float,
    w: float,
    h: float,
    xs: list[int],
    series: list[tuple],
    title: str,
    ylabel: str,
) -> list[str]:
    """One line chart: series = (name, values, colour, dashed)."""
    xmax = nice_max(max(xs))
    ymax = nice_max(max((v for _, vals, _, _ in series for v in vals), default=1))

    def px(x):
        return x0 + w * x / xmax

    def py(y):
        return y0 + h - h * y / ymax

    out = [
        f'<text x="{x0 + w / 2}" y="{y0 - 12}" text-anchor="middle" font-size="14" '
        f'font-weight="bold">{title}</text>',
        f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#444"/>',
    ]
    for i in range(6):
        yv = ymax * i / 5
        out.append(
            f'<line x1="{x0}" y1="{py(yv):.1f}" x2="{x0 + w}" y2="{py(yv):.1f}" stroke="#ddd"/>'
        )
        out.append(
            f'<text x="{x0 - 6}" y="{py(yv) + 4:.1f}" text-anchor="end" '
            f'font-size="11">{yv:g}</text>'
        )
    for xv in xs:
        out.append(
            f'<line x1="{px(xv):.1f}" y1="{y0 + h}" x2="{px(xv):.1f}" y2="{y0 + h + 4}" '
            f'stroke="#444"/>'
        )
        out.append(
            f'<text x="{px(xv):.1f}" y="{y0 + h + 16}" text-anchor="middle" '
            f'font-size="11">{xv}</text>'
        )
    out.append(
        f'<text x="{x0 + w / 2}" y="{y0 + h + 34}" text-anchor="middle" '
        f'font-size="12">players P</text>'
    )
    out.append(
        f'<text x="{x0 - 44}" y="{y0 + h / 2}" text-anchor="middle" font-size="12" '
        f'transform="rotate(-90 {x0 - 44} {y0 + h / 2})">{ylabel}</text>'
    )
    for k, (name, vals, colour, dashed) in enumerate(series):
        pts = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(xs, vals))
        dash = ' stroke-dasharray="5,4"' if dashed else ""
        out.append(
            f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>'
        )
        for x, y in zip(xs, vals):
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{colour}"/>')
        ly = y0 + 14 + 16 * k
        out.append(
            f'<line x1="{x0 + 10}" y1="{ly - 4}" x2="{x0 + 30}" y2="{ly - 4}" '
            f'stroke="{colour}" stroke-width="2"{dash}/>'
        )
        out.append(f'<text x="{x0 + 36}" y="{ly}" font-size="11">{name}</text>')
    return out


def svg(results: list[dict], hanchans: int, caption: list[str]) -> str:
    xs = [r["players"] for r in results]
    colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
    time_series = [("core plan (total)", [r["seconds"] for r in results], "#000", False)]
    for i, stage in enumerate(STAGES):
        time_series.append(
            (stage, [r["stages"].get(stage, 0.0) for r in results], colours[i], True)
        )
    mem_series = [
        ("peak RSS of the process", [r["rss_peak_kib"] / 1024 for r in results], "#000", False),
        (
            "RSS before the plan (imports, event)",
            [r["rss_before_kib"] / 1024 for r in results],
            colours[0],
            True,
        ),
        (
            "peak minus before",
            [(r["rss_peak_kib"] - r["rss_before_kib"]) / 1024 for r in results],
            colours[3],
            True,
        ),
    ]
    width, height = 1000, 460
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    parts += panel(
        80, 50, 380, 300, xs, time_series, f"seating.core.plan time, {hanchans} hanchans", "seconds"
    )
    parts += panel(
        590, 50, 380, 300, xs, mem_series, "memory (resource.getrusage ru_maxrss)", "MiB"
    )
    for k, line in enumerate(caption):
        parts.append(
            f'<text x="{width / 2}" y="{height - 30 + 16 * k}" text-anchor="middle" '
            f'font-size="11" fill="#555">{line}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--players",
        default=",".join(map(str, DEFAULT_PLAYERS)),
        help="comma-separated player counts (multiples of 4)",
    )
    ap.add_argument("--hanchans", type=int, default=14)
    ap.add_argument("--quick", action="store_true", help="smaller search budgets")
    ap.add_argument(
        "--search",
        action="append",
        metavar="KEY=VALUE",
        help="override a search setting (after --quick)",
    )
    ap.add_argument("--svg", help="where to write the plot")
    ap.add_argument("--report", help="also write a markdown report to this path")
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--child-search", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child, args.hanchans, json.loads(args.child_search or "{}"))
        return 0

    search = {**(bl.QUICK_SEARCH if args.quick else {}), **bl.parse_search(args.search)}
    players = [int(p) for p in args.players.split(",") if p.strip()]
    if any(p % 4 for p in players):
        sys.exit("--players: every count must be a multiple of 4 (tables of 4)")
    rep = bl.Report(f"Scaling of seating.core.plan at {args.hanchans} hanchans", args.report)
    settings = ", ".join(f"{k}={v}" for k, v in search.items()) or "the defaults of the schema"
    rep.text(
        f"Search settings: {settings}. Each P in a fresh child process, one after the "
        "other. Memory: resource.getrusage(RUSAGE_SELF).ru_maxrss of the child (peak "
        "resident set size).\n"
    )
    results = []
    for p in players:
        bl.progress(f"P={p} ...")
        cmd = [
            sys.executable,
            str(Path(__file__).resolve()),
            "--child",
            str(p),
            "--hanchans",
            str(args.hanchans),
            "--child-search",
            json.dumps(search),
        ]
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - start
        if done.returncode:
            rep.text(f"P={p}: the child FAILED (exit {done.returncode}): {done.stderr[-1500:]}")
            continue
        r = json.loads(done.stdout.strip().splitlines()[-1])
        r["process_seconds"] = wall
        results.append(r)
        bl.progress(f"  {r['seconds']:.1f} s, peak RSS {r['rss_peak_kib'] / 1024:.0f} MiB")
    if not results:
        rep.done(" Nothing was measured.")
        return 1
    rows = []
    for r in results:
        f = r["figures"]
        rows.append(
            [
                r["players"],
                len(r["delegations"]),
                r["delegations"][0],
                "/".join(map(str, r["areas"])),
                bl.sec(r["seconds"]),
            ]
            + [bl.sec(r["stages"].get(s)) for s in STAGES]
            + [
                bl.sec(r["process_seconds"]),
                f"{r['rss_peak_kib'] / 1024:.0f}",
                f"{(r['rss_peak_kib'] - r['rss_before_kib']) / 1024:.0f}",
                f["repeat_meetings"],
                f["compatriot_meetings"],
                f["unlinked_pairs"],
                f["indirect_min"],
                f["countries_met_min"],
                r["hard"],
                ",".join(r["capped"]) or "-",
            ]
        )
    rep.table(
        ["P", "countries", "largest", "areas", "plan s"]
        + [f"{s} s" for s in STAGES]
        + [
            "process s",
            "peak MiB",
            "plan MiB",
            "repeats",
            "compatriot",
            "unlinked",
            "indirect_min",
            "countries_min",
            "hard rules",
            "time cap hit",
        ],
        rows,
        caption="Time (seating.core.plan in a fresh process; 'process s' includes "
        "Python start, imports and the recount) and memory (peak RSS; 'plan "
        "MiB' = peak minus RSS before the plan):",
    )
    if args.svg:
        path = Path(args.svg)
    elif args.report:
        path = Path(args.report).with_suffix(".svg")
    else:
        path = bl.OUT / "scaling.svg"
    path.parent.mkdir(parents=True, exist_ok=True)
    caption = [bl.machine_line(rep.start), f"search: {settings}"]
    path.write_text(svg(results, args.hanchans, caption), encoding="utf-8")
    rep.text(f"plot written to {path}", md=f"![time and memory]({path.name})\n\n(plot: `{path}`)")
    rep.done()
    return 0


if __name__ == "__main__":
    sys.exit(main())
