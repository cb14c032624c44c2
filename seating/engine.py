"""The swap search behind stages 3 and 4: lexicographic goals, delta-evaluated swaps, tabu.

A plan is an int array plan[hanchan, group, seat] of place numbers. A move swaps two places
of one hanchan that sit in different groups and share the same seat key (their planned
wind in that hanchan, or -1 when seats are free), so wind patterns survive every move.

The goals form one cost vector, compared lexicographically (earlier entries first):

  0 repeats      sum over non-compatriot pairs of C(m, 2), m = meetings (0 iff no repeat;
                 convex, so unavoidable repeats spread evenly)
  1 compatriots  sum over compatriot pairs of weight * C(m + 1, 2): compatriots count as
                 having met once already; weight = (largest / own delegation)^2
  2 indirect     for c = 0 .. TC-1: number of pairs that never meet and have exactly c
                 common opponents (c = 0 are the unlinked pairs)
  3 countries    for v = 0 .. CC-1: number of players who met exactly v other countries;
                 then -(total countries met) as a gradient
  4 day mix      number of (player, day, size class) opponent counts 3+, 2 and 1 outside
                 [floor, ceil] of the player's fair share; then the sum of squared gaps
  5 total mix    the same over the whole event
  6 back to back number of (player, hanchan) where a country met is met again next hanchan

Each goal's "figure" entries can be locked: later goals are then searched only among plans
that are not lexicographically worse on the locked prefix (up to the goal's first nonzero
entry), so a lower goal never costs a higher one. Gradient entries are never locked.

Every swap is evaluated incrementally: the meeting matrix, the common-opponent matrix
(updated only along the rows of the six pairs that start or stop meeting), the
country-met counts, the class mix and the back-to-back flags of the eight players at the
two tables change, and the delta of every entry is collected on the way. Undoing a swap is
the same swap again.
"""

from __future__ import annotations

import numpy as np
from numba import njit

REPEATS, COMPATRIOTS, INDIRECT, COUNTRIES, DAY_MIX, TOTAL_MIX, BACK_TO_BACK = range(7)
GOAL_NAMES = ("repeats", "compatriots", "indirect", "countries", "day_mix", "total_mix", "back_to_back")
NGOALS = 7


def layout(tc: int, cc: int) -> np.ndarray:
    """Start, number of figure entries and number of gradient entries of every goal."""
    sizes = [(1, 0), (1, 0), (tc, 0), (cc, 1), (3, 1), (3, 1), (1, 0)]
    seg = np.zeros((NGOALS, 3), dtype=np.int64)
    start = 0
    for g, (fig, grad) in enumerate(sizes):
        seg[g] = (start, fig, grad)
        start += fig + grad
    return seg


# ----------------------------------------------------------------------------------
# State: one tuple of arrays, built by `new_state` and kept consistent by `swap`.
# ----------------------------------------------------------------------------------


@njit(cache=True)
def _b2b(plan, pos, country, p, h):
    """1 if a country p meets at hanchan h is met again at h + 1."""
    S = plan.shape[2]
    g0 = pos[h, p] // S
    g1 = pos[h + 1, p] // S
    for s0 in range(S):
        u = plan[h, g0, s0]
        if u == p:
            continue
        for s1 in range(S):
            v = plan[h + 1, g1, s1]
            if v != p and country[u] == country[v]:
                return 1
    return 0


@njit(cache=True)
def _excess(value, target):
    lo = np.floor(target)
    hi = np.ceil(target)
    if value > hi:
        return value - hi
    if value < lo:
        return lo - value
    return 0.0


@njit(cache=True)
def _add_player(sign, p, h, plan, pos, country, cmet, mix, mix_total, tgt, tgt_total, day_of,
                seg, cost, active):
    """Add (sign=+1) or remove (-1) player p's countries, mix and back-to-back entries."""
    H = plan.shape[0]
    if active[COUNTRIES]:
        st, fig, _ = seg[COUNTRIES]
        v = cmet[p]
        if v < fig:
            cost[st + v] += sign
        cost[st + fig] -= sign * v
    if active[DAY_MIX]:
        st, fig, _ = seg[DAY_MIX]
        d = day_of[h]
        for k in range(mix.shape[2]):
            e = _excess(mix[p, d, k], tgt[p, d, k])
            if e >= 3:
                cost[st] += sign
            elif e > 0:
                cost[st + 3 - int(e)] += sign
            gap = mix[p, d, k] - tgt[p, d, k]
            cost[st + fig] += sign * gap * gap
    if active[TOTAL_MIX]:
        st, fig, _ = seg[TOTAL_MIX]
        for k in range(mix_total.shape[1]):
            e = _excess(mix_total[p, k], tgt_total[p, k])
            if e >= 3:
                cost[st] += sign
            elif e > 0:
                cost[st + 3 - int(e)] += sign
            gap = mix_total[p, k] - tgt_total[p, k]
            cost[st + fig] += sign * gap * gap
    if active[BACK_TO_BACK]:
        st = seg[BACK_TO_BACK, 0]
        if h > 0:
            cost[st] += sign * _b2b(plan, pos, country, p, h - 1)
        if h < H - 1:
            cost[st] += sign * _b2b(plan, pos, country, p, h)


