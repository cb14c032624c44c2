"""The recount on plans whose figures are known by construction."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from seating.check import recount
from seating.event import Event

# GF(4) = {0, 1, a, a+1} as 0..3; addition is XOR
MUL = np.array([[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]])


def affine_plane_16():
    """AG(2, 4): 16 points, 5 parallel classes of 4 lines; every pair on exactly one line."""
    point = {(x, y): 4 * x + y for x in range(4) for y in range(4)}
    rounds = []
    for m in range(4):  # y = m x + b
        rounds.append([[point[(x, MUL[m, x] ^ b)] for x in range(4)] for b in range(4)])
    rounds.append([[point[(c, y)] for y in range(4)] for c in range(4)])  # x = c
    return np.array(rounds)


def one_each(players, hanchans, days, size=4, areas=None):
    return Event(name="t", hanchans=hanchans, days=days, table_size=size, seed=0,
                 countries=tuple((f"P{i:02d}", 1) for i in range(players)),
                 areas=areas or (("Hall", players // size),))


def test_affine_plane_everybody_meets_everybody_once():
    plan = affine_plane_16()
    f = recount(one_each(16, 5, (5,)), plan, winds_known=False)
    assert f["repeat_meetings"] == 0
    assert f["unlinked_pairs"] == 0
    assert f["indirect_min"] is None  # no pair is left unmet
    assert f["countries_met_min"] == f["countries_met_max"] == 15
    assert f["compatriot_meetings"] == 0


def test_two_rounds_of_the_same_tables():
    plan = np.array([[[0, 1, 2, 3], [4, 5, 6, 7]]] * 2)
    f = recount(one_each(8, 2, (2,)), plan, winds_known=True)
    assert f["repeat_meetings"] == 12  # 6 pairs per table meet twice
    assert f["table_repeats"] == 8
    assert f["unlinked_pairs"] == 16  # players of different tables share nobody
    assert f["consecutive_same_wind"] == 8
    assert f["back_to_back_country"] == 8  # same opponents, so the same countries


def test_compatriots_and_back_to_back_by_country():
    ev = Event(name="t", hanchans=2, days=(2,), table_size=4, seed=0,
               countries=(("AAA", 2), ("BBB", 2), ("CCC", 4)), areas=(("Hall", 2),))
    # places: AAA 0-1, BBB 2-3, CCC 4-7
    plan = np.array([[[0, 2, 4, 5], [1, 3, 6, 7]],
                     [[0, 3, 6, 4], [1, 2, 5, 7]]])
    f = recount(ev, plan, winds_known=False)
    assert f["compatriot_meetings"] == 4  # CCC 4-5, 6-7 in hanchan 1; 4-6, 5-7 in hanchan 2
    assert f["compatriot_meetings_by_country"]["CCC"]["meetings"] == 4
    # place 0 meets BBB and CCC in both hanchans: a country twice in a row
    assert f["_b2b"][0, 0]
    assert f["back_to_back_country"] == 8


def test_winds_recount_one_player():
    ev = one_each(4, 4, (4,))
    good = np.array([[[0, 1, 2, 3]], [[1, 0, 3, 2]], [[2, 3, 0, 1]], [[3, 2, 1, 0]]])
    f = recount(ev, good)
    assert f["wind_count_bad"] == f["day_wind_bad"] == f["consecutive_same_wind"] == 0
    assert f["prefix_wind_bad"] == 0
    bad = good.copy()
    bad[1, 0] = [0, 1, 3, 2]  # place 0 East twice in a row, then short of South
    f = recount(ev, bad)
    assert f["consecutive_same_wind"] >= 1
    assert f["wind_count_bad"] >= 1 and f["prefix_wind_bad"] >= 1


def test_areas_recount():
    ev = one_each(8, 4, (2, 2), areas=(("Main", 1), ("Side", 1)))
    # table 0 is Main, table 1 is Side; places 0-3 always Main
    plan = np.array([[[0, 1, 2, 3], [4, 5, 6, 7]]] * 4)
    f = recount(ev, plan, winds_known=False)
    assert f["area_max_deviation"] == 2.0  # 4 of 4 in Main against a share of 2
    assert f["consecutive_same_area"] == 8 * 3


def test_area_deviation_bound_with_a_whole_share_summed_in_floats():
    """A table moved from the hall to the room after hanchan 2 of 4: the hall's share is
    2/3 + 2/3 + 1/3 + 1/3 = 2, summed in floats as 1.9999999999999998. Everyone can be
    there exactly twice, so the bound on the largest gap is 0 (it read 1.0)."""
    A, B, C = [0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]
    ev = Event(name="t", hanchans=4, days=(2, 2), table_size=4, seed=0,
               countries=tuple((f"P{i:02d}", 1) for i in range(12)),
               areas=(("Hall", 2), ("Room", 1)), changed_from=2, table_area=(0, 1, 1))
    plan = np.array([[A, B, C], [C, A, B], [B, A, C], [C, A, B]])  # each group twice in the hall
    f = recount(ev, plan, winds_known=False)
    assert f["area_max_deviation"] == 0.0
    assert f["area_max_deviation_bound"] == 0.0


def test_consecutive_area_bound_holds_for_any_seating():
    """The per-change count: an area holding 12 of 16 seats keeps 8 players at every change."""
    ev = one_each(16, 4, (4,), areas=(("Main", 3), ("Side", 1)))
    from seating.bounds import consecutive_area_floor

    assert consecutive_area_floor(ev) == 3 * (12 + 12 - 16)
    rng = np.random.default_rng(1)
    for _ in range(200):
        plan = np.array([rng.permutation(16).reshape(4, 4) for _ in range(4)])
        f = recount(ev, plan, winds_known=False)
        assert f["consecutive_same_area"] >= f["consecutive_same_area_bound"] == 24


def _fewest_alone(ev):
    """Fewest (player, hanchan) pairs in the same area twice in a row over every way of
    seating players one by one, each within 1 of every area's share: by exhaustion over
    multisets of area sequences (tiny events only)."""
    import functools
    import itertools

    from seating.bounds import area_seats, area_shares

    H, A = ev.hanchans, len(ev.areas)
    share, _ = area_shares(ev)
    target = tuple(area_seats(ev).ravel())
    seqs = [(s, sum(s[i] == s[i + 1] for i in range(H - 1)))
            for s in itertools.product(range(A), repeat=H)
            if (np.abs(np.bincount(s, minlength=A) - share) < 1).all()]

    @functools.lru_cache(None)
    def best(i, left, cols):
        if left == 0:
            return 0 if cols == target else 10**9
        if i == len(seqs):
            return 10**9
        seq, cost = seqs[i]
        found = best(i + 1, left, cols)
        taken = list(cols)
        for k in range(1, left + 1):  # k players on this sequence
            for h in range(H):
                taken[h * A + seq[h]] += 1
            if any(t > n for t, n in zip(taken, target)):
                break
            found = min(found, k * cost + best(i + 1, left - k, tuple(taken)))
        return found

    return best(0, ev.players, (0,) * (H * A))


def test_consecutive_area_bound_is_the_fewest_with_players_moving_alone():
    """On tiny events the bound equals the exhaustive optimum of seating players one by one
    within their event shares, a relaxation of every plan (a table's players move together)."""
    from seating.bounds import consecutive_area_floor

    cases = [(6, 3, 4, (("A", 1), ("B", 1))), (8, 4, 5, (("A", 1), ("B", 1))),
             (9, 3, 4, (("A", 2), ("B", 1))), (12, 3, 5, (("A", 3), ("B", 1))),
             (12, 4, 6, (("A", 2), ("B", 1))), (9, 3, 4, (("A", 1), ("B", 1), ("C", 1))),
             (12, 3, 4, (("A", 2), ("B", 1), ("C", 1)))]
    for players, size, hanchans, areas in cases:
        ev = one_each(players, hanchans, (hanchans,), size=size, areas=areas)
        assert consecutive_area_floor(ev) == _fewest_alone(ev), (players, hanchans, areas)


def test_consecutive_area_bound_beyond_counting():
    """78 places at tables of 3 over 11 hanchans, areas of 7, 6 and 13 tables: no count
    forces anyone to stay, but the event shares do. The large area holds 39 of the 78
    places at every hanchan, so half the players sit there 6 times and half 5 times. To
    leave it every time, a player with 6 must take hanchans 1, 3, .., 11 there: 39 of them
    would fill it at the odd hanchans, and the other 39 would sit in the small areas at all
    6 odd hanchans, 3 times each at most in the area of 7 tables (share 2.96), 117 of its
    6 x 21 = 126 seats. So somebody stays; the program finds 3 at least."""
    from seating.bounds import _consecutive_area_count, consecutive_area_floor

    ev = one_each(78, 11, (4, 4, 3), size=3,
                  areas=(("Area 1", 7), ("Area 2", 6), ("Area 3", 13)))
    assert _consecutive_area_count(ev) == 0
    assert consecutive_area_floor(ev) == 3


def test_back_to_back_bound_holds_for_every_plan_without_compatriots():
    """With 4 or 5 countries at tables of 4 and no compatriots at a table, a player meets 3
    of the other 3 or 4 countries every hanchan, so two in a row always share one: the
    bound is every player at every change, and every such seating reaches exactly it. With
    7 countries counting forces nothing (3 + 3 of 6 others can differ)."""
    rng = np.random.default_rng(4)
    for countries, size, hanchans in ((4, 6, 5), (5, 8, 4), (7, 4, 4)):
        ev = Event(name="t", hanchans=hanchans, days=(hanchans,), table_size=4, seed=0,
                   countries=tuple((f"C{i}", size) for i in range(countries)),
                   areas=(("Hall", countries * size // 4),))
        T = countries * size // 4
        plan = []
        for _ in range(hanchans):
            # deal each country's players to tables in turn: never two at one table
            seats = [[] for _ in range(T)]
            order = rng.permutation(T)
            i = 0
            for c in rng.permutation(countries):
                for p in rng.permutation(size) + c * size:
                    seats[order[i % T]].append(p)
                    i += 1
            plan.append(seats)
        f = recount(ev, np.array(plan), winds_known=False)
        assert f["compatriot_meetings"] == 0
        forced = countries * size * (hanchans - 1)
        assert f["back_to_back_country_bound"] == (forced if countries < 7 else 0)
        assert f["back_to_back_country"] >= f["back_to_back_country_bound"]
        if countries < 7:
            assert f["back_to_back_country"] == forced
    # 4 clubs, each at a table of its own every hanchan: the bound, which counts for plans
    # without compatriots at a table, is not claimed
    ev = Event(name="t", hanchans=3, days=(3,), table_size=4, seed=0,
               countries=tuple((f"C{i}", 4) for i in range(4)), areas=(("Hall", 4),))
    f = recount(ev, np.array([np.arange(16).reshape(4, 4)] * 3), winds_known=False)
    assert f["compatriot_meetings"] > 0 and f["back_to_back_country_bound"] == 0


def test_common_opponents_never_above_their_ceiling():
    """Any seating, repeats or not: the fewest common opponents of an unmet pair stays within
    the counting ceiling, which is at most the opponents of one player (and P - 2)."""
    from seating.bounds import indirect_ceiling

    rng = np.random.default_rng(2)
    for players, hanchans in [(32, 10), (40, 14), (16, 4), (24, 6), (64, 14)]:
        ev = one_each(players, hanchans, (hanchans,))
        ceiling = indirect_ceiling(ev)
        assert ceiling <= min(3 * hanchans, players - 2)
        for _ in range(5):
            plan = np.array([rng.permutation(players).reshape(-1, 4) for _ in range(hanchans)])
            f = recount(ev, plan, winds_known=False)
            assert f["indirect_min"] is None or f["indirect_min"] <= ceiling


def test_pair_spread_counted_pair_by_pair():
    """pairs_outside_fair, recounted plainly: the pairs of different countries whose number
    of meetings is off the floor or ceiling of their average."""
    from itertools import combinations

    rng = np.random.default_rng(5)
    for players, hanchans in [(16, 12), (20, 8), (12, 9)]:
        ev = one_each(players, hanchans, (hanchans,))
        plan = np.array([rng.permutation(players).reshape(-1, 4) for _ in range(hanchans)])
        f = recount(ev, plan, winds_known=False)
        count = {pair: 0 for pair in combinations(range(players), 2)}
        for tables in plan.tolist():
            for table in tables:
                for pair in combinations(sorted(table), 2):
                    count[pair] += 1
        mean = sum(count.values()) / len(count)
        low, high = int(mean), -int(-mean // 1)
        assert f["pair_meetings_fair"] == [low, high]
        assert f["pair_meetings_min"] == min(count.values())
        assert f["pairs_outside_fair"] == sum(not low <= c <= high for c in count.values())


def test_class_mix_counts_off_a_fair_share():
    """Three delegations of 4 are the three size classes; a player's fair share is 1.5 of each
    other class a one-hanchan day (1 or 2 within it), 3 over the event, and none of its own.
    Counted by hand for every place and class."""
    ev = Event(name="t", hanchans=2, days=(1, 1), table_size=4, seed=0,
               countries=(("AAA", 4), ("BBB", 4), ("CCC", 4)), areas=(("Hall", 3),))
    a, b, c = range(0, 4), range(4, 8), range(8, 12)
    plan = np.array([[list(a), [b[0], b[1], c[0], c[1]], [b[2], b[3], c[2], c[3]]],
                     [[a[0], a[1], b[0], c[0]], [a[2], b[1], b[2], c[1]],
                      [a[3], b[3], c[2], c[3]]]])
    f = recount(ev, plan, winds_known=False)
    # day 1: each AAA place meets 3 of its own class (3 off) and none of the others (1 off
    # each); every other place meets one of its own class and none of the class not at its
    # table (1 off each). Day 2: places 0, 1, 5, 6, 10 and 11 meet one of their own class.
    assert f["day_mix_max_excess"] == 3
    assert f["day_mix_outside"] == 4 * 3 + 8 * 2 + 6
    assert f["day_mix_two_off"] == 4
    # the event, as counts (AAA, BBB, CCC) met against (0, 3, 3), (3, 0, 3), (3, 3, 0):
    # 0-3: (4,1,1) (4,1,1) (3,2,1) (3,1,2); 4-7: (2,1,3) (1,2,3) (1,2,3) (1,1,4);
    # 8-11: (2,3,1) (1,4,1) (1,3,2) (1,3,2)
    assert f["total_mix_max_excess"] == 4
    assert f["total_mix_outside"] == 30
    assert f["total_mix_two_off"] == 20


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([3, 4]), st.integers(2, 12), st.integers(1, 4),
       st.integers(0, 2**31 - 1))
def test_unlinked_pairs_never_below_their_counting_bound(size, tables, hanchans, seed):
    """Any seating at full tables, repeats or not: the pairs that never meet and share no
    opponent are at least the counting bound of the check (bounds.unlinked_floor)."""
    players = size * tables
    ev = one_each(players, hanchans, (hanchans,), size=size)
    rng = np.random.default_rng(seed)
    plan = np.array([rng.permutation(players).reshape(tables, size) for _ in range(hanchans)])
    f = recount(ev, plan, winds_known=False)
    assert f["unlinked_pairs"] >= f["unlinked_pairs_bound"]


def test_unlinked_pairs_bound_is_exact_for_one_hanchan():
    """One hanchan: nobody has a common opponent with anyone they do not meet, so every
    pair but the tablemates is unlinked, which the bound counts exactly; 15 places at
    tables of 3 over 2 hanchans cannot all be linked either (each reaches 12 of 14)."""
    for players, size in ((12, 4), (15, 3), (40, 4)):
        ev = one_each(players, 1, (1,), size=size)
        plan = np.arange(players).reshape(1, -1, size)
        f = recount(ev, plan, winds_known=False)
        assert f["unlinked_pairs"] == f["unlinked_pairs_bound"] == (
            players * (players - 1) // 2 - players * (size - 1) // 2)
    assert recount(one_each(15, 2, (2,), size=3), np.array([
        np.arange(15).reshape(5, 3), np.arange(15).reshape(3, 5).T]),
        winds_known=False)["unlinked_pairs_bound"] == 15
