"""Stage 6 on a full-size plan: a new table every hanchan and every area within 1 of share."""

import re
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from seating.bounds import area_shares, share_limits, share_range
from seating.check import recount
from seating.draft import draft
from seating.tables import number_tables
from seating.winds import choose_patterns

DATA = Path(__file__).resolve().parent / "data"


def _progress(lines):
    """(tables seen twice, counts off an event share) of each progress line that states
    where the numbering stands."""
    found = [re.search(r"now (\d+) tables seen twice, (\d+) \(place, area\) counts", line)
             for line in lines]
    return [(int(m[1]), int(m[2])) for m in found if m]


def _counts_off(ev, area):
    """(place, area) counts outside [floor, ceil] of the area's event share, recounted."""
    lo, hi = share_range(area_shares(ev)[0])
    counts = np.stack([(area == a).sum(axis=1) for a in range(len(ev.areas))], axis=1)
    return int(((counts < lo) | (counts > hi)).sum())


def test_default_size_tables_and_areas(default_event):
    ev = default_event
    rng = np.random.default_rng(0)
    keys = choose_patterns(ev.country_of, ev.days, ev.table_size, rng).T.copy()
    plan = draft(ev.country_of, keys, ev.table_size, 1)
    lines = []
    seating, _ = number_tables(ev, plan, steps=200_000, log=lines.append)
    # the same groups, now with table numbers
    for h in range(ev.hanchans):
        assert sorted(map(tuple, np.sort(seating[h], axis=1))) == \
            sorted(map(tuple, np.sort(plan[h], axis=1)))
    f = recount(ev, seating)
    # the progress lines end where the seating's recount stands
    assert all(line.startswith("tables: ") for line in lines)
    assert _progress(lines)[-1] == (f["table_repeats"], _counts_off(ev, f["_area"]))
    assert f["table_repeats"] == 0
    assert f["area_max_deviation"] < 1
    share, _ = area_shares(ev)
    counts = np.stack([(f["_area"] == a).sum(axis=1) for a in range(3)], axis=1)
    assert (np.abs(counts - share) < 1).all()


def _random_400():
    """400 players of their own country, 16 hanchans, areas of 60/24/16 tables, random
    groups: (event, groups[hanchan, group, seat])."""
    from seating.event import Event

    ev = Event(name="t", hanchans=16, days=(6, 5, 5), table_size=4, seed=3,
               countries=tuple((f"C{i:03d}", 1) for i in range(400)),
               areas=(("Main", 60), ("Gallery", 24), ("Side", 16)))
    rng = np.random.default_rng(1)
    return ev, np.stack([rng.permutation(400).reshape(100, 4) for _ in range(16)])


def _event_counts_off(ev, plan, area):
    """(place, area) counts outside [floor, ceil] of the event share, recounted from the
    area of every group; asserts first that every area keeps its tables in every hanchan."""
    tables = np.bincount(ev.area_at[0], minlength=len(ev.areas))
    for a in range(len(ev.areas)):
        assert ((area == a).sum(axis=1) == tables[a]).all()
    counts = np.zeros((ev.players, len(ev.areas)), dtype=int)
    for h in range(plan.shape[0]):
        for g in range(plan.shape[1]):
            counts[plan[h, g], area[h, g]] += 1
    share, _ = area_shares(ev)
    return int(((counts < np.floor(share)) | (counts > np.ceil(share))).sum())


def test_areas_balanced_on_400_players():
    """400 players, 16 hanchans, areas of 60/24/16 tables: 176, 64 and 160 players must take
    the three possible count patterns exactly; every player ends within 1 of each share."""
    from seating.tables import assign_areas

    ev, plan = _random_400()
    area, searched = assign_areas(ev, plan, np.ones(16, dtype=bool), None)
    assert searched  # three areas, a new plan: the day shares were searched
    assert _event_counts_off(ev, plan, area) == 0


