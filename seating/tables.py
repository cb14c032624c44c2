"""Stage 6, tables: a different table every hanchan, areas in proportion, area changes.

With the groups and their winds fixed:

1. Areas. Every player must sit in each area within 1 of its fair share over the event
   (share = hanchans x the area's part of the tables). Groups drafted over area patterns
   (`area_patterns`, below) already sit in their tables' areas and keep them
   (`pattern_areas`). Otherwise which groups sit in which area in
   each hanchan is found by a tabu search on the players off their share (_area_tabu),
   run AREA_STARTS times with other seeds (when none meets every share, the best two go on
   for more iterations, AREA_RETRIES rounds at most). The best DAY_STARTS of them (fewest
   players off their share, then fewest counts off a day's share, then fewest players in
   the same area twice in a row) go on to a tabu search of the day shares and then of the
   same area twice in a row (_day_tabu), which may break an event share on the way but
   keeps only choices that meet them all; the best by the same order is kept (the
   numbering below hardly moves a group to another area).
2. Table numbers. Each hanchan's groups get their table numbers from the Hungarian method
   (scipy's linear_sum_assignment), which solves that matching exactly, groups kept in
   their area.
3. Hanchans are then renumbered while that improves the plan: annealed swaps of two groups'
   tables in one hanchan, then one hanchan at a time by the Hungarian method given all
   the others. The cost of one player, in this order of weight:

   a. sitting at a table again (spec: a different table every hanchan),
   b. leaving [floor, ceil] of an area's fair share over the event,
   c. leaving it within a day (spec: "as far as possible, on each day"),
   d. the same area as in the hanchan before (spec: "where possible").
4. When every player could see a new table each hanchan (no more hanchans than tables)
   but a table is still seen twice, or the annealing gave up an area share for a table,
   all hanchans are renumbered at once by an integer program (tables_without_repeats),
   each group in the area chosen in step 1 (with three areas or more, if that fails, the
   groups of all but the largest area at any of those areas' tables, every event share
   held; for a repeat, if that fails too, the same from the area it now sits in), and
   swept again.
5. If that finds nothing in its time, a guided local search of per-hanchan Hungarian
   renumberings (_guided_tables) goes on from the numbering of step 2 with every area
   share held (a count off a share outweighing any table); where it leaves a table seen
   twice, a tabu search (Tabucol) numbers each area's groups at that area's tables alone
   (_tabu_by_area); either is kept if it leaves no table seen twice.
6. If a table is still seen twice there, the tables are numbered nearly alone (the event
   shares weighed lightly): annealed, then, while a table is seen twice, searched by the
   guided search of step 5 with the shares weighed lightly too; the areas are then
   annealed and swept without giving up a table, and the result kept if it is better by
   the order of the rules.
7. If a table is still seen twice or a share missed (two areas or more), the same tabu
   search with the event shares in its cost, groups free to change area, from random
   numberings (_joint_tables); a numbering that meets both is annealed and swept as in
   step 6 and kept if it is better by the order of the rules.

Area patterns. With small areas, or shares that leave each player two or three count
patterns, groups built for the winds alone may admit no area choice at all (then it is an
exact cover of the players by groups; benchmarks/unseen.py found 6 of 10 random
multi-area events so, each 1.07-1.32 off a share). So the draft tests its groups
(`areas_fit`, one short area search) and, if they fail, chooses an area for every place in
every hanchan first (`area_patterns`: each area gets, of every wind, one place per table;
every place within its event shares, then its day shares, then as few places as possible
in the same area twice in a row; no country with more places in an area than the area has
tables; in an area of two tables, the places there twice link no hanchans in a cycle where
they can, so either table choice of a hanchan can be kept: `_pair_cycles`) and seats every
table from places of its area; the seat keys then hold the area too, so no swap moves a
place to another area. The meeting rules outrank the areas: if the
swap stage cannot meet them so, it searches on with the winds alone (seating.swaps).
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit

from .bounds import area_shares, share_limits, share_range
from .event import Event
from .jit import copy_into, fast, kernel, pick

W_TABLE, W_EVENT, W_DAY, W_NEXT = 1e8, 1e5, 1e2, 1.0
MISSED_TABLE = 1  # a table seen again (the check's table_repeats, sum of visits - 1) adds
# this to the spread of repeats (sum of C(visits, 2)): of two ways to spread 8 hanchans over
# 5 tables as evenly, (3, 2, 1, 1, 1) then beats (2, 2, 2, 2, 0), which leaves a table unseen;
# larger weights froze the annealing on 32 x 9 (54 repeats instead of 48)
W_KEEP = 1e12  # the first numbering keeps every group in the area chosen for balance
W_STAY = 2e4  # re-planning: a group leaving its earlier table (between event and day shares)
STAY_PER_FAULT = 3  # re-planning, table annealing: groups moved worth one area share fixed
AREA_STARTS = 8  # a new plan: area searches, the best kept by (players off their event share,
# counts off a day's share, same area twice in a row); 16 searches on the default event's
# groups ranged over 477-577 counts off a day's share and 1010-1101 repeated areas
AREA_RETRIES = 3  # when no start meets every event share: rounds in which the best two go on,
AREA_RETRY_ITERATIONS = 600_000  # one a thread, for this many more iterations with new seeds
# (unseen-0 of benchmarks/unseen.py's generator seed 40, 216 places over 13 hanchans in areas
# of 13, 14 and 27 tables: every start stopped 1 count off; 800,000 more met every share on 4
# of 8)
AREA_TENURE = 3  # iterations a moved group stays tabu: 3 to 5 (10 stalled on 400 players,
# also in re-planning, where moves also weigh groups leaving their earlier area: 8 places
# off a share after 2 M iterations where 3 met every share in 1.3 s; tests/test_tables.py)
DAY_ITERATIONS = 6_000  # then the day-share search of the best DAY_STARTS, on two threads
DAY_STARTS = 2  # (seed 1 of the default event: 3,000 iterations 335 counts off a day's share
# and 971 same areas, 6,000 313 and 956, 8,000 and 10,000 no better)
DAY_PATIENCE = 400  # iterations with an event share broken before those weigh twice as much
TABLES_ALONE_STEPS = 20_000_000  # steps of the numbering of tables nearly alone, when the
# area shares held tables seen twice
TABLES_ALONE_STEPS_PER_PLACE = 500_000  # and at most this many per place (small fields: the
# fuzz test's events of 16-24 places spent 149 s of its 155 in 60 M steps; 200,000 a place
# took 40 x 8's table repeats from 17 to 21)
TABLES_ALONE_SHARE = 0.02  # weight there of a count off an event area share (a table seen twice
# costs 2): scaled-100 of benchmarks/scaling.py none seen twice and an area 2.6 off its share
# (0: none and 3.4 off; 0.05 as 0.02; 0.1: 1 seen twice)
TABLES_ALONE_ATTEMPTS = 3  # runs of it (each from the last one's best) while a table is seen twice
TABLES_ALONE_HEAT = (0.4, 0.3)  # its temperatures: on scaled-100's groups, tables alone, none
# seen twice on 6 of 6 seeds in 0.2-4.4 s (0.5 to 0.3: 6 of 6 in 1.0-6.0 s; 2.0 to 0.05, as
# the tables stage's first runs: 2 of 6 in 20 M steps, 1 left on the others)
GUIDED_ROUNDS = 20_000  # budget of the guided renumbering, when the numbering of tables
# nearly alone leaves a table seen twice: rounds (16 hanchans at 25 tables: 7-13 s; below 25
# tables a round costs mostly a fixed 35 us a hanchan), and rounds x hanchans x tables^2 x
GUIDED_WORK = 800_000_000  # table size at most (1,250 rounds of 16 hanchans at 100 tables)
GUIDED_PATIENCE = 1_000  # rounds without a new best before the weights start again from 1
# (published cells' numberings, 20,000 rounds from one numbering each, 8 seeds: tables seen
# twice on average 48 x 8 6.4 -> 6.1, 52 x 8 2.5 -> 2.0, 68 x 10 0.75 -> 0.63; 2,000 rounds
# 6.0, 2.5, 0.38)
TABU_ITERATIONS = 200_000  # then, if that leaves a table seen twice, Tabucol area by area
TABU_TRIES = 8  # (_tabu_by_area): steps a try and tries an area, alpha alternating between
TABU_ALPHAS = (0.3, 0.6)  # these (unseen-0 of generator seed 43, 108 places over 15 hanchans
# in areas of 2, 12 and 13 tables, where the guided search left 1 table seen twice: every
# area numbered, in 0.2-1.3 s a try when measured apart; unseen-5 of seed 30 only from some
# random starts, not those drawn here)
JOINT_TRIES = 8  # at last, where a table is still seen twice or a share missed: the same
JOINT_PROBE = 20_000  # tabu search with the event shares in its cost, groups free to change
JOINT_PROBE_LEFT = 10  # area (_joint_tables), from random numberings; a try goes on only if
JOINT_ITERATIONS = 150_000  # near after its probe
JOINT_ALPHA = 1.0  # (unseen-0 of generator seed 46, 116 places over 16 hanchans at 29
# tables in areas of 5 and 24: none seen twice and every share met from 5 of 8 tries, 2-7
# off after the probe and then after 0, 99,000, 174,000, 271,000 and 290,000 more steps;
# unseen-3 of seed 9 and unseen-1 of seed 20 stop 34-53 off after 300,000 steps, 21-63 s a
# try; unseen-4 of seed 37: no try meets both, each of 6 other starts is 1 off after
# 300,000 steps, and 300,000 here instead of 150,000 took 87 s more instead of 44)
HELD_SHARE = 1e6  # the guided search with the areas held: weight of a count off an event share
HELD_ROUNDS = 5_000  # and its rounds (where it succeeded: 0.3-2.6 s; big-delegations-100
# and scaled-100 keep 30 and 6 tables seen twice there, 3.9 and 3.4 s)
FIRST_ATTEMPTS = 3  # first annealing runs while table repeats stay above their floor


def _outside(count: np.ndarray, share: np.ndarray) -> np.ndarray:
    lo, hi = share_range(share)
    return np.maximum(np.maximum(count - hi, lo - count), 0)


@kernel
def _gap(c, lo, hi):
    """A count's distance outside [lo, hi]."""
    return max(c - hi, lo - c, 0)


@kernel
def _move_gap(count, lo, hi, old, new):
    """Change of a player's distance outside its event shares when one hanchan moves from
    area old to area new (count, lo, hi: the player's rows, or a day's)."""
    return (_gap(count[old] - 1, lo[old], hi[old]) - _gap(count[old], lo[old], hi[old])
            + _gap(count[new] + 1, lo[new], hi[new]) - _gap(count[new], lo[new], hi[new]))


