from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import settings

from seating.event import load_event

# The suite draws the same examples on every run, so CI passes or fails the same way for
# the same commit; `pytest --hypothesis-profile=explore` draws new ones to hunt for bugs.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("repeatable")

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def schema():
    return yaml.safe_load((ROOT / "workflow" / "schemas" / "config.schema.yaml").read_text())


@pytest.fixture(scope="session")
def default_config():
    return yaml.safe_load((ROOT / "config" / "config.yaml").read_text())


@pytest.fixture(scope="session")
def default_event(schema, default_config):
    return load_event(default_config, schema)


@pytest.fixture(scope="session")
def small_event(schema):
    return load_event(yaml.safe_load((DATA / "small.yaml").read_text()), schema)


def swap_stage_groups(event):
    """The groups the event's swap stage leaves, as the workflow computes them (draft, then
    swaps, both seeded: the same groups on every call), with the stage capped at 300 s."""
    from seating.draft import first_plan, seat_keys
    from seating.swaps import improve_meetings

    groups, _ = first_plan(event)
    groups, _ = improve_meetings(event, groups, seat_keys(event, groups),
                                 event.search["swap_moves"], 300.0, lambda line: None)
    return groups


def goals_stage(event, **budgets):
    """(plan, summary) of the goals stage on the event's swap-stage groups, with
    improve_goals' extra budgets, the stage capped at 300 s."""
    from seating.draft import seat_keys
    from seating.goals import improve_goals

    s = event.search
    groups = swap_stage_groups(event)
    plan, _, summary = improve_goals(event, groups, seat_keys(event, groups), s["goal_moves"],
                                     300.0, lambda line: None, steps=s["anneal_steps"],
                                     **budgets)
    return plan, summary


def _same_wind_share(country, wind):
    """Over all hanchans, the share of compatriot pairs on the same wind; wind[p, h]."""
    same = total = 0
    for c in np.unique(country):
        rows = wind[country == c]
        i, j = np.triu_indices(len(rows), 1)
        same += int((rows[i] == rows[j]).sum())
        total += len(i) * wind.shape[1]
    return same / total


@pytest.fixture(scope="session")
def same_wind_share():
    """_same_wind_share, for the tests of compatriot wind patterns (about a quarter if
    winds were random)."""
    return _same_wind_share