@njit(cache=True)
def _pair_entry(sign, u, w, meet, common, seg, cost):
    st, tc, _ = seg[INDIRECT]
    if meet[u, w] == 0:
        c = common[u, w]
        if c < tc:
            cost[st + c] += sign


@njit(cache=True)
def _touch(u, w, meet, common, stamp, token, touched, ntouched, seg, cost):
    a = min(u, w)
    b = max(u, w)
    if stamp[a, b] != token:
        stamp[a, b] = token
        _pair_entry(-1.0, a, b, meet, common, seg, cost)
        touched[ntouched, 0] = a
        touched[ntouched, 1] = b
        ntouched += 1
    return ntouched


@njit(cache=True)
def _meet_change(u, v, step, meet, common, country, cweight, seg, cost, active, stamp, token,
                 touched, ntouched):
    """Change the meeting count of pair (u, v) by step (+1/-1), keeping everything else."""
    m = meet[u, v]
    compat = country[u] == country[v]
    if compat:
        # weight * C(m + 1, 2): C(m+2,2) - C(m+1,2) = m + 1
        if step > 0:
            cost[seg[COMPATRIOTS, 0]] += cweight[country[u]] * (m + 1)
        else:
            cost[seg[COMPATRIOTS, 0]] -= cweight[country[u]] * m
    else:
        if step > 0:
            cost[seg[REPEATS, 0]] += m
        else:
            cost[seg[REPEATS, 0]] -= m - 1
    flips = (m == 0 and step > 0) or (m == 1 and step < 0)
    if flips and active[INDIRECT]:
        P = meet.shape[0]
        ntouched = _touch(u, v, meet, common, stamp, token, touched, ntouched, seg, cost)
        for w in range(P):
            if w != u and meet[v, w] > 0:
                ntouched = _touch(u, w, meet, common, stamp, token, touched, ntouched, seg, cost)
                common[u, w] += step
                common[w, u] += step
            if w != v and meet[u, w] > 0:
                ntouched = _touch(v, w, meet, common, stamp, token, touched, ntouched, seg, cost)
                common[v, w] += step
                common[w, v] += step
    meet[u, v] += step
    meet[v, u] += step
    return ntouched


@njit(cache=True)
def _count_change(p, c, step, country, ccount, cmet):
    if c == country[p]:
        ccount[p, c] += step
        return
    before = ccount[p, c]
    ccount[p, c] += step
    if before == 0 and step > 0:
        cmet[p] += 1
    elif before == 1 and step < 0:
        cmet[p] -= 1


