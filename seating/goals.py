"""Stage 4, the finer goals (their order and targets: seating.rules), and the search state
shared with stage 3.

Spec, in order, each never costing the ones before it: every pair that never meets has a
common opponent, and the fewest common opponents over such pairs is as high as possible
(Lester's indirect meets); as many countries met as possible, worst-off players first; a
fair small/medium/large mix on every day, and over the whole event; not the same country in
two consecutive hanchans.
"""

from __future__ import annotations

import time

import numpy as np

from . import engine
from .bounds import compatriot_floor, countries_ceiling, indirect_ceiling, mix_targets, repeat_floor
from .countries import compatriot_weights, size_classes
from .event import Event
from .rules import targets

SLACK_SHARE = 10  # part of the move budget spent on common opponents above their target
FINER_GOALS = (engine.INDIRECT, engine.COUNTRIES, engine.DAY_MIX, engine.TOTAL_MIX,
               engine.BACK_TO_BACK)


def build_state(event: Event, plan: np.ndarray, keys: np.ndarray,
                movable: np.ndarray | None = None, active=None) -> engine.State:
    """The search state of a plan for this event (keys: planned wind per place and hanchan)."""
    sizes = event.delegation_sizes
    per_day, total = mix_targets(event)
    if movable is None:
        movable = np.ones(event.hanchans, dtype=bool)
    if active is None:
        active = np.ones(engine.NGOALS, dtype=bool)
    classes = size_classes(sizes)
    return engine.State(
        plan, keys, movable, event.country_of, compatriot_weights(sizes),
        classes[event.country_of], event.day_of, per_day, total,
        indirect_ceiling(event) + 1, countries_ceiling(event), active,
    )


def bounds(event: Event, state: engine.State) -> np.ndarray:
    """Lower bound of every figure entry: the search stops a goal that reaches it.

    With hanchans held fixed (re-planning), what they already hold counts in full and the
    counting bounds apply to the hanchans left.
    """
    b = np.zeros_like(state.cost)
    sizes = event.delegation_sizes
    movable = state.movable
    left = int(movable.sum())
    share = left / event.hanchans
    floor = compatriot_floor(sizes, event.tables, left, event.table_size)
    weights = compatriot_weights(sizes)
    b[state.seg[engine.REPEATS, 0]] = np.floor(repeat_floor(event) * share)
    b[state.seg[engine.COMPATRIOTS, 0]] = float((weights * floor).sum())
    if left < event.hanchans:
        fixed = state.plan[~movable]
        P = event.players
        meet = np.zeros((P, P), dtype=np.int64)
        for tables in fixed:
            for table in tables:
                meet[np.ix_(table, table)] += 1
        np.fill_diagonal(meet, 0)
        country = event.country_of
        compat = country[:, None] == country[None, :]
        upper = np.triu(np.ones_like(compat), 1)
        b[state.seg[engine.REPEATS, 0]] += (meet * (meet - 1) / 2)[upper & ~compat].sum()
        w = weights[country][:, None] * np.ones((1, P))
        b[state.seg[engine.COMPATRIOTS, 0]] += (w * (meet + 1) * meet / 2)[upper & compat].sum()
    return b


def improve_goals(event: Event, plan: np.ndarray, keys: np.ndarray, moves: int,
                  time_limit: float, log=print, movable=None, steps: int = 4_000_000
                  ) -> tuple[np.ndarray, np.ndarray, dict]:
    """Stage 4: search the finer goals in order, each locked before the next."""
    # a goal's entries are only counted from its own phase on: below the phase they would
    # only cost evaluation time
    active = np.zeros(engine.NGOALS, dtype=bool)
    active[[engine.REPEATS, engine.COMPATRIOTS]] = True
    state = build_state(event, plan, keys, movable, active)
    search = engine.Search(state, event.seed + 4, bounds(event, state))
    deadline = time.monotonic() + time_limit
    for goal in (engine.REPEATS, engine.COMPATRIOTS):
        search.lock_goal(goal)
    goal_targets = targets(event)
    used = {}
    for goal in FINER_GOALS:
        name = engine.GOAL_NAMES[goal]
        target = goal_targets.get(goal)
        state.active[goal] = True
        state.recount()
        if search.reached(goal) or (target is not None and state.lowest(goal) > target):
            used[name] = 0
        elif goal == engine.INDIRECT:
            used[name] = search.improve(goal, moves, deadline, log, spread=1,
                                        stop_above=target - 1)
            if state.lowest(goal) == target:
                # then briefly above the target: slack for the goals below (on large events
                # the last few pairs could take the whole budget)
                used[name] += search.improve(goal, max(1, moves // SLACK_SHARE), deadline, log,
                                             spread=1, stop_above=target)
        elif goal == engine.COUNTRIES:
            used[name] = search.improve(goal, moves, deadline, log, spread=4,
                                        stop_above=target - 1)
        else:
            if target is not None:
                state.seg[goal, engine.ACTIVE] = target
                state.recount()
            used[name] = engine.anneal_goal(search, goal, steps, deadline, log)
        search.lock_goal(goal, target)
    summary = {"moves": used, "hit_time_limit": search.hit_time_limit,
               "targets": {engine.GOAL_NAMES[g]: t for g, t in goal_targets.items()}}
    return state.plan.copy(), state.key.copy(), summary
