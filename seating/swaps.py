"""Stage 3, swaps: remove repeat meetings, then avoidable compatriot meetings.

Dotu & Van Hentenryck's local search for social golfers: take a place in conflict, swap it
with the place of another table in the same hanchan that helps most, keep recently swapped
places tabu for a while, and leave dead ends by a few random swaps. It runs until nobody
meets an opponent twice and no compatriot meeting beyond the proven minimum is left, or
until its move budget or time cap.
"""

from __future__ import annotations

import time

import numpy as np

from . import engine
from .event import Event
from .goals import bounds, build_state

SPREAD_STEPS_PER_MOVE = 10  # annealing steps per tabu move allowed, when repeats remain


def improve_meetings(event: Event, plan: np.ndarray, keys: np.ndarray, moves: int,
                     time_limit: float, log=print, movable=None) -> tuple[np.ndarray, dict]:
    active = np.zeros(engine.NGOALS, dtype=bool)
    active[[engine.REPEATS, engine.COMPATRIOTS]] = True
    state = build_state(event, plan, keys, movable, active)
    search = engine.Search(state, event.seed + 3, bounds(event, state), tenure=5, patience=200)
    deadline = time.monotonic() + time_limit
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
    return state.plan.copy(), summary