@njit(cache=True)
def swap(h, x, y, plan, pos, country, cweight, pclass, day_of, meet, common, ccount, cmet, mix,
         mix_total, tgt, tgt_total, seg, cost, active, stamp, token, touched):
    """Swap places x and y (different groups) in hanchan h; cost is updated in place.

    Returns nothing; call with the same x, y again to undo exactly.
    """
    S = plan.shape[2]
    gx = pos[h, x] // S
    sx = pos[h, x] % S
    gy = pos[h, y] // S
    sy = pos[h, y] % S
    others = np.empty(2 * (S - 1), dtype=np.int64)
    n = 0
    for s in range(S):
        if s != sx:
            others[n] = plan[h, gx, s]
            n += 1
    for s in range(S):
        if s != sy:
            others[n] = plan[h, gy, s]
            n += 1
    k = S - 1
    # remove the eight players' per-player entries
    _add_player(-1.0, x, h, plan, pos, country, cmet, mix, mix_total, tgt, tgt_total, day_of,
                seg, cost, active)
    _add_player(-1.0, y, h, plan, pos, country, cmet, mix, mix_total, tgt, tgt_total, day_of,
                seg, cost, active)
    for i in range(2 * k):
        _add_player(-1.0, others[i], h, plan, pos, country, cmet, mix, mix_total, tgt, tgt_total,
                    day_of, seg, cost, active)
    # meetings (and common opponents)
    nt = 0
    for i in range(k):
        a = others[i]
        b = others[k + i]
        nt = _meet_change(x, a, -1, meet, common, country, cweight, seg, cost, active, stamp, token,
                          touched, nt)
        nt = _meet_change(y, b, -1, meet, common, country, cweight, seg, cost, active, stamp, token,
                          touched, nt)
    for i in range(k):
        a = others[i]
        b = others[k + i]
        nt = _meet_change(x, b, 1, meet, common, country, cweight, seg, cost, active, stamp, token,
                          touched, nt)
        nt = _meet_change(y, a, 1, meet, common, country, cweight, seg, cost, active, stamp, token,
                          touched, nt)
    for i in range(nt):
        _pair_entry(1.0, touched[i, 0], touched[i, 1], meet, common, seg, cost)
    # the plan
    plan[h, gx, sx] = y
    plan[h, gy, sy] = x
    pos[h, x] = gy * S + sy
    pos[h, y] = gx * S + sx
    # countries met and class mix
    d = day_of[h]
    cx = country[x]
    cy = country[y]
    kx = pclass[x]
    ky = pclass[y]
    for i in range(k):
        a = others[i]
        b = others[k + i]
        _count_change(x, country[a], -1, country, ccount, cmet)
        _count_change(x, country[b], 1, country, ccount, cmet)
        _count_change(y, country[b], -1, country, ccount, cmet)
        _count_change(y, country[a], 1, country, ccount, cmet)
        _count_change(a, cx, -1, country, ccount, cmet)
        _count_change(a, cy, 1, country, ccount, cmet)
        _count_change(b, cy, -1, country, ccount, cmet)
        _count_change(b, cx, 1, country, ccount, cmet)
        ka = pclass[a]
        kb = pclass[b]
        mix[x, d, ka] -= 1
        mix[x, d, kb] += 1
        mix[y, d, kb] -= 1
        mix[y, d, ka] += 1
        mix[a, d, kx] -= 1
        mix[a, d, ky] += 1
        mix[b, d, ky] -= 1
        mix[b, d, kx] += 1
        mix_total[x, ka] -= 1
        mix_total[x, kb] += 1
        mix_total[y, kb] -= 1
        mix_total[y, ka] += 1
        mix_total[a, kx] -= 1
        mix_total[a, ky] += 1
        mix_total[b, ky] -= 1
        mix_total[b, kx] += 1
    _add_player(1.0, x, h, plan, pos, country, cmet, mix, mix_total, tgt, tgt_total, day_of,
                seg, cost, active)
    _add_player(1.0, y, h, plan, pos, country, cmet, mix, mix_total, tgt, tgt_total, day_of,
                seg, cost, active)
    for i in range(2 * k):
        _add_player(1.0, others[i], h, plan, pos, country, cmet, mix, mix_total, tgt, tgt_total,
                    day_of, seg, cost, active)


# ----------------------------------------------------------------------------------
# Building the state from scratch
# ----------------------------------------------------------------------------------


@njit(cache=True)
def _recount(plan, pos, country, ncountries, cweight, pclass, day_of, ndays, nclasses, tgt,
             tgt_total, seg, active):
    H, G, S = plan.shape
    P = pos.shape[1]
    meet = np.zeros((P, P), dtype=np.int16)
    ccount = np.zeros((P, ncountries), dtype=np.int16)
    mix = np.zeros((P, ndays, nclasses), dtype=np.int16)
    mix_total = np.zeros((P, nclasses), dtype=np.int16)
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
    cmet = np.zeros(P, dtype=np.int64)
    for p in range(P):
        for c in range(ncountries):
            if c != country[p] and ccount[p, c] > 0:
                cmet[p] += 1
    return meet, ccount, cmet, mix, mix_total


@njit(cache=True)
def _full_cost(plan, pos, country, cweight, meet, common, cmet, mix, mix_total, tgt, tgt_total,
               day_of, seg, active):
    H = plan.shape[0]
    P = meet.shape[0]
    cost = np.zeros(seg[-1, 0] + seg[-1, 1] + seg[-1, 2], dtype=np.float64)
    for u in range(P):
        for w in range(u + 1, P):
            m = meet[u, w]
            if country[u] == country[w]:
                cost[seg[COMPATRIOTS, 0]] += cweight[country[u]] * (m + 1) * m / 2
            else:
                cost[seg[REPEATS, 0]] += m * (m - 1) / 2
            if active[INDIRECT]:
                _pair_entry(1.0, u, w, meet, common, seg, cost)
    for p in range(P):
        # countries and total mix once per player, day mix once per day, b2b per hanchan
        if active[COUNTRIES]:
            st, fig, _ = seg[COUNTRIES]
            if cmet[p] < fig:
                cost[st + cmet[p]] += 1
            cost[st + fig] -= cmet[p]
        if active[DAY_MIX]:
            st, fig, _ = seg[DAY_MIX]
            for d in range(mix.shape[1]):
                for k in range(mix.shape[2]):
                    e = _excess(mix[p, d, k], tgt[p, d, k])
                    if e >= 3:
                        cost[st] += 1
                    elif e > 0:
                        cost[st + 3 - int(e)] += 1
                    gap = mix[p, d, k] - tgt[p, d, k]
                    cost[st + fig] += gap * gap
        if active[TOTAL_MIX]:
            st, fig, _ = seg[TOTAL_MIX]
            for k in range(mix_total.shape[1]):
                e = _excess(mix_total[p, k], tgt_total[p, k])
                if e >= 3:
                    cost[st] += 1
                elif e > 0:
                    cost[st + 3 - int(e)] += 1
                gap = mix_total[p, k] - tgt_total[p, k]
                cost[st + fig] += gap * gap
        if active[BACK_TO_BACK]:
            for h in range(H - 1):
                cost[seg[BACK_TO_BACK, 0]] += _b2b(plan, pos, country, p, h)
    return cost


