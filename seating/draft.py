"""Stage 2, draft: a greedy first plan (Triska & Musliu).

Hanchan by hanchan, tables are filled one at a time, each with the two pairs of places that
still have the most freedom left: the freedom of a set of places is the number of unseated
places that none of them has met (compatriots count as met, as stage 1 says). Every table
seats one place of each planned wind (the seat key), so the winds of stage 5 are sure to
exist. Pairs that must meet again are taken only when no fresh pair is left; stage 3
removes them. `first_plan` chooses the draft: a design when asked (search.design_start), a
complete design repeated, a linked cycle for sparse fields (`linked_plan`), or this greedy
draft, with seats free when repeat meetings are unavoidable (`seats_free`). When the event
has several areas and no area search finds areas for the greedy draft's groups
(tables.areas_fit), the draft is made again over area patterns (tables.area_patterns):
every table of an area is filled from the places that pattern puts in that area in that
hanchan.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .jit import kernel


@kernel
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@kernel
def _count(a, b, c):
    n = 0
    for i in range(a.shape[0]):
        n += _popcount(a[i] & b[i] & c[i])
    return n


@kernel
def _set(bits, p, on):
    w = p >> 6
    m = np.uint64(1) << np.uint64(p & 63)
    if on:
        bits[w] |= m
    else:
        bits[w] &= ~m


@njit(cache=True)
def _fill_hanchan(h, plan, key, area, group_area, met, fresh, S, sample):
    """Fill every table of hanchan h; a table is filled pair by pair (then a single), from
    places whose area in this hanchan (area[h, p]) is the table's (group_area[h, g])."""
    G = plan.shape[1]
    P = met.shape[0]
    W = fresh.shape[1]
    seated = np.zeros(P, dtype=np.bool_)
    free = np.zeros(W, dtype=np.uint64)
    for p in range(P):
        _set(free, p, True)
    table = np.empty(S, dtype=np.int64)
    cand = np.empty(P, dtype=np.int64)
    for g in range(G):
        used_keys = np.zeros(S + 1, dtype=np.bool_)
        n = 0
        # allowed: unseated places whose key is not yet at this table
        while n < S:
            nc = 0
            for p in range(P):
                if not seated[p] and (key[h, p] < 0 or not used_keys[key[h, p]]) and (
                        area[h, p] == group_area[h, g]):
                    cand[nc] = p
                    nc += 1
            best_a = -1
            best_b = -1
            best_conf = 1 << 30
            best_free = -1
            ties = 0
            pair = S - n >= 2
            # sample first members when the field is large (keeps the draft near-linear)
            na = nc if nc <= sample else sample
            for ia in range(na):
                a = cand[ia] if nc <= sample else cand[np.random.randint(nc)]
                conf_a = 0
                for j in range(n):
                    conf_a += met[a, table[j]]
                if not pair:
                    f = _count(fresh[a], fresh[a], free)
                    score_conf = conf_a
                    if score_conf < best_conf or (score_conf == best_conf and f > best_free):
                        best_conf = score_conf
                        best_free = f
                        best_a = a
                        ties = 1
                    elif score_conf == best_conf and f == best_free:
                        ties += 1
                        if np.random.randint(ties) == 0:
                            best_a = a
                    continue
                for ib in range(nc):
                    b = cand[ib]
                    if b == a or (key[h, a] >= 0 and key[h, a] == key[h, b]):
                        continue
                    if nc <= sample and b < a:
                        continue
                    conf = conf_a + met[a, b]
                    for j in range(n):
                        conf += met[b, table[j]]
                    if conf > best_conf:
                        continue
                    f = _count(fresh[a], fresh[b], free)
                    if conf < best_conf or f > best_free:
                        best_conf = conf
                        best_free = f
                        best_a = a
                        best_b = b
                        ties = 1
                    elif f == best_free:
                        ties += 1
                        if np.random.randint(ties) == 0:
                            best_a = a
                            best_b = b
            for p in (best_a, best_b):
                if p < 0:
                    continue
                table[n] = p
                n += 1
                seated[p] = True
                _set(free, p, False)
                if key[h, p] >= 0:
                    used_keys[key[h, p]] = True
        for s in range(S):
            p = table[s]
            plan[h, g, key[h, p] if key[h, p] >= 0 else s] = p
        for s in range(S):
            for t in range(S):
                if s != t:
                    a = table[s]
                    b = table[t]
                    met[a, b] += 1
                    _set(fresh[a], b, False)