@fast
def _total_gap(count, lo, hi):
    """The counts' distance outside [lo, hi], summed over places and areas (count, lo, hi:
    [place, area])."""
    total = 0
    for p in range(count.shape[0]):
        for a in range(count.shape[1]):
            total += _gap(count[p, a], lo[p, a], hi[p, a])
    return total


@fast
def _trade_areas(count, plan, h, g1, g2, a1, a2):
    """count[p, a] (places' counts per area) after group g1 of hanchan h moves from area a1
    to a2 and group g2 from a2 to a1."""
    for s in range(plan.shape[2]):
        count[plan[h, g1, s], a1] -= 1
        count[plan[h, g1, s], a2] += 1
        count[plan[h, g2, s], a2] -= 1
        count[plan[h, g2, s], a1] += 1


@njit(cache=True, nogil=True)
def _area_tabu(plan, area, movable, lo, hi, iterations, seed, tenure, prefer, fault_weight):
    """Tabu search for each player's count per area within [lo, hi] (event shares).

    area[h, g] is the area of group g in hanchan h; a move swaps the areas of two groups of
    one hanchan, so every area keeps its number of tables. Each iteration takes a player off
    its share and the best non-tabu swap moving one of its groups (recently moved groups are
    tabu for a while, unless the move beats the best plan). With preferred areas
    (prefer[h, g] >= 0, re-planning) a swap is scored fault_weight * faults + groups away
    from their preferred area (assign_areas weighs faults first: a replaced table once left
    a player 2.1 hanchans off an area's share when three moved groups were worth a fault),
    and once every share is met the search goes on from the players of groups away from
    their preferred area, while any is. Returns the faults left.
    """
    np.random.seed(seed)
    H, G, S = plan.shape
    P = lo.shape[0]
    A = lo.shape[1]
    group_of = np.empty((P, H), dtype=np.int64)
    count = np.zeros((P, A), dtype=np.int64)
    for h in range(H):
        for g in range(G):
            for s in range(S):
                p = plan[h, g, s]
                group_of[p, h] = g
                count[p, area[h, g]] += 1

    total = _total_gap(count, lo, hi)
    away = 0
    for h in range(H):
        for g in range(G):
            if prefer[h, g] >= 0 and area[h, g] != prefer[h, g]:
                away += 1
    best = total
    best_away = away
    best_area = area.copy()
    tabu = np.zeros((H, G), dtype=np.int64)
    bad = np.empty(max(P, H * G), dtype=np.int64)
    for it in range(iterations):
        if total == 0 and away == 0:
            break
        nb = 0
        for p in range(P):
            for a in range(A):
                if count[p, a] > hi[p, a] or count[p, a] < lo[p, a]:
                    bad[nb] = p
                    nb += 1
                    break
        if nb == 0:  # every share met: on with a group away from its preferred area
            for h in range(H):
                for g in range(G):
                    if movable[h] and prefer[h, g] >= 0 and area[h, g] != prefer[h, g]:
                        bad[nb] = h * G + g
                        nb += 1
            if nb == 0:
                break  # the groups away sit in hanchans held fixed
            k = bad[np.random.randint(nb)]
            p = plan[k // G, k % G, np.random.randint(S)]
        else:
            p = bad[np.random.randint(nb)]
        best_d = 1 << 30
        best_s = 1 << 30
        best_h = -1
        best_g2 = -1
        ties = 0
        for h in range(H):
            if not movable[h]:
                continue
            g1 = group_of[p, h]
            a1 = area[h, g1]
            for g2 in range(G):
                a2 = area[h, g2]
                if a2 == a1:
                    continue
                d = 0
                for s in range(S):
                    u = plan[h, g1, s]
                    v = plan[h, g2, s]
                    d += _move_gap(count[u], lo[u], hi[u], a1, a2)
                    d += _move_gap(count[v], lo[v], hi[v], a2, a1)
                if (tabu[h, g1] > it or tabu[h, g2] > it) and (
                        fault_weight * (total + d) + away >= fault_weight * best + best_away):
                    continue
                # groups leaving (+) or reaching (-) their preferred area
                ds = 0
                if prefer[h, g1] >= 0:
                    ds += (prefer[h, g1] == a1) - (prefer[h, g1] == a2)
                if prefer[h, g2] >= 0:
                    ds += (prefer[h, g2] == a2) - (prefer[h, g2] == a1)
                score = fault_weight * d + ds
                if score < fault_weight * best_d + best_s:
                    best_d = d
                    best_s = ds
                    best_h = h
                    best_g2 = g2
                    ties = 1
                elif score == fault_weight * best_d + best_s:
                    ties += 1
                    if np.random.randint(ties) == 0:
                        best_h = h
                        best_g2 = g2
        if best_h < 0:
            continue
        h = best_h
        g1 = group_of[p, h]
        g2 = best_g2
        a1 = area[h, g1]
        a2 = area[h, g2]
        _trade_areas(count, plan, h, g1, g2, a1, a2)
        area[h, g1] = a2
        area[h, g2] = a1
        total += best_d
        away += best_s
        tabu[h, g1] = it + tenure + np.random.randint(tenure)
        tabu[h, g2] = it + tenure + np.random.randint(tenure)
        if fault_weight * total + away < fault_weight * best + best_away:
            best = total
            best_away = away
            copy_into(best_area, area)
    copy_into(area, best_area)
    return best


@kernel
def _day_excess(c, lo, hi):
    """The weight of a count e outside [lo, hi]: 4^e - 1, so one player 2 off a day's share
    (15) weighs more than five players 1 off (3 each). (Squared gaps, 1 and 4, left a player
    3 off on 2 of the default event's seeds 1-16, and 5,442 counts off a day's share against
    5,145; cubed ones 5,398.)"""
    e = _gap(c, lo, hi)
    return (1 << (2 * e)) - 1


@kernel
def _move_day(day, day_lo, day_hi, at, h, u, old, new, w_day):
    """Change of w_day x the weights of the day gaps (_day_excess; day: the player's counts
    that day) and of the same area twice in a row when player u's hanchan h moves from area
    old to area new."""
    d = (_day_excess(day[old] - 1, day_lo[old], day_hi[old])
         - _day_excess(day[old], day_lo[old], day_hi[old])
         + _day_excess(day[new] + 1, day_lo[new], day_hi[new])
         - _day_excess(day[new], day_lo[new], day_hi[new]))
    n = 0
    for hn in (h - 1, h + 1):
        if 0 <= hn < at.shape[0]:
            n += (at[hn, u] == new) - (at[hn, u] == old)
    return w_day * d + n


@njit(cache=True, nogil=True)
def _day_tabu(plan, area, movable, lo, hi, day_of, day_lo, day_hi, iterations, seed, tenure,
              w_event, w_day, patience):
    """Tabu search on the day shares of an area choice that meets every event share, then
    on players in the same area twice in a row.

    A choice meeting every event share costs w_day x (the weight of each day count's distance
    outside its day share [day_lo, day_hi], _day_excess) + players in the same area as the hanchan
    before; the search also weighs event counts outside [lo, hi], `weight` each. Each
    iteration takes a player off a share (an event share first) and makes the best non-tabu
    swap of two groups' areas in a hanchan, one of them the player's (of the day off its
    share). After `patience` iterations with an event share broken, `weight` doubles until
    all are met again, then it is w_event again. area is left at the best choice meeting
    every event share (unchanged if none beats it); returns its cost."""
    np.random.seed(seed)
    H, G, S = plan.shape
    P = lo.shape[0]
    A = lo.shape[1]
    D = day_lo.shape[0]
    group_of = np.empty((P, H), dtype=np.int64)
    count = np.zeros((P, A), dtype=np.int64)
    day = np.zeros((P, D, A), dtype=np.int64)
    at = np.empty((H, P), dtype=np.int64)
    for h in range(H):
        for g in range(G):
            for s in range(S):
                p = plan[h, g, s]
                group_of[p, h] = g
                at[h, p] = area[h, g]
                count[p, area[h, g]] += 1
                day[p, day_of[h], area[h, g]] += 1
    faults = _total_gap(count, lo, hi)
    cost = 0
    for p in range(P):
        for h in range(1, H):
            cost += at[h, p] == at[h - 1, p]
    for p in range(P):
        for a in range(A):
            for d in range(D):
                cost += w_day * _day_excess(day[p, d, a], day_lo[d, a], day_hi[d, a])
    best = cost if faults == 0 else 1 << 40
    best_area = area.copy()
    tabu = np.zeros((H, G), dtype=np.int64)
    bad = np.empty(P * (D + 1), dtype=np.int64)
    move_e = np.zeros(A, dtype=np.int64)
    move_d = np.zeros(A, dtype=np.int64)
    last = 0
    weight = w_event
    for it in range(iterations):
        if faults == 0 and cost == 0:
            break
        nb = 0
        for p in range(P):
            for a in range(A):
                if count[p, a] > hi[p, a] or count[p, a] < lo[p, a]:
                    bad[nb] = p * (D + 1) + D
                    nb += 1
                    break
        if nb == 0:
            for p in range(P):
                for d in range(D):
                    for a in range(A):
                        if day[p, d, a] > day_hi[d, a] or day[p, d, a] < day_lo[d, a]:
                            bad[nb] = p * (D + 1) + d
                            nb += 1
                            break
        if nb == 0:  # every share met: any player, for the same area twice in a row
            bad[0] = np.random.randint(P) * (D + 1) + D
            nb = 1
        f = bad[np.random.randint(nb)]
        p = f // (D + 1)
        fd = f % (D + 1)
        best_d = 1 << 40
        best_h = -1
        best_g2 = -1
        ties = 0
        for h in range(H):
            if not movable[h] or (fd < D and day_of[h] != fd):
                continue
            d = day_of[h]
            g1 = group_of[p, h]
            a1 = area[h, g1]
            # the change of p's group moving to each area (event, then day and same area)
            for a2 in range(A):
                move_e[a2] = 0
                move_d[a2] = 0
                if a2 == a1:
                    continue
                for s in range(S):
                    u = plan[h, g1, s]
                    move_e[a2] += _move_gap(count[u], lo[u], hi[u], a1, a2)
                    move_d[a2] += _move_day(day[u, d], day_lo[d], day_hi[d], at, h, u, a1, a2,
                                            w_day)
            for g2 in range(G):
                a2 = area[h, g2]
                if a2 == a1:
                    continue
                de = move_e[a2]
                dd = move_d[a2]
                for s in range(S):
                    u = plan[h, g2, s]
                    de += _move_gap(count[u], lo[u], hi[u], a2, a1)
                    dd += _move_day(day[u, d], day_lo[d], day_hi[d], at, h, u, a2, a1, w_day)
                score = weight * de + dd
                aspire = faults + de == 0 and cost + dd < best
                if (tabu[h, g1] > it or tabu[h, g2] > it) and not aspire:
                    continue
                take, best_d, ties = pick(score, best_d, ties)
                if take:
                    best_h = h
                    best_g2 = g2
        if best_h < 0:
            continue
        h = best_h
        d = day_of[h]
        g1 = group_of[p, h]
        g2 = best_g2
        a1 = area[h, g1]
        a2 = area[h, g2]
        for side in range(2):
            g = g1 if side == 0 else g2
            old = a1 if side == 0 else a2
            new = a2 if side == 0 else a1
            for s in range(S):
                u = plan[h, g, s]
                faults -= _gap(count[u, old], lo[u, old], hi[u, old])
                faults -= _gap(count[u, new], lo[u, new], hi[u, new])
                cost -= w_day * _day_excess(day[u, d, old], day_lo[d, old], day_hi[d, old])
                cost -= w_day * _day_excess(day[u, d, new], day_lo[d, new], day_hi[d, new])
                for hn in (h - 1, h + 1):
                    if 0 <= hn < H:
                        cost += (at[hn, u] == new) - (at[hn, u] == old)
                count[u, old] -= 1
                count[u, new] += 1
                day[u, d, old] -= 1
                day[u, d, new] += 1
                faults += _gap(count[u, old], lo[u, old], hi[u, old])
                faults += _gap(count[u, new], lo[u, new], hi[u, new])
                cost += w_day * _day_excess(day[u, d, old], day_lo[d, old], day_hi[d, old])
                cost += w_day * _day_excess(day[u, d, new], day_lo[d, new], day_hi[d, new])
                at[h, u] = new
        area[h, g1] = a2
        area[h, g2] = a1
        tabu[h, g1] = it + tenure + np.random.randint(tenure)
        tabu[h, g2] = it + tenure + np.random.randint(tenure)
        if faults == 0 and cost < best:
            best = cost
            copy_into(best_area, area)
            last = it
        if faults == 0:
            weight = w_event
            last = it
        elif it - last > patience:
            # long among choices that break an event share: weigh them more, till one is back
            weight = min(2 * weight, 1 << 20)
            last = it
    copy_into(area, best_area)
    return best


def assign_areas(event: Event, plan: np.ndarray, movable: np.ndarray,
                 given_area: np.ndarray | None, iterations: int = 200_000,
                 prefer: np.ndarray | None = None, starts: int = AREA_STARTS,
                 day_iterations: int = DAY_ITERATIONS, retries: int = AREA_RETRIES
                 ) -> tuple[np.ndarray, bool]:
    """Area of every group in every hanchan, each player within 1 of its share per area,
    and whether the day shares were searched.

    The shares leave almost no freedom (on the default event they force exactly 80, 72 and
    48 players into the three possible count patterns), so this is a small exact-cover-like
    problem; a tabu search on the players off their share solves it (see _area_tabu). The
    best day_iterations > 0 starts then search the day shares and the same area twice in a
    row (_day_tabu). Hanchans not movable keep given_area.
    """
    H, G, S = plan.shape
    if given_area is None and prefer is None and np.all(movable):
        drafted = pattern_areas(event, plan)
        if drafted is not None:  # groups built for the areas: each stays in its table's
            return drafted, False
    A = len(event.areas)
    area_at = event.area_at
    share, _ = area_shares(event)
    rng = np.random.default_rng(event.seed)
    area = np.empty((H, G), dtype=np.int64)
    for h in range(H):
        cap = np.bincount(area_at[h], minlength=A)  # tables of each area in this hanchan
        area[h] = given_area[h] if not movable[h] else rng.permutation(np.repeat(
            np.arange(A), cap))
        if movable[h] and prefer is not None:
            # start from the earlier tables' areas (re-planning), filling what is left over
            want = np.where(prefer[h] >= 0, area_at[h][np.maximum(prefer[h], 0)], -1)
            free = list(np.repeat(np.arange(A), cap))
            for g in np.nonzero(want >= 0)[0]:
                if want[g] in free:
                    free.remove(want[g])
                else:
                    want[g] = -1
            rest = np.nonzero(want < 0)[0]
            want[rest] = np.array(free, dtype=np.int64)[rng.permutation(len(free))][:len(rest)]
            area[h] = want
    lo, hi = (np.repeat(bound[None, :], event.players, axis=0) for bound in share_range(share))
    wanted = np.full((H, G), -1, dtype=np.int64)
    weight = 1 << 20  # players off their share first, then (re-planning) groups moved
    if prefer is not None:
        wanted = np.where(prefer >= 0, area_at[np.arange(H)[:, None], np.maximum(prefer, 0)], -1)
    start = area.copy()
    day_share = area_shares(event)[1]
    mov = np.asarray(movable, dtype=np.bool_)
    day_lo, day_hi = share_range(day_share)
    day_of = event.day_of.astype(np.int64)

    def search(attempt, area=None, steps=iterations):
        """A tabu search from the start (or on from `area`, in place) with its own seed."""
        area = start.copy() if area is None else area
        faults = _area_tabu(plan, area, mov, lo, hi, steps, event.seed + 6 + 1000 * attempt,
                            AREA_TENURE, wanted, weight)
        return faults, area

    def refine(attempt, area):
        """The day shares, then the same area twice in a row, of a choice that keeps every
        event share (in place)."""
        w_day = 4 * S  # a day unit outweighs any change of same-area pairs one swap makes
        _day_tabu(plan, area, mov, lo, hi, day_of, day_lo, day_hi, day_iterations,
                  event.seed + 8 + 1000 * attempt, AREA_TENURE, 4 * w_day, w_day, DAY_PATIENCE)

    def rank(found):
        return sorted(range(len(found)), key=lambda i: (
            (found[i][0], *_area_goals(plan, found[i][1], event.day_of, day_share))
            if found[i][0] == 0 else (found[i][0],), i))

    if prefer is not None:  # re-planning: one search from the earlier areas, on while short
        faults, area = search(0)
        for again in range(retries):
            if faults == 0:
                break
            faults, area = search(1 + again, area, AREA_RETRY_ITERATIONS)
        return area, False
    # a new plan takes the best of several searches, by the lower area goals too; they are
    # independent (each seeds its own random numbers), so they run on two threads; the best
    # DAY_STARTS of them then search the day shares (re-planning keeps the earlier areas
    # instead, and the draft's test of the groups needs only the event shares)
    day_search = day_iterations > 0 and A > 1  # (one area leaves no choice to search)
    with ThreadPoolExecutor(max_workers=2) as pool:
        found = list(pool.map(search, range(starts)))
        for again in range(retries):
            if any(faults == 0 for faults, _ in found):
                break
            best = rank(found)[:2]
            more = list(pool.map(search, [starts + 2 * again + k for k in range(len(best))],
                                 [found[i][1] for i in best],
                                 [AREA_RETRY_ITERATIONS] * len(best)))
            for i, result in zip(best, more):
                found[i] = result
        chosen = [i for i in rank(found)[:DAY_STARTS] if found[i][0] == 0]
        if day_search:
            list(pool.map(lambda i: refine(i, found[i][1]), chosen))
    return found[rank(found)[0]][1], day_search


def place_areas(plan: np.ndarray, area: np.ndarray) -> np.ndarray:
    """The area of every place in every hanchan, [h, p], when group g of hanchan h
    (plan[h, g]) sits in area[h, g]."""
    H, G, S = plan.shape
    at = np.empty((H, G * S), dtype=np.int64)
    at[np.arange(H)[:, None], plan.reshape(H, -1)] = np.repeat(area, S, axis=1)
    return at


def _area_goals(plan: np.ndarray, area: np.ndarray, day_of: np.ndarray,
                day_share: np.ndarray) -> tuple[int, int]:
    """(counts outside [floor, ceil] of a day's area share, players in the same area in two
    consecutive hanchans) of an area choice area[h, g] for the groups plan[h, g]."""
    seat_area = place_areas(plan, area)
    outside = 0
    for d in range(day_share.shape[0]):
        day = seat_area[day_of == d]
        count = np.stack([(day == a).sum(axis=0) for a in range(day_share.shape[1])], axis=1)
        outside += int((_outside(count, day_share[d]) > 0).sum())
    return outside, int((seat_area[1:] == seat_area[:-1]).sum())


@njit(cache=True)
def _player_costs(h, table_of, area_at, share, day_share, day_of):
    """cost[p, t] of seating player p at table t in hanchan h, all other hanchans fixed."""
    P, H = table_of.shape
    T = area_at.shape[1]
    A = share.shape[0]
    d = day_of[h]
    cost = np.empty((P, T))
    visits = np.zeros(T)
    counts = np.zeros(A)
    day_counts = np.zeros(A)
    cost_area = np.zeros(A)
    for p in range(P):
        visits[:] = 0.0
        counts[:] = 0.0
        day_counts[:] = 0.0
        for hh in range(H):
            t = table_of[p, hh]
            if hh == h or t < 0:
                continue
            visits[t] += 1.0
            counts[area_at[hh, t]] += 1.0
            if day_of[hh] == d:
                day_counts[area_at[hh, t]] += 1.0
        for a in range(A):
            event = 0.0
            day = 0.0
            for b in range(A):
                add = 1.0 if b == a else 0.0
                event += _outside1(counts[b] + add, share[b])
                day += _outside1(day_counts[b] + add, day_share[d, b])
            cost_area[a] = W_EVENT * event + W_DAY * day
            for nb in (h - 1, h + 1):
                if 0 <= nb < H and table_of[p, nb] >= 0 and area_at[nb, table_of[p, nb]] == a:
                    cost_area[a] += W_NEXT
        for t in range(T):
            seen = 1.0 if visits[t] > 0 else 0.0
            cost[p, t] = W_TABLE * (visits[t] + MISSED_TABLE * seen) + cost_area[area_at[h, t]]
    return cost


def earlier_tables(plan: np.ndarray, earlier: np.ndarray) -> np.ndarray:
    """prefer[h, g]: the table at which group g of plan[h] (the same places) sat in the
    earlier seating (re-planning), or -1 for a group new in that hanchan."""
    prefer = np.full(plan.shape[:2], -1, dtype=np.int64)
    for h in range(plan.shape[0]):
        where = {tuple(sorted(table)): t for t, table in enumerate(earlier[h].tolist())}
        for g, table in enumerate(plan[h].tolist()):
            prefer[h, g] = where.get(tuple(sorted(table)), -1)
    return prefer


def number_tables(event: Event, plan: np.ndarray, movable: np.ndarray | None = None,
                  given: np.ndarray | None = None, sweeps: int = 30,
                  steps: int = 500_000, keep: np.ndarray | None = None,
                  log=lambda line: None) -> tuple[np.ndarray, dict]:
    """Give every group a table number: returns seating[hanchan, table, seat] and a summary
    (what the exact renumbering of step 4 did).

    movable/given: hanchans with movable False keep the table numbers of `given`
    (a seating of the same shape) and are never renumbered. keep: an earlier seating
    (re-planning); a group that sat at a table there stays at it unless the rules above
    area changes need it elsewhere (W_STAY). log: a progress line after each step.
    """
    started = time.perf_counter()
    H, G, S = plan.shape
    P = event.players
    area_at = event.area_at
    day_of = event.day_of
    share, day_share = area_shares(event)
    if movable is None:
        movable = np.ones(H, dtype=bool)
    table_of = np.full((P, H), -1, dtype=np.int64)
    assign = np.full((H, G), -1, dtype=np.int64)
    for h in range(H):
        if not movable[h]:
            # a fixed hanchan: find which given table holds each group
            for g in range(G):
                t = np.nonzero((given[h] == plan[h, g][None, :]).all(axis=1))[0]
                assign[h, g] = t[0]
            table_of[plan[h].ravel(), h] = np.repeat(assign[h], S)

    given_area = (np.take_along_axis(area_at, np.maximum(assign, 0), axis=1)
                  if (~movable).any() else None)
    # re-planning: the table group g of hanchan h sat at in the earlier seating (-1: a group
    # new in that hanchan, free to sit anywhere), and the cost of its sitting at table t
    prefer = (earlier_tables(plan, keep) if keep is not None
              else np.full((H, G), -1, dtype=np.int64))
    stay = np.zeros((H, G, area_at.shape[1]))
    hh, gg = np.nonzero(prefer >= 0)
    stay[hh, gg] = W_STAY
    stay[hh, gg, prefer[hh, gg]] = 0.0
    chosen, searched = assign_areas(event, plan, movable, given_area,
                                    prefer=None if keep is None else prefer)
    log(f"tables: areas chosen ({time.perf_counter() - started:.1f} s)")

    # imported here: the swap and goals stages import this module (seat_keys) and need no scipy
    from scipy.optimize import linear_sum_assignment

    def solve(h, keep):
        cost = _player_costs(h, table_of, area_at, share, day_share, day_of)
        group_cost = cost[plan[h]].sum(axis=1) + stay[h]  # (G, T)
        if keep:
            group_cost = group_cost + W_KEEP * (area_at[h][None, :] != chosen[h][:, None])
        rows, cols = linear_sum_assignment(group_cost)
        return cols[np.argsort(rows)]

    def sweep(keep):
        """Renumber one hanchan at a time, given all the others, while anything changes."""
        for _ in range(sweeps):
            changed = False
            for h in range(H):
                if not movable[h]:
                    continue
                table_of[:, h] = -1
                new = solve(h, keep)
                changed |= not np.array_equal(new, assign[h])
                assign[h] = new
                table_of[plan[h].ravel(), h] = np.repeat(assign[h], S)
            if not changed:
                return

    for h in range(H):
        if movable[h]:
            assign[h] = solve(h, keep=True)
            table_of[plan[h].ravel(), h] = np.repeat(assign[h], S)
    sweep(keep=True)
    kept = assign.copy()  # every group in the area chosen for balance
    # the sweeps stop in a local optimum: anneal over swaps of two groups' tables in one
    # hanchan at temperatures below the weight of the event shares (a table repeat may still
    # be traded for them, as the spec orders), then sweep again from the best plan found
    mov = np.asarray(movable, dtype=np.bool_)
    # first table repeats and event shares alone, hot enough that a repeat may come and go
    # (with many hanchans per table this is a tight colouring), then everything, never
    # giving those two up (temperatures below their weights)
    # while table repeats stay above their counting floor (C(visits, 2) summed, so they
    # spread evenly), again from the best plan with another seed and weights nearer the
    # temperatures (a tight colouring needs uphill moves)
    q, r = divmod(H, area_at.shape[1])
    floor = P * (r * (q + 1) * q // 2 + (area_at.shape[1] - r) * q * (q - 1) // 2)

    def seat(a):
        """table_of from a numbering a (a[h, g]: the table of group g of hanchan h)."""
        for h in range(H):
            table_of[plan[h].ravel(), h] = np.repeat(a[h], S)

    def repeats():
        """Sum over players and tables of C(visits, 2): table repeats, spread evenly."""
        visits = _visits(table_of, area_at.shape[1])
        return int((visits * (visits - 1) // 2).sum())

    def off_share():
        """Players and areas with a count outside [floor, ceil] of the event share."""
        areas = area_at[np.arange(H)[None, :], table_of]  # (P, H): the area of every seat
        count = np.stack([(areas == a).sum(axis=1) for a in range(len(share))], axis=1)
        return int((_outside(count, share) > 0).sum())

    def rank(a):
        """A numbering by the order of the rules: tables seen twice, then the area goals
        (leaves table_of set to it)."""
        seat(a)
        area = np.take_along_axis(area_at, a, axis=1)  # the area of group g of hanchan h
        return (repeats(), off_share(), *_area_goals(plan, area, day_of, day_share))

    def progress(step):
        """A progress line: the step done and where the numbering stands (leaves table_of
        set to assign)."""
        seat(assign)
        seen = _seen_again(_visits(table_of, area_at.shape[1]))
        log(f"tables: {step}; now {seen} tables seen twice, {off_share()} (place, area) "
            f"counts off an event share ({time.perf_counter() - started:.1f} s)")

    def keep_if_better(candidate) -> bool:
        """Sweep a candidate numbering and keep it if it is better by the order of the rules
        than the present one; otherwise back to that (assign and table_of end on the one
        kept)."""
        before = assign.copy()
        assign[:] = candidate
        seat(assign)
        sweep(keep=False)
        better = rank(assign) < rank(before)
        if not better:
            assign[:] = before
        seat(assign)
        return better

    def area_goals_then_keep(candidate, seed) -> str:
        """Anneal a candidate numbering on the area goals at temperatures below the
        weights of a table seen twice and an event share, then sweep it and keep it if it is
        better by the order of the rules (keep_if_better); the summary's words for that."""
        seat(candidate)
        _anneal(plan, candidate, table_of, mov, area_at, share, day_share, day_of, steps,
                seed, full, 2 * W_DAY, W_NEXT / 20, prefer, 0.0)
        return ("kept: better by the order of the rules" if keep_if_better(candidate)
                else "not kept")

    progress("first numbering (Hungarian method per hanchan)")
    # the exact program sees a start only through the area of every group and the tables of
    # the fixed hanchans (re-planning): a start equal on both poses the same program
    posed = set()

    def problem(start, merged):
        return (np.take_along_axis(area_at, start, axis=1).tobytes(),
                start[~np.asarray(movable, dtype=bool)].tobytes(),
                None if merged is None else merged.tobytes())

    if keep is not None and floor == 0:
        # re-planning: every group at its earlier table where the others can be seated
        # around it without a table seen twice (the sweeps and the annealing below moved
        # about 20 of 30 groups a hanchan for three withdrawals on 120 places)
        posed.add(problem(assign, None))
        exact, line = tables_without_repeats(plan, assign, movable, area_at, prefer=prefer)
        if exact is not None:
            assign[:] = exact
            seat(assign)
            sweep(keep=False)
            progress(f"exact numbering: {line}")
    if keep is None or repeats():  # re-planning: only when a table is seen twice, and longer
        for attempt in range(FIRST_ATTEMPTS):
            # fewer tables than hanchans (a tight colouring) or a second run: hotter
            scale = 10 if attempt > 0 or H > area_at.shape[1] else 1
            _anneal(plan, assign, table_of, mov, area_at, share, day_share, day_of,
                    steps if keep is None else 4 * steps, event.seed + 6 + 1000 * attempt,
                    np.array([10.0, 1.0, 0.0, 0.0]) / scale, 2.0, 0.05, prefer,
                    1.0 / scale / STAY_PER_FAULT)
            seat(assign)
            if repeats() <= floor:
                break
    full = np.array([W_TABLE, W_EVENT, W_DAY, W_NEXT])
    # the areas of a new plan come from the day-share search (assign_areas), which the
    # annealing below did not improve on the default event (seeds 1-4): it runs only when
    # tables are seen more often than the floor, a player is off an event share, hanchans
    # are held fixed, or the areas came from patterns (not searched on the day shares; one
    # area leaves nothing to search, and nothing for the annealing but table repeats)
    needed = (repeats() > floor or off_share() > 0 or given_area is not None
              or not (searched or len(event.areas) == 1))
    if keep is None and needed:  # re-planning: the exact per-hanchan sweeps weigh staying put
        _anneal(plan, assign, table_of, mov, area_at, share, day_share, day_of, steps,
                event.seed + 7, full, 2 * W_DAY, W_NEXT / 20, prefer, W_STAY)
    seat(assign)
    sweep(keep=False)
    progress("annealed and renumbered hanchan by hanchan")
    if movable.all():
        # the groups may come numbered so that nobody sees a table twice already (a design
        # laid out for it: seating.designs.transversal_design); that numbering is kept when
        # it is better by the same order of rules
        given_order = np.tile(np.arange(G), (H, 1))
        if rank(given_order) < rank(assign):
            assign[:] = given_order
        seat(assign)
    summary = {"exact_renumbering": "not needed"}
    repeated = floor == 0 and repeats() > 0
    if floor == 0 and (repeated or off_share() > 0):
        # every player can see a new table each hanchan, but the annealing left a repeat or
        # traded an area share for one: renumber all hanchans at once, exactly, each group
        # in the area chosen for balance (else, for a repeat, in the area it now sits in)
        starts = [kept] + ([assign.copy()] if repeated else [])
        # with three areas or more, next the groups of all but the largest area may take any
        # of those areas' tables, the event shares held: small areas, whose few tables make
        # the numbering inside one area tight, then trade groups (benchmarks/unseen.py,
        # generator seed 33: 112 places, 14 hanchans, areas of 3, 22 and 3 tables)
        sizes = np.bincount(area_at.ravel(), minlength=len(share))
        smaller = np.arange(len(share)) != np.argmax(sizes)
        tries = [(start, merged) for start in starts
                 for merged in ([None] + ([smaller] if smaller.sum() > 1 else []))]
        present = assign.copy()

        def replan_rank():
            """Re-planning: tables seen twice, event shares, then groups off their earlier
            tables (staying put ranks above the day shares, W_STAY)."""
            return repeats(), off_share(), int(((prefer >= 0) & (assign != prefer)).sum())

        present_rank = replan_rank() if keep is not None else None
        for start, merged in tries:
            if problem(start, merged) in posed:
                continue
            posed.add(problem(start, merged))
            earlier = {"prefer": prefer} if keep is not None else {}  # re-planning
            exact, summary["exact_renumbering"] = tables_without_repeats(
                plan, start, movable, area_at, share, merged, **earlier)
            if exact is not None:
                assign[:] = exact
                seat(assign)
                sweep(keep=False)  # the area goals again; table repeats outweigh them all
                if keep is not None and replan_rank() >= present_rank:
                    # no better on the tables and the shares, and more groups moved off
                    # their earlier tables: the numbering before it stays
                    assign[:] = present
                    seat(assign)
                    summary["exact_renumbering"] += "; not kept: moves groups for nothing"
                break
        progress(f"exact renumbering: {summary['exact_renumbering']}")
    if keep is None and movable.all() and floor == 0 and (repeats() > 0 or off_share() > 0):
        # the exact renumbering found nothing in its time: the guided search below, from the
        # numbering that keeps every group in the area chosen for balance, with a count off
        # an area's share outweighing any table (groups change area only where every share
        # holds). Kept when it leaves no table seen twice and is better by the order of the
        # rules (benchmarks/unseen.py, generator seeds 15 and 16: two events of 104 and 116
        # places over 14 and 16 hanchans, 26 and 29 tables in two areas, went from none seen
        # twice and an area 3.1 off its share to none and every share met, 0.3-2.6 s)
        held, left = _guided_tables(plan, kept, mov, event.seed + 11, area_at, share,
                                    HELD_SHARE, rounds=HELD_ROUNDS)
        how = "guided search with the areas held"
        if left:
            # then Tabucol on each area's groups and tables alone, every group in the area
            # chosen for balance (unseen-0 of generator seed 43, where the guided search
            # left 1 table seen twice: none left, every share met)
            by_area, by_area_left = _tabu_by_area(plan, kept, area_at, event.seed + 12)
            if by_area_left == 0:
                held, left, how = by_area, 0, "Tabucol area by area, the areas held"
        if left == 0:
            summary["areas_held"] = ("kept: better by the order of the rules"
                                     if keep_if_better(held) else "not kept")
        else:
            summary["areas_held"] = f"{left} tables seen twice left"
        progress(f"{how}: " + summary["areas_held"] + ("" if left == 0 else " (not kept)"))
    if keep is None and movable.all() and floor == 0 and repeats() > 0:
        # tables still seen twice where nobody need see one twice: the area shares held
        # the numbering there (with more hanchans than tables the first runs above are
        # already hot; golfers 32 x 9 kept its 38 here, 5 s for nothing). Tables rank above
        # areas, so number the tables nearly alone first (the event shares weighed lightly,
        # at temperatures where a table seen twice comes and goes), then anneal and sweep
        # the area goals without giving up a table; kept if better by the order of the
        # rules (scaled-100 of benchmarks/scaling.py: 3 tables seen twice and an area 2.6
        # off its share before, none and 2.6 after)
        alone = assign.copy()
        for attempt in range(TABLES_ALONE_ATTEMPTS):
            seat(alone)
            if attempt and not repeats():
                break
            _anneal(plan, alone, table_of, mov, area_at, share, day_share, day_of,
                    min(TABLES_ALONE_STEPS, TABLES_ALONE_STEPS_PER_PLACE * P),
                    event.seed + 8 + 1000 * attempt,
                    np.array([1.0, TABLES_ALONE_SHARE, 0.0, 0.0]), *TABLES_ALONE_HEAT, prefer,
                    0.0)
        seat(alone)
        if repeats():
            guided, left = _guided_tables(plan, alone, mov, event.seed + 10, area_at, share,
                                          TABLES_ALONE_SHARE)
            if left < _seen_again(_visits(table_of, area_at.shape[1])):
                alone[:] = guided
            seat(alone)
        summary["tables_alone"] = area_goals_then_keep(alone, event.seed + 9)
        progress(f"tables numbered nearly alone, then the area goals: {summary['tables_alone']}")
    if (keep is None and movable.all() and floor == 0 and len(event.areas) > 1
            and (repeats() > 0 or off_share() > 0)):
        # still a table seen twice or a share missed: tables and shares searched together,
        # groups free to change area, then the area goals without giving either up; kept if
        # better by the order of the rules (with one area it is Tabucol alone, which found
        # nothing on the small fields, published tight cells and one-area unseen misses
        # measured and added up to 22 s to their tables stage)
        joint = _joint_tables(plan, area_at, share, event.seed + 13)
        summary["joint"] = ("none found" if joint is None
                            else area_goals_then_keep(joint, event.seed + 14))
        progress(f"tables and event shares searched together: {summary['joint']}")
    seating = np.empty_like(plan)
    for h in range(H):
        seating[h, assign[h]] = plan[h]
    return seating, summary


def _visits(table_of, tables):
    """visits[p, t]: how often player p sits at table t."""
    return np.stack([np.bincount(row, minlength=tables) for row in table_of])


def _seen_again(visits):
    """Table repeats as check.table_repeats counts them: visits - 1 summed over players and
    the tables they sit at."""
    return int(np.maximum(visits - 1, 0).sum())


@njit(cache=True)
def _guided_costs(group, visits, weight, table_of, count, area_of, share, w_area):
    """cost[g, t] of group g of one hanchan at table t: its players' weighted visits to t in
    the other hanchans (table_of: each player's table in this hanchan), and w_area for each
    count outside [floor, ceil] of an area's event share."""
    G, S = group.shape
    T = visits.shape[1]
    A = share.shape[0]
    cost = np.zeros((G, T))
    area_cost = np.zeros(A)
    for g in range(G):
        for s in range(S):
            p = group[g, s]
            a0 = area_of[table_of[p]]
            for a in range(A):
                c = 0.0
                for b in range(A):
                    n = count[p, b] - (1 if b == a0 else 0) + (1 if b == a else 0)
                    c += _outside1(n, share[b])
                area_cost[a] = w_area * c
            for t in range(T):
                here = 1 if t == table_of[p] else 0
                cost[g, t] += weight[p, t] * (visits[p, t] - here) + area_cost[area_of[t]]
    return cost


@njit(cache=True)
def _renumber(group, old, new, visits, table_of, count, area_of):
    for g in range(group.shape[0]):
        for s in range(group.shape[1]):
            p = group[g, s]
            visits[p, old[g]] -= 1
            visits[p, new[g]] += 1
            count[p, area_of[old[g]]] -= 1
            count[p, area_of[new[g]]] += 1
            table_of[p] = new[g]


def _guided_tables(plan, assign, movable, seed, area_at, share, w_area,
                   rounds: int = GUIDED_ROUNDS):
    """Table numbers with as few tables seen twice as it finds: a guided local search
    (breakout). Each round renumbers every movable hanchan, in a random order, by the
    Hungarian method given all the others: a player's visit to a table costs 1 plus the
    rounds that ended with that player at that table twice, a count outside an area's event
    share w_area; after GUIDED_PATIENCE rounds without a new best the weights start again
    from 1 (the numbering goes on from where it is); at most `rounds` rounds. Returns the
    best numbering and its table repeats (_seen_again).

    Where the annealing nearly alone ends with a table seen twice, this often goes further:
    big-delegations-100 (tests/data) 11 -> 4, published cells of one place per country
    68 x 10 2 -> 0, 52 x 8 4 -> 2 and 64 x 10 5 -> 4
    (benchmarks/results/published-tight-cells.md)."""
    from scipy.optimize import linear_sum_assignment

    H, G, S = plan.shape
    P = int(plan.max()) + 1
    assign = assign.copy()
    table_of = np.empty((H, P), dtype=np.int64)
    for h in range(H):
        table_of[h, plan[h].ravel()] = np.repeat(assign[h], S)
    visits = _visits(table_of.T, G)
    count = np.zeros((P, share.shape[0]), dtype=np.int64)
    for h in range(H):
        np.add.at(count, (np.arange(P), area_at[h, table_of[h]]), 1)
    weight = np.ones((P, G))
    best, best_assign = _seen_again(visits), assign.copy()
    rng = np.random.default_rng(seed)
    hanchans = np.nonzero(movable)[0]
    rounds = min(rounds, GUIDED_WORK // (len(hanchans) * G * G * S))
    last = 0  # the round of the last new best, or of the last fresh start of the weights
    for r in range(max(1, rounds)):
        if best == 0:
            break
        for h in rng.permutation(hanchans):
            rows, cols = linear_sum_assignment(_guided_costs(
                plan[h], visits, weight, table_of[h], count, area_at[h], share, w_area))
            new = cols[np.argsort(rows)]
            _renumber(plan[h], assign[h], new, visits, table_of[h], count, area_at[h])
            assign[h] = new
        left = _seen_again(visits)
        if left < best:
            best, best_assign, last = left, assign.copy(), r
        weight += visits > 1
        if r - last >= GUIDED_PATIENCE:  # the weights have grown everywhere: start them again
            weight[:] = 1
            last = r
    return best_assign, best


@njit(cache=True, nogil=True)
def _tabucol(plan, assign, iterations, seed, alpha, area_of, lo, hi):
    """Tabu search for table numbers with nobody at a table twice and every player within
    [lo, hi] of each area's event share (Tabucol, Hertz and de Werra, on the groups as
    vertices and the tables as colours, the shares added to its cost): each step exchanges
    the tables of two groups of one hanchan, one of them holding a place that sees its table
    again or is outside a share, the best such exchange that is not tabu (or beats the best
    numbering); each of the two groups is then kept off the table it left for 0-9 steps
    plus alpha times the groups in fault. plan[h, g] holds the places of group g;
    assign[h, g], its table (0..G-1, in area area_of[t]), ends as the best numbering found.
    Returns its cost: table repeats (sum over places and tables of visits - 1) plus the
    counts' distance outside [lo, hi] (lo, hi: [place, area]; one area and bounds that
    always hold leave the table repeats alone)."""
    np.random.seed(seed)
    H, G, S = plan.shape
    A = lo.shape[1]
    P = 0
    for h in range(H):
        for g in range(G):
            for s in range(S):
                P = max(P, plan[h, g, s] + 1)
    visits = np.zeros((P, G), dtype=np.int64)
    count = np.zeros((P, A), dtype=np.int64)
    inv = np.empty((H, G), dtype=np.int64)
    for h in range(H):
        for g in range(G):
            inv[h, assign[h, g]] = g
            for s in range(S):
                visits[plan[h, g, s], assign[h, g]] += 1
                count[plan[h, g, s], area_of[assign[h, g]]] += 1
    cost = _total_gap(count, lo, hi)
    for p in range(P):
        for t in range(G):
            cost += max(visits[p, t] - 1, 0)
    best = cost
    best_assign = assign.copy()
    tabu = np.zeros((H, G, G), dtype=np.int64)
    bad = np.zeros((H, G), dtype=np.bool_)
    for it in range(iterations):
        if cost == 0:
            break
        nbad = 0
        for h in range(H):
            for g in range(G):
                t = assign[h, g]
                bad[h, g] = False
                for s in range(S):
                    p = plan[h, g, s]
                    if visits[p, t] > 1:
                        bad[h, g] = True
                    for a in range(A):
                        if count[p, a] < lo[p, a] or count[p, a] > hi[p, a]:
                            bad[h, g] = True
                nbad += bad[h, g]
        best_d = 1 << 30
        best_h = -1
        best_g1 = -1
        best_g2 = -1
        ties = 0
        for h in range(H):
            for g1 in range(G):
                if not bad[h, g1]:
                    continue
                t1 = assign[h, g1]
                a1 = area_of[t1]
                for t2 in range(G):
                    g2 = inv[h, t2]
                    if t2 == t1 or (bad[h, g2] and g2 < g1):
                        continue  # (an exchange of two groups in fault is tried once)
                    a2 = area_of[t2]
                    d = 0
                    for s in range(S):
                        p = plan[h, g1, s]
                        q = plan[h, g2, s]
                        d += (visits[p, t2] >= 1) - (visits[p, t1] >= 2)
                        d += (visits[q, t1] >= 1) - (visits[q, t2] >= 2)
                        if a1 != a2:
                            d += _move_gap(count[p], lo[p], hi[p], a1, a2)
                            d += _move_gap(count[q], lo[q], hi[q], a2, a1)
                    if (tabu[h, g1, t2] > it or tabu[h, g2, t1] > it) and cost + d >= best:
                        continue
                    take, best_d, ties = pick(d, best_d, ties)
                    if take:
                        best_h, best_g1, best_g2 = h, g1, g2
        if best_h < 0:
            continue
        h, g1, g2 = best_h, best_g1, best_g2
        t1 = assign[h, g1]
        t2 = assign[h, g2]
        a1 = area_of[t1]
        a2 = area_of[t2]
        for s in range(S):
            visits[plan[h, g1, s], t1] -= 1
            visits[plan[h, g1, s], t2] += 1
            visits[plan[h, g2, s], t2] -= 1
            visits[plan[h, g2, s], t1] += 1
        _trade_areas(count, plan, h, g1, g2, a1, a2)
        assign[h, g1] = t2
        assign[h, g2] = t1
        inv[h, t2] = g1
        inv[h, t1] = g2
        tenure = np.random.randint(10) + int(alpha * nbad)
        tabu[h, g1, t1] = it + tenure
        tabu[h, g2, t2] = it + tenure
        cost += best_d
        if cost < best:
            best = cost
            best_assign[:, :] = assign
    assign[:, :] = best_assign
    return best


def _tabu_by_area(plan, assign, area_at, seed):
    """Table numbers with every group kept in the area `assign` gives it and nobody at a
    table twice, area by area (each area's groups and tables are a numbering of their own):
    _tabucol from the given numbering and then from random ones, alpha alternating between
    TABU_ALPHAS, at most TABU_TRIES tries of TABU_ITERATIONS steps an area. Returns the new
    numbering and the table repeats left (0: every area numbered)."""
    H, G, S = plan.shape
    if not (area_at == area_at[0]).all():
        return assign, -1  # (areas that change between hanchans: not split here)
    new = assign.copy()
    rng = np.random.default_rng(seed)
    left = 0
    P = int(plan.max()) + 1
    one_area = np.zeros((P, 1), dtype=np.int64), np.full((P, 1), H, dtype=np.int64)
    for a in np.unique(area_at[0]):
        tables = np.nonzero(area_at[0] == a)[0]
        groups = np.array([np.nonzero(area_at[h, assign[h]] == a)[0] for h in range(H)])
        sub = np.ascontiguousarray(plan[np.arange(H)[:, None], groups])
        local = np.searchsorted(tables, assign[np.arange(H)[:, None], groups])
        best, found = None, local
        for attempt in range(TABU_TRIES):
            start = local.copy() if attempt == 0 else np.array(
                [rng.permutation(len(tables)) for _ in range(H)], dtype=np.int64)
            repeats = _tabucol(sub, start, TABU_ITERATIONS, seed + attempt,
                               TABU_ALPHAS[attempt % len(TABU_ALPHAS)],
                               np.zeros(len(tables), dtype=np.int64), *one_area)
            if best is None or repeats < best:
                best, found = repeats, start
            if best == 0:
                break
        new[np.arange(H)[:, None], groups] = tables[found]
        left += best
    return new, left


def _joint_tables(plan, area_at, share, seed):
    """Table numbers with nobody at a table twice and every player within [floor, ceil] of
    each area's event share, groups free to change area: _tabucol with the shares in its
    cost, from random numberings: at most JOINT_TRIES tries of JOINT_PROBE steps, each of
    those that end at most JOINT_PROBE_LEFT off going on for JOINT_ITERATIONS more from its
    best, two at a time on two threads (the first to succeed, in the order of the tries, is
    taken). Returns the numbering (None if none succeeded)."""
    H, G, S = plan.shape
    if not (area_at == area_at[0]).all():
        return None  # (areas that change between hanchans: not searched here)
    P = int(plan.max()) + 1
    lo, hi = (np.ascontiguousarray(np.repeat(b[None, :], P, axis=0).astype(np.int64))
              for b in share_range(share))
    area_of = area_at[0].astype(np.int64)
    rng = np.random.default_rng(seed)
    starts = [np.array([rng.permutation(G) for _ in range(H)], dtype=np.int64)
              for _ in range(JOINT_TRIES)]

    def run(attempt):
        left = _tabucol(plan, starts[attempt], JOINT_PROBE, seed + attempt, JOINT_ALPHA,
                        area_of, lo, hi)
        if 0 < left <= JOINT_PROBE_LEFT:  # near: on from its best
            left = _tabucol(plan, starts[attempt], JOINT_ITERATIONS, seed + 1000 + attempt,
                            JOINT_ALPHA, area_of, lo, hi)
        return left

    with ThreadPoolExecutor(max_workers=2) as pool:
        for first in range(0, JOINT_TRIES, 2):
            tries = list(range(first, min(first + 2, JOINT_TRIES)))
            for attempt, left in zip(tries, pool.map(run, tries)):
                if left == 0:
                    return starts[attempt]
    return None


EXACT_SECONDS = 5.0  # time cap of the all-hanchan renumbering. It finds 100 x 14's numbering
# in 0.2 s; on some tight small fields (72 x 10, 80 x 14) HiGHS spends minutes at the root
# alone, and a node budget does not bound that. A run that hits the cap keeps the annealed
# numbering, as if the step had not run, and its summary says so
# Re-planning, no group held at its earlier table: the program that seats the most groups
# there runs for programs of up to REPLAN_VARIABLES variables and REPLAN_NODES branch-and-
# bound nodes (small-64 with one substitute, 3 x 16 groups at 6 or 10 tables: 39 places
# changed instead of 60); larger ones (replay-120 with a table replaced, 3,000-6,000) found
# nothing within EXACT_SECONDS, so they go straight to the program without that aim
REPLAN_VARIABLES = 2_000
REPLAN_NODES = 100


def tables_without_repeats(plan, assign, movable, area_at, share=None, merged=None,
                           prefer=None, widen=True):
    """Table numbers for every movable hanchan at once with no player at a table twice.

    A feasibility integer program (HiGHS, through scipy's milp): x[h, g, t] = 1 when group g
    of hanchan h sits at table t, t in the area of its present table (so every area count
    stays); each group one table and each table one group per hanchan; each player at each
    table at most once over the event, less the visits of fixed hanchans. merged (a flag
    per area, with share, the event shares): a group in a flagged area may take any table
    of a flagged area instead, each player's count in every flagged area then held within
    [floor, ceil] of its share. prefer (re-planning): the table each group sat at in the
    earlier plan (-1: a new group). Groups whose earlier table is in the area they now sit
    in are then held at it, and only the others move (new groups, groups given another
    area), as few as can; if no numbering is left that way, also the groups of their
    hanchans, then every group of their places; then all, as few moved as can be in a small
    program (REPLAN_VARIABLES), else feasibility alone (without such a hold, the program
    renumbered about 20 of the 30 groups of every hanchan to come for three withdrawals on
    120 places). widen False: not the hanchans and places of the groups that move (their
    programs take seconds each; re-planning's place swaps pose dozens).
    Returns the new table of every group (or None) and a line on the outcome.
    """
    movable = np.asarray(movable, dtype=bool)
    if prefer is None:
        return _numbering(plan, assign, movable, area_at, share, merged, None)
    at_home = (prefer >= 0) & (np.take_along_axis(area_at, np.maximum(prefer, 0), axis=1)
                               == np.take_along_axis(area_at, assign, axis=1))
    at_home &= movable[:, None]
    free = ~at_home & movable[:, None]
    hanchans = free | free.any(axis=1)[:, None]  # the hanchans of the groups that move
    places = np.zeros(int(plan.max()) + 1, dtype=bool)
    places[plan[free].ravel()] = True
    wider = hanchans | (places[plan].any(axis=2) & movable[:, None])  # their places' groups
    variables = sum(int((area_at[h][None, :] == area_at[h, assign[h]][:, None]).sum())
                    for h in np.nonzero(movable)[0])
    levels = []
    wider_levels = (at_home & ~hanchans, at_home & ~wider) if widen else ()
    for held in (at_home, *wider_levels, np.zeros_like(at_home)):
        if not held.any() and variables > REPLAN_VARIABLES:
            break
        if not levels or (held != levels[-1]).any():
            levels.append(held)
    for held in levels:
        # the groups set free stay where they were as far as they can (with none held, as
        # far as REPLAN_NODES branch-and-bound nodes find: a count, so the same everywhere)
        new, line = _numbering(plan, assign, movable, area_at, share, merged,
                               np.where(held, prefer, -1), prefer,
                               None if held.any() else REPLAN_NODES)
        if new is not None:
            return new, line + (f", {int(held.sum())} groups held at their earlier tables"
                                if held.any() else ", the most groups at their earlier tables")
        if not held.any():
            break
    return _numbering(plan, assign, movable, area_at, share, merged, None)


def _numbering(plan, assign, movable, area_at, share, merged, held, prefer=None, nodes=None):
    """tables_without_repeats' program; held[h, g] >= 0: group g of hanchan h sits there;
    prefer[h, g] >= 0: the program seats as many groups there as it can (else it is
    feasibility alone)."""
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_matrix

    H, G, S = plan.shape
    T = area_at.shape[1]
    A = int(area_at.max()) + 1
    P = int(plan.max()) + 1
    merged = np.zeros(A, dtype=bool) if merged is None else np.asarray(merged, dtype=bool)
    trading = merged.sum() > 1  # groups may change area: the event shares become rows
    fixed = np.zeros((P, T), dtype=np.int64)
    fixed_count = np.zeros((P, A), dtype=np.int64)  # visits of fixed hanchans to each area
    for h in np.nonzero(~movable)[0]:
        np.add.at(fixed, (plan[h], assign[h][:, None]), 1)
        np.add.at(fixed_count, (plan[h], area_at[h, assign[h]][:, None]), 1)
    if (fixed > 1).any():
        return None, "none exists (the fixed hanchans repeat a table)"
    var_h, var_g, var_t = [], [], []
    for h in np.nonzero(movable)[0]:
        for g in range(G):
            here = area_at[h, assign[h, g]]
            if held is not None and held[h, g] >= 0:
                same = held[h, g:g + 1]
            else:
                same = np.nonzero(merged[area_at[h]] if merged[here] else area_at[h] == here)[0]
            var_h.append(np.full(len(same), h))
            var_g.append(np.full(len(same), g))
            var_t.append(same)
    var_h, var_g, var_t = (np.concatenate(v) for v in (var_h, var_g, var_t))
    n = len(var_h)
    slot = np.cumsum(movable) - 1  # a movable hanchan's row block
    hanchans = int(movable.sum())
    one = np.arange(n)
    rows = [slot[var_h] * G + var_g,  # each group sits at one table
            hanchans * G + slot[var_h] * T + var_t]  # each table holds one group
    rows += [2 * hanchans * G + plan[var_h, var_g, s] * T + var_t for s in range(S)]
    columns = [np.tile(one, S + 2)]
    width = 2 * hanchans * G + P * T
    low = np.r_[np.ones(2 * hanchans * G), np.zeros(P * T)]
    high = np.r_[np.ones(2 * hanchans * G), 1 - fixed.ravel()]
    if trading:  # each player's count in a flagged area within its share
        area = area_at[var_h, var_t]
        inside = np.nonzero(merged[area])[0]
        rows += [width + plan[var_h[inside], var_g[inside], s] * A + area[inside]
                 for s in range(S)]
        columns.append(np.tile(inside, S))
        lo, hi = share_range(share)
        flagged = np.tile(merged, P)
        low = np.r_[low, np.where(flagged, np.tile(lo, P) - fixed_count.ravel(), -np.inf)]
        high = np.r_[high, np.where(flagged, np.tile(hi, P) - fixed_count.ravel(), np.inf)]
        width += P * A
    rows = np.concatenate(rows)
    matrix = coo_matrix((np.ones(len(rows)), (rows, np.concatenate(columns))),
                        shape=(width, n)).tocsr()
    cost = np.zeros(n)
    if prefer is not None:  # a group away from its earlier table costs 1
        earlier = prefer[var_h, var_g]
        cost = ((earlier >= 0) & (var_t != earlier)).astype(float)
    result = milp(cost, integrality=np.ones(n), bounds=Bounds(0, 1),
                  constraints=LinearConstraint(matrix, low, high),
                  options={"time_limit": EXACT_SECONDS, "disp": False,
                           **({} if nodes is None else {"node_limit": nodes})})
    where = ("the groups of the smaller areas at any of their tables" if trading
             else "the groups in their areas")
    if result.status == 2:
        return None, f"none exists with {where}"
    if result.status != 0 or result.x is None:
        return None, f"none found with {where} within {EXACT_SECONDS:g} s"
    chosen = result.x > 0.5
    new = assign.copy()
    new[var_h[chosen], var_g[chosen]] = var_t[chosen]
    return new, f"found with {where}: no player at a table twice"


# ----------------------------------------------------------------------------------
# Leaving the Hungarian sweeps' local optimum: annealed swaps of two groups' tables
# ----------------------------------------------------------------------------------


@kernel
def _outside1(value, share):
    lo, hi = share_limits(share)
    return max(value - hi, lo - value, 0.0)


@kernel
def _move_cost(p, h, t_old, t_new, table_of, visits, count, day_count, area_at, share,
               day_share, day_of, w):
    """Change of player p's cost if it sat at t_new instead of t_old in hanchan h."""
    H = table_of.shape[1]
    a0 = area_at[h, t_old]
    a1 = area_at[h, t_new]
    d = 0.0
    if t_new != t_old:
        # tables seen again (a table left unvisited costs MISSED_TABLE), then the sum over
        # tables of C(visits, 2), so unavoidable repeats spread evenly
        # (visits[p, t_old] includes this hanchan)
        d += w[0] * (visits[p, t_new] - (visits[p, t_old] - 1)
                     + MISSED_TABLE * ((visits[p, t_old] == 1) - (visits[p, t_new] == 0)))
    if a0 != a1:
        dd = day_of[h]
        d += w[1] * (_outside1(count[p, a0] - 1, share[a0]) - _outside1(count[p, a0], share[a0])
                     + _outside1(count[p, a1] + 1, share[a1]) - _outside1(count[p, a1], share[a1]))
        d += w[2] * (_outside1(day_count[p, dd, a0] - 1, day_share[dd, a0])
                     - _outside1(day_count[p, dd, a0], day_share[dd, a0])
                     + _outside1(day_count[p, dd, a1] + 1, day_share[dd, a1])
                     - _outside1(day_count[p, dd, a1], day_share[dd, a1]))
        for nb in (h - 1, h + 1):
            if 0 <= nb < H and table_of[p, nb] >= 0:
                an = area_at[nb, table_of[p, nb]]
                d += w[3] * ((an == a1) - (an == a0))
    return d


@kernel
def _place(p, h, t_old, t_new, table_of, visits, count, day_count, area_at, day_of):
    visits[p, t_old] -= 1
    visits[p, t_new] += 1
    count[p, area_at[h, t_old]] -= 1
    count[p, area_at[h, t_new]] += 1
    day_count[p, day_of[h], area_at[h, t_old]] -= 1
    day_count[p, day_of[h], area_at[h, t_new]] += 1
    table_of[p, h] = t_new


@njit(cache=True)
def _anneal(plan, assign, table_of, movable, area_at, share, day_share, day_of, steps, seed, w,
            t_start, t_end, prefer, stay):
    """Annealed swaps of two groups' tables in one hanchan; assign keeps the best found.

    Half the moves start from a player whose cost is positive (a table seen again, an area
    off its share, ...), moving its group; the rest are uniform. prefer[h, g] >= 0 is a
    group's earlier table (re-planning): leaving it costs `stay`.
    """
    np.random.seed(seed)
    H, G, S = plan.shape
    P = table_of.shape[0]
    A = share.shape[0]
    T = area_at.shape[1]
    D = day_share.shape[0]
    group_of = np.empty((P, H), dtype=np.int64)
    visits = np.zeros((P, T), dtype=np.int64)
    count = np.zeros((P, A), dtype=np.int64)
    day_count = np.zeros((P, D, A), dtype=np.int64)
    for h in range(H):
        for g in range(G):
            for s in range(S):
                p = plan[h, g, s]
                group_of[p, h] = g
                t = table_of[p, h]
                visits[p, t] += 1
                count[p, area_at[h, t]] += 1
                day_count[p, day_of[h], area_at[h, t]] += 1
    # player costs, for the focus and the total
    pc = np.zeros(P)
    for p in range(P):
        c = 0.0
        for t in range(T):
            c += w[0] * (visits[p, t] * (visits[p, t] - 1) / 2
                         + MISSED_TABLE * (visits[p, t] > 1) * (visits[p, t] - 1))
        for a in range(A):
            c += w[1] * _outside1(count[p, a], share[a])
            for d in range(D):
                c += w[2] * _outside1(day_count[p, d, a], day_share[d, a])
        for h in range(1, H):
            if area_at[h, table_of[p, h]] == area_at[h - 1, table_of[p, h - 1]]:
                c += w[3]
        pc[p] = c
    total = pc.sum()
    best = total
    best_assign = assign.copy()
    temp = t_start
    cool = (t_end / t_start) ** (1.0 / max(steps, 1))
    # no cost below 0 exists unless leaving an earlier table can gain: then the first plan
    # at 0 is the one kept, and the rest of the steps are skipped
    floor_known = (prefer < 0).all()
    for _ in range(steps):
        if floor_known and best < 1e-9:
            break
        temp *= cool
        p0 = -1
        if np.random.random() < 0.5:
            for _try in range(64):
                q = np.random.randint(P)
                if pc[q] > 1e-9:
                    p0 = q
                    break
        h = np.random.randint(H)
        if not movable[h]:
            continue
        g1 = group_of[p0, h] if p0 >= 0 else np.random.randint(G)
        g2 = np.random.randint(G - 1)
        if g2 >= g1:
            g2 += 1
        t1 = assign[h, g1]
        t2 = assign[h, g2]
        if area_at[h, t1] == area_at[h, t2] and w[0] == 0.0:
            continue
        d = 0.0
        if prefer[h, g1] >= 0:
            d += stay * ((t2 != prefer[h, g1]) - (t1 != prefer[h, g1]))
        if prefer[h, g2] >= 0:
            d += stay * ((t1 != prefer[h, g2]) - (t2 != prefer[h, g2]))
        for s in range(S):
            d += _move_cost(plan[h, g1, s], h, t1, t2, table_of, visits, count, day_count,
                            area_at, share, day_share, day_of, w)
            d += _move_cost(plan[h, g2, s], h, t2, t1, table_of, visits, count, day_count,
                            area_at, share, day_share, day_of, w)
        if d <= 0 or np.random.random() < np.exp(-d / temp):
            for s in range(S):
                a = plan[h, g1, s]
                b = plan[h, g2, s]
                pc[a] += _move_cost(a, h, t1, t2, table_of, visits, count, day_count, area_at,
                                    share, day_share, day_of, w)
                _place(a, h, t1, t2, table_of, visits, count, day_count, area_at, day_of)
            for s in range(S):
                b = plan[h, g2, s]
                pc[b] += _move_cost(b, h, t2, t1, table_of, visits, count, day_count, area_at,
                                    share, day_share, day_of, w)
                _place(b, h, t2, t1, table_of, visits, count, day_count, area_at, day_of)
            assign[h, g1] = t2
            assign[h, g2] = t1
            total += d
            if total < best - 1e-9:
                best = total
                copy_into(best_assign, assign)
    copy_into(assign, best_assign)
    return best


def fewest_table_repeats(plan: np.ndarray, steps: int, seed: int) -> int:
    """Table repeats (as check.table_repeats counts them) left by an annealed numbering of
    these groups, areas ignored (_anneal on table repeats alone, as hot as the tables
    stage's first runs on a tight colouring): the draft's judge of which rounds of a design
    to keep."""
    H, G, S = plan.shape
    P = int(plan.max()) + 1
    assign = np.tile(np.arange(G, dtype=np.int64), (H, 1))
    table_of = np.empty((P, H), dtype=np.int64)
    for h in range(H):
        table_of[plan[h].ravel(), h] = np.repeat(assign[h], S)
    _anneal(plan, assign, table_of, np.ones(H, dtype=np.bool_), np.zeros((H, G), dtype=np.int64),
            np.array([float(H)]), np.array([[float(H)]]), np.zeros(H, dtype=np.int64), steps,
            seed, np.array([1.0, 0.0, 0.0, 0.0]), 2.0, 0.05, np.full((H, G), -1, dtype=np.int64),
            0.0)
    for h in range(H):
        table_of[plan[h].ravel(), h] = np.repeat(assign[h], S)
    return _seen_again(_visits(table_of, G))


# ----------------------------------------------------------------------------------
# Area patterns: an area for every place in every hanchan, chosen before the draft
# ----------------------------------------------------------------------------------

PATTERN_STEPS = 2_000_000  # swaps tried by the area-pattern annealing (0.1-0.2 s on 200 x 14)


@kernel
def _pair_cycles(place_area, a, root):
    """Cycles in the hanchans joined by the places that sit twice in area a (of 2 tables):
    each such place is an edge between its two hanchans; returns edges - hanchans + parts
    over the hanchans they touch (0 for a forest).

    A place twice in an area of two tables needs both tables; which group of a hanchan takes
    which table is one choice per hanchan, and each such place asks its two hanchans'
    choices to differ or agree (as its groups fall). On a forest some choice always keeps
    them all; on a cycle the groups may leave none (unseen-7 of generator seed 15: two places
    in the same two hanchans, together in one and apart in the other)."""
    H, P = place_area.shape
    for h in range(H):
        root[h] = h
    cycles = 0
    for p in range(P):
        first = -1
        for h in range(H):
            if place_area[h, p] != a:
                continue
            if first < 0:
                first = h
                continue
            u = first
            while root[u] != u:
                u = root[u]
            v = h
            while root[v] != v:
                v = root[v]
            if u == v:
                cycles += 1
            else:
                root[u] = v
    return cycles


@njit(cache=True)
def _pattern_anneal(place_area, wind, country, cap, day_of, lo, hi, day_lo, day_hi, steps,
                    seed, t_hi, t_lo):
    """Anneal place_area[h, p] by swapping the areas of two places with the same wind in one
    hanchan (every area keeps one place of each wind per table). Cost: 10^4 per count
    outside an event share and per place of a country beyond the tables of its area in a
    hanchan (compatriots there would have to meet), 10^3 per cycle in an area of two tables
    (_pair_cycles: its places could then need a table twice; more places twice there than
    hanchans force some), 10 per count outside a day share, 1 per place in the same area
    as in the hanchan before. Returns (event faults and crowded compatriots, cycles, day
    faults, repeats) of the best."""
    np.random.seed(seed)
    H, P = place_area.shape
    A = lo.shape[0]
    D = day_lo.shape[0]
    C = country.max() + 1
    pair = np.zeros(A, dtype=np.bool_)  # areas of two tables in every hanchan
    for a in range(A):
        pair[a] = True
        for h in range(H):
            if cap[h, a] != 2:
                pair[a] = False
    root = np.empty(H, dtype=np.int64)
    crowd = np.zeros((H, A, C), dtype=np.int64)
    for h in range(H):
        for p in range(P):
            crowd[h, place_area[h, p], country[p]] += 1
    count = np.zeros((P, A), dtype=np.int64)
    day_count = np.zeros((P, D, A), dtype=np.int64)
    for h in range(H):
        for p in range(P):
            count[p, place_area[h, p]] += 1
            day_count[p, day_of[h], place_area[h, p]] += 1
    ev = 0
    dy = 0
    for p in range(P):
        for a in range(A):
            ev += _gap(count[p, a], lo[a], hi[a])
            for d in range(D):
                dy += _gap(day_count[p, d, a], day_lo[d, a], day_hi[d, a])
    for h in range(H):
        for a in range(A):
            for c in range(C):
                ev += max(crowd[h, a, c] - cap[h, a], 0)
    acyc = np.zeros(A, dtype=np.int64)  # cycles of each area of two tables, kept current
    for a in range(A):
        if pair[a]:
            acyc[a] = _pair_cycles(place_area, a, root)
    cyc = acyc.sum()
    rep = 0
    for h in range(1, H):
        for p in range(P):
            rep += place_area[h, p] == place_area[h - 1, p]
    cost = 10000.0 * ev + 1000.0 * cyc + 10.0 * dy + rep
    best = cost
    best_ev, best_cyc, best_dy, best_rep = ev, cyc, dy, rep
    best_area = place_area.copy()
    for it in range(steps):
        temp = t_hi * (t_lo / t_hi) ** (it / steps)
        h = np.random.randint(H)
        x = np.random.randint(P)
        y = np.random.randint(P)
        ax = place_area[h, x]
        ay = place_area[h, y]
        if ax == ay or wind[h, x] != wind[h, y]:
            continue
        d = day_of[h]
        dev = 0
        ddy = 0
        drep = 0
        for (u, a_old, a_new) in ((x, ax, ay), (y, ay, ax)):
            dev += _move_gap(count[u], lo, hi, a_old, a_new)
            ddy += _move_gap(day_count[u, d], day_lo[d], day_hi[d], a_old, a_new)
            for nb in (h - 1, h + 1):
                if 0 <= nb < H:
                    drep += (place_area[nb, u] == a_new) - (place_area[nb, u] == a_old)
        cx = country[x]
        cy = country[y]
        if cx != cy:
            for (c, a_old, a_new) in ((cx, ax, ay), (cy, ay, ax)):
                dev += (max(crowd[h, a_old, c] - 1 - cap[h, a_old], 0)
                        - max(crowd[h, a_old, c] - cap[h, a_old], 0)
                        + max(crowd[h, a_new, c] + 1 - cap[h, a_new], 0)
                        - max(crowd[h, a_new, c] - cap[h, a_new], 0))
        dcyc = 0
        ax_cycles = acyc[ax]
        ay_cycles = acyc[ay]
        if pair[ax] or pair[ay]:
            # the cycles of the two areas after the move (made, then undone)
            place_area[h, x] = ay
            place_area[h, y] = ax
            if pair[ax]:
                ax_cycles = _pair_cycles(place_area, ax, root)
            if pair[ay]:
                ay_cycles = _pair_cycles(place_area, ay, root)
            place_area[h, x] = ax
            place_area[h, y] = ay
            dcyc = ax_cycles - acyc[ax] + ay_cycles - acyc[ay]
        delta = 10000.0 * dev + 1000.0 * dcyc + 10.0 * ddy + drep
        if delta > 0 and np.random.random() >= np.exp(-delta / temp):
            continue
        for (u, a_old, a_new) in ((x, ax, ay), (y, ay, ax)):
            count[u, a_old] -= 1
            count[u, a_new] += 1
            day_count[u, d, a_old] -= 1
            day_count[u, d, a_new] += 1
            crowd[h, a_old, country[u]] -= 1
            crowd[h, a_new, country[u]] += 1
        place_area[h, x] = ay
        place_area[h, y] = ax
        ev += dev
        cyc += dcyc
        acyc[ax] = ax_cycles
        acyc[ay] = ay_cycles
        dy += ddy
        rep += drep
        cost += delta
        if cost < best:
            best = cost
            best_ev, best_cyc, best_dy, best_rep = ev, cyc, dy, rep
            copy_into(best_area, place_area)
    copy_into(place_area, best_area)
    return best_ev, best_cyc, best_dy, best_rep


def area_patterns(event: Event, wind: np.ndarray, seed: int,
                  steps: int = PATTERN_STEPS) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """place_area[h, p]: the area of every place in every hanchan, for a draft whose tables
    seat places of one area (one of each wind: wind[h, p]).

    In every hanchan each area gets, of every wind, as many places as it has tables; a
    place's count in each area is within [floor, ceil] of its share over the event (then,
    as far as possible, of each day's share), with as few places as possible in the same
    area twice in a row, and no more places of one country in an area than it has tables
    in that hanchan; in an area of two tables, as few cycles as possible among the places
    that sit there twice (_pair_cycles). Returns the patterns and their (event faults and
    crowded compatriots, cycles, day faults, same area twice in a row)."""
    H, P = wind.shape
    A = len(event.areas)
    share, day_share = area_shares(event)
    rng = np.random.default_rng(seed)
    cap = np.stack([np.bincount(event.area_at[h], minlength=A) for h in range(H)])
    place_area = np.empty((H, P), dtype=np.int64)
    for h in range(H):
        for w in np.unique(wind[h]):
            places = np.nonzero(wind[h] == w)[0]
            place_area[h, rng.permutation(places)] = np.repeat(np.arange(A), cap[h])
    lo, hi = share_range(share)
    day_lo, day_hi = share_range(day_share)
    found = _pattern_anneal(place_area, np.ascontiguousarray(wind, dtype=np.int64),
                            event.country_of.astype(np.int64), cap.astype(np.int64),
                            event.day_of.astype(np.int64), lo, hi, day_lo, day_hi, steps,
                            int(rng.integers(2**31)), 3.0, 0.05)
    return place_area, tuple(int(v) for v in found)


def pattern_areas(event: Event, plan: np.ndarray) -> np.ndarray | None:
    """The areas of a plan drafted over area patterns: group g of hanchan h in the area of
    table g (area_at[h, g]), if that keeps every player within [floor, ceil] of each area's
    share over the event; else None (the groups were not built for the areas)."""
    if len(event.areas) < 2:
        return None
    area = event.area_at[:, : plan.shape[1]].copy()
    return None if _off_share(event, plan, area) else area


def _off_share(event: Event, plan: np.ndarray, area: np.ndarray) -> bool:
    """Whether some player of plan[h, g] with group areas area[h, g] is outside [floor,
    ceil] of an area's share over the event."""
    H, G, S = plan.shape
    share, _ = area_shares(event)
    count = np.zeros((event.players, len(share)), dtype=np.int64)
    for h in range(H):
        np.add.at(count, (plan[h].ravel(), np.repeat(area[h], S)), 1)
    return bool(_outside(count, share).any())


def areas_fit(event: Event, plan: np.ndarray, iterations: int = 50_000) -> bool:
    """Whether the area search finds areas for these groups with every player within each
    area's share (one start of assign_areas; the draft's test of whether groups need area
    patterns)."""
    movable = np.ones(plan.shape[0], dtype=bool)
    area, _ = assign_areas(event, plan, movable, None, iterations=iterations, starts=1,
                           day_iterations=0, retries=0)
    return not _off_share(event, plan, area)