class State:
    """All arrays of one plan under search, plus the event data the goals need."""

    def __init__(self, plan, key, movable, country, cweight, pclass, day_of, tgt, tgt_total,
                 tc, cc, active):
        self.plan = np.ascontiguousarray(plan, dtype=np.int64)
        H, G, S = self.plan.shape
        P = G * S
        self.key = np.ascontiguousarray(key, dtype=np.int64)
        self.movable = np.ascontiguousarray(movable, dtype=np.bool_)
        self.country = np.ascontiguousarray(country, dtype=np.int64)
        self.cweight = np.ascontiguousarray(cweight, dtype=np.float64)
        self.pclass = np.ascontiguousarray(pclass, dtype=np.int64)
        self.day_of = np.ascontiguousarray(day_of, dtype=np.int64)
        self.tgt = np.ascontiguousarray(tgt, dtype=np.float64)
        self.tgt_total = np.ascontiguousarray(tgt_total, dtype=np.float64)
        self.seg = layout(tc, cc)
        self.active = np.ascontiguousarray(active, dtype=np.bool_)
        self.pos = np.zeros((H, P), dtype=np.int64)
        self.stamp = np.zeros((P, P), dtype=np.int64)
        self.token = np.zeros(1, dtype=np.int64)
        self.touched = np.zeros((24 * P + 64, 2), dtype=np.int64)
        self.recount()

    def recount(self):
        ncountries = int(self.country.max()) + 1
        self.meet, self.ccount, self.cmet, self.mix, self.mix_total = _recount(
            self.plan, self.pos, self.country, ncountries, self.cweight, self.pclass, self.day_of,
            self.tgt.shape[1], self.tgt.shape[2], self.tgt, self.tgt_total, self.seg, self.active)
        adj = (self.meet > 0).astype(np.int32)
        self.common = (adj @ adj).astype(np.int16)
        np.fill_diagonal(self.common, 0)
        self.cost = _full_cost(self.plan, self.pos, self.country, self.cweight, self.meet,
                               self.common, self.cmet, self.mix, self.mix_total, self.tgt,
                               self.tgt_total, self.day_of, self.seg, self.active)

    def swap(self, h, x, y):
        self.token[0] += 1
        swap(h, x, y, self.plan, self.pos, self.country, self.cweight, self.pclass, self.day_of,
             self.meet, self.common, self.ccount, self.cmet, self.mix, self.mix_total, self.tgt,
             self.tgt_total, self.seg, self.cost, self.active, self.stamp, self.token[0],
             self.touched)

    def goal(self, g: int) -> np.ndarray:
        st, fig, grad = self.seg[g]
        return self.cost[st : st + fig + grad]


# ----------------------------------------------------------------------------------
# The search
# ----------------------------------------------------------------------------------


@njit(cache=True)
def seed_rng(seed):
    np.random.seed(seed)


@njit(cache=True)
def _compare(a, b):
    """-1, 0 or 1: lexicographic order of two cost vectors (tiny float noise ignored)."""
    for i in range(a.shape[0]):
        if a[i] < b[i] - 1e-9:
            return -1
        if a[i] > b[i] + 1e-9:
            return 1
    return 0


@njit(cache=True)
def _admissible(cost, lock, locklen, seg, hard):
    """False if any hard goal is lexicographically worse than its lock."""
    for g in range(seg.shape[0]):
        if not hard[g]:
            continue
        st = seg[g, 0]
        for i in range(st, st + locklen[g]):
            if cost[i] < lock[i] - 1e-9:
                break
            if cost[i] > lock[i] + 1e-9:
                return False
    return True


@njit(cache=True)
def _random_movable(movable):
    H = movable.shape[0]
    n = 0
    pick = -1
    for h in range(H):
        if movable[h]:
            n += 1
            if np.random.randint(n) == 0:
                pick = h
    return pick