def test_area_search_goes_on_when_no_start_meets_every_share():
    """When every start of the area search stops with a player off an event share (here
    starts cut to 1,000 iterations on the 400 random places above), the best go on with
    more iterations (AREA_RETRIES): the choice then meets every share, recounted here;
    without the retries it does not."""
    from seating.tables import assign_areas

    ev, plan = _random_400()

    def counts_off(retries):
        area, _ = assign_areas(ev, plan, np.ones(16, dtype=bool), None, iterations=1_000,
                               starts=2, day_iterations=0, retries=retries)
        return _event_counts_off(ev, plan, area)

    assert counts_off(0) > 0
    assert counts_off(3) == 0


def test_replanning_area_search_goes_on_while_a_share_is_missed():
    """Re-planning (areas preferred from the earlier plan) searches from the earlier areas;
    cut to 1,000 iterations on the 400 random places above, with the first 4 hanchans
    played (held) and the others' earlier areas scrambled, it stops with counts off an
    event share. With AREA_RETRIES it goes on and meets every share, recounted here; the
    played hanchans keep their areas. (With the tabu tenure of 10 it used before, 2 M
    iterations still left 8 counts off.)"""
    from seating.tables import assign_areas

    ev, plan = _random_400()
    rng = np.random.default_rng(5)
    earlier, _ = assign_areas(ev, plan, np.ones(16, dtype=bool), None, day_iterations=0)
    movable = np.arange(16) >= 4
    # the earlier tables of each group: a table of its earlier area, scrambled from hanchan 4
    prefer = np.empty((16, 100), dtype=int)
    for h in range(16):
        held = earlier[h] if not movable[h] else rng.permutation(earlier[h])
        for a in range(3):
            prefer[h, held == a] = np.nonzero(ev.area_at[h] == a)[0]

    def area(retries):
        return assign_areas(ev, plan, movable, earlier, iterations=1_000, prefer=prefer,
                            retries=retries)[0]

    short, longer = area(0), area(3)
    assert _event_counts_off(ev, plan, short) > 0
    assert _event_counts_off(ev, plan, longer) == 0
    assert (longer[:4] == earlier[:4]).all()


def test_day_search_keeps_event_shares_and_lowers_day_gaps():
    """The day-share search after the area search (tables._day_tabu): on random groups of
    200 players in areas of 30/12/8 tables, every player still ends within 1 of each event
    share, every area keeps its tables, and the counts off a day's share, recounted here,
    fall against the area search alone; so does the same area twice in a row."""
    from seating.event import Event
    from seating.tables import assign_areas

    ev = Event(name="t", hanchans=14, days=(5, 5, 4), table_size=4, seed=2,
               countries=tuple((f"C{i:03d}", 1) for i in range(200)),
               areas=(("Main", 30), ("Gallery", 12), ("Side", 8)))
    rng = np.random.default_rng(4)
    plan = np.stack([rng.permutation(200).reshape(50, 4) for _ in range(14)])
    share, day_share = area_shares(ev)
    day_of = np.array(ev.day_of)

    def figures(area):
        seat = np.empty((14, 200), dtype=int)
        for h in range(14):
            for g in range(50):
                seat[h, plan[h, g]] = area[h, g]
        counts = np.stack([(seat == a).sum(axis=0) for a in range(3)], axis=1)
        assert (counts >= np.floor(share)).all() and (counts <= np.ceil(share)).all()
        for a in range(3):
            assert ((area == a).sum(axis=1) == [30, 12, 8][a]).all()
        off = 0
        for d in range(3):
            day = np.stack([(seat[day_of == d] == a).sum(axis=0) for a in range(3)], axis=1)
            off += int(((day < np.floor(day_share[d] + 1e-9))
                        | (day > np.ceil(day_share[d] - 1e-9))).sum())
        return off, int((seat[1:] == seat[:-1]).sum())

    movable = np.ones(14, dtype=bool)
    alone = figures(assign_areas(ev, plan, movable, None, day_iterations=0)[0])
    searched = figures(assign_areas(ev, plan, movable, None)[0])
    assert searched[0] < 0.8 * alone[0]
    assert searched[1] < alone[1]


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
    lines = []
    seating, summary = number_tables(ev, plan, log=lines.append)
    for h in range(14):
        assert sorted(map(tuple, np.sort(seating[h], axis=1))) == \
            sorted(map(tuple, np.sort(plan[h], axis=1)))
    assert _table_visits(seating, 100).max() == 1
    assert recount(ev, seating)["table_repeats"] == 0
    assert summary["exact_renumbering"].startswith("found")
    # the progress lines show the repeat the annealing left and the renumbering removing it
    stands = _progress(lines)
    assert stands[-2][0] > 0 and stands[-1] == (0, 0)
    assert "exact renumbering: found" in lines[-1]


