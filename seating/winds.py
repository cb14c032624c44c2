"""Seat winds: the rules of a player's wind sequence, valid patterns, and the wind stage.

Winds are numbered E=0, S=1, W=2, N=3 (E, S, W at 3-player tables). The rules, for h
hanchans played at tables of k (k = 3 or 4), checked for every player:

* counts: each wind floor(h/k) or ceil(h/k) times; at 4-player tables also
  |(E+S) - (W+N)| <= 1. For 14 hanchans that is "each wind 3 or 4 times, one extra
  East-or-South and one extra West-or-North" (E+S = W+N = 7). The issue's wording
  "E+S minus W+N is 0 or 1" cannot hold for odd h (every table seats two East-or-South
  players, so the field averages exactly h/2), hence the symmetric form.
* days: the same two rules inside every day (5-hanchan day: each wind once, one twice;
  4-hanchan day: each once).
* consecutive: never the same wind in two consecutive hanchans (also across days).
* prefix: after every hanchan number that is not a multiple of k, the player's wind
  counts differ by at most 1, so an event cut short is still fair (principles two and
  three of the tournament-blocks page).
* spread (a goal, not a rule): the same wind two hanchans apart is counted.

Patterns. The wind rules are tight: most groupings admit no valid wind assignment that is
quick to find. So the draft gives every place a valid wind pattern first and then only
builds tables that seat one place of each wind (see draft.py). Patterns come in orbits of
a group that permutes the winds without fixed points and keeps the rules: for 4 winds the
Klein group w -> w XOR q (E<->S & W<->N, E<->W & S<->N, E<->N & S<->W), for 3 winds the
rotations w -> w + q (mod 3). The k images of one valid sequence differ in every hanchan,
so an orbit per k places balances every hanchan exactly.
"""

from __future__ import annotations

import numpy as np
from numba import njit


def image(seq: np.ndarray, q: int, nwinds: int) -> np.ndarray:
    """The q-th image of a wind sequence under the fixed-point-free wind group."""
    if nwinds == 4:
        return np.bitwise_xor(seq, q)
    return (seq + q) % nwinds


def _bounds(length: int, nwinds: int) -> tuple[int, int]:
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
        lo, hi = _bounds(length, nwinds)
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


def random_valid_sequence(rng: np.random.Generator, days: tuple[int, ...], nwinds: int):
    """One valid wind sequence, drawn by a randomized depth-first search (None if none)."""
    hanchans = sum(days)
    day_of = np.repeat(np.arange(len(days)), days).tolist()
    day_end = np.cumsum(days).tolist()
    lo_all, hi_all = _bounds(hanchans, nwinds)
    seq = [0] * hanchans
    total = [0] * nwinds
    daily = [0] * nwinds
    budget = [100000]

    def gap(c: list[int]) -> int:
        return c[0] + c[1] - c[2] - c[3] if nwinds == 4 else 0

    def fits(h: int) -> bool:
        d = day_of[h]
        lo_d, hi_d = _bounds(days[d], nwinds)
        if total[seq[h]] > hi_all or daily[seq[h]] > hi_d:
            return False
        if (h + 1) % nwinds and max(total) - min(total) > 1:
            return False
        left_day = day_end[d] - (h + 1)
        if sum(max(lo_d - c, 0) for c in daily) > left_day:
            return False
        if sum(max(lo_all - c, 0) for c in total) > hanchans - (h + 1):
            return False
        if left_day == 0 and abs(gap(daily)) > 1:
            return False
        return not (h + 1 == hanchans and abs(gap(total)) > 1)

    def extend(h: int) -> bool:
        if h == hanchans:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        first_of_day = h == 0 or day_of[h] != day_of[h - 1]
        saved = daily[:]
        if first_of_day:
            daily[:] = [0] * nwinds
        for w in rng.permutation(nwinds).tolist():
            if h and seq[h - 1] == w:
                continue
            seq[h] = w
            total[w] += 1
            daily[w] += 1
            if fits(h) and extend(h + 1):
                return True
            total[w] -= 1
            daily[w] -= 1
        daily[:] = saved
        return False

    return np.array(seq, dtype=np.int64) if extend(0) else None


def orbit_key(seq: np.ndarray, nwinds: int) -> tuple[int, ...]:
    """A name shared by all images of a sequence (its smallest image)."""
    return min(tuple(image(seq, q, nwinds).tolist()) for q in range(nwinds))


def choose_patterns(
    players: int, days: tuple[int, ...], nwinds: int, rng: np.random.Generator
) -> np.ndarray:
    """Valid wind patterns for all places, exactly players/nwinds of each wind per hanchan.

    Takes players/nwinds distinct orbits (repeating orbits only when the rules leave too
    few), preferring sequences with the fewest winds two hanchans apart. Place i gets image
    i // orbits of orbit i % orbits, so a repeated orbit (only possible for very short
    events) lands on neighbouring places, usually compatriots, who never meet anyway.
    """
    orbits = players // nwinds
    seen: dict[tuple[int, ...], np.ndarray] = {}
    tries = 0
    while len(seen) < 8 * orbits and tries < 40 * orbits:
        tries += 1
        seq = random_valid_sequence(rng, days, nwinds)
        if seq is None:
            raise ValueError(f"no wind sequence keeps every rule for days {list(days)}")
        seen.setdefault(orbit_key(seq, nwinds), seq)
    candidates = list(seen.values())
    spread = [int((s[2:] == s[:-2]).sum()) for s in candidates]
    order = sorted(range(len(candidates)), key=lambda i: spread[i])
    chosen = [candidates[order[i % len(order)]] for i in range(orbits)]
    chosen.sort(key=lambda s: orbit_key(s, nwinds))  # repeats side by side
    perm = rng.permutation(orbits)
    if len(candidates) < orbits:
        perm = np.arange(orbits)
    result = np.empty((players, sum(days)), dtype=np.int8)
    for i in range(players):
        q, j = divmod(i, orbits)
        result[i] = image(chosen[perm[j]], q, nwinds)
    return result


