"""Bounds and fair shares: what the rules allow at best, by counting.

Shared by the search (to know when a goal is met) and the check (to print the bound next to
each figure). Every function here depends on the event alone, never on a plan.
"""

from __future__ import annotations

import math

import numpy as np

from .countries import compatriot_floor, size_classes
from .event import Event
from .jit import kernel

__all__ = ["compatriot_floor"]


def opponents_per_player(event: Event) -> int:
    return (event.table_size - 1) * event.hanchans


def indirect_ceiling(event: Event) -> int:
    """Upper bound on the fewest common opponents of a non-meeting pair.

    Two players share at most min(D, P - 2) opponents, D = (k-1)h the opponents of each.
    Without repeats a player u meets D others; summed over u's non-opponents w, the common
    opponents count each opponent v's other opponents outside u's table-mates: at most
    D(D-1) - h(k-1)(k-2). The minimum is at most the mean over the P-1-D non-opponents.
    """
    d = opponents_per_player(event)
    cap = max(0, min(d, event.players - 2))
    if event.players - 1 - d <= 0:
        return cap  # only repeats leave pairs unmet
    return min(cap, max(0, math.floor(link_capacity(event))))


def _unmet_and_reach(event: Event) -> tuple[int, int]:
    """Fewest places one place never meets, P - 1 - D (D = h(k-1) its opponents at most),
    and most it reaches through its opponents, D(D-1) - h(k-1)(k-2): through each opponent
    of each hanchan, that opponent's other opponents less the place's tablemates of that
    hanchan."""
    d = opponents_per_player(event)
    k = event.table_size
    return event.players - 1 - d, d * (d - 1) - event.hanchans * (k - 1) * (k - 2)


def link_capacity(event: Event) -> float:
    """Most common opponents a pair never met can have on average (by the count of
    indirect_ceiling; infinite when every pair can meet)."""
    others, reach = _unmet_and_reach(event)
    if others <= 0:
        return float("inf")
    return reach / others


