"""Stage 6 on a full-size plan: a new table every hanchan and every area within 1 of share."""

import numpy as np

from seating.bounds import area_shares
from seating.check import recount
from seating.draft import draft
from seating.tables import number_tables
from seating.winds import choose_patterns


def test_default_size_tables_and_areas(default_event):
    ev = default_event
    rng = np.random.default_rng(0)
    keys = choose_patterns(ev.players, ev.days, ev.table_size, rng).T.copy()
    plan = draft(ev.country_of, keys, ev.table_size, 1)
    seating = number_tables(ev, plan, steps=200_000)
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
