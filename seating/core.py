"""Stages 1-6 in one process: the same functions the Snakemake stages call, in order.

Used by benchmarks (the "core plan" time) and by tests that plan many small events.
The workflow remains the way to plan an event: it archives every stage's output.
"""

from __future__ import annotations

import time

import numpy as np

from .draft import first_plan, seat_keys
from .event import Event
from .goals import FINER_GOALS, improve_goals
from .swaps import improve_meetings
from .tables import number_tables
from .winds import assign_winds


def plan(event: Event, log=lambda line: None, design: bool = False) -> tuple[np.ndarray, dict]:
    """seating[hanchan, table, wind] for the event, and seconds per stage.

    design: draft from a combinatorial design when one fits (as the design run of
    search.design_start does in the workflow); see seating.draft.first_plan."""
    groups, seconds = meetings(event, log, design)
    seating, later, _ = finish(event, groups, log)
    return seating, seconds | later


def meetings(event: Event, log=lambda line: None, design: bool = False
             ) -> tuple[np.ndarray, dict]:
    """Stages 2-3: the draft and the swaps; groups[hanchan, group, seat] and seconds per
    stage."""
    seconds = {}
    search = event.search
    start = time.perf_counter()
    groups, _ = first_plan(event, design, log)
    seconds["draft"] = time.perf_counter() - start
    start = time.perf_counter()
    groups, _ = improve_meetings(event, groups, seat_keys(event, groups), search["swap_moves"],
                                 search["time_limit"], log)
    seconds["swaps"] = time.perf_counter() - start
    return groups, seconds


def finish(event: Event, groups: np.ndarray, log=lambda line: None,
           keys: np.ndarray | None = None, goals: tuple[int, ...] = FINER_GOALS,
           b2b_steps: int | None = None) -> tuple[np.ndarray, dict, dict]:
    """Stages 4-6 from the swaps' groups: the seating, seconds per stage and the goals
    stage's summary.

    keys, goals, b2b_steps: as for seating.goals.improve_goals (default: the draft's seat
    keys, every finer goal, the config's back_to_back_steps); only
    benchmarks/back_to_back.py changes them, to measure what the goals above back to back
    cost it."""
    seconds = {}
    search = event.search
    start = time.perf_counter()
    # improve_goals searches in the array it is given: a copy keeps the caller's groups
    # (benchmarks/back_to_back.py finishes one draft four times)
    groups, _, summary = improve_goals(
        event, groups.copy(), seat_keys(event, groups) if keys is None else keys,
        search["goal_moves"], search["time_limit"], log, steps=search["anneal_steps"],
        b2b_steps=search.get("back_to_back_steps") if b2b_steps is None else b2b_steps,
        goals=goals)
    seconds["goals"] = time.perf_counter() - start
    start = time.perf_counter()
    groups, _ = assign_winds(groups, event.days, event.seed + 5, search["wind_moves"],
                            repair_steps=search["wind_repair_moves"], log=log)
    seconds["winds"] = time.perf_counter() - start
    start = time.perf_counter()
    seating, _ = number_tables(event, groups, log=log)
    seconds["tables"] = time.perf_counter() - start
    return seating, seconds, summary