def test_exact_renumbering_keeps_areas_and_fixed_hanchans():
    """Random groups of 48 places at 12 tables in two areas of 6, 6 hanchans. A numbering
    without repeats is found over one area, then every movable hanchan's tables are shuffled
    within their areas (so one with areas exists) and the first two hanchans fixed: the
    renumbering moves groups only within their area, leaves the fixed hanchans alone, and
    puts no player at a table twice."""
    from seating.tables import tables_without_repeats

    H, T = 6, 12
    halves = np.tile(np.repeat([0, 1], [6, 6]), (H, 1))
    movable = np.arange(H) >= 2
    for seed in range(3):
        rng = np.random.default_rng(seed)
        plan = np.stack([rng.permutation(48).reshape(T, 4) for _ in range(H)])
        start = np.stack([rng.permutation(T) for _ in range(H)])
        witness, _ = tables_without_repeats(plan, start, np.ones(H, dtype=bool),
                                             np.zeros((H, T), dtype=np.int64))
        assert witness is not None
        assign = witness.copy()
        for h in np.nonzero(movable)[0]:
            for a in range(2):
                tables = np.arange(6 * a, 6 * a + 6)
                here = np.isin(assign[h], tables)
                assign[h, here] = rng.permutation(tables)
        new, _ = tables_without_repeats(plan, assign, movable, halves)
        assert new is not None
        assert (new[:2] == witness[:2]).all()
        for h in range(H):
            assert sorted(new[h]) == list(range(T))
            assert (halves[h, new[h]] == halves[h, assign[h]]).all()
        seating = np.empty_like(plan)
        for h in range(H):
            seating[h, new[h]] = plan[h]
        assert _table_visits(seating, 48).max() == 1


def _areas_108(schema):
    import yaml

    from seating.event import load_event

    return load_event(yaml.safe_load((DATA / "areas-108.yaml").read_text()), schema)


def test_area_patterns_fill_every_table_and_keep_every_share(schema):
    """Every hanchan gives each area, of every wind, as many places as it has tables; every
    place is within [floor, ceil] of each area's share; no country has more places in an
    area than the area has tables in that hanchan."""
    from seating.tables import area_patterns

    ev = _areas_108(schema)
    wind = choose_patterns(ev.country_of, ev.days, ev.table_size, np.random.default_rng(1)).T
    place_area, found = area_patterns(ev, wind.copy(), 5)
    assert found[0] == 0
    share, day_share = area_shares(ev)
    for h in range(ev.hanchans):
        cap = np.bincount(ev.area_at[h], minlength=3)
        for w in range(ev.table_size):
            assert (np.bincount(place_area[h, wind[h] == w], minlength=3) == cap).all()
        for a in range(3):
            crowd = np.bincount(ev.country_of[place_area[h] == a])
            assert crowd.max(initial=0) <= cap[a]
    counts = np.stack([(place_area == a).sum(axis=0) for a in range(3)], axis=1)
    assert (counts >= np.floor(share + 1e-9)).all() and (counts <= np.ceil(share - 1e-9)).all()


def test_groups_built_for_tight_areas_meet_every_hard_rule(schema):
    """On this event groups drafted for the winds alone leave a player off an area's share
    whatever the area search does (1.185 off before area patterns); drafted over area
    patterns, every table seats places of its area and the recount meets every rule."""
    from seating.core import plan
    from seating.draft import first_plan

    ev = _areas_108(schema)
    assert first_plan(ev)[1].endswith("wind and area patterns")
    seating, _ = plan(ev)
    f = recount(ev, seating)
    assert f["area_max_deviation"] < 1
    assert f["area_day_max_deviation"] < 1
    assert f["repeat_meetings"] == 0 and f["compatriot_meetings"] == 0
    assert f["unlinked_pairs"] == 0 and f["table_repeats"] == 0
    for key in ("wind_count_bad", "day_wind_bad", "consecutive_same_wind", "prefix_wind_bad"):
        assert f[key] == 0, key
    # the areas come from the patterns, which also keep areas apart from one hanchan to the
    # next: far fewer repeats than the 367 of the area search on wind-only groups
    assert f["consecutive_same_area"] < 200


