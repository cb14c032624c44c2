"""The ordered rules every plan is measured by, in one place for the search and the check.

Who meets whom comes first, as goals in this order (the search's cost vector follows it):
repeats, compatriots, common opponents of pairs that never meet ("indirect"), countries met,
the small/medium/large mix per day and over the event, back-to-back countries. Then the rules
of every player's wind sequence (seating.winds explains them and seats the winds). Plain
numpy: the check and the report load no compiled search code.
"""

from __future__ import annotations

import numpy as np

from .bounds import countries_ceiling, countries_mean_ceiling, indirect_ceiling
from .event import Event

REPEATS, COMPATRIOTS, INDIRECT, COUNTRIES, DAY_MIX, TOTAL_MIX, BACK_TO_BACK = range(7)
GOAL_NAMES = ("repeats", "compatriots", "indirect", "countries", "day_mix", "total_mix",
              "back_to_back")
NGOALS = 7


def targets(event: Event) -> dict[int, int]:
    """Level at which each worst-off goal counts as met (later goals must keep it).

    Countries: search.countries_target, by default the largest whole number the counting
    bound on the mean allows (20 on the default event, where the spec says "around 20").
    Common opponents: search.indirect_target, by default 1 (the spec's rule: a common opponent
    with everyone you never meet) when delegations have several players, since every further
    common opponent of two compatriots of a small delegation costs a country met; when every
    player is their own country, the counting ceiling.
    """
    s = event.search
    cty = s.get("countries_target")
    if cty is None:
        cty = min(countries_ceiling(event), int(countries_mean_ceiling(event)))
    ind = s.get("indirect_target")
    if ind is None:
        ind = 1 if event.delegation_sizes.max() > 1 else indirect_ceiling(event)
    return {INDIRECT: ind, COUNTRIES: cty}


def rank_key(figures: dict, goal_targets: dict) -> tuple:
    """Order of plans by the goals (smaller is better), from a check of the plan.

    The worst-off goals count up to their targets (above a target a goal is met), as the
    search locks them.
    """
    ind = figures["indirect_min"]
    ind = goal_targets[INDIRECT] if ind is None else min(ind, goal_targets[INDIRECT])
    cty = min(figures["countries_met_min"], goal_targets[COUNTRIES])
    return (figures["repeat_meetings"], figures["compatriot_meetings"],
            figures["unlinked_pairs"], -ind, -cty,
            figures["day_mix_max_excess"], figures["day_mix_two_off"],
            figures["total_mix_max_excess"], figures["total_mix_two_off"],
            figures["back_to_back_country"],
            figures["day_mix_outside"], figures["total_mix_outside"])


WIND_RULES = ("wind_count_bad", "day_wind_bad", "consecutive_same_wind", "prefix_wind_bad")


def run_key(figures: dict, goal_targets: dict) -> tuple:
    """Order of independent runs before the wind stage (smaller is better).

    The hard meeting rules first (repeats, compatriots, unlinked pairs): no run is kept for
    its winds over a run with fewer of those (a design start that alone has no repeat
    meeting wins even with its planned winds broken). Then whether the planned winds (the
    seats) break a wind rule, since the wind stage may not repair them, then the finer goals.
    """
    key = rank_key(figures, goal_targets)
    faults = sum(figures[k] for k in WIND_RULES)
    return (*key[:3], faults > 0, *key[3:])


def count_bounds(length: int, nwinds: int) -> tuple[int, int]:
    """Fewest and most times each wind may come up in `length` hanchans (floor, ceil)."""
    return length // nwinds, -(-length // nwinds)


def sequence_faults(winds: np.ndarray, days: tuple[int, ...], nwinds: int) -> dict:
    """Count rule breaks of every player's wind sequence.

    winds: (players, hanchans) array of wind numbers. Returns per-player arrays:
    count_bad (P,) bool, day_bad (P, days) bool, consecutive (P, H-1) bool,
    prefix (P, H) bool (True where the counts after that hanchan break the prefix rule),
    two_apart (P, H-2) bool.
    """
    winds = np.asarray(winds)
    players, hanchans = winds.shape
    onehot = winds[:, :, None] == np.arange(nwinds)[None, None, :]
    counts = onehot.sum(axis=1)

    def bad_counts(c: np.ndarray, length: int) -> np.ndarray:
        lo, hi = count_bounds(length, nwinds)
        bad = (c < lo).any(axis=-1) | (c > hi).any(axis=-1)
        if nwinds == 4:
            bad |= np.abs(c[..., 0] + c[..., 1] - c[..., 2] - c[..., 3]) > 1
        return bad

    count_bad = bad_counts(counts, hanchans)
    day_bad = np.zeros((players, len(days)), dtype=bool)
    start = 0
    for d, length in enumerate(days):
        day_bad[:, d] = bad_counts(onehot[:, start : start + length].sum(axis=1), length)
        start += length
    consecutive = winds[:, 1:] == winds[:, :-1]
    running = np.cumsum(onehot, axis=1)
    spread = running.max(axis=2) - running.min(axis=2)
    multiple = (np.arange(1, hanchans + 1) % nwinds) == 0
    prefix = (spread > 1) & ~multiple[None, :]
    two_apart = winds[:, 2:] == winds[:, :-2]
    return {
        "count_bad": count_bad,
        "day_bad": day_bad,
        "consecutive": consecutive,
        "prefix": prefix,
        "two_apart": two_apart,
    }


def is_valid(seq: np.ndarray, days: tuple[int, ...], nwinds: int) -> bool:
    """True when one wind sequence keeps every rule (spread is a goal, not a rule)."""
    f = sequence_faults(np.asarray(seq)[None, :], days, nwinds)
    return not (
        f["count_bad"].any() or f["day_bad"].any() or f["consecutive"].any() or f["prefix"].any()
    )
