"""The swap search behind stages 3 and 4: lexicographic goals, delta-evaluated swaps, tabu.

A plan is an int array plan[hanchan, group, seat] of place numbers. A move swaps two places
of one hanchan that sit in different groups and share the same seat key (their planned
wind in that hanchan, or -1 when seats are free), so wind patterns survive every move.

The goals form one cost vector compared lexicographically. First come the "figure" entries
of every goal in goal order, then the "gradient" entries (tie-breakers) in goal order:

  0 repeats      sum over non-compatriot pairs of C(m, 2), m = meetings (0 iff no repeat;
                 convex, so unavoidable repeats spread evenly)
  1 compatriots  sum over compatriot pairs of weight * C(m + 1, 2): compatriots count as
                 having met once already; weight = (largest / own delegation)^2
  2 indirect     for c = 0, 1, ...: number of pairs that never meet and have exactly c
                 common opponents (c = 0: unlinked pairs)
  3 countries    for v = 0, 1, ...: number of players who met exactly v other countries
                 (gradient: minus the total number of countries met)
  4 day mix      (player, day, size class) opponent counts outside [floor, ceil] of the
                 player's fair share: the sum of (gap - 2) over counts 3 or more off, then
                 the number of counts 2 and 1 off (gradient: sum of squared gaps)
  5 total mix    the same over the whole event
  6 back to back number of (player, hanchan) where a country met is met again next hanchan

Goals 2 and 3 count only a window of their lowest buckets (seg[:, ACTIVE]): the worst-off
pairs and players. The search raises the window as the minimum rises, and goals below get a
say whenever a move leaves the window alone. A locked goal keeps only the buckets below its
achieved minimum in the window, which must stay empty: a lower goal never costs a higher one.

Every swap is evaluated without being made (`evaluate`): the eight places at the two tables
change opponents, so repeats, countries met, class mix and back-to-back follow from them;
common opponents change only for pairs with one of the eight, and of those only pairs near
the window matter ("low" pairs, kept in per-place lists). A chosen swap is then made by
`swap`, which keeps the meeting and common-opponent matrices, the opponent lists and the
low lists exact. Of the pairs whose common opponents a swap changes (about 700 on the
default event) it touches only those that never met with at most the low threshold of
common opponents (about 20), and only those can change a cost entry or a low list.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from .jit import copy_into, fast, kernel
from .rules import (
    BACK_TO_BACK,
    COMPATRIOTS,
    COUNTRIES,
    DAY_MIX,
    GOAL_NAMES,
    INDIRECT,
    NGOALS,
    REPEATS,
    TOTAL_MIX,
)

# class mixes: share of swaps that start from a listed place far off a fair share (0.5 on
# the event's mix left one count 2 off on seeds 3 and 5; 0.1: none of seeds 1-11), and the
# further anneals while a count 2 or more off is left: from the best plan, twice as many
# steps, half as hot (seed 12 of the default event: a day count 5 off after the first
# anneal, 3 off after two more of the same length, 2 off after this; as many steps again
# instead: a day count 2 off on 6 of seeds 1-24 against 7, in 6% less time, but on 5 of
# the 10 events of benchmarks/unseen.py against 3). The weights of a
# day's counts 3+, 2 and 1 off in the annealing (the event's: 64, 8, 1): (64, 8, 1) with
# further anneals only for counts 3 off left a count 2 off a day on 17 of seeds 1-24 of
# the default event, after which the lower goals may add more (day_mix_max_excess 2 or
# more, about 630 counts off); (512, 64, 1) with further anneals for counts 2 off left one
# on 7 (4096, 256, 1: the same plans). The event's mix with these weights: 3 off once in
# 22 random events (benchmarks/unseen.py), where the day's counts 1 off all leaned one way
MIX_FOCUS = 0.1
MIX_RETRIES = 2
DAY_MIX_WEIGHTS = (512.0, 64.0, 1.0)
TOTAL_MIX_WEIGHTS = (64.0, 8.0, 1.0)
B2B_REFRESH = 1 << 16  # the back-to-back faults the annealing starts from are listed again
# after this many steps; a step no longer tests that its fault is still there (that test took
# 28 of the 200 ns a step cost at the end of the default event's phase; listing them takes
# about 80 us). Default event, 140 M steps, seeds 1-4: 176 / 191 / 174 / 171; 1 << 13: 180 /
# 176 / 187 / 177; 1 << 19 (staler lists): 199 / 196 / 181 / 178
B2B_FOCUS = 0.5  # share of back-to-back swaps that start from a listed fault. Default event,
# 140 M steps, seeds 1-12: mean 175.8 at 0.5 against 186.2 at 0.8 (lower on 8 of the 12;
# seeds 1-4: 179 at 0.65, 190.8 at 0.9), a step 163-165 ns against 175 at the phase's end.
# (At 3 M steps, before the faults were listed every B2B_REFRESH steps: 0.5 mean 651, 0.8
# mean 645 over seeds 1-6.)

# columns of the layout table `seg`
START, ACTIVE, ALLOC, GRAD, GRADON = range(5)


def layout(tc: int, cc: int) -> np.ndarray:
    """Where each goal's entries sit: its figures, then its gradient (if any).

    Columns: figure start, active figure count, allocated figure count, gradient position
    (-1: none), gradient switched on (a locked goal's gradient no longer ranks moves).
    """
    figures = [1, 1, max(tc, 1), max(cc, 1), 3, 3, 1]
    gradients = [False, False, False, True, True, True, False]
    seg = np.full((NGOALS, 5), -1, dtype=np.int64)
    start = 0
    for g, n in enumerate(figures):
        seg[g, START] = start
        seg[g, ACTIVE] = n
        seg[g, ALLOC] = n
        start += n
        seg[g, GRADON] = 0
        if gradients[g]:
            seg[g, GRAD] = start
            seg[g, GRADON] = 1
            start += 1
    return seg


# ----------------------------------------------------------------------------------
# Small helpers
# ----------------------------------------------------------------------------------


@fast
def _opponents_of(plan, pos, country, p, h, c):
    """How many of p's opponents in hanchan h are of country c."""
    S = plan.shape[2]
    g = pos[h, p] // S
    n = 0
    for s in range(S):
        v = plan[h, g, s]
        if v != p and country[v] == c:
            n += 1
    return n


@kernel
def _b2b(plan, pos, country, p, h):
    """1 if a country p meets at hanchan h is met again at h + 1."""
    S = plan.shape[2]
    g0 = pos[h, p] // S
    for s0 in range(S):
        u = plan[h, g0, s0]
        if u != p and _opponents_of(plan, pos, country, p, h + 1, country[u]) > 0:
            return 1
    return 0


@kernel
def _b2b_faults(plan, pos, country, faults):
    """Lists every (place, hanchan) meeting a country again in the next hanchan in faults
    (p * H + h); returns their number."""
    H = plan.shape[0]
    n = 0
    for p in range(pos.shape[1]):
        for hb in range(H - 1):
            if _b2b(plan, pos, country, p, hb):
                faults[n] = p * H + hb
                n += 1
    return n


@kernel
def _excess(value, target):
    lo = np.floor(target)
    hi = np.ceil(target)
    if value > hi:
        return value - hi
    if value < lo:
        return lo - value
    return 0.0


@kernel
def _mix_entry(cost, seg, goal, value, target, sign):
    e = _excess(value, target)
    st = seg[goal, START]
    if e >= 3:
        # a sum, so that its lock also keeps a count 3 off from drifting to 4 off
        cost[st] += sign * (e - 2)
    elif e > 0:
        cost[st + 3 - int(e)] += sign
    if seg[goal, GRADON]:
        gap = value - target
        cost[seg[goal, GRAD]] += sign * gap * gap


@kernel
def _countries_entry(cost, seg, v, sign):
    if v < seg[COUNTRIES, ACTIVE]:
        cost[seg[COUNTRIES, START] + v] += sign


@kernel
def _country_repeats(ccount, country, p):
    """Meetings of place p beyond the first with each other country: sum of C(n, 2)."""
    r = 0
    for c in range(ccount.shape[1]):
        n = ccount[p, c]
        if c != country[p] and n > 1:
            r += n * (n - 1) // 2
    return r


@kernel
def _pair_entry(cost, seg, meet, common, u, w, sign):
    if meet[u, w] == 0:
        c = common[u, w]
        if c < seg[INDIRECT, ACTIVE]:
            cost[seg[INDIRECT, START] + c] += sign


@kernel
def _set_low(low, lowcnt, lowpos, u, w, on):
    """Keep w in u's list of low partners or not (both directions are handled by callers)."""
    if on and lowpos[u, w] < 0:
        lowpos[u, w] = lowcnt[u]
        low[u, lowcnt[u]] = w
        lowcnt[u] += 1
    elif not on and lowpos[u, w] >= 0:
        i = lowpos[u, w]
        last = low[u, lowcnt[u] - 1]
        low[u, i] = last
        lowpos[u, last] = i
        lowpos[u, w] = -1
        lowcnt[u] -= 1


@kernel
def _low_threshold(seg, S):
    # a swap lowers a pair's common opponents by at most S - 1
    return seg[INDIRECT, ACTIVE] - 1 + S - 1


# ----------------------------------------------------------------------------------
# Building the state from scratch
# ----------------------------------------------------------------------------------


@njit(cache=True)
def recount(ev, st, seg, active):
    """Rebuild every count and the cost vector from the plan alone."""
    country, cweight, pclass, day_of, tgt, tgt_total, key, movable = ev
    (plan, pos, meet, common, ccount, cmet, mix, mix_total, low, lowcnt, lowpos, nbr, deg,
     metbits) = st
    H, G, S = plan.shape
    P = pos.shape[1]
    meet[:] = 0
    ccount[:] = 0
    mix[:] = 0
    mix_total[:] = 0
    for h in range(H):
        d = day_of[h]
        for g in range(G):
            for s in range(S):
                p = plan[h, g, s]
                pos[h, p] = g * S + s
                for t in range(S):
                    if t != s:
                        q = plan[h, g, t]
                        meet[p, q] += 1
                        ccount[p, country[q]] += 1
                        mix[p, d, pclass[q]] += 1
                        mix_total[p, pclass[q]] += 1
    metbits[:] = 0
    for u in range(P):
        deg[u] = 0
        for w in range(P):
            if meet[u, w] > 0:
                nbr[u, deg[u]] = w
                deg[u] += 1
            if w != u and (meet[u, w] > 0 or country[u] == country[w]):
                _set_met(metbits, u, w, True)
    for p in range(P):
        cmet[p] = 0
        for c in range(ccount.shape[1]):
            if c != country[p] and ccount[p, c] > 0:
                cmet[p] += 1
    common[:] = 0
    lowcnt[:] = 0
    lowpos[:] = -1
    if active[INDIRECT]:
        for v in range(P):  # v is a common opponent of every two of its opponents
            for i in range(deg[v]):
                for j in range(deg[v]):
                    if i != j:
                        common[nbr[v, i], nbr[v, j]] += 1
        thr = _low_threshold(seg, S)
        for u in range(P):
            for w in range(P):
                if u != w and meet[u, w] == 0 and common[u, w] <= thr:
                    _set_low(low, lowcnt, lowpos, u, w, True)
    cost = np.zeros(cost_length_nb(seg))
    for u in range(P):
        for w in range(u + 1, P):
            m = meet[u, w]
            if country[u] == country[w]:
                cost[seg[COMPATRIOTS, START]] += cweight[country[u]] * (m + 1) * m / 2
            else:
                cost[seg[REPEATS, START]] += m * (m - 1) / 2
            if active[INDIRECT]:
                _pair_entry(cost, seg, meet, common, u, w, 1.0)
    for p in range(P):
        if active[COUNTRIES]:
            _countries_entry(cost, seg, cmet[p], 1.0)
            if seg[COUNTRIES, GRADON]:
                cost[seg[COUNTRIES, GRAD]] += _country_repeats(ccount, country, p)
        if active[DAY_MIX]:
            for d in range(mix.shape[1]):
                for k in range(mix.shape[2]):
                    _mix_entry(cost, seg, DAY_MIX, mix[p, d, k], tgt[p, d, k], 1.0)
        if active[TOTAL_MIX]:
            for k in range(mix_total.shape[1]):
                _mix_entry(cost, seg, TOTAL_MIX, mix_total[p, k], tgt_total[p, k], 1.0)
        if active[BACK_TO_BACK]:
            for h in range(H - 1):
                cost[seg[BACK_TO_BACK, START]] += _b2b(plan, pos, country, p, h)
    return cost


@kernel
def cost_length_nb(seg):
    n = 0
    for g in range(seg.shape[0]):
        n = max(n, seg[g, START] + seg[g, ALLOC], seg[g, GRAD] + 1)
    return n


# ----------------------------------------------------------------------------------
# Making a swap
# ----------------------------------------------------------------------------------


@kernel
def _player_entries(ev, st, seg, active, cost, p, h, sign):
    """Add (sign=+1) or remove (-1) place p's countries, mix and back-to-back entries."""
    country, cweight, pclass, day_of, tgt, tgt_total, key, movable = ev
    (plan, pos, meet, common, ccount, cmet, mix, mix_total, low, lowcnt, lowpos, nbr, deg,
     metbits) = st
    if active[COUNTRIES]:
        _countries_entry(cost, seg, cmet[p], sign)
        if seg[COUNTRIES, GRADON]:
            cost[seg[COUNTRIES, GRAD]] += sign * _country_repeats(ccount, country, p)
    if active[DAY_MIX]:
        d = day_of[h]
        for k in range(mix.shape[2]):
            _mix_entry(cost, seg, DAY_MIX, mix[p, d, k], tgt[p, d, k], sign)
    if active[TOTAL_MIX]:
        for k in range(mix_total.shape[1]):
            _mix_entry(cost, seg, TOTAL_MIX, mix_total[p, k], tgt_total[p, k], sign)
    if active[BACK_TO_BACK]:
        b = seg[BACK_TO_BACK, START]
        if h > 0:
            cost[b] += sign * _b2b(plan, pos, country, p, h - 1)
        if h < plan.shape[0] - 1:
            cost[b] += sign * _b2b(plan, pos, country, p, h)


@kernel
def _touch(st, seg, cost, work, u, w):
    (plan, pos, meet, common, ccount, cmet, mix, mix_total, low, lowcnt, lowpos, nbr, deg,
     metbits) = st
    stamp, token, touched, inset, scratch, wlist, delta, vec, mat, pairs = work
    a = min(u, w)
    b = max(u, w)
    if stamp[a, b] != token[0]:
        stamp[a, b] = token[0]
        _pair_entry(cost, seg, meet, common, a, b, -1.0)
        n = token[1]
        touched[n, 0] = a
        touched[n, 1] = b
        token[1] = n + 1


@kernel
def _meet_change(ev, st, seg, active, cost, work, u, v, step):
    """Change the meeting count of pair (u, v) by step (+1/-1), keeping everything else."""
    country, cweight, pclass, day_of, tgt, tgt_total, key, movable = ev
    (plan, pos, meet, common, ccount, cmet, mix, mix_total, low, lowcnt, lowpos, nbr, deg,
     metbits) = st
    m = meet[u, v]
    if country[u] == country[v]:
        # weight * C(m + 1, 2): C(m+2, 2) - C(m+1, 2) = m + 1
        cost[seg[COMPATRIOTS, START]] += cweight[country[u]] * (m + 1 if step > 0 else -m)
    else:
        cost[seg[REPEATS, START]] += m if step > 0 else -(m - 1)
    flips = (m == 0 and step > 0) or (m == 1 and step < 0)
    if flips and active[INDIRECT]:
        # a pair's entries and low-list place can only change while it never meets and its
        # common opponents are at most the low threshold (the pairs whose meeting changes
        # in the swap are all touched here, as (u, v))
        thr = _low_threshold(seg, plan.shape[2])
        _touch(st, seg, cost, work, u, v)
        for i in range(deg[v]):
            w = nbr[v, i]
            if w != u:
                if meet[u, w] == 0 and min(common[u, w], common[u, w] + step) <= thr:
                    _touch(st, seg, cost, work, u, w)
                common[u, w] += step
                common[w, u] += step
        for i in range(deg[u]):
            w = nbr[u, i]
            if w != v:
                if meet[v, w] == 0 and min(common[v, w], common[v, w] + step) <= thr:
                    _touch(st, seg, cost, work, v, w)
                common[v, w] += step
                common[w, v] += step
    meet[u, v] += step
    meet[v, u] += step
    if flips:
        _neighbour(nbr, deg, u, v, step)
        _neighbour(nbr, deg, v, u, step)
        if country[u] != country[v]:
            _set_met(metbits, u, v, step > 0)
            _set_met(metbits, v, u, step > 0)


@fast
def _set_met(metbits, u, w, on):
    """Set or clear bit w of u's row of metbits."""
    bit = np.uint64(1) << np.uint64(w & 63)
    if on:
        metbits[u, w >> 6] |= bit
    else:
        metbits[u, w >> 6] &= ~bit


@fast
def _met(metbits, u, w):
    """True if u has met w or is w's compatriot (metbits, kept by _meet_change)."""
    return (metbits[u, w >> 6] >> np.uint64(w & 63)) & np.uint64(1) != 0


@kernel
def _neighbour(nbr, deg, u, v, step):
    """Add v to u's list of opponents (step > 0) or remove it (in no particular order)."""
    n = deg[u]
    if step > 0:
        nbr[u, n] = v
        deg[u] = n + 1
    else:
        i = 0
        while nbr[u, i] != v:
            i += 1
        nbr[u, i] = nbr[u, n - 1]
        deg[u] = n - 1


@kernel
def _count_change(country, ccount, cmet, p, c, step):
    before = ccount[p, c]
    ccount[p, c] += step
    if c != country[p]:
        cmet[p] += (before + step > 0) - (before > 0)


@kernel
def swap(ev, st, seg, active, cost, work, h, x, y):
    """Swap places x and y (different groups) in hanchan h, updating cost in place.

    The same call again undoes it exactly.
    """
    country, cweight, pclass, day_of, tgt, tgt_total, key, movable = ev
    (plan, pos, meet, common, ccount, cmet, mix, mix_total, low, lowcnt, lowpos, nbr, deg,
     metbits) = st
    stamp, token, touched, inset, scratch, wlist, delta, vec, mat, pairs = work
    S = plan.shape[2]
    k = S - 1
    token[0] += 1
    token[1] = 0
    gx = pos[h, x] // S
    sx = pos[h, x] % S
    gy = pos[h, y] // S
    sy = pos[h, y] % S
    others = vec[4, : 2 * k]
    n = 0
    for s in range(S):
        if s != sx:
            others[n] = plan[h, gx, s]
            n += 1
    for s in range(S):
        if s != sy:
            others[n] = plan[h, gy, s]
            n += 1
    _player_entries(ev, st, seg, active, cost, x, h, -1.0)
    _player_entries(ev, st, seg, active, cost, y, h, -1.0)
    for i in range(2 * k):
        _player_entries(ev, st, seg, active, cost, others[i], h, -1.0)
    down = np.int64(-1)  # typed, not literal (see run)
    up = np.int64(1)
    for i in range(k):
        _meet_change(ev, st, seg, active, cost, work, x, others[i], down)
        _meet_change(ev, st, seg, active, cost, work, y, others[k + i], down)
    for i in range(k):
        _meet_change(ev, st, seg, active, cost, work, x, others[k + i], up)
        _meet_change(ev, st, seg, active, cost, work, y, others[i], up)
    if active[INDIRECT]:
        thr = _low_threshold(seg, S)
        for i in range(token[1]):
            a = touched[i, 0]
            b = touched[i, 1]
            _pair_entry(cost, seg, meet, common, a, b, 1.0)
            on = meet[a, b] == 0 and common[a, b] <= thr
            _set_low(low, lowcnt, lowpos, a, b, on)
            _set_low(low, lowcnt, lowpos, b, a, on)
    plan[h, gx, sx] = y
    plan[h, gy, sy] = x
    pos[h, x] = gy * S + sy
    pos[h, y] = gx * S + sx
    d = day_of[h]
    for i in range(k):
        a = others[i]
        b = others[k + i]
        _count_change(country, ccount, cmet, x, country[a], down)
        _count_change(country, ccount, cmet, x, country[b], up)
        _count_change(country, ccount, cmet, y, country[b], down)
        _count_change(country, ccount, cmet, y, country[a], up)
        _count_change(country, ccount, cmet, a, country[x], down)
        _count_change(country, ccount, cmet, a, country[y], up)
        _count_change(country, ccount, cmet, b, country[y], down)
        _count_change(country, ccount, cmet, b, country[x], up)
        for p, lose, gain in ((x, a, b), (y, b, a), (a, x, y), (b, y, x)):
            mix[p, d, pclass[lose]] -= 1
            mix[p, d, pclass[gain]] += 1
            mix_total[p, pclass[lose]] -= 1
            mix_total[p, pclass[gain]] += 1
    _player_entries(ev, st, seg, active, cost, x, h, 1.0)
    _player_entries(ev, st, seg, active, cost, y, h, 1.0)
    for i in range(2 * k):
        _player_entries(ev, st, seg, active, cost, others[i], h, 1.0)


# ----------------------------------------------------------------------------------
# Evaluating a swap without making it
# ----------------------------------------------------------------------------------


@kernel
def _bucket(delta, seg, meet_zero, c, sign):
    if meet_zero and c < seg[INDIRECT, ACTIVE]:
        delta[seg[INDIRECT, START] + c] += sign


@kernel
def _ctry_add(lst, n, c, step):
    for i in range(n):
        if lst[i, 0] == c:
            lst[i, 1] += step
            return n
    lst[n, 0] = c
    lst[n, 1] = step
    return n + 1


@kernel
def _indirect_delta(st, seg, work, n):
    """The common-opponent entries of the delta of the move evaluate has laid out in work
    (its members, and their meetings before and after); see evaluate."""
    (plan, pos, meet, common, ccount, cmet, mix, mix_total, low, lowcnt, lowpos, nbr, deg,
     metbits) = st
    stamp, token, touched, inset, scratch, wlist, delta, vec, mat, pairs = work
    mem = vec[0]
    old = mat[0]
    new = mat[1]
    for i in range(n):
        inset[mem[i]] = True
    for i in range(n):
        for j in range(i + 1, n):
            c0 = common[mem[i], mem[j]]
            c1 = c0
            for q in range(n):
                if q != i and q != j:
                    c1 += ((new[i, q] > 0) and (new[q, j] > 0)) - (
                        (old[i, q] > 0) and (old[q, j] > 0))
            _bucket(delta, seg, old[i, j] == 0, c0, -1.0)
            _bucket(delta, seg, new[i, j] == 0, c1, 1.0)
    for i in range(n):
        u = mem[i]
        for t in range(lowcnt[u]):
            w = low[u, t]
            if inset[w]:
                continue
            dc = 0
            for q in range(n):
                if q != i and meet[mem[q], w] > 0:
                    dc += (new[i, q] > 0) - (old[i, q] > 0)
            if dc != 0:
                c0 = common[u, w]
                _bucket(delta, seg, True, c0, -1.0)
                _bucket(delta, seg, True, c0 + dc, 1.0)
    for i in range(n):
        inset[mem[i]] = False


@kernel
def evaluate(ev, st, seg, active, work, h, x, y, x2=-1, y2=-1, with_indirect=True):
    """Delta of every cost entry (into work's delta) if x and y swapped groups in hanchan h.

    With x2, y2 >= 0 (x2 at x's table, y2 at y's table) both pairs swap at once.

    Nothing of the state changes. Common opponents change only through pairs inside the
    two tables ("the set"): for u in the set and w outside, the change is the sum over z in
    the set of D[u, z] * adj[z, w], D being the change of adjacency, and it only matters
    for u's low partners w; pairs inside the set are recounted over the set.
    """
    country, cweight, pclass, day_of, tgt, tgt_total, key, movable = ev
    (plan, pos, meet, common, ccount, cmet, mix, mix_total, low, lowcnt, lowpos, nbr, deg,
     metbits) = st
    stamp, token, touched, inset, scratch, wlist, delta, vec, mat, pairs = work
    H, G, S = plan.shape
    n = 2 * S
    delta[:] = 0.0
    gx = pos[h, x] // S
    sx = pos[h, x] % S
    gy = pos[h, y] // S
    sy = pos[h, y] % S
    mem = vec[0]  # x, x's table-mates, y, y's table-mates
    mem[0] = x
    mem[S] = y
    i = 1
    for s in range(S):
        if s != sx:
            mem[i] = plan[h, gx, s]
            i += 1
    i = S + 1
    for s in range(S):
        if s != sy:
            mem[i] = plan[h, gy, s]
            i += 1
    side = vec[1]
    newside = vec[2]
    for i in range(n):
        side[i] = 0 if i < S else 1
        newside[i] = side[i]
    newside[0] = 1
    newside[S] = 0
    if x2 >= 0:
        for i in range(n):
            if mem[i] == x2 or mem[i] == y2:
                newside[i] = 1 - side[i]
    old = mat[0]
    new = mat[1]
    old[:] = 0
    new[:] = 0
    for i in range(n):
        for j in range(n):
            if i != j:
                m = meet[mem[i], mem[j]]
                old[i, j] = m
                new[i, j] = m - (side[i] == side[j]) + (newside[i] == newside[j])
    for i in range(n):
        for j in range(i + 1, n):
            if old[i, j] == new[i, j]:
                continue
            u = mem[i]
            w = mem[j]
            m0 = old[i, j]
            m1 = new[i, j]
            if country[u] == country[w]:
                delta[seg[COMPATRIOTS, START]] += cweight[country[u]] * (
                    (m1 + 1) * m1 / 2 - (m0 + 1) * m0 / 2)
            else:
                delta[seg[REPEATS, START]] += m1 * (m1 - 1) / 2 - m0 * (m0 - 1) / 2
    if active[INDIRECT] and with_indirect:
        _indirect_delta(st, seg, work, n)
    lst = pairs
    lst[:] = 0
    dk = vec[3, : mix.shape[2]]
    dk[:] = 0
    d = day_of[h]
    for i in range(n):
        u = mem[i]
        nl = 0
        dk[:] = 0
        for j in range(n):
            if j == i:
                continue
            was = side[j] == side[i]
            now = newside[j] == newside[i]
            if was == now:
                continue
            step = 1 if now else -1
            nl = _ctry_add(lst, nl, country[mem[j]], step)
            dk[pclass[mem[j]]] += step
        if active[COUNTRIES]:
            v0 = cmet[u]
            v1 = v0
            dr = 0
            for t in range(nl):
                c = lst[t, 0]
                if c == country[u] or lst[t, 1] == 0:
                    continue
                before = ccount[u, c]
                after = before + lst[t, 1]
                v1 += (after > 0) - (before > 0)
                dr += after * (after - 1) // 2 - before * (before - 1) // 2
            if v1 != v0:
                _countries_entry(delta, seg, v0, -1.0)
                _countries_entry(delta, seg, v1, 1.0)
            if seg[COUNTRIES, GRADON]:
                delta[seg[COUNTRIES, GRAD]] += dr
        for kk in range(dk.shape[0]):
            if dk[kk] == 0:
                continue
            if active[DAY_MIX]:
                _mix_entry(delta, seg, DAY_MIX, mix[u, d, kk], tgt[u, d, kk], -1.0)
                _mix_entry(delta, seg, DAY_MIX, mix[u, d, kk] + dk[kk], tgt[u, d, kk], 1.0)
            if active[TOTAL_MIX]:
                _mix_entry(delta, seg, TOTAL_MIX, mix_total[u, kk], tgt_total[u, kk], -1.0)
                _mix_entry(delta, seg, TOTAL_MIX, mix_total[u, kk] + dk[kk], tgt_total[u, kk],
                           1.0)
        if active[BACK_TO_BACK]:
            b = seg[BACK_TO_BACK, START]
            for hh in (h - 1, h + 1):
                if hh < 0 or hh >= H:
                    continue
                gg = pos[hh, u] // S
                hit0 = 0
                hit1 = 0
                for j in range(n):
                    if j == i:
                        continue
                    cj = country[mem[j]]
                    for s in range(S):
                        v = plan[hh, gg, s]
                        if v != u and country[v] == cj:
                            if side[j] == side[i]:
                                hit0 = 1
                            if newside[j] == newside[i]:
                                hit1 = 1
                delta[b] += hit1 - hit0


# ----------------------------------------------------------------------------------
# The search
# ----------------------------------------------------------------------------------


@kernel
def seed_rng(seed):
    np.random.seed(seed)


@kernel
def _compare(a, b):
    """-1, 0 or 1: lexicographic order of two cost vectors (tiny float noise ignored)."""
    for i in range(a.shape[0]):
        if a[i] < b[i] - 1e-9:
            return -1
        if a[i] > b[i] + 1e-9:
            return 1
    return 0


@kernel
def _order(a, b, weights):
    """Compare by the weighted sum first (when weights are given), then lexicographically."""
    sa = 0.0
    sb = 0.0
    for i in range(a.shape[0]):
        sa += weights[i] * a[i]
        sb += weights[i] * b[i]
    if sa < sb - 1e-9:
        return -1
    if sa > sb + 1e-9:
        return 1
    return _compare(a, b)


@kernel
def _admissible(cost, lock, locklen, seg, hard):
    """False if any hard goal is lexicographically worse than its lock."""
    for g in range(seg.shape[0]):
        if not hard[g]:
            continue
        st = seg[g, START]
        for i in range(st, st + locklen[g]):
            if cost[i] < lock[i] - 1e-9:
                break
            if cost[i] > lock[i] + 1e-9:
                return False
    return True


@kernel
def _random_movable(movable, day_of, day):
    """A hanchan drawn uniformly from the movable ones (of `day`, or any when day < 0);
    -1 if there is none. One random number per call (the hot loops call it every step)."""
    n = 0
    for h in range(movable.shape[0]):
        if movable[h] and (day < 0 or day_of[h] == day):
            n += 1
    if n == 0:
        return -1
    r = np.random.randint(n)
    for h in range(movable.shape[0]):
        if movable[h] and (day < 0 or day_of[h] == day):
            if r == 0:
                return h
            r -= 1
    return -1


@kernel
def pick_focus(ev, st, seg, goal):
    """A place x and hanchan h in the worst remaining fault of one goal, or (-1, -1)."""
    country, cweight, pclass, day_of, tgt, tgt_total, key, movable = ev
    (plan, pos, meet, common, ccount, cmet, mix, mix_total, low, lowcnt, lowpos, nbr, deg,
     metbits) = st
    H, G, S = plan.shape
    P = meet.shape[0]
    n = 0
    x = -1
    h = -1
    if goal == REPEATS or goal == COMPATRIOTS:
        # a pair that meets most often (worst first: unavoidable repeats spread evenly)
        want = goal == COMPATRIOTS
        other = -1
        most = 1 if want else 2
        for u in range(P):
            for w in range(u + 1, P):
                if (country[u] == country[w]) == want and meet[u, w] > most:
                    most = meet[u, w]
        for u in range(P):
            for w in range(u + 1, P):
                if (country[u] == country[w]) == want and meet[u, w] == most:
                    n += 1
                    if np.random.randint(n) == 0:
                        x, other = (u, w) if np.random.randint(2) == 0 else (w, u)
        if x < 0:
            return -1, -1
        n = 0
        for hh in range(H):
            if movable[hh] and pos[hh, x] // S == pos[hh, other] // S:
                n += 1
                if np.random.randint(n) == 0:
                    h = hh
        return x, h
    if goal == INDIRECT:
        lowest = seg[INDIRECT, ACTIVE]
        for u in range(P):
            for t in range(lowcnt[u]):
                w = low[u, t]
                if common[u, w] < lowest:
                    lowest = common[u, w]
        if lowest >= seg[INDIRECT, ACTIVE]:
            return -1, -1
        for u in range(P):
            for t in range(lowcnt[u]):
                w = low[u, t]
                if u < w and common[u, w] == lowest:
                    n += 1
                    if np.random.randint(n) == 0:
                        x = u if np.random.randint(2) == 0 else w
        return x, _random_movable(movable, day_of, -1)
    if goal == COUNTRIES:
        lowest = seg[COUNTRIES, ACTIVE]
        for p in range(P):
            lowest = min(lowest, cmet[p])
        if lowest >= seg[COUNTRIES, ACTIVE]:
            return -1, -1
        for p in range(P):
            if cmet[p] == lowest:
                n += 1
                if np.random.randint(n) == 0:
                    x = p
        h = _random_movable(movable, day_of, -1)
        if np.random.randint(2) == 0 or h < 0:
            return x, h
        # or move away an opponent of a country x meets more than once
        g = pos[h, x] // S
        n = 0
        pick = x
        for s in range(S):
            u = plan[h, g, s]
            if u != x and ccount[x, country[u]] > 1:
                n += 1
                if np.random.randint(n) == 0:
                    pick = u
        return pick, h
    if goal == DAY_MIX or goal == TOTAL_MIX:
        worst = 0.0
        for p in range(P):
            for k in range(mix.shape[2]):
                if goal == DAY_MIX:
                    for d in range(mix.shape[1]):
                        worst = max(worst, _excess(mix[p, d, k], tgt[p, d, k]))
                else:
                    worst = max(worst, _excess(mix_total[p, k], tgt_total[p, k]))
        if worst == 0.0:
            return -1, -1
        day = -1
        for p in range(P):
            for k in range(mix.shape[2]):
                if goal == DAY_MIX:
                    for d in range(mix.shape[1]):
                        if _excess(mix[p, d, k], tgt[p, d, k]) == worst:
                            n += 1
                            if np.random.randint(n) == 0:
                                x = p
                                day = d
                elif _excess(mix_total[p, k], tgt_total[p, k]) == worst:
                    n += 1
                    if np.random.randint(n) == 0:
                        x = p
        return x, _random_movable(movable, day_of, day)
    # BACK_TO_BACK
    for p in range(P):
        for hh in range(H - 1):
            if (movable[hh] or movable[hh + 1]) and _b2b(plan, pos, country, p, hh):
                n += 1
                if np.random.randint(n) == 0:
                    x = p
                    h = hh
    if x < 0:
        return -1, -1
    if not movable[h] or (movable[h + 1] and np.random.randint(2) == 0):
        h = h + 1
    if np.random.randint(2) == 0:
        return x, h
    # or move the opponent whose country repeats
    other = h - 1 if h + 1 >= H or (h > 0 and np.random.randint(2) == 0) else h + 1
    if other < 0 or other >= H:
        return x, h
    g = pos[h, x] // S
    n = 0
    pick = x
    for s in range(S):
        u = plan[h, g, s]
        if u == x:
            continue
        for _ in range(_opponents_of(plan, pos, country, x, other, country[u])):
            n += 1  # each pair of one country in the two hanchans, as likely as another
            if np.random.randint(n) == 0:
                pick = u
    return pick, h


@njit(cache=True)
def run(ev, st, seg, active, work, cost, goal, moves, hard, lock, locklen, bound, tabu,
        counters, best_cost, best_plan, best_key, tenure, patience, spread, weights, cheap):
    """Tabu search on one goal for at most `moves` moves; the best plan is kept in best_plan.

    counters = [iteration, last improvement]. Returns 1 when the goal has nothing left to
    improve in its window, 0 otherwise. cheap: repeats, compatriots and common opponents are
    locked with nothing to spare, so a candidate is first screened without the costly
    common-opponent part, which then only decides whether a winner is admissible.
    """
    country, cweight, pclass, day_of, tgt, tgt_total, key, movable = ev
    (plan, pos, meet, common, ccount, cmet, mix, mix_total, low, lowcnt, lowpos, nbr, deg,
     metbits) = st
    stamp, token, touched, inset, scratch, wlist, delta, vec, mat, pairs = work
    H, G, S = plan.shape
    P = meet.shape[0]
    st0 = seg[max(goal, 0), START]
    trial = cost.copy()
    chosen = cost.copy()
    saved = cost.copy()
    for _ in range(moves):
        it = counters[0]
        counters[0] += 1
        if goal >= 0:
            done = True
            for i in range(st0, st0 + seg[goal, ACTIVE]):
                if cost[i] > bound[i] + 1e-9:
                    done = False
                    break
            if done:
                return 1
        g = goal
        if goal < 0:
            # joint search: a random goal among those with weighted faults
            total = 0.0
            for gg in range(NGOALS):
                for i in range(seg[gg, START], seg[gg, START] + seg[gg, ACTIVE]):
                    total += weights[i] * cost[i]
            r = np.random.random() * total
            g = -1
            for gg in range(NGOALS):
                for i in range(seg[gg, START], seg[gg, START] + seg[gg, ACTIVE]):
                    r -= weights[i] * cost[i]
                if r < 0 and g < 0 and total > 0:
                    g = gg
            if g < 0:
                return 1
        x, h0 = pick_focus(ev, st, seg, g)
        if x < 0 or h0 < 0:
            if goal < 0:
                continue
            return 1
        # typed, not literal, constants: a literal -1 reaching swap would compile it once
        # more for it (see the note in seating.jit)
        best_y = np.int64(-1)
        best_h = np.int64(-1)
        best_x2 = np.int64(-1)
        best_y2 = np.int64(-1)
        n = 0
        tries = 1 if g in (REPEATS, COMPATRIOTS, BACK_TO_BACK) else spread
        for rep in range(tries):
            if rep == 0:
                h = h0
            elif g == DAY_MIX:
                h = _random_movable(movable, day_of, day_of[h0])
            else:
                h = _random_movable(movable, day_of, -1)
            gx = pos[h, x] // S
            for y in range(P):
                if key[h, y] != key[h, x] or pos[h, y] // S == gx:
                    continue
                gy = pos[h, y] // S
                # a single swap, and (seats keyed by wind) x's and y's tables also exchanging
                # the places of one more wind
                for k2 in range(-1, S if key[h, x] >= 0 else 0):
                    if k2 >= 0 and k2 == pos[h, x] % S:
                        continue
                    x2 = -1 if k2 < 0 else plan[h, gx, k2]
                    y2 = -1 if k2 < 0 else plan[h, gy, k2]
                    if cheap and not _fresh(plan, pos, metbits, h, x, y, x2, y2):
                        continue  # a repeat or compatriot meeting: locked at zero
                    evaluate(ev, st, seg, active, work, h, x, y, x2, y2, not cheap)
                    for i in range(cost.shape[0]):
                        trial[i] = cost[i] + delta[i]
                    if not cheap and not _admissible(trial, lock, locklen, seg, hard):
                        continue
                    if tabu[h, y] > it and _order(trial, best_cost, weights) >= 0:
                        continue
                    c = -1 if best_y < 0 else _order(trial, chosen, weights)
                    if c > 0:
                        continue
                    if cheap:
                        # a winner so far: now the common opponents, which only decide
                        # whether it is admissible (their goal is locked with nothing to lose)
                        evaluate(ev, st, seg, active, work, h, x, y, x2, y2, cheap)
                        for i in range(cost.shape[0]):
                            trial[i] = cost[i] + delta[i]
                        if not _admissible(trial, lock, locklen, seg, hard):
                            continue
                    if c < 0:
                        n = 1
                    elif c == 0:
                        n += 1
                        if np.random.randint(n) != 0:
                            continue
                    best_y = y
                    best_h = h
                    best_x2 = x2
                    best_y2 = y2
                    copy_into(chosen, trial)
        h = best_h
        if best_y >= 0:
            swap(ev, st, seg, active, cost, work, h, x, best_y)
            if best_x2 >= 0:
                swap(ev, st, seg, active, cost, work, h, best_x2, best_y2)
                tabu[h, best_x2] = it + tenure + np.random.randint(tenure + 1)
                tabu[h, best_y2] = it + tenure + np.random.randint(tenure + 1)
            tabu[h, x] = it + tenure + np.random.randint(tenure + 1)
            tabu[h, best_y] = it + tenure + np.random.randint(tenure + 1)
        else:
            continue
        if _order(cost, best_cost, weights) < 0:
            copy_into(best_cost, cost)
            copy_into(best_plan, plan)
            copy_into(best_key, key)
            counters[1] = it
        elif it - counters[1] > patience:
            # dead end: a few random admissible swaps, then carry on from there
            counters[1] = it
            for _k in range(3):
                hh = _random_movable(movable, day_of, -1)
                a = np.random.randint(P)
                b = np.random.randint(P)
                if hh < 0 or key[hh, a] != key[hh, b] or pos[hh, a] // S == pos[hh, b] // S:
                    continue
                copy_into(saved, cost)
                swap(ev, st, seg, active, cost, work, hh, a, b)
                if not _admissible(cost, lock, locklen, seg, hard):
                    swap(ev, st, seg, active, cost, work, hh, a, b)
                    copy_into(cost, saved)
    return 0


# ----------------------------------------------------------------------------------
# Python side
# ----------------------------------------------------------------------------------


class State:
    """A plan under search: the event's arrays (ev), the counts (st) and the cost vector."""

    def __init__(self, plan, key, movable, country, cweight, pclass, day_of, tgt, tgt_total,
                 tc, cc, active):
        plan = np.ascontiguousarray(plan, dtype=np.int64)
        H, G, S = plan.shape
        P = G * S
        ncountries = int(np.max(country)) + 1
        self.ev = (
            np.ascontiguousarray(country, dtype=np.int64),
            np.ascontiguousarray(cweight, dtype=np.float64),
            np.ascontiguousarray(pclass, dtype=np.int64),
            np.ascontiguousarray(day_of, dtype=np.int64),
            np.ascontiguousarray(tgt, dtype=np.float64),
            np.ascontiguousarray(tgt_total, dtype=np.float64),
            np.ascontiguousarray(key, dtype=np.int64),
            np.ascontiguousarray(movable, dtype=np.bool_),
        )
        self.st = (
            plan,
            np.zeros((H, P), dtype=np.int64),
            np.zeros((P, P), dtype=np.int64),
            np.zeros((P, P), dtype=np.int64),
            np.zeros((P, ncountries), dtype=np.int64),
            np.zeros(P, dtype=np.int64),
            np.zeros((P, tgt.shape[1], tgt.shape[2]), dtype=np.int64),
            np.zeros((P, tgt.shape[2]), dtype=np.int64),
            np.zeros((P, P), dtype=np.int64),
            np.zeros(P, dtype=np.int64),
            np.full((P, P), -1, dtype=np.int64),
            # every place's opponents so far (meet > 0), in no particular order, and their
            # number: a swap updates the common opponents of pairs through them
            np.zeros((P, H * (S - 1) + 1), dtype=np.int64),
            np.zeros(P, dtype=np.int64),
            # bit w of row u: u has met w or is w's compatriot (the no-repeat test of the
            # annealing's steps reads this, 40 times smaller than meet)
            np.zeros((P, (P + 63) // 64), dtype=np.uint64),
        )
        self.seg = layout(tc, cc)
        self.active = np.ascontiguousarray(active, dtype=np.bool_)
        self.work = (
            np.zeros((P, P), dtype=np.int64),
            np.zeros(2, dtype=np.int64),
            np.zeros((4 * (S - 1) * (2 * P + 1) + 16, 2), dtype=np.int64),
            np.zeros(P, dtype=np.bool_),
            np.zeros(P, dtype=np.int64),
            np.zeros(P, dtype=np.int64),
            np.zeros(cost_length_nb(self.seg), dtype=np.float64),
            # small buffers of the hot kernels (no allocation per call): the places of
            # two tables and their sides, their meetings before and after, pair lists
            np.zeros((5, 2 * S), dtype=np.int64),
            np.zeros((2, 2 * S, 2 * S), dtype=np.int64),
            np.zeros((2 * S, 2), dtype=np.int64),
        )
        self.recount()

    @property
    def plan(self) -> np.ndarray:
        return self.st[0]

    @property
    def movable(self) -> np.ndarray:
        """Hanchans the search may change (False: played, or held fixed)."""
        return self.ev[7]

    @property
    def key(self) -> np.ndarray:
        """Seat key (planned wind) of every place in every hanchan."""
        return self.ev[6]

    @property
    def pos(self) -> np.ndarray:
        return self.st[1]

    @property
    def meet(self) -> np.ndarray:
        return self.st[2]

    @property
    def common(self) -> np.ndarray:
        return self.st[3]

    @property
    def cmet(self) -> np.ndarray:
        return self.st[5]

    def recount(self) -> None:
        self.cost = recount(self.ev, self.st, self.seg, self.active)

    def swap(self, h, x, y) -> None:
        swap(self.ev, self.st, self.seg, self.active, self.cost, self.work, h, x, y)

    def evaluate(self, h, x, y) -> np.ndarray:
        evaluate(self.ev, self.st, self.seg, self.active, self.work, h, x, y)
        return self.work[6].copy()

    def figures(self, goal: int) -> np.ndarray:
        st = self.seg[goal, START]
        return self.cost[st : st + self.seg[goal, ACTIVE]]

    def lowest(self, goal: int) -> int:
        """Current minimum of a worst-off goal (common opponents / countries met)."""
        if goal == INDIRECT:
            free = (self.meet == 0) & ~np.eye(len(self.meet), dtype=bool)
            return int(self.common[free].min()) if free.any() else int(self.seg[goal, ALLOC])
        return int(self.cmet.min())


class Search:
    """Drives `run` goal by goal: locks, windows, bounds, the best plan, progress, time cap."""

    WINDOW = 1  # buckets counted from the minimum up for the worst-off goals

    def __init__(self, state: State, seed: int, bound: np.ndarray, tenure: int = 8,
                 patience: int = 400):
        self.state = state
        n = state.cost.shape[0]
        self.bound = np.ascontiguousarray(bound, dtype=np.float64)
        self.lock = np.zeros(n, dtype=np.float64)
        self.locklen = np.zeros(NGOALS, dtype=np.int64)
        self.hard = np.zeros(NGOALS, dtype=np.bool_)
        H, P = state.pos.shape
        self.tabu = np.zeros((H, P), dtype=np.int64)
        self.counters = np.zeros(2, dtype=np.int64)
        self.best_cost = state.cost.copy()
        self.best_plan = state.plan.copy()
        self.best_key = state.key.copy()
        self.tenure = tenure
        self.patience = patience
        self.hit_time_limit = False
        seed_rng(seed)

    def keep_current(self) -> None:
        """The current plan becomes the best found so far."""
        s = self.state
        self.best_cost[:] = s.cost
        self.best_plan[:] = s.plan
        self.best_key[:] = s.key

    def restore_best(self) -> None:
        """Back to the best plan found (its costs recounted)."""
        s = self.state
        s.st[0][:] = self.best_plan
        s.key[:] = self.best_key
        s.recount()

    def screen_cheaply(self, goal: int) -> bool:
        """True when repeats, compatriots and common opponents are locked at zero (a
        candidate may then be screened without the common-opponent delta)."""
        s = self.state
        for g in (REPEATS, COMPATRIOTS, INDIRECT):
            st = s.seg[g, START]
            n = self.locklen[g]
            if not self.hard[g] or goal == g or (g != INDIRECT and n == 0):
                return False
            if np.any(self.lock[st:st + n] != 0) or s.seg[g, ACTIVE] != n:
                return False
        return True

    def reached(self, goal: int) -> bool:
        s = self.state
        st = s.seg[goal, START]
        n = s.seg[goal, ALLOC] if goal in (INDIRECT, COUNTRIES) else s.seg[goal, ACTIVE]
        if goal in (INDIRECT, COUNTRIES):
            return s.lowest(goal) >= n
        return bool(np.all(s.cost[st : st + n] <= self.bound[st : st + n] + 1e-9))

    def _window(self, goal: int, size: int) -> None:
        s = self.state
        s.seg[goal, ACTIVE] = max(0, min(s.seg[goal, ALLOC], size))
        s.recount()

    def lock_goal(self, goal: int, target: int | None = None, whole: bool = False) -> None:
        """From now on no plan may be worse on this goal's figure.

        whole: every active entry is locked as it is, in order (a class mix's counts 1 off
        too, once they have been searched).

        Sums (repeats, compatriots, back to back) and the number of unlinked pairs are
        locked at their value; otherwise the worst-off goals (fewest common opponents,
        fewest countries) are locked at their worst level: the buckets below it must stay
        empty. A class mix with counts 2 or more off a fair share keeps, in this order, the
        sum of (gap - 2) over counts 3 or more off and the number of counts 2 off, as the
        check ranks plans (counts 1 off are left to lower goals).
        """
        s = self.state
        if goal in (INDIRECT, COUNTRIES):
            low = s.lowest(goal)
            if target is not None:
                low = min(low, target)
            self._window(goal, max(low, 1) if goal == INDIRECT else low)
        st = s.seg[goal, START]
        values = s.cost[st : st + s.seg[goal, ACTIVE]]
        above = np.nonzero(values > self.bound[st : st + len(values)] + 1e-9)[0]
        if whole:
            length = len(values)
        elif goal in (REPEATS, COMPATRIOTS, BACK_TO_BACK) or (goal == INDIRECT and 0 in above):
            # a sum, or pairs with no common opponent left: their number may not grow
            length = 1
        elif goal in (DAY_MIX, TOTAL_MIX) and above.size and above[0] <= 1:
            # counts 2 or more off a fair share are left: the gaps beyond 2 may not grow, nor
            # then the counts 2 off
            length = 2
        else:
            length = int(above[0]) if above.size else len(values)
        self.locklen[goal] = length
        self.lock[st : st + length] = values[:length]
        self.hard[goal] = True
        # entries beyond the lock and the gradient no longer rank moves: lower goals decide
        s.seg[goal, GRADON] = 0
        self._window(goal, length)

    def improve(self, goal: int, moves: int, deadline: float, log, chunk: int = 200,
                spread: int = 1, weights=None, stop_above=None,
                stop_at_bounds: bool = False, stall: int | None = None) -> int:
        """Search one goal for at most `moves` moves or until the deadline; returns moves used.

        stall: stop once that many moves in a row have not changed the goal's best figures
        (goal >= 0)."""
        s = self.state
        windowed = goal in (INDIRECT, COUNTRIES)
        name = GOAL_NAMES[goal] if goal >= 0 else "+".join(
            GOAL_NAMES[g] for g in range(NGOALS) if s.active[g] and not self.hard[g])
        began = time.monotonic()
        used = 0
        last = None
        changed_at = 0
        best_figures = None
        while used < moves:
            if stop_above is not None and s.lowest(goal) > stop_above:
                break  # (also before the first move: nothing to do)
            if windowed:
                low = s.lowest(goal)
                self._window(goal, low + self.WINDOW)
            self.keep_current()
            rising = False
            while used < moves and not rising:
                if time.monotonic() > deadline:
                    self.hit_time_limit = True
                    log(f"  {name}: time limit reached after {used} moves")
                    moves = used
                    break
                step = min(chunk, moves - used)
                start = self.counters[0]
                done = run(s.ev, s.st, s.seg, s.active, s.work, s.cost, goal, step, self.hard,
                           self.lock, self.locklen, self.bound, self.tabu, self.counters,
                           self.best_cost, self.best_plan, self.best_key, self.tenure,
                           self.patience, spread,
                           np.zeros_like(s.cost) if weights is None else weights,
                           self.screen_cheaply(goal))
                used += int(self.counters[0] - start)
                line = (describe(goal, self.best_cost, s.seg) if goal >= 0 else
                        " | ".join(describe(g, self.best_cost, s.seg) for g in range(NGOALS)
                                   if s.active[g] and not self.hard[g]))
                if line != last:
                    took = time.monotonic() - began
                    log(f"  {name}: move {used} ({took:.1f} s): {line}")
                    last = line
                if stall is not None:
                    # the goal's whole cost entries, not only what the line shows
                    figures = self.best_cost[s.seg[goal, START]:s.seg[goal, START]
                                             + s.seg[goal, ALLOC]]
                    if best_figures is None or not np.array_equal(figures, best_figures):
                        best_figures = figures.copy()
                        changed_at = used
                    elif used - changed_at >= stall:
                        log(f"  {name}: no change in {used - changed_at} moves, stopped")
                        moves = used
                if windowed:
                    # the minimum rose when its bucket emptied: widen the window from there
                    rising = self.best_cost[s.seg[goal, START] + low] == 0
                if stop_at_bounds and all(
                        np.all(self.best_cost[s.seg[g, START]:s.seg[g, START] + s.seg[g, ACTIVE]]
                               <= self.bound[s.seg[g, START]:s.seg[g, START] + s.seg[g, ACTIVE]]
                               + 1e-9) for g in range(NGOALS) if s.active[g]):
                    moves = used
                if done and not rising:
                    moves = used
            self.restore_best()
            if windowed and (s.lowest(goal) >= s.seg[goal, ALLOC]):
                break
        return used


def _anneal_weights(state: State, goal: int) -> np.ndarray:
    """Weights of one goal's figures for annealing: worse buckets weigh more."""
    w = np.zeros_like(state.cost)
    st = state.seg[goal, START]
    n = state.seg[goal, ACTIVE]
    if goal in (INDIRECT, COUNTRIES):
        for c in range(n):
            w[st + c] = 4.0 ** (n - 1 - c)
    elif goal in (DAY_MIX, TOTAL_MIX):
        w[st : st + 3] = DAY_MIX_WEIGHTS if goal == DAY_MIX else TOTAL_MIX_WEIGHTS
    else:
        w[st] = 1.0
    return w


def tables_by_area(plan: np.ndarray, key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tables of every hanchan listed area by area, for drawing a swap's other table.

    A table's area is its seats' key // table size (keys below 0, free seats: one area).
    Swaps keep every seat's key, so this holds for a whole annealing. Returns area_tables
    (H, G): the table numbers of each hanchan sorted by area (then number), and area_span
    (H, G, 3): for table g, where its area starts and ends in that list and where g stands.
    """
    H, G, S = plan.shape
    first = np.take_along_axis(key, plan[:, :, 0], axis=1)
    area = np.where(first >= 0, first // S, 0)
    area_tables = np.argsort(area, axis=1, kind="stable").astype(np.int64)
    area_span = np.empty((H, G, 3), dtype=np.int64)
    for h in range(H):
        ordered = area[h, area_tables[h]]
        area_span[h, :, 0] = np.searchsorted(ordered, area[h], side="left")
        area_span[h, :, 1] = np.searchsorted(ordered, area[h], side="right")
        area_span[h, area_tables[h], 2] = np.arange(G)
    return area_tables, area_span


def anneal_goal(search: Search, goal: int, steps: int, deadline: float, log,
                t_start: float = 1.0, t_end: float = 0.05, chunk: int = 500_000,
                compat_share: float = 0.0, weights: np.ndarray | None = None,
                fresh_only: bool = True, until_fair: bool = True) -> int:
    """Simulated annealing on one goal under the locks; keeps the best plan found.

    compat_share: part of the proposals that swap two compatriots of one hanchan, alone
    (never as a double swap: the other places then see the same countries, so only the two
    change on countries met, mix and back to back, and the locks hold more often).
    weights: of the cost entries (default: the goal's own, worse buckets heavier).
    fresh_only: only exchanges that make nobody meet anyone again (off when repeats are
    unavoidable and being spread).
    until_fair: a class mix's phase stops once nobody is 2 or more off a fair share, and
    runs again while a count is left that far off (off where only its counts 1 off are
    annealed, below back to back: goals.improve_goals; their weights do not see the counts
    2 off, so those runs would search for nothing).
    """
    s = search.state
    country = s.ev[0]
    members = np.argsort(country, kind="stable")
    cstart = np.searchsorted(country[members], np.arange(country.max() + 2))
    # a locked minimum of countries met, tested cheaply before each full evaluation
    floor = int(search.locklen[COUNTRIES]) if search.hard[COUNTRIES] else 0
    # class mixes locked with nobody 2 or more off a fair share, tested cheaply the same way
    mixlock = 0
    for bit, g in ((1, DAY_MIX), (2, TOTAL_MIX)):
        st = s.seg[g, START]
        if (search.hard[g] and search.locklen[g] == 2 and s.active[g]
                and not search.lock[st:st + 2].any()):
            mixlock |= bit
    area_tables, area_span = tables_by_area(s.plan, s.key)
    w = _anneal_weights(s, goal) if weights is None else weights
    search.keep_current()
    stats = np.zeros(2, dtype=np.int64)
    began = time.monotonic()
    last = None
    st = s.seg[goal, START]

    def cool(steps, t_start, t_end):
        """One cooling schedule from the current plan, in chunks; the steps taken."""
        nonlocal last
        done = 0
        while done < steps:
            if time.monotonic() > deadline:
                search.hit_time_limit = True
                log(f"  {GOAL_NAMES[goal]}: time limit reached after {done} steps")
                break
            n = min(chunk, steps - done)
            made = stats[1]
            # each chunk cools over its own share of the schedule
            a = t_start * (t_end / t_start) ** (done / steps)
            b = t_start * (t_end / t_start) ** ((done + n) / steps)
            anneal(s.ev, s.st, s.seg, s.active, s.work, s.cost, n, search.hard, search.lock,
                   search.locklen, w, a, b, search.counters, search.best_cost,
                   search.best_plan, search.best_key, stats, fresh_only, compat_share, members,
                   cstart, floor, goal, mixlock, area_tables, area_span)
            done += n
            line = describe(goal, search.best_cost, s.seg)
            if line != last:
                log(f"  {GOAL_NAMES[goal]}: step {done} ({time.monotonic() - began:.1f} s): "
                    f"{line}")
                last = line
            if stats[1] == made and n == chunk:
                # a whole chunk without one swap made: the locks leave (almost) no move,
                # and a cooler chunk accepts less (linked cycles: every chunk of every
                # phase made none)
                log(f"  {GOAL_NAMES[goal]}: no swap made in {n} steps, stopped")
                break
            if (goal in (DAY_MIX, TOTAL_MIX) and until_fair
                    and not search.best_cost[st : st + 2].any()):
                # nobody 2 or more off a fair share: the lock can be no tighter (counts 1
                # off are ranked below back to back, whose phase would undo their search)
                break
            if goal == INDIRECT and s.seg[goal, ACTIVE] > 0 and not search.best_cost[st]:
                break  # no pair left without a common opponent: the goals below go on
        return done

    done = cool(steps, t_start, t_end)
    # the worst level a class mix should not keep: 2 off a fair share (the lock then lets
    # the lower goals take the counts 1 off, and no count 2 off)
    worst = 2 if goal in (DAY_MIX, TOTAL_MIX) and until_fair else 0
    for _ in range(MIX_RETRIES):
        if not search.best_cost[st : st + worst].any() or search.hit_time_limit:
            break
        # a count that far off is left: again from the best plan, longer and cooler; no
        # further try when one finds nothing better (groups that force the counts, e.g.
        # places that can only ever meet the same three delegations, took 30 s a try)
        before = search.best_cost[st : st + worst].copy()
        search.restore_best()
        done += cool(2 * steps, t_start / 2, t_end)
        if not (search.best_cost[st : st + worst] < before).any():
            break
    search.restore_best()
    return done


def describe(goal: int, cost: np.ndarray, seg: np.ndarray) -> str:
    """A short human line for a goal's entries (progress logs)."""
    st = seg[goal, START]
    values = cost[st : st + seg[goal, ACTIVE]]
    if goal in (REPEATS, COMPATRIOTS, BACK_TO_BACK):
        return f"{round(float(values[0]), 6) + 0.0:g}"
    if goal in (INDIRECT, COUNTRIES):
        nz = [(c, int(v)) for c, v in enumerate(values) if v]
        what = "common opponents" if goal == INDIRECT else "countries met"
        who = "pairs" if goal == INDIRECT else "players"
        if not nz:
            return f"fewest {what} {len(values)} or more"
        return f"fewest {what} {nz[0][0]} ({nz[0][1]} {who})"
    return ("counts outside fair share by 3+ (sum of gap - 2)/2/1: "
            + "/".join(str(int(v)) for v in values))


@kernel
def _fresh(plan, pos, metbits, h, x, y, x2, y2):
    """True if the exchange in hanchan h makes nobody meet an opponent or compatriot again.

    x (and x2) move to y's table, y (and y2) to x's table.
    """
    S = plan.shape[2]
    gx = pos[h, x] // S
    gy = pos[h, y] // S
    for s in range(S):
        b = plan[h, gy, s]
        a = plan[h, gx, s]
        if b == y or b == y2 or a == x or a == x2:
            continue
        if _met(metbits, x, b) or _met(metbits, y, a):
            return False
        if x2 >= 0 and (_met(metbits, x2, b) or _met(metbits, y2, a)):
            return False
    return True


@kernel
def _two_tables(plan, pos, h, x, y, x2, y2, vec):
    """The places of the two tables of an exchange in hanchan h (x, x2 move to y's table,
    y, y2 to x's) for the quick tests below: vec[0] the places, vec[1] their table before
    (0: x's, 1: y's), vec[2] after."""
    S = plan.shape[2]
    gx = pos[h, x] // S
    gy = pos[h, y] // S
    mem = vec[0]
    side = vec[1]
    newside = vec[2]
    for s in range(S):
        mem[s] = plan[h, gx, s]
        mem[S + s] = plan[h, gy, s]
        side[s] = 0
        side[S + s] = 1
        newside[s] = 0
        newside[S + s] = 1
    for i in range(2 * S):
        if mem[i] == x or mem[i] == x2:
            newside[i] = 1
        elif mem[i] == y or mem[i] == y2:
            newside[i] = 0


@kernel
def _countries_floor_kept(plan, country, ccount, cmet, floor, vec):
    """False if the exchange laid out in vec by _two_tables leaves a place of the two
    tables below `floor` countries met (a quick test before the full evaluation)."""
    S = plan.shape[2]
    mem = vec[0]
    side = vec[1]
    newside = vec[2]
    lc = vec[3]  # the countries whose count at u's table changes, and by how much
    ls = vec[4]
    for i in range(2 * S):
        u = mem[i]
        if cmet[u] > floor + 2 * (S - 1):
            continue
        nl = 0
        for j in range(2 * S):
            if j == i:
                continue
            was = side[j] == side[i]
            now = newside[j] == newside[i]
            c = country[mem[j]]
            if was == now or c == country[u]:
                continue
            t = 0
            while t < nl and lc[t] != c:
                t += 1
            if t == nl:
                lc[t] = c
                ls[t] = 0
                nl += 1
            ls[t] += 1 if now else -1
        v = cmet[u]
        for t in range(nl):
            before = ccount[u, lc[t]]
            v += (before + ls[t] > 0) - (before > 0)
        if v < floor:
            return False
    return True


@kernel
def _mix_kept(plan, pclass, day_of, mix, mix_total, tgt, tgt_total, h, which, vec):
    """False if the exchange in hanchan h laid out in vec by _two_tables takes a place of the
    two tables 2 or more off a fair share of a size class: of its day (which & 1) or of the
    event (which & 2). A quick test before the full evaluation, exact for a class mix
    locked with nobody 2 off."""
    S = plan.shape[2]
    K = mix.shape[2]
    d = day_of[h]
    mem = vec[0]
    side = vec[1]
    newside = vec[2]
    change = vec[3]
    for i in range(2 * S):
        u = mem[i]
        for k in range(K):
            change[k] = 0
        for j in range(2 * S):
            if j == i:
                continue
            if side[j] == side[i]:
                change[pclass[mem[j]]] -= 1
            if newside[j] == newside[i]:
                change[pclass[mem[j]]] += 1
        for k in range(K):
            if change[k] == 0:
                continue
            if which & 1 and _excess(mix[u, d, k] + change[k], tgt[u, d, k]) >= 2:
                return False
            if which & 2 and _excess(mix_total[u, k] + change[k], tgt_total[u, k]) >= 2:
                return False
    return True


# A generator for the annealing's steps: xorshift64 (Marsaglia), inlined, about a quarter
# of the step time below numpy's (np.random in compiled code); seeded from np.random, so
# the event's seed still fixes every draw.


@fast
def _next(rng):
    x = rng[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    rng[0] = x
    return x


@fast
def _below(rng, n):
    """A number in 0..n-1 (n < 2**32): the upper 32 bits scaled, bias below n / 2**32."""
    return np.int64(((_next(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@fast
def _unit(rng):
    """A number in [0, 1)."""
    return (_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _draws(rng, n, count):
    """`count` draws of _below(rng, n), or of _unit(rng) when n is 0 (for the tests)."""
    out = np.empty(count)
    for i in range(count):
        out[i] = _below(rng, n) if n > 0 else _unit(rng)
    return out


@njit(cache=True)
def anneal(ev, st, seg, active, work, cost, moves, hard, lock, locklen, weights, t_start, t_end,
           counters, best_cost, best_plan, best_key, stats, fresh_only, compat_share, members,
           cstart, floor, focus, mixlock, area_tables, area_span):
    """Simulated annealing on the weighted cost, never leaving the locks.

    A step is a random swap of two places with the same seat key in one hanchan.
    focus: the goal annealed. For back to back, B2B_FOCUS of the swaps start from a place
    listed (every B2B_REFRESH steps) as meeting a country twice in a row; for the class
    mixes, MIX_FOCUS of the swaps start from a place listed as 3 or more off its fair share
    of a day (in a hanchan of that day) or 2 or more off its share of the event. stats =
    [tried, accepted]. floor (countries met) and mixlock (class mixes locked with nobody 2
    off a fair share: 1 the day's, 2 the event's) are tested before the full evaluation.
    The other table of a swap is drawn among the tables of x's area (area_tables and
    area_span: see tables_by_area), so that seats keyed by area are not drawn in vain.
    """
    country, cweight, pclass, day_of, tgt, tgt_total, key, movable = ev
    (plan, pos, meet, common, ccount, cmet, mix, mix_total, low, lowcnt, lowpos, nbr, deg,
     metbits) = st
    stamp, token, touched, inset, scratch, wlist, delta, vec, mat, pairs = work
    H, G, S = plan.shape
    P = meet.shape[0]
    trial = cost.copy()
    score = 0.0
    for i in range(cost.shape[0]):
        score += weights[i] * cost[i]
    best = 0.0
    for i in range(cost.shape[0]):
        best += weights[i] * best_cost[i]
    ratio = (t_end / t_start) ** (1.0 / max(moves, 1))
    temp = t_start
    faults = np.empty(P * H, dtype=np.int64)  # p * H + h (back to back), p * H + day, or p
    nfault = 0
    if focus == TOTAL_MIX:
        st0 = seg[TOTAL_MIX, START]
        level = 3 if cost[st0] > 0.5 else (2 if cost[st0 + 1] > 0.5 else 1)
        if level >= 2:
            for p in range(P):
                for k in range(mix_total.shape[1]):
                    if _excess(mix_total[p, k], tgt_total[p, k]) >= level:
                        faults[nfault] = p
                        nfault += 1
                        break
    if focus == DAY_MIX and cost[seg[DAY_MIX, START]] > 0.5:
        for p in range(P):
            for d in range(mix.shape[1]):
                for k in range(mix.shape[2]):
                    if _excess(mix[p, d, k], tgt[p, d, k]) >= 3:
                        faults[nfault] = p * H + d
                        nfault += 1
                        break
    if focus == BACK_TO_BACK:
        nfault = _b2b_faults(plan, pos, country, faults)
    since = 0  # steps since the list of back-to-back faults was made
    hanchans = np.empty(H, dtype=np.int64)  # the movable ones
    nmov = 0
    for h in range(H):
        if movable[h]:
            hanchans[nmov] = h
            nmov += 1
    rng = np.empty(1, dtype=np.uint64)  # the step's own generator, seeded from numpy's
    rng[0] = np.random.randint(1, 2**62)
    # when the annealed goal is not the common opponents (whose entries then weigh nothing),
    # a swap's common opponents are counted only once the swap would otherwise be accepted
    si = seg[INDIRECT, START]
    later = active[INDIRECT]
    for i in range(si, si + seg[INDIRECT, ACTIVE]):
        if weights[i] != 0.0:
            later = False
    for _ in range(moves):
        counters[0] += 1
        temp *= ratio
        stats[0] += 1
        if focus == BACK_TO_BACK:
            since += 1
            if since == B2B_REFRESH:
                nfault = _b2b_faults(plan, pos, country, faults)
                since = 0
        x = _below(rng, P)
        hf = -1
        if focus == TOTAL_MIX and nfault > 0 and _unit(rng) < MIX_FOCUS:
            x = faults[_below(rng, nfault)]  # (one fixed since is tried all the same)
        elif focus == DAY_MIX and nfault > 0 and _unit(rng) < MIX_FOCUS:
            i = _below(rng, nfault)
            x = faults[i] // H
            hf = _random_movable(movable, day_of, faults[i] % H)
        elif focus == BACK_TO_BACK and nfault > 0 and _unit(rng) < B2B_FOCUS:
            # start from a place that meets a country twice in a row (from a list made
            # every B2B_REFRESH steps: a fault removed since is tried all the same)
            i = _below(rng, nfault)
            p = faults[i] // H
            hb = faults[i] % H
            hf = hb + _below(rng, 2)
            x = p
            if _below(rng, 2) == 0:
                # or the opponent of that country
                other = hb + 1 if hf == hb else hb
                g = pos[hf, p] // S
                for s in range(S):
                    u = plan[hf, g, s]
                    if u != p and _opponents_of(plan, pos, country, p, other, country[u]) > 0:
                        x = u
        if hf >= 0 and movable[hf]:
            h = hf
        elif nmov > 0:
            h = hanchans[_below(rng, nmov)]
        else:
            continue
        gx = pos[h, x] // S
        x2 = -1
        y2 = -1
        compat = compat_share > 0.0 and _unit(rng) < compat_share
        if compat:
            # a compatriot of x: other places see the same country either way
            y = members[cstart[country[x]] + _below(rng, cstart[country[x] + 1]
                                                    - cstart[country[x]])]
            if y == x or key[h, y] != key[h, x] or pos[h, y] // S == gx:
                continue
            gy = pos[h, y] // S
        else:
            # another table of x's area (with one area the same draw as among all)
            lo = area_span[h, gx, 0]
            n = area_span[h, gx, 1] - lo
            if n < 2:
                continue
            i = _below(rng, n - 1)
            if i >= area_span[h, gx, 2] - lo:
                i += 1
            gy = area_tables[h, lo + i]
            # the place of x's wind at the other table (any place when seats are free)
            y = (plan[h, gy, pos[h, x] % S] if key[h, x] >= 0
                 else plan[h, gy, _below(rng, S)])
            if key[h, y] != key[h, x]:
                continue  # a guard: same area and seat give the same key
        if not compat and key[h, x] >= 0 and _unit(rng) < 0.5:
            k2 = _below(rng, S - 1)
            if k2 >= pos[h, x] % S:
                k2 += 1
            x2 = plan[h, gx, k2]
            y2 = plan[h, gy, k2]
        if fresh_only and not _fresh(plan, pos, metbits, h, x, y, x2, y2):
            continue
        if floor > 0 or mixlock > 0:
            _two_tables(plan, pos, h, x, y, x2, y2, vec)
        if floor > 0 and not _countries_floor_kept(plan, country, ccount, cmet, floor, vec):
            continue
        if mixlock > 0 and not _mix_kept(plan, pclass, day_of, mix, mix_total, tgt,
                                         tgt_total, h, mixlock, vec):
            continue
        evaluate(ev, st, seg, active, work, h, x, y, x2, y2, not later)
        for i in range(cost.shape[0]):
            trial[i] = cost[i] + delta[i]
        if not _admissible(trial, lock, locklen, seg, hard):
            continue
        d = 0.0
        for i in range(cost.shape[0]):
            d += weights[i] * delta[i]
        if d > 1e-12 and _unit(rng) >= np.exp(-d / temp):
            continue
        if later:
            # the common opponents, the dearest part, only for a swap otherwise accepted
            _indirect_delta(st, seg, work, 2 * S)
            for i in range(si, si + seg[INDIRECT, ACTIVE]):
                trial[i] = cost[i] + delta[i]
            if not _admissible(trial, lock, locklen, seg, hard):
                continue
        stats[1] += 1
        swap(ev, st, seg, active, cost, work, h, x, y)
        if x2 >= 0:
            swap(ev, st, seg, active, cost, work, h, x2, y2)
        score += d
        if score < best - 1e-9:
            best = score
            copy_into(best_cost, cost)
            copy_into(best_plan, plan)
            copy_into(best_key, key)
            counters[1] = counters[0]
    return best