def test_meeting_rules_outrank_area_patterns(schema):
    """64 places over 11 hanchans with an area of 2 tables, drafted over area patterns:
    with some seeds the swaps cannot meet the meeting rules with places held to their
    areas; the stage then searches on with the winds alone (the areas are left to the
    tables stage). Either way the meeting rules hold. Seeds 1-4 are tried until one needs
    the release (seed 1 does), so the test follows the path whatever the wind patterns.
    Over 10 hanchans seeds 1-4 all meet the rules within the areas."""
    from seating.check import meetings
    from seating.draft import first_plan, seat_keys
    from seating.event import load_event
    from seating.swaps import improve_meetings

    sizes = [6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 6, 6, 4]
    released = []
    for seed in range(1, 5):
        config = {"event": "t", "hanchans": 11, "days": [6, 5], "table_size": 4,
                  "seed": seed, "countries": {f"C{i:02d}": n for i, n in enumerate(sizes)},
                  "areas": {"A": 2, "B": 5, "C": 9}}
        ev = load_event(config, schema)
        start, how = first_plan(ev)
        if not how.endswith("wind and area patterns"):
            continue
        keys = seat_keys(ev, start)
        assert keys.max() >= ev.table_size  # the keys hold the areas
        plan, summary = improve_meetings(ev, start, keys, 200_000, 60, log=lambda line: None)
        meet = meetings(plan, ev.players)
        same = ev.country_of[:, None] == ev.country_of[None, :]
        assert (meet[~same] <= 1).all() and (meet[same] == 0).all(), seed
        if summary.get("areas_released"):
            released.append(seed)
            break
    assert released, "no seed needed the areas released: make the event tighter"


def test_guided_renumbering_finds_a_numbering_without_repeats_and_keeps_fixed_hanchans():
    """28 places at 7 tables over 7 hanchans, grouped cyclically (place (s, i) at group
    i - s h mod 7): numbered group by group every place of seat 0 sees one table 7 times,
    yet table = group + 4 h mod 7 repeats none. The guided renumbering must find such a
    numbering (recounted here from its output), never renumber a fixed hanchan, and report
    the repeats it leaves as the recount does."""
    from seating.tables import _guided_tables

    T, S, H = 7, 4, 7
    rng = np.random.default_rng(5)
    plan = np.empty((H, T, S), dtype=np.int64)
    for h in range(H):
        for s in range(S):
            for i in range(T):
                plan[h, (i - s * h) % T, s] = s * T + i
        plan[h] = plan[h, rng.permutation(T)]  # hide the structure
    start = np.tile(np.arange(T), (H, 1))
    movable = np.ones(H, dtype=bool)
    movable[2] = False
    area_at = np.zeros((H, T), dtype=np.int64)

    def repeats(assign):
        table_of = np.empty((S * T, H), dtype=np.int64)
        for h in range(H):
            table_of[plan[h].ravel(), h] = np.repeat(assign[h], S)
        visits = np.stack([np.bincount(row, minlength=T) for row in table_of])
        return int(np.maximum(visits - 1, 0).sum())

    assert repeats(start) > 0
    found, left = _guided_tables(plan, start, movable, 3, area_at, np.array([float(H)]), 0.0)
    assert left == repeats(found) == 0
    assert (np.sort(found, axis=1) == np.arange(T)).all()  # a table for every group
    assert (found[2] == start[2]).all()


