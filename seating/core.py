"""Stages 1-6 in one process: the same functions the Snakemake stages call, in order.

Used by benchmarks (the "core plan" time) and by tests that plan many small events.
The workflow remains the way to plan an event: it archives every stage's output.
"""

from __future__ import annotations

import time

import numpy as np

from .draft import first_plan, seat_keys
from .event import Event
from .goals import improve_goals
from .swaps import improve_meetings
from .tables import number_tables
from .winds import assign_winds


def plan(event: Event, log=lambda line: None, design: bool = False) -> tuple[np.ndarray, dict]:
    """seating[hanchan, table, wind] for the event, and seconds per stage.

    design: draft from a combinatorial design when one fits (as the design run of
    search.design_start does in the workflow); see seating.draft.first_plan."""
    seconds = {}
    search = event.search
    start = time.perf_counter()
    groups, _ = first_plan(event, design, log)
    seconds["draft"] = time.perf_counter() - start
    start = time.perf_counter()
    groups, _ = improve_meetings(event, groups, seat_keys(event, groups), search["swap_moves"],
                                 search["time_limit"], log)
    seconds["swaps"] = time.perf_counter() - start
    start = time.perf_counter()
    groups, _, _ = improve_goals(event, groups, seat_keys(event, groups), search["goal_moves"],
                                 search["time_limit"], log, steps=search["anneal_steps"],
                                 b2b_steps=search.get("back_to_back_steps"))
    seconds["goals"] = time.perf_counter() - start
    start = time.perf_counter()
    groups, _ = assign_winds(groups, event.days, event.seed + 5, search["wind_moves"],
                            repair_steps=search["wind_repair_moves"])
    seconds["winds"] = time.perf_counter() - start
    start = time.perf_counter()
    seating, _ = number_tables(event, groups)
    seconds["tables"] = time.perf_counter() - start
    return seating, seconds