@njit(cache=True)
def _random_movable_in_day(movable, day_of, d):
    n = 0
    pick = -1
    for h in range(movable.shape[0]):
        if movable[h] and day_of[h] == d:
            n += 1
            if np.random.randint(n) == 0:
                pick = h
    return pick


@njit(cache=True)
def pick_focus(goal, plan, pos, movable, country, day_of, meet, common, cmet, mix, mix_total,
               tgt, tgt_total, seg):
    """A place x and hanchan h involved in the worst remaining fault of one goal.

    Returns (-1, -1) when the goal has no fault left that a move could touch.
    """
    H, G, S = plan.shape
    P = meet.shape[0]
    n = 0
    x = -1
    h = -1
    if goal == REPEATS or goal == COMPATRIOTS:
        want_compat = goal == COMPATRIOTS
        u0 = -1
        w0 = -1
        for u in range(P):
            for w in range(u + 1, P):
                compat = country[u] == country[w]
                if compat != want_compat:
                    continue
                if meet[u, w] >= (1 if compat else 2):
                    n += 1
                    if np.random.randint(n) == 0:
                        u0 = u
                        w0 = w
        if u0 < 0:
            return -1, -1
        if np.random.randint(2) == 0:
            x = u0
            other = w0
        else:
            x = w0
            other = u0
        n = 0
        for hh in range(H):
            if movable[hh] and pos[hh, x] // S == pos[hh, other] // S:
                n += 1
                if np.random.randint(n) == 0:
                    h = hh
        return x, h
    if goal == INDIRECT:
        tc = seg[INDIRECT, 1]
        low = tc
        for u in range(P):
            for w in range(u + 1, P):
                if meet[u, w] == 0 and common[u, w] < low:
                    low = common[u, w]
        if low >= tc:
            return -1, -1
        u0 = -1
        w0 = -1
        for u in range(P):
            for w in range(u + 1, P):
                if meet[u, w] == 0 and common[u, w] == low:
                    n += 1
                    if np.random.randint(n) == 0:
                        u0 = u
                        w0 = w
        x = u0 if np.random.randint(2) == 0 else w0
        return x, _random_movable(movable)
    if goal == COUNTRIES:
        cc = seg[COUNTRIES, 1]
        low = cc
        for p in range(P):
            if cmet[p] < low:
                low = cmet[p]
        if low >= cc:
            return -1, -1
        for p in range(P):
            if cmet[p] == low:
                n += 1
                if np.random.randint(n) == 0:
                    x = p
        return x, _random_movable(movable)
    if goal == DAY_MIX:
        worst = 0.0
        for p in range(P):
            for d in range(mix.shape[1]):
                for k in range(mix.shape[2]):
                    e = _excess(mix[p, d, k], tgt[p, d, k])
                    if e > worst:
                        worst = e
        if worst == 0.0:
            return -1, -1
        dd = -1
        for p in range(P):
            for d in range(mix.shape[1]):
                for k in range(mix.shape[2]):
                    if _excess(mix[p, d, k], tgt[p, d, k]) == worst:
                        n += 1
                        if np.random.randint(n) == 0:
                            x = p
                            dd = d
        return x, _random_movable_in_day(movable, day_of, dd)
    if goal == TOTAL_MIX:
        worst = 0.0
        for p in range(P):
            for k in range(mix_total.shape[1]):
                e = _excess(mix_total[p, k], tgt_total[p, k])
                if e > worst:
                    worst = e
        if worst == 0.0:
            return -1, -1
        for p in range(P):
            for k in range(mix_total.shape[1]):
                if _excess(mix_total[p, k], tgt_total[p, k]) == worst:
                    n += 1
                    if np.random.randint(n) == 0:
                        x = p
        return x, _random_movable(movable)
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
    return x, h