def test_areas_held_while_tables_are_renumbered():
    """104 places at 26 tables in areas of 15 and 11, 14 hanchans (groups of an unseen
    event): the numbering of tables nearly alone left nobody at a table twice but an area
    3.08 off its share. The guided renumbering with every group's area held to the shares
    finds a numbering with neither: no player at a table twice, every player within 1 of
    each area's share, the same groups."""
    from seating.event import Event

    sizes = (13, 13, 12, 12, 8, 8, 7, 6, 5, 5, 2, 2, 2) + (1,) * 9
    ev = Event(name="t", hanchans=14, days=(4, 4, 3, 3), table_size=4, seed=33,
               countries=tuple((f"A{chr(65 + i)}X", n) for i, n in enumerate(sizes)),
               areas=(("Area 1", 15), ("Area 2", 11)))
    plan = np.loadtxt(DATA / "areas-104-groups.txt", dtype=np.int64).reshape(14, 26, 4)
    seating, summary = number_tables(ev, plan)
    for h in range(14):
        assert sorted(map(tuple, np.sort(seating[h], axis=1))) == \
            sorted(map(tuple, np.sort(plan[h], axis=1)))
    f = recount(ev, seating)
    assert f["table_repeats"] == 0
    assert f["area_max_deviation"] < 1
    assert _table_visits(seating, 104).max() == 1
    assert summary["areas_held"].startswith("kept")


def test_places_twice_in_an_area_of_two_tables_can_always_take_both(schema):
    """An area of 2 tables, where 8 places must sit twice: a place twice there needs both
    tables, and the tables of a hanchan go to its two groups one way or the other. The area
    patterns must let every grouping within them be numbered so: the hanchans joined by
    those places form no cycle (recounted here), and for random groupings (one place of
    each wind at a table) a choice of tables for every hanchan is found by trying all."""
    import itertools

    import yaml

    from seating.event import load_event
    from seating.tables import area_patterns

    ev = load_event(yaml.safe_load((DATA / "pair-area-104.yaml").read_text()), schema)
    wind = choose_patterns(ev.country_of, ev.days, ev.table_size,
                           np.random.default_rng(ev.seed)).T.copy()
    place_area, found = area_patterns(ev, wind, ev.seed + 3)
    assert found[0] == 0 and found[1] == 0  # no share missed, no cycle
    small = 0  # the first area: tables 1 and 2
    assert np.bincount(ev.area_at.ravel())[small] == 2 * ev.hanchans
    visits = {p: tuple(np.nonzero(place_area[:, p] == small)[0].tolist())
              for p in range(ev.players)}
    twice = {p: hs for p, hs in visits.items() if len(hs) == 2}
    assert len(twice) == 8 and max(map(len, visits.values())) == 2
    # no cycle: joining the two hanchans of each place, every join links two parts
    part = list(range(ev.hanchans))

    def find(h):
        while part[h] != h:
            h = part[h]
        return h

    for h1, h2 in twice.values():
        assert find(h1) != find(h2), (h1, h2)
        part[find(h1)] = find(h2)
    rng = np.random.default_rng(0)
    for _ in range(5):
        group = {}  # (h, place) -> 0 or 1: which of the area's two groups of hanchan h
        for h in range(ev.hanchans):
            for w in range(ev.table_size):
                pair = np.nonzero((place_area[h] == small) & (wind[h] == w))[0]
                assert len(pair) == 2
                first = int(rng.integers(2))
                group[h, int(pair[0])], group[h, int(pair[1])] = first, 1 - first
        # flip[h]: whether group 0 of hanchan h takes the second table
        assert any(all(group[h1, p] ^ flip[h1] != group[h2, p] ^ flip[h2]
                       for p, (h1, h2) in twice.items())
                   for flip in itertools.product((0, 1), repeat=ev.hanchans))


def test_an_area_of_two_tables_keeps_its_share_and_every_table_new(schema):
    """The same event planned through every stage: recounted from the seating, every player
    is within one of each area's share and sees every table at most once (before the area
    patterns avoided cycles: an area 2.5-3.5 off its share, or a table seen twice)."""
    import yaml

    from seating.core import plan
    from seating.event import load_event

    ev = load_event(yaml.safe_load((DATA / "pair-area-104.yaml").read_text()), schema)
    seating, _ = plan(ev)
    f = recount(ev, seating)
    assert f["area_max_deviation"] < 1
    assert f["table_repeats"] == 0
    assert f["repeat_meetings"] == 0 and f["compatriot_meetings"] == 0


