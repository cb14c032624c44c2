"""Seat winds: the rules of a player's wind sequence, valid patterns, and the wind stage.

Winds are numbered E=0, S=1, W=2, N=3 (E, S, W at 3-player tables). The rules, for h
hanchans played at tables of k (k = 3 or 4), checked for every player by
seating.rules.sequence_faults (the check and the search share it):

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
so k equal pieces of places, each piece on one image, balance every hanchan exactly; the
pieces are compatriots where the delegations allow (wind_blocks, choose_patterns).

Repair (assign_winds). Groupings that come with no valid seats (a design, free seats when
repeat meetings are unavoidable, an audit) are seated block by block: hanchans 1-4, 5-8, ...
(1-3, 4-6, ... at 3-player tables) each as a proper colouring of the regular bipartite graph
of players and tables (König), so everyone takes every wind once per block and the prefix
rule holds; then Kempe cycles inside blocks and seat swaps in the hanchans after the last
full block are annealed on the other rules. Small fields (players x hanchans x winds up to
EXACT_VARIABLES) are first seated exactly by an integer program, which also covers short
days whose E+S/W+N balance no block colouring allows (days of 2, 1, 2 hanchans); the
breaks the block repair leaves are solved exactly, over every hanchan in fields a little
larger (up to LATE_VARIABLES), else in a window of hanchans around them. This fits fields
of 16 to 48 players at 4-player tables; on 200 players the cycles are too long for fine
moves, and at 3-player tables (repeated Kirkman systems of 27, or 21 players with
short days) a few breaks may stay.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from .jit import copy_into, kernel
from .rules import count_bounds, sequence_faults


def image(seq: np.ndarray, q: int, nwinds: int) -> np.ndarray:
    """The q-th image of a wind sequence under the fixed-point-free wind group."""
    if nwinds == 4:
        return np.bitwise_xor(seq, q)
    return (seq + q) % nwinds


def random_valid_sequence(rng: np.random.Generator, days: tuple[int, ...], nwinds: int):
    """One valid wind sequence, drawn by a randomized depth-first search (None if none)."""
    hanchans = sum(days)
    day_of = np.repeat(np.arange(len(days)), days).tolist()
    day_end = np.cumsum(days).tolist()
    lo_all, hi_all = count_bounds(hanchans, nwinds)
    seq = [0] * hanchans
    total = [0] * nwinds
    daily = [0] * nwinds
    budget = [100000]

    def gap(c: list[int]) -> int:
        return c[0] + c[1] - c[2] - c[3] if nwinds == 4 else 0

    def fits(h: int) -> bool:
        d = day_of[h]
        lo_d, hi_d = count_bounds(days[d], nwinds)
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


def wind_blocks(country: np.ndarray, nwinds: int, whole: bool = False
                ) -> list[list[np.ndarray]]:
    """Places in blocks of nwinds equal pieces, each piece from one country (unless whole).

    whole: pieces as large as the largest delegation (at most players / nwinds), filled
    with the places of one delegation after another, largest first, so that every
    delegation that fits in one piece keeps one wind pattern (its places then never share
    a table) and smaller ones may share a piece (their places never meet); the places
    left over make pieces of one place.

    Over and over the nwinds countries with the most places left give a piece each, as
    large as the smallest of them has left (on the default event: FRA, GER, POL and NED 16
    each, then DEN, AUT, SWE and FIN 10 each, ...). Once fewer countries have places left,
    the pieces hold one place each, each taken from the country with the most left. Places
    are taken in place order within a country. The number of places must be a multiple of
    nwinds.
    """
    country = np.asarray(country)
    if whole:
        sizes = np.bincount(country)
        size = min(int(sizes.max()), len(country) // nwinds)
        pool = np.concatenate([np.nonzero(country == c)[0]
                               for c in sorted(np.unique(country), key=lambda c: -sizes[c])])
        full = len(pool) // (size * nwinds)
        pieces = pool[: full * size * nwinds].reshape(full, nwinds, size)
        blocks = [list(block) for block in pieces.astype(np.int64)]
        rest = pool[full * size * nwinds:].astype(np.int64)
        return blocks + [list(rest[i : i + nwinds, None]) for i in range(0, len(rest), nwinds)]
    left = {int(c): list(np.nonzero(country == c)[0]) for c in np.unique(country)}
    blocks = []
    while any(left.values()):
        ranked = sorted((c for c in left if left[c]), key=lambda c: (-len(left[c]), c))
        if len(ranked) >= nwinds:
            size = min(len(left[c]) for c in ranked[:nwinds])
            block = []
            for c in ranked[:nwinds]:
                block.append(np.array(left[c][:size], dtype=np.int64))
                left[c] = left[c][size:]
        else:  # one place at a time, from whichever country has the most left
            block = []
            for _ in range(nwinds):
                c = min((c for c in left if left[c]), key=lambda c: (-len(left[c]), c))
                block.append(np.array(left[c][:1], dtype=np.int64))
                left[c] = left[c][1:]
        blocks.append(block)
    return blocks


def shared_image(seq: np.ndarray, other: np.ndarray, nwinds: int) -> np.ndarray:
    """For every hanchan, the q whose image(other, q) has seq's wind there.

    Works on a stack of sequences too (rows of seq against one other)."""
    if nwinds == 4:
        return np.bitwise_xor(seq, other)
    return (seq - other) % nwinds


def choose_patterns(
    country: np.ndarray, days: tuple[int, ...], nwinds: int, rng: np.random.Generator,
    whole: bool = False,
) -> np.ndarray:
    """Valid wind patterns for all places, exactly players/nwinds of each wind per hanchan.

    country[p] is the delegation of place p. The places are split into wind_blocks; every
    place of one piece gets the same sequence, and the nwinds pieces of a block get the
    nwinds images of one orbit, so every hanchan is balanced. So compatriots share their
    wind as often as the shares allow: a hanchan has the same number of pairs on one wind
    (who cannot meet) whatever the patterns, and the more of them are compatriots (who must
    not meet anyway), the more pairs of other countries the search can seat together. On
    the default event, seeds 1-12, this took back to back country from a mean of 635 to
    571 with the day mix no worse (669 to 641 counts off), against an orbit for every
    nwinds places in place order.

    Blocks take distinct orbits, from 8 per player/nwinds drawn, one block after the other
    (largest pieces first): the fewest winds two hanchans apart first, then the fewest
    hanchans where, against an orbit already taken, the same image shares its wind as in
    the hanchan before (shared_image repeats). A place shares its wind in hanchan h with one
    piece of every other block and cannot meet that piece's country there; when that piece
    changes from h to h + 1, two countries of the block cannot be met in both, so neither
    back to back. On the default event, seeds 1-24, back to back fell from a mean of 568 to
    508 and the day mix from 645 to 632 counts off, against distinct orbits in random
    order. Should the rules leave too few orbits, one serves again with its images turned
    one step, so the first pieces of its blocks are not always on one wind.
    """
    country = np.asarray(country)
    players = len(country)
    blocks = wind_blocks(country, nwinds, whole)
    wanted = players // nwinds
    seen: dict[tuple[int, ...], np.ndarray] = {}
    tries = 0
    while len(seen) < 8 * wanted and tries < 40 * wanted:
        tries += 1
        seq = random_valid_sequence(rng, days, nwinds)
        if seq is None:
            raise ValueError(f"no wind sequence keeps every rule for days {list(days)}")
        seen.setdefault(orbit_key(seq, nwinds), seq)
    candidates = np.stack(sorted(seen.values(), key=lambda s: orbit_key(s, nwinds)))
    order = rng.permutation(len(candidates))  # ties go to a random candidate
    candidates = candidates[order]
    spread = (candidates[:, 2:] == candidates[:, :-2]).sum(axis=1)
    repeats = np.zeros(len(candidates), dtype=np.int64)  # against the orbits taken so far
    free = np.ones(len(candidates), dtype=bool)
    taken = []
    weight = len(candidates) * sum(days)  # more than repeats can reach: spread comes first
    for _ in range(min(len(blocks), len(candidates))):
        score = np.where(free, spread * weight + repeats, np.iinfo(np.int64).max)
        i = int(np.argmin(score))  # the first of the best
        taken.append(i)
        free[i] = False
        rel = shared_image(candidates, candidates[i], nwinds)
        repeats += (rel[:, 1:] == rel[:, :-1]).sum(axis=1)
    result = np.empty((players, sum(days)), dtype=np.int8)
    for b, block in enumerate(blocks):
        turn = b // len(taken)
        seq = candidates[taken[b % len(taken)]]
        for q, piece in enumerate(block):
            result[piece] = image(seq, (q + turn) % nwinds, nwinds)
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


@kernel
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
                copy_into(best_plan, plan)
        else:
            winds[a, h] = s1
            winds[b, h] = s2
    copy_into(plan, best_plan)
    return best_total


T_START = 12.0  # temperatures of the repair, in weighted faults
T_END = 0.5
REPAIR_RESTART = 20_000  # moves of each restart of the repair: many short restarts
# beat few long ones on golfers 32 x 9 (8 of 8 groupings against 4 of 8)
PROGRESS_RESTARTS = 25  # a progress line every so many restarts, and at each new best


@kernel
def _exchange(plan, winds, cyc_h, cyc_g, n, a, b):
    """Exchange winds a and b at the tables (cyc_h[i], cyc_g[i]), i < n (twice: undone)."""
    for i in range(n):
        hh = cyc_h[i]
        gg = cyc_g[i]
        x = plan[hh, gg, a]
        y = plan[hh, gg, b]
        plan[hh, gg, a] = y
        plan[hh, gg, b] = x
        winds[x, hh] = b
        winds[y, hh] = a


@njit(cache=True)
def _block_repair(plan, day_start, day_len, block_free, movable, seed, steps, t_start,
                  t_end):
    """Anneal the weighted faults over groupings whose free blocks are perfect.

    block_free[b]: hanchans b*S .. b*S+S-1 are all movable and seat every player at every
    wind once (see _perfect_blocks). A move there flips a Kempe cycle: for two winds a, b,
    the alternating cycle of places and tables of that block (a place's a-table, that
    table's b-place, its a-table, ...) exchanges a and b, so the block stays perfect and
    the prefix rule holds inside it. Other movable hanchans get swaps of two seats at one
    table. Stops at the first plan without faults; keeps the best plan; returns its faults.
    """
    np.random.seed(seed)
    H, G, S = plan.shape
    P = G * S
    winds = np.empty((P, H), np.int64)
    table = np.empty((P, H), np.int64)
    for h in range(H):
        for g in range(G):
            for s in range(S):
                winds[plan[h, g, s], h] = s
                table[plan[h, g, s], h] = g
    loose = np.zeros(H, np.int64)  # movable hanchans outside free blocks
    nloose = 0
    for h in range(H):
        b = h // S
        if movable[h] and not (b < block_free.shape[0] and block_free[b]):
            loose[nloose] = h
            nloose += 1
    fault = np.empty(P, np.int64)
    for p in range(P):
        fault[p] = _faults(winds[p], day_start, day_len, S)
    total = fault.sum()
    blocks = np.flatnonzero(block_free)
    if blocks.shape[0] == 0 and nloose == 0:
        return total
    best = total
    best_plan = plan.copy()
    cyc_h = np.empty(P * S, np.int64)
    cyc_g = np.empty(P * S, np.int64)
    who = np.empty(P, np.int64)
    mark = np.zeros(P, np.int64)
    fresh = np.empty(P, np.int64)
    loose_share = nloose / (nloose + S * blocks.shape[0])
    temp = t_start
    cool = (t_end / t_start) ** (1.0 / max(steps, 1))
    for it in range(steps):
        if best == 0:
            break
        temp *= cool
        a = np.random.randint(S)
        b = np.random.randint(S - 1)
        if b >= a:
            b += 1
        n = 0
        if np.random.random() < loose_share:
            cyc_h[0] = loose[np.random.randint(nloose)]
            cyc_g[0] = np.random.randint(G)
            n = 1
        else:
            first = blocks[np.random.randint(blocks.shape[0])] * S
            p = np.random.randint(P)
            cur = p
            while True:
                hh = first
                while winds[cur, hh] != a:
                    hh += 1
                gg = table[cur, hh]
                cyc_h[n] = hh
                cyc_g[n] = gg
                n += 1
                cur = plan[hh, gg, b]
                if cur == p:
                    break
        _exchange(plan, winds, cyc_h, cyc_g, n, a, b)
        m = 0
        for i in range(n):
            for z in (plan[cyc_h[i], cyc_g[i], a], plan[cyc_h[i], cyc_g[i], b]):
                if mark[z] != it + 1:
                    mark[z] = it + 1
                    who[m] = z
                    m += 1
        d = 0
        for i in range(m):
            z = who[i]
            fresh[z] = _faults(winds[z], day_start, day_len, S)
            d += fresh[z] - fault[z]
        if d <= 0 or np.random.random() < np.exp(-d / temp):
            for i in range(m):
                fault[who[i]] = fresh[who[i]]
            total += d
            if total < best:
                best = total
                copy_into(best_plan, plan)
        else:
            _exchange(plan, winds, cyc_h, cyc_g, n, a, b)  # undone
    copy_into(plan, best_plan)
    return best


def _perfect_blocks(plan: np.ndarray, movable: np.ndarray, rng: np.random.Generator):
    """Reseat every block of S hanchans (S the table size, blocks starting at multiples of
    S) whose hanchans are all movable, so that every player takes every wind once in it.

    Players and the block's tables form an S-regular bipartite graph, so its edges split
    into S perfect matchings (König): a proper colouring, matching c seating wind c. Then
    the prefix rule holds inside the block whatever the other blocks do. Returns the
    plan (a copy) and which blocks are perfect.
    """
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_bipartite_matching

    plan = plan.copy()
    H, G, S = plan.shape
    P = G * S
    free = np.array([bool(movable[b * S:(b + 1) * S].all()) for b in range(H // S)],
                    dtype=np.bool_)
    for b in np.flatnonzero(free):
        block = plan[b * S:(b + 1) * S]
        player = block.reshape(-1)
        node = np.repeat(np.arange(S * G), S)  # (hanchan in block, table) of each seat
        colour = np.full(player.shape[0], -1)
        for c in range(S):
            left = np.flatnonzero(colour < 0)
            order = rng.permutation(P)  # a different matching on every run of the seed
            graph = csr_matrix((np.ones(left.shape[0]), (order[player[left]], node[left])),
                               shape=(P, S * G))
            match = maximum_bipartite_matching(graph, perm_type="column")
            taken = match[order[player[left]]] == node[left]
            colour[left[taken]] = c
        if (colour < 0).any():  # cannot happen for a regular bipartite graph
            raise AssertionError("block colouring failed")
        seats = np.empty_like(block)
        seats.reshape(S * G, S)[node, colour] = player
        plan[b * S:(b + 1) * S] = seats
    return plan, free


EXACT_VARIABLES = 1600  # players x hanchans x winds up to which seats are solved exactly
EXACT_NODES = 200  # branch-and-bound nodes of that integer program (a count, not a clock,
# so the result is the same on every machine); most small fields are solved at the root
# Fields a little larger, whose breaks the block repair leaves: the same program over every
# movable hanchan, given more nodes (40 places x 12 hanchans, 1,920 variables: 12 s with
# 2,000 nodes, none found with 200; 56 x 16, 3,584: 200 nodes took 114 s)
LATE_VARIABLES = 2400
LATE_NODES = 2000


def _exact(plan: np.ndarray, days: tuple[int, ...], movable: np.ndarray,
           nodes: int = EXACT_NODES) -> np.ndarray | None:
    """Seat winds for a grouping by an integer program (scipy's HiGHS): x[p, h, w] = 1 when
    place p sits at wind w in hanchan h; every table seats each wind once, hanchans that
    are not movable keep their seats, and every rule of the module docstring is a linear
    constraint (counts and the E+S/W+N balance over the event and each day, never the
    same wind twice in a row, the prefix rule as bounds on the counts of every prefix of t
    hanchans, t not a multiple of S: each t // S or t // S + 1). Returns the
    reseated plan, or None when the program has no solution within `nodes` branch-and-bound
    nodes.

    Small fields only: this finds seats where the block repair cannot (short days, whose
    E+S/W+N balance no block colouring may allow), but its time grows fast (measured: 20
    places x 5 hanchans 0.03 s, 28 x 13 9 s, both solved at the root node).
    """
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_matrix

    H, G, S = plan.shape
    P = G * S
    var = np.arange(P * H * S).reshape(P, H, S)
    rows, cols, vals, lo, hi = [], [], [], [], []

    def rule(columns, weights, low, high):
        """One constraint per row of columns: low <= sum(weights * x[columns]) <= high."""
        k, m = columns.shape
        rows.append(np.repeat(np.arange(k) + sum(len(x) for x in lo), m))
        cols.append(columns.ravel())
        vals.append(np.broadcast_to(np.asarray(weights, dtype=float), (k, m)).ravel())
        lo.append(np.full(k, low, dtype=float))
        hi.append(np.full(k, high, dtype=float))

    rule(var.reshape(P * H, S), 1, 1, 1)  # one wind per place and hanchan
    hanchan = np.repeat(np.arange(H), G)[:, None]
    for w in range(S):  # each table seats each wind once
        rule(var[plan.reshape(H * G, S), hanchan, w], 1, 1, 1)
    halves = np.array([1, 1, -1, -1])

    def counts(first, length):
        low, high = count_bounds(length, S)
        for w in range(S):
            rule(var[:, first:first + length, w], 1, low, high)
        if S == 4:
            rule(var[:, first:first + length, :].reshape(P, -1), np.tile(halves, length), -1, 1)

    counts(0, H)
    first = 0
    for length in days:
        counts(first, length)
        first += length
    for w in range(S):
        rule(np.stack([var[:, :-1, w], var[:, 1:, w]], axis=-1).reshape(-1, 2), 1, 0, 1)
    for t in range(1, H + 1):
        if t % S:  # counts within one of each other: each t // S or t // S + 1
            for w in range(S):
                rule(var[:, :t, w], 1, t // S, t // S + 1)
    matrix = coo_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                        shape=(sum(len(x) for x in lo), P * H * S)).tocsr()
    low = np.zeros(P * H * S)
    for h in np.flatnonzero(~movable):
        low[var[plan[h].reshape(-1), h, np.tile(np.arange(S), G)]] = 1
    res = milp(np.zeros(P * H * S), integrality=np.ones(P * H * S), bounds=Bounds(low, 1),
               constraints=LinearConstraint(matrix, np.concatenate(lo), np.concatenate(hi)),
               options={"node_limit": nodes})
    if res.x is None:
        return None
    wind = np.rint(res.x).reshape(P, H, S).argmax(axis=2)
    seated = np.empty_like(plan)
    h, g, s = np.indices(plan.shape)
    seated[h, g, wind[plan, h]] = plan
    return seated


def _fault_hanchans(plan: np.ndarray, days: tuple[int, ...]) -> np.ndarray:
    """Hanchans whose seats take part in a rule break: a bad day's hanchans, both hanchans
    of a consecutive same wind, the last S hanchans of a bad prefix, all for bad counts."""
    H, G, S = plan.shape
    f = sequence_faults(winds_of(plan), days, S)
    bad = np.zeros(H, dtype=bool)
    if f["count_bad"].any():
        bad[:] = True
    first = np.concatenate([[0], np.cumsum(days)[:-1]])
    for d in np.flatnonzero(f["day_bad"].any(axis=0)):
        bad[first[d]:first[d] + days[d]] = True
    for h in np.flatnonzero(f["consecutive"].any(axis=0)):
        bad[h:h + 2] = True
    for t in np.flatnonzero(f["prefix"].any(axis=0)):
        bad[max(0, t - S + 1):t + 1] = True
    return bad


def _exact_window(plan: np.ndarray, days: tuple[int, ...], movable: np.ndarray,
                  whole_tried: bool = False) -> np.ndarray:
    """The last rule breaks of a repaired plan, solved exactly in a window: the hanchans
    around the breaks (1, 2, 4, ... hanchans either side) are reseated by _exact with all
    others held, the first window that admits valid seats wins. Windows stay within
    EXACT_VARIABLES free seats (players x window x winds), and short of every movable
    hanchan when whole_tried (_exact already failed on them all). Returns the plan
    unchanged when none does."""
    H, G, S = plan.shape
    bad = np.flatnonzero(_fault_hanchans(plan, days))
    if bad.shape[0] == 0:
        return plan
    reach = 1
    while True:
        near = np.abs(np.arange(H)[:, None] - bad[None, :]).min(axis=1) <= reach
        free = near & movable
        if G * S * int(free.sum()) * S > EXACT_VARIABLES or (
                whole_tried and (free == movable).all()):
            return plan
        seated = _exact(plan, days, free)
        if seated is not None:
            return seated
        if near.all():
            return plan
        reach *= 2


def winds_of(plan: np.ndarray) -> np.ndarray:
    """winds[p, h]: the wind (seat) of place p in hanchan h of plan[h, g, s] (io.keys_of,
    by place)."""
    from .io import keys_of

    return np.ascontiguousarray(keys_of(plan).T)


def _weighted_faults(plan: np.ndarray, day_start: np.ndarray, day_len: np.ndarray) -> int:
    winds = winds_of(plan)
    return int(sum(_faults(seq, day_start, day_len, plan.shape[2]) for seq in winds))


def assign_winds(plan: np.ndarray, days: tuple[int, ...], seed: int, steps: int,
                 movable: np.ndarray | None = None, repair_steps: int = 3_000_000,
                 log=lambda line: None) -> tuple[np.ndarray, int]:
    """Seat winds for a grouping: plan[h, g, s] sits at wind s. Returns (plan, faults left).

    A plan from our draft already seats every place at its valid pattern; then only the
    spreading search runs (never making any rule worse). Any other grouping (a design, an
    audit, a re-plan) is first repaired: in small fields (players x hanchans x winds up
    to EXACT_VARIABLES) exactly, by an integer program (_exact); when that finds no seats,
    or in larger fields, every block of S hanchans is seated so that each
    player takes each wind once in it (_perfect_blocks), then Kempe cycles inside the
    blocks and seat swaps elsewhere are annealed on the weighted rule breaks
    (_block_repair), restarted from new block seatings every REPAIR_RESTART moves until
    repair_steps moves are spent or no fault is left; the best result is kept if it has
    fewer faults. Breaks left then are solved exactly: in fields up to LATE_VARIABLES by
    the integer program over every movable hanchan with LATE_NODES nodes, else (or if that
    finds no seats) in a window of hanchans around them (_exact_window), as wide as
    EXACT_VARIABLES allows.
    The spreading search (steps moves) then runs on the kept plan. log: progress lines of
    the repair (none when the groups need none).
    """
    started = time.perf_counter()
    plan = np.array(plan, dtype=np.int64, copy=True)
    H, G, S = plan.shape
    day_len = np.array(days, dtype=np.int64)
    day_start = np.concatenate([[0], np.cumsum(day_len)[:-1]]).astype(np.int64)
    if movable is None:
        movable = np.ones(H, dtype=np.bool_)
    movable = np.asarray(movable, dtype=np.bool_)
    before = _weighted_faults(plan, day_start, day_len)
    whole_tried = before > 0 and G * S * H * S <= EXACT_VARIABLES

    def progress(what):
        log(f"winds: {what} ({time.perf_counter() - started:.1f} s)")

    if before > 0:
        how = "an integer program" if whole_tried else "restarts of block seatings"
        progress(f"the groups as given break the wind rules (weighted {before}); seating them "
                 f"by {how}")
    if whole_tried:
        exact = _exact(plan, days, movable)
        progress("integer program: " + ("seated" if exact is not None else "no seats found"))
        if exact is not None:
            plan, before = exact, 0
    rng = np.random.default_rng(seed)
    best = before
    attempt = 0
    left = repair_steps if before > 0 else 0
    restarts = -(-left // REPAIR_RESTART)
    while left > 0 and best > 0:
        steps_now = min(left, REPAIR_RESTART)
        left -= steps_now
        repaired, free = _perfect_blocks(plan, movable, rng)
        after = _block_repair(repaired, day_start, day_len, free, movable, seed + attempt,
                              steps_now, T_START, T_END)
        improved = after < best
        if improved:
            best, kept = after, repaired
        attempt += 1
        if improved or attempt % PROGRESS_RESTARTS == 0:
            progress(f"repair restart {attempt} of at most {restarts}: fewest weighted "
                     f"breaks {best}")
    if best < before:
        plan = kept
    if best > 0 and EXACT_VARIABLES < G * S * H * S <= LATE_VARIABLES:
        exact = _exact(plan, days, movable, LATE_NODES)
        progress(f"integer program over every hanchan, {LATE_NODES} nodes: "
                 + ("seated" if exact is not None else "no seats found"))
        if exact is not None:
            plan, best = exact, 0
    if best > 0:
        plan = _exact_window(plan, days, movable, whole_tried)
        progress("exact seats in a window of hanchans around the breaks left: weighted "
                 f"breaks {_weighted_faults(plan, day_start, day_len)}")
    left = _improve(plan, winds_of(plan), day_start, day_len, S, movable, seed, steps)
    return plan, int(left)
