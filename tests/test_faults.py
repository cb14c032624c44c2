"""Faults: a run killed in the middle of a stage finishes correctly when run again, and the
number of cores does not change a single byte."""

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.conftest import DATA, ROOT


def command(workdir, cores):
    return [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "-d", str(workdir),
            "--configfile", str(DATA / "small.yaml"), f"-c{cores}", "--quiet"]


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory):
    clean = tmp_path_factory.mktemp("clean")
    done = subprocess.run(command(clean, 1), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return clean / "results" / "small-64"


@pytest.mark.parametrize("stage", ["draft-run0", "goals-run0", "tables"])
def test_killed_in_a_stage_then_finished(tmp_path, clean_run, stage):
    """Killed (SIGKILL, as a power cut) as soon as the stage has started: running again
    finishes with exactly the bytes of an uninterrupted run."""
    work = tmp_path / "killed"
    proc = subprocess.Popen(command(work, 1), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    log = work / "results" / "small-64" / "logs" / f"{stage}.log"
    deadline = time.time() + 300
    while not log.exists() and time.time() < deadline and proc.poll() is None:
        time.sleep(0.01)
    assert log.exists(), f"the run never reached the {stage} stage"
    os.killpg(proc.pid, signal.SIGKILL)  # no cleanup at all
    proc.wait()
    assert not (work / "results" / "small-64" / "seating.csv").exists()
    # simply run again (the profile reruns what was cut)
    done = subprocess.run(command(work, 1), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    for name in ("seating.csv", "check.json"):
        assert (work / "results" / "small-64" / name).read_bytes() == \
            (clean_run / name).read_bytes()


def test_one_or_two_cores_same_bytes(tmp_path):
    outputs = []
    for cores in (1, 2):
        work = tmp_path / f"cores{cores}"
        done = subprocess.run(command(work, cores), capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-3000:]
        out = work / "results" / "small-64"
        outputs.append([(out / name).read_bytes() for name in
                        ("seating.csv", "check.json", "chart.csv", "export/plan.json")])
    assert outputs[0] == outputs[1]


def test_time_limit_stops_the_search_and_the_report_says_so(tmp_path):
    import json

    import yaml

    config = yaml.safe_load((DATA / "small.yaml").read_text())
    config["event"] = "small-hurried"
    config["search"].update(time_limit=0.001, swap_moves=10**9, anneal_steps=10**9)
    path = tmp_path / "hurried.yaml"
    path.write_text(yaml.safe_dump(config))
    start = time.time()
    done = subprocess.run([sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"),
                           "-d", str(tmp_path), "--configfile", str(path), "-c1", "--quiet"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert time.time() - start < 300  # budgets of a billion moves, stopped by the clock
    out = tmp_path / "results" / "small-hurried"
    check = json.loads((out / "check.json").read_text())
    assert check["time_limit_hit"]  # e.g. ["03_swaps run0", "04_goals run0"]
    assert "Search stopped by its time limit" in (out / "report.html").read_text()
