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