# ----------------------------------------------------------------------------------
# Stage 5: winds for a grouping
# ----------------------------------------------------------------------------------


@njit(cache=True)
def _faults(seq, day_start, day_len, nwinds):
    """Rule breaks of one wind sequence, weighted: counts 8, day 4, prefix 2, consecutive 2."""
    H = seq.shape[0]
    lo = H // nwinds
    hi = (H + nwinds - 1) // nwinds
    total = np.zeros(nwinds, dtype=np.int64)
    bad = 0
    for h in range(H):
        total[seq[h]] += 1
        if h > 0 and seq[h] == seq[h - 1]:
            bad += 2
        if (h + 1) % nwinds != 0 and total.max() - total.min() > 1:
            bad += 2
    if total.min() < lo or total.max() > hi:
        bad += 8
    if nwinds == 4 and abs(total[0] + total[1] - total[2] - total[3]) > 1:
        bad += 8
    for d in range(day_start.shape[0]):
        c = np.zeros(nwinds, dtype=np.int64)
        for h in range(day_start[d], day_start[d] + day_len[d]):
            c[seq[h]] += 1
        dl = day_len[d] // nwinds
        dh = (day_len[d] + nwinds - 1) // nwinds
        if c.min() < dl or c.max() > dh:
            bad += 4
        elif nwinds == 4 and abs(c[0] + c[1] - c[2] - c[3]) > 1:
            bad += 4
    return bad


@njit(cache=True)
def _two_apart(seq):
    n = 0
    for h in range(seq.shape[0] - 2):
        if seq[h] == seq[h + 2]:
            n += 1
    return n


@njit(cache=True)
def _improve(plan, winds, day_start, day_len, nwinds, movable, seed, steps):
    """Swap winds of two places at one table, keeping the best plan by weighted faults,
    then winds two hanchans apart. A plan without faults never gets one (no annealing);
    a plan with faults is annealed on them."""
    np.random.seed(seed)
    H, G, S = plan.shape
    P = winds.shape[0]
    fault = np.zeros(P, dtype=np.int64)
    spread = np.zeros(P, dtype=np.int64)
    for p in range(P):
        fault[p] = _faults(winds[p], day_start, day_len, nwinds)
        spread[p] = _two_apart(winds[p])
    total = fault.sum()
    spread_total = spread.sum()
    best_total = total
    best_spread = spread_total
    best_plan = plan.copy()
    temp = 2.0 if total > 0 else 0.0
    cool = (0.01 / 2.0) ** (1.0 / max(steps, 1))
    for _ in range(steps):
        temp *= cool
        h = np.random.randint(H)
        if not movable[h]:
            continue
        g = np.random.randint(G)
        s1 = np.random.randint(S)
        s2 = np.random.randint(S - 1)
        if s2 >= s1:
            s2 += 1
        a = plan[h, g, s1]
        b = plan[h, g, s2]
        winds[a, h] = s2
        winds[b, h] = s1
        fa = _faults(winds[a], day_start, day_len, nwinds)
        fb = _faults(winds[b], day_start, day_len, nwinds)
        d = fa + fb - fault[a] - fault[b]
        sa = _two_apart(winds[a])
        sb = _two_apart(winds[b])
        ds = sa + sb - spread[a] - spread[b]
        ok = d < 0 or (d == 0 and ds <= 0) or (
            d > 0 and temp > 0 and np.random.random() < np.exp(-d / temp))
        if ok:
            plan[h, g, s1] = b
            plan[h, g, s2] = a
            fault[a] = fa
            fault[b] = fb
            spread[a] = sa
            spread[b] = sb
            total += d
            spread_total += ds
            if total < best_total or (total == best_total and spread_total < best_spread):
                best_total = total
                best_spread = spread_total
                best_plan[:] = plan
        else:
            winds[a, h] = s1
            winds[b, h] = s2
    plan[:] = best_plan
    return best_total


def assign_winds(plan: np.ndarray, days: tuple[int, ...], seed: int, steps: int,
                 movable: np.ndarray | None = None) -> tuple[np.ndarray, int]:
    """Seat winds for a grouping: plan[h, g, s] sits at wind s. Returns (plan, faults left).

    A plan from our draft already seats every place at its valid pattern; then only the
    spreading search runs (never making any rule worse). Any other grouping (a design, an
    audit) is repaired by the same swaps, annealed on the weighted rule breaks.
    """
    plan = np.array(plan, dtype=np.int64, copy=True)
    H, G, S = plan.shape
    P = G * S
    winds = np.empty((P, H), dtype=np.int64)
    for s in range(S):
        winds[plan[:, :, s], np.arange(H)[:, None]] = s
    day_len = np.array(days, dtype=np.int64)
    day_start = np.concatenate([[0], np.cumsum(day_len)[:-1]]).astype(np.int64)
    if movable is None:
        movable = np.ones(H, dtype=np.bool_)
    left = _improve(plan, winds, day_start, day_len, S, np.asarray(movable, dtype=np.bool_),
                    seed, steps)
    return plan, int(left)
