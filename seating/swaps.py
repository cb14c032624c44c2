"""Stage 3, swaps: remove repeat meetings, then avoidable compatriot meetings.

Dotu & Van Hentenryck's local search for social golfers: take a place in conflict, swap it
with the place of another table in the same hanchan that helps most, keep recently swapped
places tabu for a while, and leave dead ends by a few random swaps. It runs until nobody
meets an opponent twice and no compatriot meeting beyond the proven minimum is left, or
until its move budget or time cap. When it leaves repeat meetings that a design avoids (one
place per country, a design with a repeat-free round for every hanchan; design_restart),
it searches again from the design and keeps whichever plan has fewer. A plan drafted
over area patterns (seat keys holding the area too) that does not meet the meeting rules
is searched on with the wind keys alone: the meeting rules outrank the areas. If the
rules are still not met, it searches again from a draft whose wind patterns keep every
delegation on one pattern (draft.whole_delegations_plan) and keeps the better plan; and
last, when the delegations fill one row of places per seat of a table (draft.rows_fit),
from a transversal design over those rows, which meets both rules at once.
"""

from __future__ import annotations

import time

import numpy as np

from . import engine
from .draft import (
    delegation_rows,
    design_covers,
    design_fits,
    from_design,
    rows_fit,
    seat_keys,
    transversal_plan,
    whole_delegations_plan,
)
from .event import Event
from .goals import bounds, build_state

SPREAD_STEPS_PER_MOVE = 10  # annealing steps per tabu move allowed, when repeats remain


def _search(event: Event, plan: np.ndarray, keys: np.ndarray, moves: int, deadline: float,
            log, movable) -> tuple[np.ndarray, dict, tuple[float, float]]:
    """One search of the stage from `plan`; the plan reached, its summary and its
    (repeat, compatriot) cost."""
    active = np.zeros(engine.NGOALS, dtype=bool)
    active[[engine.REPEATS, engine.COMPATRIOTS]] = True
    state = build_state(event, plan, keys, movable, active)
    search = engine.Search(state, event.seed + 3, bounds(event, state), tenure=5, patience=200)
    # one cost, as the spec's stage 3: a repeat counts 1, a compatriot meeting its weight
    weights = np.zeros_like(state.cost)
    weights[state.seg[engine.REPEATS, engine.START]] = 1.0
    weights[state.seg[engine.COMPATRIOTS, engine.START]] = 1.0
    used = 0
    if not (search.reached(engine.REPEATS) and search.reached(engine.COMPATRIOTS)):
        used = search.improve(-1, moves, deadline, log, weights=weights, stop_at_bounds=True)
    if not search.reached(engine.REPEATS):
        # more hanchans than repeat-free play allows: the tabu search stalls with a few pairs
        # meeting once too often or too rarely; annealing spreads the meetings further
        engine.anneal_goal(search, engine.REPEATS, SPREAD_STEPS_PER_MOVE * moves,
                           deadline, log, t_start=2.0, weights=weights, fresh_only=False)
    for goal in (engine.REPEATS, engine.COMPATRIOTS):
        search.lock_goal(goal)
    summary = {"moves": used, "hit_time_limit": search.hit_time_limit,
               "reached_bound": {engine.GOAL_NAMES[g]: search.reached(g)
                                 for g in (engine.REPEATS, engine.COMPATRIOTS)}}
    seg = state.seg
    cost = (float(state.cost[seg[engine.REPEATS, engine.START]]),
            float(state.cost[seg[engine.COMPATRIOTS, engine.START]]))
    return state.plan.copy(), summary, cost


def design_restart(event: Event) -> np.ndarray | None:
    """A design to search again from when the search left repeat meetings: every delegation
    has one place, repeats can be avoided, the draft was greedy (not design_fits) and a
    design other than a Dutch cycle has a repeat-free round for every hanchan. Repeats
    outrank the winds, so its plan is kept when it has fewer repeats, although its groups
    may break wind rules that the greedy draft's seats keep (64 x 14: 3 repeats from the
    greedy draft)."""
    if design_fits(event) or not design_covers(event, event.hanchans):
        return None
    made = from_design(event.country_of, event.hanchans, event.days, event.table_size,
                       event.seed)
    return None if made is None else made[0]


def improve_meetings(event: Event, plan: np.ndarray, keys: np.ndarray, moves: int,
                     time_limit: float, log=print, movable=None) -> tuple[np.ndarray, dict]:
    deadline = time.monotonic() + time_limit
    plan, summary, cost = _search(event, plan, keys, moves, deadline, log, movable)
    S = event.table_size
    if keys.max() >= S and not all(summary["reached_bound"].values()):
        # drafted over area patterns (keys = wind + S x area), but the meeting rules, which
        # outrank the areas, are not met: search on with the wind keys alone (the tables
        # stage then chooses the areas for whatever groups result)
        log("swaps: meeting rules not met with places held to their areas; searching on "
            "with winds alone")
        plan, other, cost = _search(event, plan, keys % S, moves, deadline, log, movable)
        summary = {**other, "moves": summary["moves"] + other["moves"],
                   "areas_released": True}

    def restart(start: np.ndarray, start_keys: np.ndarray, flag: str) -> None:
        """Search again from start; keep its plan if it has fewer (repeat, compatriot)."""
        nonlocal plan, cost, summary
        other, other_summary, other_cost = _search(event, start, start_keys, moves, deadline,
                                                   log, movable)
        if other_cost < cost:
            plan, cost = other, other_cost
            summary = {**other_summary, "moves": summary["moves"] + other_summary["moves"],
                       flag: True}

    if not all(summary["reached_bound"].values()) and movable is None and keys.max() >= 0:
        # wind patterns that keep each delegation on one pattern: its places never meet
        log("swaps: meeting rules not met; searching again from wind patterns that keep "
            "delegations whole")
        start = whole_delegations_plan(event)
        restart(start, seat_keys(event, start) % S, "whole_delegations")
    if cost[0] > 0 and movable is None:
        start = design_restart(event)
        if start is not None:
            log(f"swaps: {cost[0]:g} repeat meetings left; searching again from a design")
            restart(start, seat_keys(event, start), "restarted_from_design")
    if not all(summary["reached_bound"].values()) and movable is None and rows_fit(event):
        # the delegations fill k rows of one place per table: a transversal design over
        # them seats nobody with a compatriot or an opponent twice (two delegations of 8
        # and four of 4 at 8 tables over 6 hanchans: 2 repeat meetings left by the
        # searches above)
        log("swaps: meeting rules not met; searching again from a transversal design over "
            "rows of whole delegations")
        start, _ = transversal_plan(event, delegation_rows(event))
        restart(start, seat_keys(event, start), "rows_design")
    return plan, summary