@njit(cache=True)
def run(goal, moves, hard, lock, locklen, bound, plan, pos, key, movable, country, cweight,
        pclass, day_of, meet, common, ccount, cmet, mix, mix_total, tgt, tgt_total, seg, cost,
        active, stamp, token, touched, tabu, counters, best_cost, best_plan, tenure, patience):
    """Tabu search on one goal for at most `moves` moves; the best plan is kept in best_plan.

    counters = [iteration, last improvement iteration]. Returns 1 when the goal reached
    its bound (nothing left to improve), 0 otherwise.
    """
    H, G, S = plan.shape
    P = meet.shape[0]
    st = seg[goal, 0]
    fig = seg[goal, 1]
    saved = cost.copy()
    trial = cost.copy()
    chosen = cost.copy()
    delta = cost.copy()
    inset = np.zeros(2 * P, dtype=np.bool_)
    scratch = np.zeros(P, dtype=np.int64)
    wlist = np.zeros(P, dtype=np.int64)
    for _ in range(moves):
        it = counters[0]
        counters[0] += 1
        # reached the bound?
        done = True
        for i in range(st, st + fig):
            if cost[i] > bound[i] + 1e-9:
                done = False
                break
        if done:
            return 1
        x, h = pick_focus(goal, plan, pos, movable, country, day_of, meet, common, cmet, mix,
                          mix_total, tgt, tgt_total, seg)
        if x < 0 or h < 0:
            return 1
        best_y = -1
        n = 0
        gx = pos[h, x] // S
        for y in range(P):
            if key[h, y] != key[h, x] or pos[h, y] // S == gx:
                continue
            evaluate(h, x, y, plan, pos, country, cweight, pclass, day_of, meet, common, ccount,
                     cmet, mix, mix_total, tgt, tgt_total, seg, active, inset, scratch, wlist,
                     delta)
            trial[:] = cost + delta
            if not _admissible(trial, lock, locklen, seg, hard):
                continue
            if tabu[h, y] > it and _compare(trial, best_cost) >= 0:
                continue
            if best_y < 0:
                c = -1
            else:
                c = _compare(trial, chosen)
            if c < 0:
                best_y = y
                chosen[:] = trial
                n = 1
            elif c == 0:
                n += 1
                if np.random.randint(n) == 0:
                    best_y = y
        if best_y < 0:
            continue
        token[0] += 1
        swap(h, x, best_y, plan, pos, country, cweight, pclass, day_of, meet, common, ccount, cmet,
             mix, mix_total, tgt, tgt_total, seg, cost, active, stamp, token[0], touched)
        tabu[h, x] = it + tenure + np.random.randint(tenure + 1)
        tabu[h, best_y] = it + tenure + np.random.randint(tenure + 1)
        if _compare(cost, best_cost) < 0:
            best_cost[:] = cost
            best_plan[:] = plan
            counters[1] = it
        elif it - counters[1] > patience:
            # dead end: a few random admissible swaps, then carry on from there
            counters[1] = it
            for _k in range(3):
                hh = _random_movable(movable)
                if hh < 0:
                    break
                a = np.random.randint(P)
                b = np.random.randint(P)
                if a == b or key[hh, a] != key[hh, b] or pos[hh, a] // S == pos[hh, b] // S:
                    continue
                saved[:] = cost
                token[0] += 1
                swap(hh, a, b, plan, pos, country, cweight, pclass, day_of, meet, common, ccount,
                     cmet, mix, mix_total, tgt, tgt_total, seg, cost, active, stamp, token[0],
                     touched)
                if not _admissible(cost, lock, locklen, seg, hard):
                    token[0] += 1
                    swap(hh, a, b, plan, pos, country, cweight, pclass, day_of, meet, common,
                         ccount, cmet, mix, mix_total, tgt, tgt_total, seg, cost, active, stamp,
                         token[0], touched)
                    cost[:] = saved
    return 0


class Search:
    """Drives `run` goal by goal: locks, bounds, the best plan, progress and time cap."""

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
        self.tenure = tenure
        self.patience = patience
        self.hit_time_limit = False
        seed_rng(seed)

    def reached(self, goal: int) -> bool:
        st, fig, _ = self.state.seg[goal]
        return bool(np.all(self.state.cost[st : st + fig] <= self.bound[st : st + fig] + 1e-9))

    def lock_goal(self, goal: int) -> None:
        """From now on no plan may be worse on this goal's figure.

        Sums (repeats, compatriots, back to back) and the count of unlinked pairs are locked
        at their value; goals about the worst-off (fewest common opponents, fewest countries,
        largest mix gap) are locked at their worst level: the empty buckets below it must stay
        empty, while the number of items at that level may change.
        """
        st, fig, _ = self.state.seg[goal]
        values = self.state.cost[st : st + fig]
        above = np.nonzero(values > self.bound[st : st + fig] + 1e-9)[0]
        if goal in (REPEATS, COMPATRIOTS, BACK_TO_BACK) or (goal == INDIRECT and 0 in above):
            length = 1
        else:
            length = int(above[0]) if above.size else fig
        self.locklen[goal] = length
        self.lock[st : st + length] = values[:length]
        self.hard[goal] = True

    def improve(self, goal: int, moves: int, deadline: float, log, chunk: int = 250) -> int:
        """Search one goal for at most `moves` moves or until the deadline; returns moves used."""
        import time

        s = self.state
        self.best_cost[:] = s.cost
        self.best_plan[:] = s.plan
        used = 0
        last_report = None
        while used < moves:
            if time.monotonic() > deadline:
                self.hit_time_limit = True
                log(f"  {GOAL_NAMES[goal]}: time limit reached after {used} moves")
                break
            step = min(chunk, moves - used)
            start = self.counters[0]
            done = run(goal, step, self.hard, self.lock, self.locklen, self.bound, s.plan, s.pos,
                       s.key, s.movable, s.country, s.cweight, s.pclass, s.day_of, s.meet, s.common,
                       s.ccount, s.cmet, s.mix, s.mix_total, s.tgt, s.tgt_total, s.seg, s.cost,
                       s.active, s.stamp, s.token, s.touched, self.tabu, self.counters,
                       self.best_cost, self.best_plan, self.tenure, self.patience)
            used += int(self.counters[0] - start)
            st, fig, grad = s.seg[goal]
            figure = self.best_cost[st : st + fig + grad]
            report = tuple(np.round(figure, 3))
            if report != last_report:
                log(f"  {GOAL_NAMES[goal]}: move {used}: {format_goal(goal, figure)}")
                last_report = report
            if done:
                break
        s.plan[:] = self.best_plan
        s.recount()
        return used


