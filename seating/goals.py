"""Stage 4, the finer goals, and the goal definitions shared with stage 3.

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
from .countries import compatriot_floor, compatriot_weights, size_classes
from .event import Event

FINER_GOALS = (engine.INDIRECT, engine.COUNTRIES, engine.DAY_MIX, engine.TOTAL_MIX,
               engine.BACK_TO_BACK)


def opponents_per_player(event: Event) -> int:
    return (event.table_size - 1) * event.hanchans


def indirect_ceiling(event: Event) -> int:
    """Upper bound on the fewest common opponents of a non-meeting pair.

    Without repeats a player u meets D = (k-1)h others; summed over u's non-opponents w,
    the common opponents count each opponent v's other opponents outside u's table-mates:
    at most D(D-1) - h(k-1)(k-2). The minimum is at most the mean over the P-1-D non-opponents.
    """
    d = opponents_per_player(event)
    k = event.table_size
    others = event.players - 1 - d
    if others <= 0:
        return 0
    return max(0, (d * (d - 1) - event.hanchans * (k - 1) * (k - 2)) // others)


def countries_ceiling(event: Event) -> int:
    """Most countries a single player can meet: every other country, at most one per opponent."""
    return min(len(event.countries) - 1, opponents_per_player(event))


def countries_mean_ceiling(event: Event) -> float:
    """Upper bound on the mean number of countries met.

    Country c can be met by at most min(P - n_c, n_c * D) players, since its n_c players have
    D opponents each.
    """
    d = opponents_per_player(event)
    sizes = event.delegation_sizes
    return float(np.minimum(event.players - sizes, sizes * d).sum() / event.players)


def mix_targets(event: Event) -> tuple[np.ndarray, np.ndarray]:
    """Fair number of opponents of each size class, per player and day, and per player.

    A player's fair share of class k is its share among the player's non-compatriots.
    """
    sizes = event.delegation_sizes
    classes = size_classes(sizes)
    country = event.country_of
    pool = np.array([sizes[classes == k].sum() for k in range(3)], dtype=np.float64)
    own = sizes[country].astype(np.float64)
    avail = np.repeat(pool[None, :], event.players, axis=0)
    avail[np.arange(event.players), classes[country]] -= own
    share = avail / np.maximum(avail.sum(axis=1, keepdims=True), 1)
    k = event.table_size - 1
    days = np.array(event.days, dtype=np.float64)
    per_day = share[:, None, :] * (k * days)[None, :, None]
    total = share * k * event.hanchans
    return per_day, total


def repeat_floor(event: Event) -> int:
    """Fewest repeat meetings by counting: each player's opponent slots over non-compatriots.

    Measured as the sum over pairs of C(m, 2), the search's repeat goal.
    """
    d = opponents_per_player(event)
    sizes = event.delegation_sizes[event.country_of]
    total = 0
    for n_own in sizes:
        others = event.players - n_own
        if others <= 0:
            continue
        q, r = divmod(d, others)
        total += r * (q + 1) * q // 2 + (others - r) * q * (q - 1) // 2
    return -(-total // 2)


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
    """Lower bound of every figure entry: the search stops a goal that reaches it."""
    b = np.zeros_like(state.cost)
    sizes = event.delegation_sizes
    b[state.seg[engine.REPEATS, 0]] = repeat_floor(event)
    floor = compatriot_floor(sizes, event.tables, event.hanchans, event.table_size)
    b[state.seg[engine.COMPATRIOTS, 0]] = float((compatriot_weights(sizes) * floor).sum())
    return b


def improve_goals(event: Event, plan: np.ndarray, keys: np.ndarray, moves: int,
                  time_limit: float, log=print, movable=None) -> tuple[np.ndarray, dict]:
    """Stage 4: search the finer goals in order, each locked before the next."""
    state = build_state(event, plan, keys, movable)
    search = engine.Search(state, event.seed + 4, bounds(event, state))
    deadline = time.monotonic() + time_limit
    for goal in (engine.REPEATS, engine.COMPATRIOTS):
        search.lock_goal(goal)
    used = {}
    for goal in FINER_GOALS:
        if search.reached(goal):
            used[engine.GOAL_NAMES[goal]] = 0
        else:
            used[engine.GOAL_NAMES[goal]] = search.improve(goal, moves, deadline, log)
        search.lock_goal(goal)
    summary = {"moves": used, "hit_time_limit": search.hit_time_limit}
    return state.plan.copy(), summary