@given(st.integers(1, 60), st.integers(1, 60), st.integers(1, 20))
@settings(max_examples=200)
def test_share_limits_are_floor_and_ceiling(tables_in_area, tables, hanchans):
    """An area's share of a player's hanchans, hanchans x area tables / tables, allows its
    floor and ceiling by exact integer arithmetic, in share_range and in the compiled kernel."""
    share = hanchans * tables_in_area / tables
    lo, hi = hanchans * tables_in_area // tables, -(-hanchans * tables_in_area // tables)
    assert share_limits(share) == (lo, hi)
    assert [a.tolist() for a in share_range(np.array([[share]]))] == [[[lo]], [[hi]]]


def _areas_112():
    """The event and groups of tests/data/areas-112-groups.txt (areas of 3, 22 and 3 tables)."""
    from seating.event import Event

    sizes = (11, 11, 10, 9, 8, 7, 7, 6, 5, 5, 5, 5, 4, 4, 2, 2, 2, 2) + (1,) * 7
    ev = Event(name="t", hanchans=14, days=(5, 5, 4), table_size=4, seed=29,
               countries=tuple((f"A{chr(65 + i)}X", n) for i, n in enumerate(sizes)),
               areas=(("Area 1", 3), ("Area 2", 22), ("Area 3", 3)))
    plan = np.loadtxt(DATA / "areas-112-groups.txt", dtype=np.int64).reshape(14, 28, 4)
    return ev, plan


def test_groups_of_the_smaller_areas_may_trade_tables():
    """Areas of 3, 22 and 3 tables, groups drafted in their areas: no numbering keeps every
    group in its area without a table seen twice (the integer program proves it). Letting
    the groups of the two small areas take any of their 6 tables, every player's count in
    each area held within its share, finds one: recounted, nobody at a table twice, every
    player within 1 of each area's share, the large area's groups still in it."""
    from seating.tables import pattern_areas, tables_without_repeats

    ev, plan = _areas_112()
    H, G, _ = plan.shape
    area = pattern_areas(ev, plan)
    assert area is not None  # the groups sit in the areas of their drafted tables
    start = np.tile(np.arange(G), (H, 1))
    movable = np.ones(H, dtype=bool)
    share = area_shares(ev)[0]
    held, line = tables_without_repeats(plan, start, movable, ev.area_at, share)
    assert held is None and line.startswith("none exists")
    smaller = np.array([True, False, True])
    found, line = tables_without_repeats(plan, start, movable, ev.area_at, share, smaller)
    assert found is not None and line.startswith("found")
    assert (np.sort(found, axis=1) == np.arange(G)).all()  # one group at every table
    seating = np.empty_like(plan)
    for h in range(H):
        seating[h, found[h]] = plan[h]
    f = recount(ev, seating)
    assert f["table_repeats"] == 0 and f["area_max_deviation"] < 1
    assert _table_visits(seating, ev.players).max() == 1
    big = area == 1
    assert (ev.area_at[np.arange(H)[:, None], found][big] == 1).all()


def test_tables_stage_meets_tables_and_areas_with_small_areas():
    """The whole tables stage on the same groups: it left an area 2 off its share (none at
    a table twice); now every rule of where a player sits is met, the same groups."""
    ev, plan = _areas_112()
    seating, summary = number_tables(ev, plan)
    for h in range(ev.hanchans):
        assert sorted(map(tuple, np.sort(seating[h], axis=1))) == \
            sorted(map(tuple, np.sort(plan[h], axis=1)))
    f = recount(ev, seating)
    assert f["table_repeats"] == 0
    assert f["area_max_deviation"] < 1
    assert summary["exact_renumbering"].startswith("found with the groups of the smaller")


