"""The recount on plans whose figures are known by construction."""

import numpy as np

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