def format_goal(goal: int, values: np.ndarray) -> str:
    """A short human line for a goal's entries (used in progress logs)."""
    if goal in (REPEATS, COMPATRIOTS, BACK_TO_BACK):
        return f"{values[0]:g}"
    if goal == INDIRECT:
        nz = [(c, int(v)) for c, v in enumerate(values) if v]
        if not nz:
            return f"every non-meeting pair has {len(values)}+ common opponents"
        return f"lowest common opponents {nz[0][0]} ({nz[0][1]} pairs)"
    if goal == COUNTRIES:
        nz = [(c, int(v)) for c, v in enumerate(values[:-1]) if v]
        if not nz:
            return "every player meets the most countries possible"
        return f"fewest countries met {nz[0][0]} ({nz[0][1]} players), total {-values[-1]:g}"
    counts = values[:3]
    return (f"outside fair share by 3+/2/1: {int(counts[0])}/{int(counts[1])}/{int(counts[2])}, "
            f"squared gaps {values[3]:.1f}")


# ----------------------------------------------------------------------------------
# Evaluating a swap without making it
# ----------------------------------------------------------------------------------


@njit(cache=True)
def _bucket(delta, st, tc, meet_zero, c, sign):
    if meet_zero and c < tc:
        delta[st + c] += sign


@njit(cache=True)
def _ctry_add(lst, n, c, step):
    for i in range(n):
        if lst[i, 0] == c:
            lst[i, 1] += step
            return n
    lst[n, 0] = c
    lst[n, 1] = step
    return n + 1