@njit(cache=True)
def _draft(plan, key, area, group_area, movable, met, S, seed, sample):
    np.random.seed(seed)
    H = plan.shape[0]
    P = met.shape[0]
    W = (P + 63) // 64
    fresh = np.zeros((P, W), dtype=np.uint64)
    for a in range(P):
        for b in range(P):
            if a != b and met[a, b] == 0:
                _set(fresh[a], b, True)
    # hanchans given in advance (played, or taken from a design) count as met first
    for h in range(H):
        if movable[h]:
            continue
        for g in range(plan.shape[1]):
            for s in range(S):
                for t in range(S):
                    if s != t:
                        a = plan[h, g, s]
                        b = plan[h, g, t]
                        met[a, b] += 1
                        _set(fresh[a], b, False)
    for h in range(H):
        if movable[h]:
            _fill_hanchan(h, plan, key, area, group_area, met, fresh, S, sample)
    return plan


def draft(
    country: np.ndarray,
    key: np.ndarray,
    table_size: int,
    seed: int,
    given: np.ndarray | None = None,
    movable: np.ndarray | None = None,
    sample: int = 64,
    area: np.ndarray | None = None,
    group_area: np.ndarray | None = None,
) -> np.ndarray:
    """Greedy plan[hanchan, group, seat] for places 0..P-1.

    key[h, p] is the seat (planned wind) of place p in hanchan h, or -1 for free seats.
    given/movable: hanchans with movable False are copied from `given` and left alone.
    area/group_area: with area patterns (tables.area_patterns), group g of hanchan h seats
    only places p with area[h, p] == group_area[h, g].
    """
    country = np.asarray(country)
    hanchans, players = key.shape
    groups = players // table_size
    met = (country[:, None] == country[None, :]).astype(np.int64)
    np.fill_diagonal(met, 0)
    plan = np.full((hanchans, groups, table_size), -1, dtype=np.int64)
    if movable is None:
        movable = np.ones(hanchans, dtype=np.bool_)
    if given is not None:
        plan[~movable] = given[~movable]
    if area is None:
        area = np.zeros((hanchans, players), dtype=np.int64)
        group_area = np.zeros((hanchans, groups), dtype=np.int64)
    return _draft(plan, np.asarray(key, dtype=np.int64), np.asarray(area, dtype=np.int64),
                  np.asarray(group_area, dtype=np.int64), np.asarray(movable, dtype=np.bool_),
                  met, table_size, seed, sample)


ROUND_JUDGE_STEPS = 300_000  # steps of the table numbering that judges which rounds of a
# design to keep (tables.fewest_table_repeats): lifted planes of AG(4, 2) over 9 hanchans,
# about 0.15 s a run of rounds, 1.5 s for all 10, and a run worth 38 repeats on seeds 1-3;
# at 100,000 steps, on one of those seeds, a run worth 42
ROUND_CHOICES = 12  # runs of rounds judged at most, their first rounds spread evenly (a
# resolvable design of 160 has 53 rounds: 5 s for all)