def test_the_exact_renumbering_poses_each_program_once(monkeypatch):
    """In one area every start gives the integer program the same problem (it sees a start
    only through the areas of the groups): with the program failing, the solo 100 x 14
    groups (a repeat left after the annealing, so two starts: see
    test_a_table_repeat_the_annealing_leaves_is_renumbered_away) pose it once, not twice."""
    from seating import tables
    from seating.event import Event

    ev = Event(name="t", hanchans=14, days=(5, 5, 4), table_size=4, seed=1,
               countries=tuple((f"C{i:03d}", 1) for i in range(100)), areas=(("Hall", 25),))
    plan = np.loadtxt(DATA / "solo-100x14-groups.txt", dtype=np.int64).reshape(14, 25, 4)
    posed = []

    def failing(plan, start, movable, area_at, share=None, merged=None):
        posed.append(np.take_along_axis(area_at, start, axis=1))
        return None, "none found (the test's stand-in)"

    monkeypatch.setattr(tables, "tables_without_repeats", failing)
    number_tables(ev, plan)
    assert len(posed) == 1


def test_tabucol_by_area_finds_a_numbering_without_repeats():
    """Groups that have a numbering with nobody at a table twice, every group in its area
    (7 tables in areas of 3 and 4, 5 hanchans: place (t0, s) sits at table t0 + h(s + 1)
    mod 7), their tables shuffled within each area: _tabu_by_area numbers them again with
    nobody at a table twice (recounted), every group still in its area."""
    from seating.tables import _tabu_by_area

    H, G, S = 5, 7, 4
    plan = np.empty((H, G, S), dtype=np.int64)
    for h in range(H):
        for t in range(G):
            for s in range(S):
                plan[h, t, s] = 4 * ((t - h * (s + 1)) % G) + s
    area_at = np.tile(np.array([0, 0, 0, 1, 1, 1, 1]), (H, 1))
    rng = np.random.default_rng(5)
    shuffled = np.tile(np.arange(G), (H, 1))
    for h in range(1, H):
        shuffled[h, :3] = rng.permutation(3)
        shuffled[h, 3:] = 3 + rng.permutation(4)

    def repeats(assign):
        visits = np.zeros((4 * G, G), dtype=int)
        for h in range(H):
            for g in range(G):
                visits[plan[h, g], assign[h, g]] += 1
        return int(np.maximum(visits - 1, 0).sum())

    assert repeats(np.tile(np.arange(G), (H, 1))) == 0
    assert repeats(shuffled) > 0
    new, left = _tabu_by_area(plan, shuffled, area_at, 3)
    assert left == 0 and repeats(new) == 0
    for h in range(H):
        assert sorted(new[h]) == list(range(G))
        assert (area_at[h, new[h]] == area_at[h, shuffled[h]]).all()


def test_joint_search_numbers_tables_and_meets_every_share():
    """_joint_tables (tables and event area shares searched together, groups free to change
    area) on random groups of 48 places at 12 tables in areas of 3 and 9 over 6 hanchans
    (each place 1 or 2 times in the small area): the numbering it returns, recounted here,
    seats nobody at a table twice and every place within [floor, ceil] of both shares,
    where the random numberings it starts from do neither. (Random groups at more hanchans
    a table, 8 at 12 or 15 tables, found none in 14-24 s: their groups are less regular
    than a plan's.)"""
    from seating.tables import _joint_tables

    H, G, S = 6, 12, 4
    rng = np.random.default_rng(2)
    plan = np.stack([rng.permutation(G * S).reshape(G, S) for _ in range(H)])
    area_at = np.tile(np.array([0] * 3 + [1] * 9), (H, 1))
    share = np.array([H * 3 / 12, H * 9 / 12])

    def faults(assign):
        visits = np.zeros((G * S, G), dtype=int)
        for h in range(H):
            for g in range(G):
                visits[plan[h, g], assign[h, g]] += 1
        small = visits[:, :3].sum(axis=1)
        off = ((small < np.floor(share[0])) | (small > np.ceil(share[0]))).sum()
        return int(np.maximum(visits - 1, 0).sum()), int(off)

    start = np.array([rng.permutation(G) for _ in range(H)])
    assert all(f > 0 for f in faults(start))
    assign = _joint_tables(plan, area_at, share, 7)
    assert assign is not None
    for h in range(H):
        assert sorted(assign[h]) == list(range(G))
    assert faults(assign) == (0, 0)