def unlinked_floor(event: Event) -> int:
    """Fewest pairs that never meet and share no opponent, when every place plays every
    hanchan at a full table: each place reaches through its opponents at most `reach` of
    the `others` it never meets (_unmet_and_reach), so at least others - reach it neither
    meets nor shares an opponent with, when that is positive (link_capacity below 1), and
    each such pair is counted from both of its places.
    """
    others, reach = _unmet_and_reach(event)
    return max(0, -(-event.players * (others - reach) // 2))


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

    Measured as the sum over pairs of C(m, 2) of players of different countries, the
    search's repeat goal. A player may fill up to min(S - 1, compatriots) seats of every
    hanchan with compatriots (the rules rank repeats above compatriot meetings), so only
    the slots beyond those must go to the non-compatriots.
    """
    d = opponents_per_player(event)
    sizes = event.delegation_sizes[event.country_of]
    total = 0
    for n_own in sizes:
        others = event.players - n_own
        if others <= 0:
            continue
        slots = max(0, d - event.hanchans * min(event.table_size - 1, n_own - 1))
        q, r = divmod(slots, others)
        total += r * (q + 1) * q // 2 + (others - r) * q * (q - 1) // 2
    return -(-total // 2)


def area_shares(event: Event) -> tuple[np.ndarray, np.ndarray]:
    """Fair number of hanchans in each area, over the event (A,) and per day (D, A).

    In each hanchan a player's fair chance of an area is its part of that hanchan's tables.
    """
    A = len(event.areas)
    area_at = event.area_at
    part = np.stack([(area_at == a).mean(axis=1) for a in range(A)], axis=1)  # (H, A)
    day_of = event.day_of
    per_day = np.stack([part[day_of == d].sum(axis=0) for d in range(len(event.days))])
    return part.sum(axis=0), per_day


def area_deviation_floor(event: Event) -> float:
    """Smallest possible largest gap between a player's area count and its share.

    The field's total in an area is fixed, so when the share is fractional somebody is at
    least at its ceiling (gap ceil - share) and somebody at its floor (gap share - floor).
    """
    share, _ = area_shares(event)
    frac = share - np.floor(share + 1e-9)  # as share_limits: 7.999... is the whole share 8
    gaps = np.where(frac > 1e-9, np.maximum(frac, 1 - frac), 0.0)
    return float(gaps.max()) if len(gaps) else 0.0


def back_to_back_floor(event: Event) -> int:
    """Fewest (player, hanchan) pairs meeting a country met the hanchan before, by counting,
    in plans with no two compatriots at a table (ranked above; possible when no delegation
    has more places than there are tables; the check gives 0 for a plan that seats some).

    A player then meets k - 1 countries in every hanchan (k the table size), out of the m
    countries other than its own; when 2(k - 1) > m, two hanchans in a row always share one
    (k clubs at tables of k: everyone meets every other club every hanchan), else counting
    forces nothing.
    """
    sizes = event.delegation_sizes
    if sizes.max() > event.tables:
        return 0
    others = int(np.count_nonzero(sizes)) - 1
    forced = 2 * (event.table_size - 1) > others
    return event.players * max(0, event.hanchans - 1) if forced else 0


def consecutive_area_floor(event: Event) -> int:
    """Fewest (player, hanchan) pairs in the same area as the hanchan before, in plans with
    every player within 1 of each area's share over the event (a hard rule): the larger of
    _consecutive_area_count and _players_alone_floor (the program of players moving alone,
    which can see more than the count; the count stands alone where the program is too
    large to build). The day shares, a goal ranked above it but not a hard rule, are not
    assumed.
    """
    alone = _players_alone_floor(event)
    counted = _consecutive_area_count(event)
    return counted if alone is None else max(counted, alone)


@kernel
def share_limits(share: float) -> tuple[float, float]:
    """The counts one fair share allows: its floor and ceiling (the same for a whole share).
    Compiled, so that the numba kernels weighing a count against a share use it too."""
    lo = np.floor(share + 1e-9)
    return lo, lo + (1.0 if share - lo > 1e-9 else 0.0)


def share_range(share: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """share_limits of every share in an array, as two integer arrays of its shape."""
    share = np.asarray(share, dtype=np.float64)
    lo = np.empty(share.shape, dtype=np.int64)
    hi = np.empty(share.shape, dtype=np.int64)
    for i, value in np.ndenumerate(share):
        lo[i], hi[i] = share_limits(value)
    return lo, hi


def area_seats(event: Event) -> np.ndarray:
    """seats[h, a]: the places area a seats in hanchan h."""
    A = len(event.areas)
    return np.stack([np.bincount(row, minlength=A) for row in event.area_at]) * event.table_size


def _consecutive_area_count(event: Event) -> int:
    """Fewest (player, hanchan) pairs in the same area as the hanchan before, by counting.

    Two counts, each a lower bound on one area's pairs; the larger counts, and the areas
    add up (each pair lies in one area):

    - per player: with every player's count in an area at the floor or ceiling of its
      share, a player with k hanchans of h in one area sits there twice in a row at least
      max(0, 2k - h - 1) times (k items in h slots form at most h - k + 1 runs); the area's
      seats fix how many players must take the ceiling;
    - per change of hanchan: an area seating s and then s' of the P players keeps at least
      max(0, s + s' - P) of them (on the default event the main hall, 120 of 200 seats,
      keeps 40 players at every one of the 13 changes: 520).
    """
    h = event.hanchans
    low, high = share_range(area_shares(event)[0])
    total = 0
    for a, per_hanchan in enumerate(area_seats(event).T):
        seats = int(per_hanchan.sum())
        lo, hi = int(low[a]), int(high[a])
        at_hi = seats - event.players * lo if hi > lo else 0
        at_lo = event.players - at_hi
        by_player = at_lo * max(0, 2 * lo - h - 1) + at_hi * max(0, 2 * hi - h - 1)
        by_change = int(np.maximum(per_hanchan[1:] + per_hanchan[:-1] - event.players, 0).sum())
        total += max(by_player, by_change)
    return total


AREA_PROGRAM_ARCS = 20_000  # _players_alone_floor builds its program up to this many arcs:
# the default event has 1,046 (solved in 0.02 s), the 10-16 hanchans of benchmarks/unseen.py
# over at most three areas 100-3,400; 40 hanchans in areas of 30, 12 and 8 tables 16,294
# (1.1 s), 16 hanchans in areas of 20, 10, 10, 5 and 5 tables 22,429 (2 s, so left to the
# counting bound), 60 hanchans in three areas 51,362 (minutes)


def _players_alone_floor(event: Event) -> int | None:
    """A lower bound on the (player, hanchan) pairs in the same area as the hanchan before,
    from every player's path through the hanchans as if players moved alone: the linear
    relaxation of that integer program (players_alone_program; HiGHS interior point,
    through scipy), rounded up. None for a single area or a program above
    AREA_PROGRAM_ARCS.

    A player's state after hanchan h is its area there and its count in every area so far;
    a state can be reached only while the event shares can still be met by the end (each
    count at the floor or ceiling of its share). Integer flows carry the P players from
    state to state, each (hanchan, area) holding exactly its seats; a step that stays in
    an area costs 1. Any plan meeting every share is such a flow (groups of a table move
    together, which only restricts it), so the optimum bounds every plan from below, and
    so does the relaxation's. Over 273 random events (benchmarks/area_bound.py --whole:
    benchmarks/unseen.py's generator, seeds 100-139, tables of 3 and 4) the relaxation was
    whole, the integer optimum itself, and above _consecutive_area_count on 3, e.g. 78
    places at tables of 3 over 11 hanchans, areas of 7, 6 and 13 tables: count 0, bound 3
    (tests/test_check.py says why).
    """
    from scipy.optimize import linprog

    program = players_alone_program(event)
    if program is None:
        return None
    cost, matrix, need = program
    result = linprog(cost, A_eq=matrix, b_eq=need, bounds=(0, None), method="highs-ipm")
    if result.status != 0:
        return None  # no flow meets every share (the hard rule cannot hold): no bound here
    return int(np.ceil(result.fun - 1e-4))  # the pairs are whole: a fraction rounds up


def players_alone_program(event: Event):
    """The program of _players_alone_floor: arc costs, the equality matrix and its right-hand
    side (flows on arcs from state to state, rows as below), or None for a single area or
    more than AREA_PROGRAM_ARCS arcs. benchmarks/area_bound.py also solves it whole."""
    from scipy.sparse import coo_matrix

    H = event.hanchans
    A = len(event.areas)
    if A < 2 or H < 2:
        return None
    lo, hi = share_range(area_shares(event)[0])
    seats = area_seats(event)

    def open_to(counts, h):
        """Whether a player with these counts after hanchan h can still meet every share."""
        rest = H - h - 1
        if (counts > hi).any():
            return False
        return int(np.maximum(lo - counts, 0).sum()) <= rest <= int((hi - counts).sum())

    # layer: state (area, counts) after hanchan h -> its index in that hanchan; before the
    # first hanchan one source (area -1, no counts, index -1: arcs from it add no flow row).
    # An arc: its hanchan, the state it leaves, the state it enters, that state's area, cost
    previous = {(-1, (0,) * A): -1}
    arcs_h, arcs_from, arcs_to, arcs_area, arcs_cost = [], [], [], [], []
    sizes = []
    for h in range(H):
        layer = {}
        for (a, counts), i in previous.items():
            for b in np.nonzero(seats[h])[0]:
                step = np.array(counts)
                step[b] += 1
                if not open_to(step, h):
                    continue
                to = layer.setdefault((b, tuple(step)), len(layer))
                arcs_h.append(h)
                arcs_from.append(i)
                arcs_to.append(to)
                arcs_area.append(b)
                arcs_cost.append(1 if a == b else 0)
        if len(arcs_to) > AREA_PROGRAM_ARCS:
            return None
        sizes.append(len(layer))
        previous = layer
    n = len(arcs_to)
    arcs_h, arcs_from, arcs_to, arcs_area = (np.array(v, dtype=np.int64)
                                             for v in (arcs_h, arcs_from, arcs_to, arcs_area))
    # rows: one per state of hanchans 0 .. H-2 (what comes in goes on), then one per
    # (hanchan, area) (its seats)
    offset = np.concatenate([[0], np.cumsum(sizes)])
    keep_in = arcs_h < H - 1
    out = arcs_from >= 0
    flow_rows = offset[H - 1]
    rows = np.concatenate([(offset[arcs_h] + arcs_to)[keep_in],
                           offset[arcs_h[out] - 1] + arcs_from[out],
                           flow_rows + arcs_h * A + arcs_area])
    cols = np.concatenate([np.nonzero(keep_in)[0], np.nonzero(out)[0], np.arange(n)])
    vals = np.concatenate([np.ones(keep_in.sum()), -np.ones(out.sum()), np.ones(n)])
    matrix = coo_matrix((vals, (rows, cols)), shape=(flow_rows + H * A, n)).tocsr()
    need = np.r_[np.zeros(flow_rows), seats.ravel()]
    return np.array(arcs_cost, dtype=np.float64), matrix, need