def rounds_to_keep(plan: np.ndarray, hanchans: int, seed: int) -> np.ndarray:
    """Which rounds of a repeat-free design of one place per country to play, when it has
    more than `hanchans`: a run of consecutive rounds (wrapping round, kept in the design's
    order; at most ROUND_CHOICES runs), chosen by the goals in their order. Nobody meets
    anyone twice in any run and countries met are the opponents, so the meeting goals that
    can differ are the pairs with no common opponent, then the fewest common opponents of a
    pair never met and the pairs that have that few; then the table repeats a numbering of
    the groups leaves (tables.fewest_table_repeats). The first run wins ties. Lifted planes
    of AG(4, 2) over 9 hanchans: the first 9 rounds leave 48 table repeats (the floor is 32),
    rounds 2-10 or 6-10 and 1-4 leave 38, recounted from the whole plan."""
    from .check import meetings
    from .tables import fewest_table_repeats

    R = plan.shape[0]
    P = int(plan.max()) + 1
    best, keep = None, np.arange(hanchans)
    for start in np.unique(np.arange(ROUND_CHOICES) * R // ROUND_CHOICES):
        rounds = np.sort((start + np.arange(hanchans)) % R)
        meet = (meetings(plan[rounds], P) > 0).astype(np.int64)
        common = meet @ meet
        never = (meet == 0) & ~np.eye(P, dtype=bool)
        low = int(common[never].min()) if never.any() else 0
        key = (int((never & (common == 0)).sum()), -low, int((never & (common == low)).sum()),
               fewest_table_repeats(plan[rounds], ROUND_JUDGE_STEPS, seed))
        if best is None or key < best:
            best, keep = key, rounds
    return keep


def from_design(country: np.ndarray, hanchans: int, days: tuple[int, ...], table_size: int,
                seed: int) -> tuple[np.ndarray, str] | None:
    """A first plan taken from a combinatorial design (designs.designs_for), and its name.

    The design's players are spread over the places so that every delegation is split over
    the design's groups (design player (p mod k) * m + p // k is place p, places in
    delegation order). A Dutch cycle seats one player of each group at every table, so its
    seats get winds from one valid sequence and its images (the groups' players share a
    wind pattern), and the plan keeps every wind rule; other designs keep their seat order
    and leave the winds to the wind stage (with one place per country and more rounds than
    hanchans, the rounds rounds_to_keep chooses). When no design has enough repeat-free rounds,
    the one with the most (at least half the hanchans) gives the first hanchans and the
    greedy draft, seats free, fills the rest; None when none has that many.
    """
    from .designs import designs_for, dutch_cycle
    from .winds import random_valid_sequence

    players = len(country)
    m = players // table_size
    found = designs_for(players, table_size)
    fits = [d for d in found if d.rounds >= hanchans]
    design = fits[0] if fits else max(found, key=lambda d: d.rounds, default=None)
    if design is None or 2 * design.rounds < hanchans:
        return None
    rounds = min(design.rounds, hanchans)
    if design.name.startswith("Dutch"):
        winds = random_valid_sequence(np.random.default_rng(seed), days, table_size)
        plan = dutch_cycle(players, rounds, table_size, winds=winds[:rounds])
    elif design.rounds > rounds and len(np.unique(country)) == players:
        plan = design.plan[rounds_to_keep(design.plan, rounds, seed)]
    else:
        plan = design.plan[:rounds].copy()
    place_of = np.empty(players, dtype=np.int64)
    p = np.arange(players)
    place_of[(p % table_size) * m + p // table_size] = p
    if rounds == hanchans:
        return place_of[plan], design.name
    given = np.full((hanchans, m, table_size), -1, dtype=np.int64)
    given[:rounds] = place_of[plan]
    movable = np.arange(hanchans) >= rounds
    free = np.full((hanchans, players), -1, dtype=np.int64)
    plan = draft(country, free, table_size, seed + 2, given=given, movable=movable)
    return plan, f"{design.name} for hanchans 1-{rounds}, then greedy"


LINK_CAPACITY = {3: 3.0, 4: 3.9}  # by table size: the draft is a linked cycle
# (designs.linked_cycle) when a pair never met can have at most this many common opponents
# on average (bounds.link_capacity). Tables of 3: from the greedy draft, 177 and 174 places
# over 10 hanchans (2.31 and 2.35) kept 198 and 151 pairs unlinked, 150 places (2.79) 7;
# from a linked cycle none, and the fewest countries met 9 and 12 instead of 6 and 8
# (benchmarks/results/unseen-sanma-seed21.md, at bcff64e; 7 and 10 before the placement
# aimed at the goal's target), 8 instead of 7 on the 150 (at 33d1f55).
# 135 places over 10 (3.16) are linked from either, with fewest countries met 9 from the
# greedy draft and 6 from a linked cycle (8 since the placement aims at the target, at
# ba40a74). Tables of 4, one place per country over 8
# hanchans (benchmarks/results/published-grid-h8-h10.md): 152 places (3.97) linked from
# the greedy draft, 156 to 200 (3.85 to 2.88) not (2 to 249 pairs unlinked)
LINK_WORK = 30_000  # the shifts are searched only up to tables x hanchans^2 of this: 177
# places over 10 hanchans at tables of 3 (59 x 100) take about 1 ms an iteration of the
# tabu search, 600 places over 14 at tables of 4 (150 x 196, 2.94 common opponents) about
# 15 ms (shifts found in 2 of the first 4 tries, 33-40 s each); 800 over 14 (200 x 196,
# 2.16) left 82 differences uncovered after 6,000 iterations (147 s)
PLACE_STEPS = 2_000  # annealing steps a place of the countries' places on a linked cycle
PLACE_COMPATRIOT = 10_000.0  # weight there of two compatriots meeting (a player one country
# short of the goal's target weighs 1, two short 4, ...): it never trades one for them
# (at 100, 100 places at tables of 4 over 6 hanchans kept one such meeting)
PLACE_GUARD = 100.0  # weight, in the placement's second annealing (the class mix), of a
# position meeting a country fewer than the fewest the first left (the mix weighs 1 a
# squared count off its fair share). 174, 177 and 150 places at tables of 3 (capacity 2.35,
# 2.31, 2.79), first plans: fewest countries met 12, 9, 9 after the first annealing (on
# (cap - met)^2 above the goal's target: 10, 7, 8), kept; class counts 2+ off (day / event)
# 128/110, 142/148, 160/131 with no mix term -> 56/62, 58/70, 51/65; at weight 3: 11, 9, 9


@njit(cache=True, inline="always")
def _off(count, target):
    """How far a count lies outside the whole numbers next to its fair share, squared."""
    e = max(count - np.ceil(target), np.floor(target) - count, 0.0)
    return e * e


@njit(cache=True, inline="always")
def _own_mix(u, c, mix_day, mix_total, share_day, share_total):
    """Position u's class-mix cost were it of country c (its fair shares are c's)."""
    cost = 0.0
    for d in range(mix_day.shape[1]):
        for j in range(3):
            cost += _off(mix_day[u, d, j], share_day[c, d, j])
    for j in range(3):
        cost += _off(mix_total[u, j], share_total[c, j])
    return cost


@njit(cache=True, inline="always")
def _class_pair(x, d, c, a, b, mix_day, mix_total, share_day, share_total):
    """The terms of position x (of country c) that a change of one opponent in day d from
    class a to class b touches: its counts of a and b that day and over the event."""
    return (_off(mix_day[x, d, a], share_day[c, d, a]) + _off(mix_day[x, d, b], share_day[c, d, b])
            + _off(mix_total[x, a], share_total[c, a]) + _off(mix_total[x, b], share_total[c, b]))


@njit(cache=True, inline="always")
def _move_country(opponents, met, distinct, country, w, old, new, cap, col_day, cls,
                  mix_day, mix_total, share_day, share_total, countries_weight, mix_weight):
    """Position w changes from country old to new: its opponents' counts follow. Returns
    the change of the cost: countries_weight times (cap - countries met)^2 where below
    cap, and mix_weight times the squared distances of the class counts from their fair
    shares (per day and over the event; w's own shares change with its country)."""
    delta = 0.0
    co, cn = cls[old], cls[new]
    for i in range(opponents.shape[1]):
        x = opponents[w, i]
        before = max(cap - distinct[x], 0.0) ** 2
        met[x, old] -= 1
        distinct[x] -= met[x, old] == 0
        distinct[x] += met[x, new] == 0
        met[x, new] += 1
        delta += countries_weight * (max(cap - distinct[x], 0.0) ** 2 - before)
        if co != cn:
            d, cx = col_day[i], country[x]
            before = _class_pair(x, d, cx, co, cn, mix_day, mix_total, share_day, share_total)
            mix_day[x, d, co] -= 1
            mix_day[x, d, cn] += 1
            mix_total[x, co] -= 1
            mix_total[x, cn] += 1
            after = _class_pair(x, d, cx, co, cn, mix_day, mix_total, share_day, share_total)
            delta += mix_weight * (after - before)
    delta += mix_weight * (_own_mix(w, new, mix_day, mix_total, share_day, share_total)
                           - _own_mix(w, old, mix_day, mix_total, share_day, share_total))
    country[w] = new
    return delta


@njit(cache=True)
def _place_countries(opponents, col_day, country, cls, share_day, share_total, cap,
                     countries_weight, mix_weight, steps, seed, hot, cold):
    """Anneal which country sits at each position of a fixed plan (opponents[u]: the
    positions u meets, column i in day col_day[i]): exchanges of two positions' countries,
    cost PLACE_COMPATRIOT per meeting of compatriots (each counted from both ends), then
    per position countries_weight times (cap - countries met)^2 where below cap and
    mix_weight times the squared distances of its opponents' size-class counts (cls: each
    country's class) from its fair shares (share_day[c, d], share_total[c]: a place of
    country c's). Changes country in place; returns the compatriot meetings left."""
    np.random.seed(seed)
    P, D = opponents.shape
    C = cls.shape[0]
    met = np.zeros((P, C), dtype=np.int64)  # met[u, c]: opponents of u from c
    mix_day = np.zeros((P, share_day.shape[1], 3), dtype=np.int64)
    mix_total = np.zeros((P, 3), dtype=np.int64)
    for u in range(P):
        for i in range(D):
            c = country[opponents[u, i]]
            met[u, c] += 1
            mix_day[u, col_day[i], cls[c]] += 1
            mix_total[u, cls[c]] += 1
    distinct = np.zeros(P, dtype=np.int64)
    for u in range(P):
        for c in range(C):
            distinct[u] += met[u, c] > 0
    for step in range(steps):
        heat = hot * (cold / hot) ** (step / steps)
        u = np.random.randint(P)
        v = np.random.randint(P)
        cu, cv = country[u], country[v]
        if cu == cv:
            continue
        delta = 0.0
        for w, old, new in ((u, cu, cv), (v, cv, cu)):
            delta += PLACE_COMPATRIOT * 2 * (met[w, new] - met[w, old])
            delta += _move_country(opponents, met, distinct, country, w, old, new, cap,
                                   col_day, cls, mix_day, mix_total, share_day, share_total,
                                   countries_weight, mix_weight)
        if delta <= 0 or np.random.random() < np.exp(-delta / heat):
            continue
        # undo, in reverse
        _move_country(opponents, met, distinct, country, v, cu, cv, cap, col_day, cls,
                      mix_day, mix_total, share_day, share_total, countries_weight, mix_weight)
        _move_country(opponents, met, distinct, country, u, cv, cu, cap, col_day, cls,
                      mix_day, mix_total, share_day, share_total, countries_weight, mix_weight)
    left = 0
    for u in range(P):
        for i in range(D):
            left += country[opponents[u, i]] == country[u]
    return left // 2


def linked_plan(event, log=lambda line: None) -> tuple[np.ndarray, str] | None:
    """A first plan from a linked cycle (designs.linked_cycle), for sparse fields
    (link_capacity below LINK_CAPACITY for the table size, repeat meetings avoidable):
    every pair meets or has a common opponent, nobody meets anyone twice, and each group
    shares one valid wind pattern. The delegations' places are annealed onto the
    positions (_place_countries: no compatriots meeting, then as many countries met as
    the goal's target asks, the worst-off weighing most, then the size-class mix with no
    one falling below the fewest countries met). None when the field is not sparse or too
    large for the search (LINK_WORK), no shifts are found (designs.LINK_TRIES tries) or
    compatriots would still meet."""
    from .bounds import link_capacity, mix_targets
    from .check import opponents_by_hanchan
    from .countries import size_classes
    from .designs import linked_cycle, linked_shifts
    from .engine import COUNTRIES
    from .rules import targets
    from .winds import random_valid_sequence

    k = event.table_size
    capacity = link_capacity(event)
    # below 1 common opponent on average some unmet pair has none: no linked plan exists
    if k not in LINK_CAPACITY or seats_free(event) or not 1 <= capacity < LINK_CAPACITY[k]:
        return None
    m = event.players // k
    if m * event.hanchans ** 2 > LINK_WORK:
        return None
    log(f"draft: linked cycle of {k} groups of {m}, searching its shifts (an unmet pair "
        f"has at most {capacity:.2f} common opponents on average)")
    shift = linked_shifts(m, event.hanchans, event.seed, table_size=k, log=log)
    if shift is None:
        return None
    winds = random_valid_sequence(np.random.default_rng(event.seed), event.days, k)
    if winds is None:
        return None
    design = linked_cycle(shift, m, winds=winds)
    opponents = np.array([np.concatenate(row)
                          for row in opponents_by_hanchan(design, event.players)])
    # largest delegations first, each into the group with the most room (players of one
    # group never meet), split over the roomiest groups only when none holds it; annealed
    sizes = event.delegation_sizes
    room = [m] * k
    parts = [[] for _ in range(k)]
    for c in np.argsort(-sizes, kind="stable"):
        rest = int(sizes[c])
        while rest:
            g = max(range(k), key=lambda g: (room[g], -g))
            n = min(rest, room[g])
            parts[g] += [c] * n
            room[g] -= n
            rest -= n
    country = np.array([c for part in parts for c in part], dtype=np.int64)
    col_day = np.repeat(event.day_of, k - 1).astype(np.int64)  # the day of each column
    # a place of each country (its fair shares are every place's of that country)
    first = [int(np.argmax(event.country_of == c)) for c in range(len(sizes))]
    share_day, share_total = mix_targets(event)
    cap = float(targets(event)[COUNTRIES])
    args = (opponents, col_day, country, size_classes(sizes).astype(np.int64),
            share_day[first].copy(), share_total[first].copy())
    # first the countries met (below the goal's target), then the class mix, no position
    # falling below the fewest countries met that the first left
    steps = PLACE_STEPS * event.players
    _place_countries(*args, cap, 1.0, 0.0, steps, event.seed + 1, 2.0, 0.05)
    fewest = min(len(set(row)) for row in country[opponents].tolist())
    left = _place_countries(*args, float(fewest), PLACE_GUARD, 1.0, steps, event.seed + 2,
                            2.0, 0.05)
    if left:
        return None
    place_of = np.empty(event.players, dtype=np.int64)  # the place at each position
    for c in range(len(sizes)):
        place_of[country == c] = np.nonzero(event.country_of == c)[0]
    return (place_of[design],
            f"linked cycle of {k} groups of {m} (shifts searched from seed {event.seed})")


def cycled_design(country: np.ndarray, hanchans: int, table_size: int,
                  seed: int) -> tuple[np.ndarray, str] | None:
    """For an event longer than repeat-free play allows: a complete design repeated.

    When every place is its own country and a complete design (every pair meets exactly
    once in r rounds) exists with r < hanchans, hanchan h plays round h mod r of it: each
    pass meets every pair once more and the rounds left over take a pair once more, so
    every pair meets floor(x) or ceil(x) times (x the average), the best spread there is,
    and the search's repeat goal (the sum of C(m, 2)) is at its counting bound. Two
    consecutive hanchans are two different rounds, which share no pair: nobody meets an
    opponent twice in a row. None otherwise.
    """
    from .designs import designs_for

    players = len(country)
    if len(np.unique(country)) != players:
        return None
    complete = [d for d in designs_for(players, table_size) if d.complete]
    if not complete or complete[0].rounds >= hanchans:
        return None
    design = complete[0]
    relabel = np.random.default_rng(seed).permutation(players)
    plan = relabel[design.plan[np.arange(hanchans) % design.rounds]]
    return plan.astype(np.int64), f"{design.name}, its rounds repeated in turn"


def seats_free(event) -> bool:
    """Whether the search leaves seats free: when some player has more opponent seats
    than players of other countries, so that repeat or compatriot meetings cannot be
    avoided (more hanchans than repeat-free play allows). Then the meeting rules, which
    outrank the winds, get the whole search space (tying each table to one place of each
    planned wind cost 20 x 8 three pairs never met, and 20 places with two delegations of
    7 over 5 hanchans 9 repeats instead of 4), and the wind stage seats the groups
    (winds.assign_winds repairs any grouping of such small fields). Otherwise every table
    seats one place of each planned wind, so valid winds are sure."""
    from .bounds import opponents_per_player

    others = event.players - event.delegation_sizes[event.country_of]
    return bool((opponents_per_player(event) > others).any())


def seat_keys(event, plan: np.ndarray) -> np.ndarray:
    """Seat key of every place in every hanchan for the search: its seat (planned wind),
    plus table_size x its area when the plan was drafted over area patterns
    (tables.pattern_areas), or -1 everywhere when seats are free (seats_free). A swap
    exchanges places with the same key."""
    from .io import keys_of
    from .tables import pattern_areas, place_areas

    keys = keys_of(plan)
    if seats_free(event):
        return np.full_like(keys, -1)
    area = pattern_areas(event, plan)
    if area is not None:  # drafted over area patterns: swaps keep every place's area too
        keys = keys + event.table_size * place_areas(plan, area)
    return keys


def whole_delegations_plan(event) -> np.ndarray:
    """A greedy draft over wind patterns that keep each delegation on one pattern as far as
    the pieces allow (winds.wind_blocks with whole=True): its places never share a table.
    The swap stage's fallback when its search leaves meeting rules unmet (a few very large
    delegations against the number of tables)."""
    from .winds import choose_patterns

    wind = choose_patterns(event.country_of, event.days, event.table_size,
                           np.random.default_rng(event.seed), whole=True).T.copy()
    return draft(event.country_of, wind, event.table_size, event.seed + 2)


def design_fits(event) -> bool:
    """Whether the draft starts from a design without being asked: every delegation has one
    place, repeat meetings can be avoided (not seats_free), a design other than a Dutch
    cycle (an affine geometry, a Kirkman or resolvable design, lifted planes of AG(4, 2))
    has repeat-free rounds for at least half the hanchans (as from_design takes them), and
    the field is small enough for the wind stage to seat any grouping exactly
    (winds.EXACT_VARIABLES). Such a design meets the two highest rules for its rounds at
    once, where the search stalls near the limit of repeat-free play: from the greedy
    draft, 32 places over 9 hanchans at tables of 4 kept 20 repeat meetings and over 10
    hanchans 39; from the lifted planes of AG(4, 2), 0 and 0. Larger fields keep the
    greedy draft, whose seats keep every wind rule (a design's groups may have no valid
    winds: 160 places over 14 hanchans from a resolvable design broke 8 players' wind
    counts, where the greedy draft breaks none)."""
    from .winds import EXACT_VARIABLES

    if event.players * event.hanchans * event.table_size > EXACT_VARIABLES:
        return False
    return design_covers(event, (event.hanchans + 1) // 2)


def design_covers(event, rounds: int) -> bool:
    """Every delegation has one place, repeat meetings can be avoided (not seats_free), and
    a design other than a Dutch cycle has at least `rounds` repeat-free rounds."""
    from .designs import designs_for

    if (event.delegation_sizes != 1).any() or seats_free(event):
        return False
    return any(d.rounds >= rounds and not d.name.startswith("Dutch")
               for d in designs_for(event.players, event.table_size))


def club_groups(event) -> list[np.ndarray] | None:
    """The places of k groups of one place per table (k = the table size), when the
    delegations force them: at least k - 1 delegations of exactly m places (m = tables).
    Every table must then seat one place of each such delegation to avoid compatriot
    meetings, so with k - 1 of them the k-th seat of every table goes to the places left,
    who can never meet each other either; those form the k-th group. None otherwise."""
    sizes = event.delegation_sizes
    m, k = event.tables, event.table_size
    full = np.nonzero(sizes == m)[0][:k]
    if len(full) < k - 1:
        return None
    country = event.country_of
    groups = [np.nonzero(country == c)[0] for c in full]
    if len(full) == k - 1:
        groups.append(np.nonzero(~np.isin(country, full))[0])
    return groups


def clubs_fit(event) -> bool:
    """Whether the event has k groups of one place per table (club_groups: k clubs of m
    places, m = tables, or k - 1 of them and the rest), a transversal design of that order
    exists (designs.design_order: every prime power factor of m at least k, m itself when a
    prime power, or the difference matrices' and Latin squares' orders) and there are at
    most m hanchans: then the design (designs.transversal_design) seats one place of each
    group at every table, so nobody meets a compatriot or anyone twice, the best any plan
    can do on the first two rules.
    The greedy draft and the swaps stall there: 4 clubs of 9 over 8 hanchans kept 22
    repeat and 15 compatriot meetings. Beyond m hanchans repeats are unavoidable, and
    seating club-mates together, which the design never does, gives fewer (4 clubs of 5
    over 12 hanchans: 170, the counting bound, against the design repeated, 210): those
    events keep the search."""
    from .designs import design_order

    m = event.tables
    return (club_groups(event) is not None and design_order(m, event.table_size)
            and event.hanchans <= m)


def clubs_seated(event) -> bool:
    """Whether the event has k groups of one place per table (club_groups) and at most as
    many hanchans as tables, but no transversal design fits (clubs_fit: none of order m,
    designs.design_order). Every table must seat one place of each group to avoid
    compatriot meetings, so the draft gives every place of group i the i-th image of one
    valid wind sequence: a table that seats one place of each wind (as the draft and every
    swap keep) seats one of each group, and only repeats are left to the search."""
    return (club_groups(event) is not None and event.hanchans <= event.tables
            and not clubs_fit(event))


def club_patterns(event) -> np.ndarray:
    """Wind patterns[p, h] for clubs_seated events: group i takes image i of one sequence."""
    from .winds import image, random_valid_sequence

    k = event.table_size
    seq = random_valid_sequence(np.random.default_rng(event.seed), event.days, k)
    patterns = np.empty((event.players, event.hanchans), dtype=np.int8)
    for i, places in enumerate(club_groups(event)):
        patterns[places] = image(seq, i, k)
    return patterns


CLUB_ORDERS = 8  # orders of the design's rounds tried (transversal_plan)
ROW_NODES = 100_000  # steps of delegation_rows' backtracking before it gives up


def club_plan(event) -> tuple[np.ndarray, str]:
    """The transversal design for clubs_fit events, over the groups of club_groups."""
    return transversal_plan(event, club_groups(event))


def transversal_plan(event, groups: list[np.ndarray]) -> tuple[np.ndarray, str]:
    """The transversal design for k groups of m places (m = tables, k = table size, every
    prime power factor of m at least k, 12 or 15 tables of 3 or 4, 21 or 24 of 3, or 10
    of 3; at most m hanchans) over GF(m), over the product of the fields of m's factors
    (designs.design_ring), from a difference matrix (designs.difference_matrix) or from
    two orthogonal Latin squares (designs.latin_pair): group i is the design's group i (its
    places in order) and the seats take one valid wind sequence and its images
    (group i at wind seq[h] XOR i), so every wind rule holds; places of two groups meet
    at most once and places of one group never. Which elements the hanchans play decides
    which pairs never meet nor share an opponent (the third rule): the default order (0
    and the powers of the primitive element; over a product, digit order; from a
    difference matrix or the Latin squares, element order) and
    CLUB_ORDERS - 1 shuffles drawn from the seed are recounted, the fewest unlinked pairs
    kept."""
    from .designs import construction, difference_group, prime_power_factors, transversal_design
    from .winds import random_valid_sequence

    m, k, h = event.tables, event.table_size, event.hanchans
    rng = np.random.default_rng(event.seed)
    winds = random_valid_sequence(rng, event.days, k)
    place_of = np.concatenate(groups)
    best, fewest = None, None
    for attempt in range(CLUB_ORDERS):
        order = None if attempt == 0 else rng.permutation(m).tolist()
        plan = place_of[transversal_design(m, k, h, winds=winds, order=order)]
        met = np.zeros((event.players, event.players), dtype=np.int64)
        for tables in plan:
            for table in tables:
                met[np.ix_(table, table)] = 1
        np.fill_diagonal(met, 0)
        unlinked = int(np.triu((met == 0) & (met @ met == 0), 1).sum())
        if fewest is None or unlinked < fewest:
            best, fewest = plan, unlinked
        if fewest == 0:
            break
    kind = construction(m, k)
    if kind == "difference":
        how = "from a difference matrix over " + " x ".join(f"Z_{n}" for n in difference_group(m))
    elif kind == "ring":
        how = "over " + " x ".join(f"GF({q})" for q in prime_power_factors(m))
    else:
        how = f"from two orthogonal Latin squares of order {m}"
    return best, f"transversal design {how}: {k} groups of {m}"


def delegation_rows(event) -> list[np.ndarray] | None:
    """k groups of exactly m places each (m = tables, k = table size), every delegation
    whole in one group, or None when the sizes allow none (or none is found in ROW_NODES
    steps). Backtracking, largest delegations first, each into a group with room; of the
    empty groups only the first is tried (they are alike)."""
    sizes = event.delegation_sizes
    m, k = event.tables, event.table_size
    if sizes.max() > m:
        return None
    order = np.argsort(-sizes, kind="stable")
    room = np.full(k, m, dtype=np.int64)
    row_of = np.full(len(sizes), -1, dtype=np.int64)  # by delegation; -1: none tried yet
    i = 0
    for _ in range(ROW_NODES):
        if i < 0 or i == len(order):
            break
        c = order[i]
        if row_of[c] >= 0:
            room[row_of[c]] += sizes[c]  # back here: undo the last try
        nxt = -1
        for r in range(row_of[c] + 1, k):
            if room[r] >= sizes[c] and (room[r] < m or not (room[:r] == m).any()):
                nxt = r
                break
        row_of[c] = nxt
        if nxt < 0:
            i -= 1
        else:
            room[nxt] -= sizes[c]
            i += 1
    if i != len(order):
        return None
    return [np.nonzero(row_of[event.country_of] == r)[0] for r in range(k)]


def rows_fit(event) -> bool:
    """Whether a transversal design over rows of whole delegations fits (delegation_rows;
    a design of order m = tables, designs.design_order; at most m hanchans): it seats
    nobody with a compatriot or an opponent twice."""
    from .designs import design_order

    m = event.tables
    return (design_order(m, event.table_size) and event.hanchans <= m
            and delegation_rows(event) is not None)


def first_plan(event, design: bool = False, log=lambda line: None
               ) -> tuple[np.ndarray, str]:
    """Stage 2: the first plan and how it was made.

    Clubs (k delegations of one place per table, clubs_fit): a transversal design.
    design: from a combinatorial design when one fits (from_design, the design run of
    search.design_start); likewise, unasked, when design_fits. Else a complete design
    repeated when the event is longer than repeat-free play allows and that gives the best
    spread (cycled_design). Else, when the field is sparse (few common opponents possible
    for a pair never met), a linked cycle (linked_plan; log: its search's progress). Else
    the greedy draft, over valid wind patterns, or with free seats (seats_free).
    """
    from .tables import area_patterns, areas_fit
    from .winds import choose_patterns

    if clubs_fit(event):
        return club_plan(event)
    country, hanchans, size, seed = (event.country_of, event.hanchans, event.table_size,
                                     event.seed)
    design = design or design_fits(event)
    made = from_design(country, hanchans, event.days, size, seed) if design else None
    if made is None:
        made = cycled_design(country, hanchans, size, seed)
    if made is None:
        made = linked_plan(event, log)
    if made is not None:
        return made
    if seats_free(event):
        free = np.full((hanchans, len(country)), -1, dtype=np.int64)
        return draft(country, free, size, seed + 2), "greedy (Triska & Musliu), seats free"
    if clubs_seated(event):
        patterns = club_patterns(event)
    else:
        patterns = choose_patterns(country, event.days, size, np.random.default_rng(seed))
    wind = patterns.T.copy()  # wind[h, p], read (never changed) by the drafts below
    plan = draft(country, wind, size, seed + 2)
    if len(event.areas) > 1 and not areas_fit(event, plan):
        # the area shares leave these groups no area choice: build the groups for the
        # areas, every table from places given its area in that hanchan (unless the
        # patterns themselves miss a share or crowd compatriots into an area)
        place_area, (faults, *_) = area_patterns(event, wind, seed + 3)
        if faults == 0:
            plan = draft(country, wind, size, seed + 2, area=place_area,
                         group_area=event.area_at)
            return plan, "greedy (Triska & Musliu) over valid wind and area patterns"
    return plan, "greedy (Triska & Musliu) over valid wind patterns"