@njit(cache=True)
def evaluate(h, x, y, plan, pos, country, cweight, pclass, day_of, meet, common, ccount, cmet,
             mix, mix_total, tgt, tgt_total, seg, active, inset, scratch, touched, delta):
    """Delta of every cost entry if places x and y swapped groups in hanchan h.

    Nothing of the state changes (inset/scratch/touched are zeroed work arrays). Common
    opponents change only through pairs inside the two tables ("the set"): for u in the set
    and w outside, the change is sum over z in the set of D[u, z] * adj[z, w], D being the
    change of adjacency; pairs inside the set are recounted over the set.
    inset has 2P entries (the second half marks listed neighbours).
    """
    H, G, S = plan.shape
    P = pos.shape[1]
    n = 2 * S
    delta[:] = 0.0
    gx = pos[h, x] // S
    sx = pos[h, x] % S
    gy = pos[h, y] // S
    sy = pos[h, y] % S
    listed = inset[P:]
    mem = np.empty(n, dtype=np.int64)  # x, A..., y, B...
    side = np.empty(n, dtype=np.int64)  # 0: x's table, 1: y's table
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
    for i in range(n):
        side[i] = 0 if i < S else 1
        inset[mem[i]] = True
    # new table of each member: x and y change sides
    newside = side.copy()
    newside[0] = 1
    newside[S] = 0
    # meeting counts inside the set, old and new
    old = np.zeros((n, n), dtype=np.int64)
    new = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        for j in range(n):
            if i != j:
                m = meet[mem[i], mem[j]]
                old[i, j] = m
                new[i, j] = m - (1 if side[i] == side[j] else 0) + (
                    1 if newside[i] == newside[j] else 0)
    # repeats and compatriots
    for i in range(n):
        for j in range(i + 1, n):
            if old[i, j] == new[i, j]:
                continue
            u = mem[i]
            w = mem[j]
            m0 = old[i, j]
            m1 = new[i, j]
            if country[u] == country[w]:
                delta[seg[COMPATRIOTS, 0]] += cweight[country[u]] * (
                    (m1 + 1) * m1 / 2 - (m0 + 1) * m0 / 2)
            else:
                delta[seg[REPEATS, 0]] += m1 * (m1 - 1) / 2 - m0 * (m0 - 1) / 2
    if active[INDIRECT]:
        st, tc, _ = seg[INDIRECT]
        # pairs inside the set
        for i in range(n):
            for j in range(i + 1, n):
                u = mem[i]
                w = mem[j]
                c0 = common[u, w]
                c1 = c0
                for q in range(n):
                    if q == i or q == j:
                        continue
                    c1 += (1 if new[i, q] > 0 and new[q, j] > 0 else 0) - (
                        1 if old[i, q] > 0 and old[q, j] > 0 else 0)
                _bucket(delta, st, tc, old[i, j] == 0, c0, -1.0)
                _bucket(delta, st, tc, new[i, j] == 0, c1, 1.0)
        # pairs (u, w) with w outside the set
        for i in range(n):
            u = mem[i]
            nt = 0
            for q in range(n):
                dq = (1 if new[i, q] > 0 else 0) - (1 if old[i, q] > 0 else 0)
                if q == i or dq == 0:
                    continue
                z = mem[q]
                # the neighbours of z (once each), outside the set
                for hh in range(H):
                    g = pos[hh, z] // S
                    for s in range(S):
                        w = plan[hh, g, s]
                        if w == z or inset[w]:
                            continue
                        if meet[z, w] > 1:
                            first = True
                            for h2 in range(hh):
                                if pos[h2, w] // S == pos[h2, z] // S:
                                    first = False
                                    break
                            if not first:
                                continue
                        if not listed[w]:
                            listed[w] = True
                            touched[nt] = w
                            nt += 1
                        scratch[w] += dq
            for t in range(nt):
                w = touched[t]
                dc = scratch[w]
                scratch[w] = 0
                listed[w] = False
                if dc != 0 and meet[u, w] == 0:
                    c0 = common[u, w]
                    _bucket(delta, st, tc, True, c0, -1.0)
                    _bucket(delta, st, tc, True, c0 + dc, 1.0)
    # per-player goals: countries, class mix, back to back
    lst = np.zeros((2 * S, 2), dtype=np.int64)
    dk = np.zeros(mix.shape[2], dtype=np.int64)
    d = day_of[h]
    for i in range(n):
        u = mem[i]
        # opponents lost and gained at h
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
            st, fig, _ = seg[COUNTRIES]
            v0 = cmet[u]
            v1 = v0
            for t in range(nl):
                c = lst[t, 0]
                if c == country[u] or lst[t, 1] == 0:
                    continue
                before = ccount[u, c]
                after = before + lst[t, 1]
                v1 += (1 if after > 0 else 0) - (1 if before > 0 else 0)
            if v1 != v0:
                if v0 < fig:
                    delta[st + v0] -= 1
                if v1 < fig:
                    delta[st + v1] += 1
                delta[st + fig] -= v1 - v0
        if active[DAY_MIX]:
            st, fig, _ = seg[DAY_MIX]
            for kk in range(dk.shape[0]):
                if dk[kk] == 0:
                    continue
                a0 = mix[u, d, kk]
                a1 = a0 + dk[kk]
                t0 = tgt[u, d, kk]
                e0 = _excess(a0, t0)
                e1 = _excess(a1, t0)
                if e0 >= 3:
                    delta[st] -= 1
                elif e0 > 0:
                    delta[st + 3 - int(e0)] -= 1
                if e1 >= 3:
                    delta[st] += 1
                elif e1 > 0:
                    delta[st + 3 - int(e1)] += 1
                delta[st + fig] += (a1 - t0) ** 2 - (a0 - t0) ** 2
        if active[TOTAL_MIX]:
            st, fig, _ = seg[TOTAL_MIX]
            for kk in range(dk.shape[0]):
                if dk[kk] == 0:
                    continue
                a0 = mix_total[u, kk]
                a1 = a0 + dk[kk]
                t0 = tgt_total[u, kk]
                e0 = _excess(a0, t0)
                e1 = _excess(a1, t0)
                if e0 >= 3:
                    delta[st] -= 1
                elif e0 > 0:
                    delta[st + 3 - int(e0)] -= 1
                if e1 >= 3:
                    delta[st] += 1
                elif e1 > 0:
                    delta[st + 3 - int(e1)] += 1
                delta[st + fig] += (a1 - t0) ** 2 - (a0 - t0) ** 2
        if active[BACK_TO_BACK]:
            st = seg[BACK_TO_BACK, 0]
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
                delta[st] += hit1 - hit0
    for i in range(n):
        inset[mem[i]] = False
