"""Shared helpers of the benchmark scripts: events, timed runs, recounts, tables, reports.

Every figure printed by a benchmark comes from `seating.check.recount` of a finished seating
(an array from `seating.core.plan`, or `results/<event>/seating.csv` of a Snakemake run),
never from the optimizer's own counters. Nothing here hard-codes a measured number.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
# Measure the package of the tree this file lives in (e.g. a `git worktree` of one commit),
# not whichever tree the editable install of `seating` points at.
sys.path.insert(0, str(ROOT))

from seating.check import public, recount  # noqa: E402
from seating.core import plan  # noqa: E402
from seating.event import Event, load_event  # noqa: E402
from seating.io import read_seating  # noqa: E402

BENCH = ROOT / "benchmarks"
DATA = BENCH / "data"
OUT = BENCH / "out"
SCHEMA_PATH = ROOT / "workflow" / "schemas" / "config.schema.yaml"
DEFAULT_CONFIG = ROOT / "config" / "config.yaml"
NUMBA_CACHE = ROOT / "seating" / "__pycache__"

# Figures that are not single numbers (dropped from the tables).
NESTED = ("compatriot_meetings_by_country", "worst", "targets", "time_limit_hit")
HEADER = ("event", "players", "hanchans", "tables", "table_size")


# ---- events ---------------------------------------------------------------------------


def schema() -> dict:
    return yaml.safe_load(SCHEMA_PATH.read_text(encoding="utf-8"))


def read_config(path: str | Path) -> dict:
    return yaml.safe_load(Path(path).read_text(encoding="utf-8"))


def event_of(config: dict) -> Event:
    """The validated event (search defaults from the schema filled in)."""
    return load_event(config, schema())


def split_days(hanchans: int, per_day: int = 5) -> list[int]:
    """Hanchans over the fewest days of at most `per_day`, as even as possible, longer first."""
    days = -(-hanchans // per_day)
    base, extra = divmod(hanchans, days)
    return [base + 1] * extra + [base] * (days - extra)


def one_per_country(
    players: int, hanchans: int, seed: int = 1, search: dict | None = None, name: str | None = None
) -> dict:
    """Config of an event where every player is their own country (one area, tables of 4)."""
    width = len(str(players))
    config = {
        "event": name or f"solo-{players}x{hanchans}",
        "hanchans": hanchans,
        "days": split_days(hanchans),
        "table_size": 4,
        "seed": seed,
        "countries": {f"P{i:0{width}d}": 1 for i in range(1, players + 1)},
    }
    if search:
        config["search"] = dict(search)
    return config


def parse_search(items: list[str] | None) -> dict:
    """`KEY=VALUE` overrides of the search settings (values parsed as YAML scalars)."""
    out = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep:
            sys.exit(f"--search wants KEY=VALUE, got {item!r}")
        out[key.strip()] = yaml.safe_load(value)
    return out


# Smaller budgets for a quick look (--quick): same search, fewer moves.
QUICK_SEARCH = {"swap_moves": 20000, "goal_moves": 1500, "anneal_steps": 300000, "wind_moves": 5000}


# ---- runs -----------------------------------------------------------------------------


def clear_numba_cache() -> None:
    """Remove seating/__pycache__ (numba's compiled code and the .pyc files)."""
    shutil.rmtree(NUMBA_CACHE, ignore_errors=True)


# The stages of seating.core.plan that stop at search.time_limit (each has its own limit).
SEARCH_STAGES = ("swaps", "goals")


def capped_stages(stages: dict, time_limit: float) -> list[str]:
    """Search stages of a core plan that ran (about) as long as search.time_limit allows.

    seating.core.plan drops the searches' own `hit_time_limit` flags, so this is judged by
    the stage's seconds.
    """
    return [s for s in SEARCH_STAGES if stages.get(s, 0.0) >= 0.98 * time_limit]


def peak_rss_kib() -> int:
    """Peak resident set size of this process so far (Linux: KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def core_run(event: Event, design: bool = False, log=lambda line: None) -> dict:
    """seating.core.plan in this process, timed; figures recounted from the seating.
    design: draft from a combinatorial design when one fits (seating.core.plan); log: its
    progress lines.

    The peak RSS is read before and right after the plan (before the recount); it is the
    plan's own only in a fresh process (scaling.py plans each event in a child).
    """
    rss_before = peak_rss_kib()
    start = time.perf_counter()
    seating, stages = plan(event, log=log, design=design)
    seconds = time.perf_counter() - start
    rss_peak = peak_rss_kib()
    figures = public(recount(event, seating))
    return {
        "seconds": seconds,
        "stages": stages,
        "figures": figures,
        "seating": seating,
        "capped": capped_stages(stages, event.search["time_limit"]),
        "rss_before_kib": rss_before,
        "rss_peak_kib": rss_peak,
    }


def snakemake_run(configfile: Path, cores: int = 2, keep: bool = False) -> dict:
    """The whole workflow in a fresh temporary working directory, timed.

    The figures are recounted here from results/<event>/seating.csv with
    seating.check.recount; `agrees` says whether the workflow's own check.json (stage 7)
    holds the same numbers.
    """
    work = Path(tempfile.mkdtemp(prefix="bench-smk-"))
    config = read_config(configfile)
    event = event_of(config)
    cmd = [
        sys.executable,
        "-m",
        "snakemake",
        "-s",
        str(ROOT / "Snakefile"),
        "-d",
        str(work),
        "--configfile",
        str(Path(configfile).resolve()),
        f"-c{cores}",
        "--quiet",
    ]
    # the workflow's scripts import `seating` from this tree too
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path}
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    result = {"ok": done.returncode == 0, "seconds": wall, "command": cmd, "workdir": work}
    out = work / "results" / event.name
    if done.returncode or not (out / "seating.csv").exists():
        result["ok"] = False
        result["error"] = (done.stderr or done.stdout)[-3000:]
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
        return result
    stages = {}
    for tsv in sorted((out / "benchmarks").glob("*.tsv")):
        lines = tsv.read_text().splitlines()
        if len(lines) > 1:
            stages[tsv.stem] = float(lines[1].split("\t")[0])
    seating = read_seating(out / "seating.csv", event)
    figures = public(recount(event, seating))
    check = json.loads((out / "check.json").read_text())
    result["stages"] = stages
    result["figures"] = figures
    # stages the workflow names as stopped by search.time_limit (None: not reported)
    result["time_limit_hit"] = check.get("time_limit_hit")
    result["agrees"] = all(check.get(k) == v for k, v in figures.items() if k not in NESTED)
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    return result


# ---- rules ----------------------------------------------------------------------------

# The rules with a fixed requirement (the spec's "never" and "exactly" rules): a plan meets
# them or it does not. Everything else is a goal to push as far as it goes.
HARD_RULES = (
    ("games_min", "every place plays every hanchan"),
    ("repeat_meetings", "never the same opponent twice (at the counting bound)"),
    ("compatriot_meetings", "no compatriot at the table (at the counting bound)"),
    ("unlinked_pairs", "a common opponent with everyone never met (at the counting bound)"),
    ("wind_count_bad", "each wind 3 or 4 times (floor/ceil of h/4), E+S and W+N within one"),
    ("day_wind_bad", "every day balanced"),
    ("consecutive_same_wind", "never the same wind twice in a row"),
    ("prefix_wind_bad", "wind counts within one after every hanchan not a multiple of 4"),
    ("table_repeats", "a different table every hanchan (at the counting bound)"),
    ("area_max_deviation", "each area in proportion over the event (within one)"),
)


def requirement(key: str, fig: dict) -> tuple[str, bool | None]:
    """The requirement of a hard rule as text, and whether the figures meet it."""
    value = fig.get(key)
    if key == "games_min":
        need = fig["hanchans"]
        ok = fig["games_min"] == need and fig["games_max"] == need
        return f"== {need}", ok
    if key in ("repeat_meetings", "compatriot_meetings", "unlinked_pairs", "table_repeats"):
        bound = fig.get(f"{key}_bound", 0)
        return f"<= {bound}", None if value is None else value <= bound
    if key == "area_max_deviation":
        return "< 1", None if value is None else value < 1
    return "== 0", None if value is None else value == 0


def hard_failures(fig: dict) -> list[str]:
    """The hard rules whose figure misses its requirement."""
    return [k for k, _ in HARD_RULES if requirement(k, fig)[1] is False]


def hard_ok(fig: dict) -> bool:
    return not hard_failures(fig)


def hard_summary(fig: dict) -> str:
    """PASS, or FAIL with the rules that miss."""
    missed = hard_failures(fig)
    return "PASS" if not missed else "FAIL " + ",".join(missed)


def tally_failures(failed: dict[str, int], fig: dict) -> list[str]:
    """The hard rules this plan misses, each also counted into failed."""
    missed = hard_failures(fig)
    for key in missed:
        failed[key] = failed.get(key, 0) + 1
    return missed


def passed_line(passed: int, total: int, failed: dict[str, int]) -> str:
    """"p of n events meet every hard rule", with the rules missed and how often."""
    return (f"{passed} of {total} events meet every hard rule"
            + (": misses " + ", ".join(f"{k} in {n}" for k, n in sorted(failed.items()))
               if failed else "."))


def verdict(ok: bool | None) -> str:
    return "-" if ok is None else ("PASS" if ok else "FAIL")


def scalar_figures(fig: dict) -> list[str]:
    """Keys of every single-number figure, in the order of the check."""
    return [
        k
        for k, v in fig.items()
        if k not in NESTED and k not in HEADER and not isinstance(v, dict | list)
    ]


def figure_tables(rep: Report, runs: dict[str, dict]) -> None:
    """Two tables for named sets of figures: the hard rules (with PASS/FAIL), then the rest."""
    first = next(iter(runs.values()))
    headers, rows = ["hard rule"], []
    for name in runs:
        headers += [name, ""]
    for key, meaning in HARD_RULES:
        row = [key]
        for fig in runs.values():
            row += [fig.get(key), verdict(requirement(key, fig)[1])]
        rows.append(row + [requirement(key, first)[0], meaning])
    rows.append(
        ["every hard rule met"]
        + sum([["", verdict(hard_ok(f))] for f in runs.values()], [])
        + ["", ""]
    )
    rep.table(
        headers + ["requirement", "rule"],
        rows,
        align="l" + "rl" * len(runs) + "ll",
        caption="Hard rules, recounted from the finished seating (seating.check.recount):",
    )
    hard = {k for k, _ in HARD_RULES} | {"games_max"}
    rows = [[k] + [f.get(k) for f in runs.values()] for k in scalar_figures(first) if k not in hard]
    rep.table(["figure", *runs], rows, caption="Every other figure of the check (recounted):")


# ---- one event end to end (speed.py, large.py) -----------------------------------------


def progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def target_row(label: str, seconds: float, target: float | None) -> list:
    if target is None:
        return [label, sec(seconds), "", ""]
    return [label, sec(seconds), f"< {target:g}", verdict(seconds < target)]


def event_benchmark(
    rep: Report,
    configfile: Path,
    *,
    cores: int,
    run_target: float,
    more_run_targets: tuple[tuple[str, float], ...] = (),
    core_target: float | None = None,
    core_calls: int = 1,
    cold: bool = False,
    keep: bool = False,
    extra_rows: list[list] | None = None,
) -> int:
    """One event measured in this run: seating.core.plan `core_calls` times in this process
    (0: not at all), then the whole `snakemake -c<cores>` run in a fresh working directory.

    Prints the wall times against the targets (more_run_targets: further (label, seconds)
    targets of the whole run, e.g. another issue's) with each stage's seconds, every figure of
    both plans recounted from their seatings, whether the workflow's check.json agrees with
    the recount, and whether every target is met. Returns the exit status (1: the
    workflow failed). cold clears numba's cache before each of the two measurements.
    """
    event = event_of(read_config(configfile))
    cores_runs = []
    if core_calls:
        if cold:
            clear_numba_cache()
        for i in range(core_calls):
            progress(f"seating.core.plan, call {i + 1} of {core_calls} ...")
            cores_runs.append(core_run(event))
    if cold:
        clear_numba_cache()
    progress(f"snakemake -c{cores} in a fresh working directory ...")
    smk = snakemake_run(configfile, cores=cores, keep=keep)
    if not smk["ok"]:
        rep.text(f"the snakemake run FAILED: {smk.get('error', '')}")
        rep.done(" The snakemake run failed.")
        return 1

    rows = [
        target_row(f"whole snakemake run, -c{cores}, fresh working dir", smk["seconds"], run_target)
    ]
    runs = {"snakemake": smk["figures"]}
    ok = smk["seconds"] < run_target
    for label, target in more_run_targets:
        rows.append(target_row(f"whole snakemake run, {label}", smk["seconds"], target))
        ok = ok and smk["seconds"] < target
    if cores_runs:
        core = cores_runs[0]
        runs["core"] = core["figures"]
        rows.append(
            target_row(
                "core plan (stages 1-6, first call in this process)", core["seconds"], core_target
            )
        )
        if core_target is not None:
            ok = ok and core["seconds"] < core_target
        if len(cores_runs) > 1:
            best = min(c["seconds"] for c in cores_runs)
            rows.append(
                target_row(f"core plan, fastest of {len(cores_runs)} calls", best, core_target)
            )
            rows.append(
                [
                    "core plan, every call",
                    " ".join(f"{c['seconds']:.2f}" for c in cores_runs),
                    "",
                    "",
                ]
            )
        rows += [
            [f"  core: {stage}", sec(seconds), "", "time limit" if stage in core["capped"] else ""]
            for stage, seconds in core["stages"].items()
        ]
    rows += [
        [f"  snakemake: {stage} (benchmark file)", sec(seconds), "", ""]
        for stage, seconds in smk["stages"].items()
    ]
    rows += extra_rows or []
    cold_note = " (cold: numba cache cleared first)" if cold else ""
    rep.table(
        ["time (s)" + cold_note, "measured", "target", ""],
        rows,
        align="lrrl",
        caption="Wall times, measured in this run:",
    )

    figure_tables(rep, runs)
    rep.text(
        "check.json of the workflow agrees with the recount of its seating.csv: "
        + ("yes" if smk["agrees"] else "NO")
    )
    hit = smk["time_limit_hit"]
    rep.text(
        "stages stopped by search.time_limit (check.json): "
        + ("not reported" if hit is None else ", ".join(hit) or "none")
    )
    if keep:
        rep.text(f"workflow output kept in {smk['workdir']}")
    ok = ok and all(hard_ok(f) for f in runs.values())
    rep.text(f"every target met (times and hard rules): {'yes' if ok else 'no'}")
    rep.done()
    return 0


# ---- output ---------------------------------------------------------------------------


def fmt(value) -> str:
    """A figure as printed: floats to at most 3 decimals (seconds are formatted by sec())."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float | np.floating):
        return f"{float(value):.3f}".rstrip("0").rstrip(".")
    return str(value)


def sec(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds:.2f}"


def _aligns(n: int, align: str | None) -> str:
    """One letter per column, l or r; default: first column left, the others right."""
    return (align or "l" + "r" * (n - 1)).ljust(n, "r")


def text_table(headers: list[str], rows: list[list], align: str | None = None) -> str:
    """Plain-text table with aligned columns (align: one letter l/r per column)."""
    cells = [[str(h) for h in headers]] + [[fmt(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    al = _aligns(len(headers), align)

    def line(row):
        return "  ".join(
            c.ljust(w) if al[i] == "l" else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))
        ).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(cells[0]), rule] + [line(r) for r in cells[1:]])


def md_table(headers: list[str], rows: list[list], align: str | None = None) -> str:
    align = ["---" if a == "l" else "---:" for a in _aligns(len(headers), align)]
    out = ["| " + " | ".join(str(h) for h in headers) + " |", "| " + " | ".join(align) + " |"]
    for row in rows:
        out.append("| " + " | ".join(fmt(c).replace("|", "\\|") for c in row) + " |")
    return "\n".join(out)


def git_state() -> str:
    try:
        head = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=20,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=20,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{head}{' + uncommitted changes' if dirty else ''}" if head else "unknown"


# What a measurement runs: the package, the workflow and the default event.
CODE = ("Snakefile", "seating", "scripts", "workflow", "config")


def code_fingerprint() -> str:
    """Short hash of every file the measurements run (CODE), committed or not.

    Other sessions may edit the tree while a benchmark runs; a report whose fingerprint at
    the end differs from the one at the start measured code that changed under it.
    """
    digest = hashlib.sha256()
    for top in CODE:
        base = ROOT / top
        files = [base] if base.is_file() else sorted(base.rglob("*")) if base.is_dir() else []
        for f in files:
            if f.is_file() and "__pycache__" not in f.parts and f.suffix != ".pyc":
                digest.update(str(f.relative_to(ROOT)).encode() + b"\0" + f.read_bytes())
    return digest.hexdigest()[:12]


def machine() -> dict:
    load = os.getloadavg()
    return {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "host": platform.node(),
        "cpus": os.cpu_count(),
        "load": " ".join(f"{x:.2f}" for x in load),
        "python": platform.python_version(),
        "commit": git_state(),
        "code": code_fingerprint(),
    }


def machine_line(info: dict | None = None) -> str:
    m = info or machine()
    return (
        f"measured {m['date']} on {m['host']} ({m['cpus']} CPUs, load average "
        f"{m['load']}), Python {m['python']}, code at {m['commit']} (files {m['code']})"
    )


class Report:
    """Sections of text and tables printed as they come and, with --report, kept as markdown."""

    def __init__(self, title: str, path: str | None):
        self.title = title
        self.path = Path(path) if path else None
        self.start = machine()
        self.parts: list[str] = []
        print(f"{title}\n{machine_line(self.start)}\n")

    def text(self, line: str, md: str | None = None) -> None:
        print(line)
        self.parts.append(md if md is not None else line)

    def table(
        self,
        headers: list[str],
        rows: list[list],
        align: str | None = None,
        caption: str | None = None,
    ) -> None:
        if caption:
            print(caption)
        print(text_table(headers, rows, align) + "\n")
        self.parts.append((f"{caption}\n\n" if caption else "") + md_table(headers, rows, align))

    def write(self, status: str = "", extra: list[str] | None = None) -> None:
        """Write the markdown (extra: parts added to this write only, e.g. a partial table)."""
        if not self.path:
            return
        end = machine()
        changed = (
            f" WARNING: the code changed during the measurement (files {self.start['code']} "
            f"at the start, {end['code']} at the end; commit {end['commit']})."
            if end["code"] != self.start["code"]
            else ""
        )
        head = [
            f"# {self.title}",
            "",
            f"Started: {machine_line(self.start)}.",
            f"Finished: {end['date']} (load average {end['load']}).{status}{changed}",
            "",
        ]
        body = "\n\n".join(self.parts + (extra or []))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text("\n".join(head) + "\n" + body + "\n", encoding="utf-8")

    def done(self, status: str = "") -> None:
        self.write(status)
        if code_fingerprint() != self.start["code"]:
            print("WARNING: the code changed during the measurement (see the report's head)")
        if self.path:
            print(f"report written to {self.path}")
