"""Stage 6 on a full-size plan: a new table every hanchan and every area within 1 of share."""

from pathlib import Path

import numpy as np

from seating.bounds import area_shares
from seating.check import recount
from seating.draft import draft
from seating.tables import number_tables
from seating.winds import choose_patterns

DATA = Path(__file__).resolve().parent / "data"


def test_default_size_tables_and_areas(default_event):
    ev = default_event
    rng = np.random.default_rng(0)
    keys = choose_patterns(ev.players, ev.days, ev.table_size, rng).T.copy()
    plan = draft(ev.country_of, keys, ev.table_size, 1)
    seating, _ = number_tables(ev, plan, steps=200_000)
    # the same groups, now with table numbers
    for h in range(ev.hanchans):
        assert sorted(map(tuple, np.sort(seating[h], axis=1))) == \
            sorted(map(tuple, np.sort(plan[h], axis=1)))
    f = recount(ev, seating)
    assert f["table_repeats"] == 0
    assert f["area_max_deviation"] < 1
    share, _ = area_shares(ev)
    counts = np.stack([(f["_area"] == a).sum(axis=1) for a in range(3)], axis=1)
    assert (np.abs(counts - share) < 1).all()


def test_areas_balanced_on_400_players():
    """400 players, 16 hanchans, areas of 60/24/16 tables: 176, 64 and 160 players must take
    the three possible count patterns exactly; every player ends within 1 of each share."""
    from seating.event import Event
    from seating.tables import assign_areas

    ev = Event(name="t", hanchans=16, days=(6, 5, 5), table_size=4, seed=3,
               countries=tuple((f"C{i:03d}", 1) for i in range(400)),
               areas=(("Main", 60), ("Gallery", 24), ("Side", 16)))
    rng = np.random.default_rng(1)
    plan = np.stack([rng.permutation(400).reshape(100, 4) for _ in range(16)])
    area = assign_areas(ev, plan, np.ones(16, dtype=bool), None)
    counts = np.zeros((400, 3), dtype=int)
    for h in range(16):
        for g in range(100):
            counts[plan[h, g], area[h, g]] += 1
    share, _ = area_shares(ev)
    assert (counts >= np.floor(share)).all() and (counts <= np.ceil(share)).all()
    for a in range(3):  # every area keeps its tables in every hanchan
        assert ((area == a).sum(axis=1) == [60, 24, 16][a]).all()


def _table_visits(seating, players):
    """visits[p, t]: hanchans player p sat at table t, recounted from a seating."""
    H, T, _ = seating.shape
    visits = np.zeros((players, T), dtype=int)
    for h in range(H):
        for t in range(T):
            visits[seating[h, t], t] += 1
    return visits


def test_a_table_repeat_the_annealing_leaves_is_renumbered_away():
    """100 places, 14 hanchans: on these groups the annealed numbering kept one player at one
    table twice (0 is reachable, as 25 tables > 14 hanchans); the exact renumbering of all
    hanchans at once removes it and keeps the groups."""
    from seating.event import Event

    ev = Event(name="t", hanchans=14, days=(5, 5, 4), table_size=4, seed=1,
               countries=tuple((f"C{i:03d}", 1) for i in range(100)), areas=(("Hall", 25),))
    plan = np.loadtxt(DATA / "solo-100x14-groups.txt", dtype=np.int64).reshape(14, 25, 4)
    seating, summary = number_tables(ev, plan)
    for h in range(14):
        assert sorted(map(tuple, np.sort(seating[h], axis=1))) == \
            sorted(map(tuple, np.sort(plan[h], axis=1)))
    assert _table_visits(seating, 100).max() == 1
    assert recount(ev, seating)["table_repeats"] == 0
    assert summary["exact_renumbering"].startswith("found")


def test_exact_renumbering_keeps_areas_and_fixed_hanchans():
    """Random groups of 48 places at 12 tables in two areas of 6, 6 hanchans. A numbering
    without repeats is found over one area, then every movable hanchan's tables are shuffled
    within their areas (so one with areas exists) and the first two hanchans fixed: the
    renumbering moves groups only within their area, leaves the fixed hanchans alone, and
    puts no player at a table twice."""
    from seating.tables import _tables_without_repeats

    H, T = 6, 12
    halves = np.tile(np.repeat([0, 1], [6, 6]), (H, 1))
    movable = np.arange(H) >= 2
    for seed in range(3):
        rng = np.random.default_rng(seed)
        plan = np.stack([rng.permutation(48).reshape(T, 4) for _ in range(H)])
        start = np.stack([rng.permutation(T) for _ in range(H)])
        witness, _ = _tables_without_repeats(plan, start, np.ones(H, dtype=bool),
                                             np.zeros((H, T), dtype=np.int64))
        assert witness is not None
        assign = witness.copy()
        for h in np.nonzero(movable)[0]:
            for a in range(2):
                tables = np.arange(6 * a, 6 * a + 6)
                here = np.isin(assign[h], tables)
                assign[h, here] = rng.permutation(tables)
        new, _ = _tables_without_repeats(plan, assign, movable, halves)
        assert new is not None
        assert (new[:2] == witness[:2]).all()
        for h in range(H):
            assert sorted(new[h]) == list(range(T))
            assert (halves[h, new[h]] == halves[h, assign[h]]).all()
        seating = np.empty_like(plan)
        for h in range(H):
            seating[h, new[h]] = plan[h]
        assert _table_visits(seating, 48).max() == 1
