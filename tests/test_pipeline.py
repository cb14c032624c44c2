"""End to end: `snakemake` on small events, as an organizer and an auditor run it."""

import csv
import json
import shutil
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest
import yaml

from tests.conftest import DATA, ROOT


def snakemake(workdir: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "-d", str(workdir),
           "-c1", "--quiet", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    work = tmp_path_factory.mktemp("small")
    done = snakemake(work, "--configfile", str(DATA / "small.yaml"))
    assert done.returncode == 0, done.stderr[-3000:]
    return work / "results" / "small-64"


def read_seating(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_outputs_and_format(small_run):
    for name in ("seating.csv", "check.json", "report.html"):
        assert (small_run / name).stat().st_size > 0
    for n, stage in enumerate(["countries", "draft", "swaps", "goals", "winds", "tables",
                               "check"], start=1):
        assert (small_run / f"{n:02d}_{stage}").is_dir()
    header = (small_run / "seating.csv").read_text().splitlines()[0]
    assert header.startswith("hanchan,table,wind,place,country")
    rows = read_seating(small_run / "seating.csv")
    assert len(rows) == 64 * 6
    assert {r["wind"] for r in rows} == set("ESWN")
    assert all(len(r["place"].split()[1]) == 2 for r in rows)  # largest delegation is 10


def test_check_matches_an_independent_recount(small_run):
    rows = read_seating(small_run / "seating.csv")
    check = json.loads((small_run / "check.json").read_text())
    tables = {}
    for r in rows:
        tables.setdefault((r["hanchan"], r["table"]), []).append(r)
    meets = {}
    for group in tables.values():
        assert len(group) == 4 and {r["wind"] for r in group} == set("ESWN")
        for a, b in combinations(sorted(r["place"] for r in group), 2):
            meets[(a, b)] = meets.get((a, b), 0) + 1
    repeats = sum(m - 1 for m in meets.values())
    country = {r["place"]: r["country"] for r in rows}
    compat = sum(m for (a, b), m in meets.items() if country[a] == country[b])
    assert check["repeat_meetings"] == repeats
    assert check["compatriot_meetings"] == compat
    # every place sits once per hanchan
    for h in range(1, 7):
        assert sorted(r["place"] for r in rows if r["hanchan"] == str(h)) == sorted(country)


def test_rules_met_on_a_small_event(small_run):
    check = json.loads((small_run / "check.json").read_text())
    assert check["repeat_meetings"] == 0
    assert check["compatriot_meetings"] == 0
    assert check["unlinked_pairs"] == 0
    for key in ("wind_count_bad", "day_wind_bad", "consecutive_same_wind", "prefix_wind_bad"):
        assert check[key] == 0, key
    assert check["area_max_deviation"] < 1


def test_same_config_same_bytes(small_run, tmp_path):
    again = snakemake(tmp_path, "--configfile", str(DATA / "small.yaml"))
    assert again.returncode == 0, again.stderr[-3000:]
    for name in ("seating.csv", "check.json"):
        assert (tmp_path / "results" / "small-64" / name).read_bytes() == \
            (small_run / name).read_bytes()


def test_another_event_gets_only_its_own_countries(small_run):
    own = set(yaml.safe_load((DATA / "small.yaml").read_text())["countries"])
    seen = {r["country"] for r in read_seating(small_run / "seating.csv")}
    assert seen == own  # nothing of the default event leaks in


def test_auditor_reruns_one_stage(small_run):
    work = small_run.parent.parent
    before = (small_run / "04_goals" / "groups.csv").read_bytes()
    done = snakemake(work, "--configfile", str(DATA / "small.yaml"), "--forcerun", "goals")
    assert done.returncode == 0, done.stderr[-3000:]
    assert (small_run / "04_goals" / "groups.csv").read_bytes() == before


def test_a_stage_that_fails_stops_the_run(small_run, tmp_path):
    """A stage script that raises (here: its input file cut short) ends the run with exit
    status != 0, its error on the terminal and no output of that stage kept (the scripts
    leave through io.run_stage, which skips the teardown only after main has returned)."""
    work = tmp_path / "copy"
    shutil.copytree(small_run.parent.parent, work, symlinks=True)
    results = work / "results" / "small-64"
    cut = results / "03_swaps" / "run0" / "groups.csv"
    cut.write_text(cut.read_text().splitlines()[0] + "\n")  # the header only
    done = snakemake(work, "--configfile", str(DATA / "small.yaml"), "--forcerun", "goals")
    assert done.returncode != 0
    assert "03_swaps/run0/groups.csv: some seats are empty" in done.stderr
    assert "non-zero exit status 1" in done.stderr
    assert not (results / "04_goals" / "run0" / "groups.csv").exists()


def test_bad_config_stops_with_one_line(tmp_path):
    bad = yaml.safe_load((DATA / "small.yaml").read_text())
    bad["days"] = [3, 4]
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(bad))
    done = snakemake(tmp_path, "--configfile", str(path))
    assert done.returncode != 0
    errors = [line for line in done.stderr.splitlines() if line.startswith("config error:")]
    assert errors == ["config error: days: [3, 4] sums to 7 hanchans, but hanchans is 6"]
    assert not (tmp_path / "results").exists()


def test_a_key_given_twice_stops_with_one_line(tmp_path):
    """Snakemake's own reading keeps the last of two equal keys (a delegation written twice
    was planned once, silently); the workflow reads the file again, strictly."""
    text = (DATA / "small.yaml").read_text()
    path = tmp_path / "twice.yaml"
    path.write_text(text.replace("  BBB: 8\n", "  BBB: 8\n  AAA: 10\n", 1))
    done = snakemake(tmp_path, "--configfile", str(path))
    assert done.returncode != 0
    errors = [line for line in done.stderr.splitlines() if line.startswith("config error:")]
    assert len(errors) == 1 and errors[0].endswith("not valid YAML: key 'AAA' is given twice")
    assert not (tmp_path / "results").exists()


def test_three_player_tables(tmp_path):
    done = snakemake(tmp_path, "--configfile", str(DATA / "sanma.yaml"))
    assert done.returncode == 0, done.stderr[-3000:]
    out = tmp_path / "results" / "sanma-small"
    rows = read_seating(out / "seating.csv")
    assert {r["wind"] for r in rows} == set("ESW")
    check = json.loads((out / "check.json").read_text())
    assert check["repeat_meetings"] == 0 and check["compatriot_meetings"] == 0
    for key in ("wind_count_bad", "day_wind_bad", "consecutive_same_wind", "prefix_wind_bad"):
        assert check[key] == 0, key
    # the report states the rules of three winds, not the four of 4-player tables
    report = (out / "report.html").read_text()
    assert "⌊h/3⌋ or ⌈h/3⌉" in report and "not a multiple of 3" in report
    assert "h/4" not in report and "E+S" not in report


def test_delegation_larger_than_the_tables(tmp_path):
    """AAA has 20 players for 16 tables: the forced compatriot meetings are the proven
    minimum (4 pairs a hanchan), all in AAA, and the check shows the bound."""
    done = snakemake(tmp_path, "--configfile", str(DATA / "big-delegation.yaml"))
    assert done.returncode == 0, done.stderr[-3000:]
    check = json.loads((tmp_path / "results" / "big-delegation" / "check.json").read_text())
    assert check["compatriot_meetings_bound"] == 6 * 4
    assert check["compatriot_meetings"] == check["compatriot_meetings_bound"]
    assert set(check["compatriot_meetings_by_country"]) == {"AAA"}
    assert check["repeat_meetings"] == 0
    report = (tmp_path / "results" / "big-delegation" / "report.html").read_text()
    assert "AAA 24 (bound 24)" in report


def test_restarts_fan_out_and_keep_the_best(tmp_path):
    """search.restarts: 2 runs two searches as separate jobs and keeps the better one."""
    config = yaml.safe_load((DATA / "small.yaml").read_text())
    config["event"] = "small-restarts"
    config["search"]["restarts"] = 2
    path = tmp_path / "restarts.yaml"
    path.write_text(yaml.safe_dump(config))
    done = snakemake(tmp_path, "--configfile", str(path), "-c2")
    assert done.returncode == 0, done.stderr[-3000:]
    out = tmp_path / "results" / "small-restarts" / "04_goals"
    summary = json.loads((out / "summary.json").read_text())
    assert [r["run"] for r in summary["runs"]] == [0, 1]
    assert (out / "run0" / "groups.csv").exists() and (out / "run1" / "groups.csv").exists()
    kept = summary["runs"][summary["kept_run"]]
    other = summary["runs"][1 - summary["kept_run"]]
    order = ["repeat_meetings", "compatriot_meetings", "unlinked_pairs", "back_to_back_country"]
    assert [kept[k] for k in order] <= [other[k] for k in order]
    assert (out / "groups.csv").read_bytes() == \
        (out / f"run{summary['kept_run']}" / "groups.csv").read_bytes()


def test_design_start_is_compared_in_the_report(tmp_path):
    """search.design_start adds a run drafted from a design; the report compares the runs,
    and a run whose planned winds break a rule is not kept while another run keeps them."""
    config = yaml.safe_load((DATA / "small.yaml").read_text())
    config["event"] = "small-design"
    config["search"]["design_start"] = True
    path = tmp_path / "design.yaml"
    path.write_text(yaml.safe_dump(config))
    done = snakemake(tmp_path, "--configfile", str(path), "-c2")
    assert done.returncode == 0, done.stderr[-3000:]
    out = tmp_path / "results" / "small-design"
    summary = json.loads((out / "04_goals" / "summary.json").read_text())
    assert len(summary["runs"]) == 2
    assert "greedy" in summary["runs"][0]["draft"]
    assert "greedy" not in summary["runs"][1]["draft"]  # a design: affine geometry AG(3, 4)
    assert summary["runs"][summary["kept_run"]]["wind_faults"] == 0
    report = (out / "report.html").read_text()
    assert "Independent searches" in report and summary["runs"][1]["draft"] in report
    check = json.loads((out / "check.json").read_text())
    assert check["wind_count_bad"] == check["prefix_wind_bad"] == 0
