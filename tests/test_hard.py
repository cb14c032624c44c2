"""Events that cannot be planned perfectly: the plan degrades to the counting bounds.

Every figure is recounted from the finished seating (seating.check.recount and the meeting
matrix), never taken from the search.
"""

import numpy as np
import pytest

from seating.check import meetings, recount
from seating.core import plan
from seating.event import load_event


def one_each(schema, players, hanchans, days):
    """Every player their own country, one area."""
    return load_event({"event": "hard", "hanchans": hanchans, "days": days, "table_size": 4,
                       "seed": 1, "countries": {f"C{i:02d}": 1 for i in range(players)}},
                      schema)


def pair_meetings(seating, players):
    m = meetings(seating, players)
    return m[np.triu_indices(players, 1)]


@pytest.fixture(scope="module")
def long_event(schema):
    """16 players x 40 hanchans: 120 opponents over 15 others, every pair 8 times on average."""
    event = one_each(schema, 16, 40, [10, 10, 10, 10])
    seating, _ = plan(event)
    return event, seating


def test_more_hanchans_than_repeat_free_play_spreads_the_repeats(long_event):
    """The 5 rounds of the affine plane AG(2, 4) in turn: every pair meets exactly 8
    times, the best spread there is, and every wind and table rule still holds."""
    event, seating = long_event
    fig = recount(event, seating)
    assert fig["repeat_meetings"] == fig["repeat_meetings_bound"] == 16 * 15 // 2 * 7
    m = pair_meetings(seating, 16)
    assert m.min() == m.max() == 8
    # consecutive hanchans are different parallel classes: no opponent twice in a row
    assert fig["back_to_back_country"] == 0
    # 4 tables, 40 hanchans: every player at every table exactly 10 times
    assert fig["table_repeats"] == fig["table_repeats_bound"] == 16 * 36
    assert fig["table_max_visits"] == 10
    for rule in ("wind_count_bad", "day_wind_bad", "consecutive_same_wind", "prefix_wind_bad"):
        assert fig[rule] == 0, rule


def test_repeated_design_spreads_any_length(schema):
    """42 hanchans (8 passes and 2 rounds more): every pair meets 8 or 9 times, and exactly
    the pairs of the 2 extra rounds (2 x 4 tables x 6 pairs) meet 9 times."""
    from seating.draft import cycled_design

    plan, how = cycled_design(np.arange(16), 42, 4, seed=3)
    assert "AG(2, 4)" in how
    m = pair_meetings(plan, 16)
    assert set(m.tolist()) == {8, 9} and (m == 9).sum() == 2 * 4 * 6
    assert cycled_design(np.arange(16), 5, 4, seed=3) is None  # repeat-free play suffices
    assert cycled_design(np.arange(16) // 2, 42, 4, seed=3) is None  # compatriots
    assert cycled_design(np.arange(20), 8, 4, seed=3) is None  # no complete design


def test_a_few_hanchans_too_many_meets_nobody_three_times(schema):
    """20 players x 8 hanchans: 24 opponents over 19 others, so some pairs meet twice."""
    event = one_each(schema, 20, 8, [4, 4])
    seating, _ = plan(event)
    fig = recount(event, seating)
    m = pair_meetings(seating, 20)
    assert m.max() == 2  # the ceiling of 24 / 19
    assert fig["repeat_meetings"] >= fig["repeat_meetings_bound"] == 50
    # 5 tables, 8 hanchans: every player at every table (3 of them twice would be even;
    # a few players sit at one table 3 times)
    assert fig["table_repeats"] == fig["table_repeats_bound"] == 20 * 3
    assert fig["table_max_visits"] <= 3
