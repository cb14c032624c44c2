"""Wind rules, tested exactly for every player, and the patterns that satisfy them."""

import itertools
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seating.rules import is_valid, sequence_faults
from seating.winds import (
    assign_winds,
    choose_patterns,
    image,
    random_valid_sequence,
    shared_image,
    wind_blocks,
    winds_of,
)

DATA = Path(__file__).resolve().parent / "data"


def reference_valid(seq, days, k):
    """The rules spelled out plainly, independent of sequence_faults."""
    h = len(seq)
    counts = [seq.count(w) for w in range(k)]
    if min(counts) < h // k or max(counts) > -(-h // k):
        return False
    if k == 4 and abs(counts[0] + counts[1] - counts[2] - counts[3]) > 1:
        return False
    start = 0
    for d in days:
        part = seq[start:start + d]
        c = [part.count(w) for w in range(k)]
        if min(c) < d // k or max(c) > -(-d // k):
            return False
        if k == 4 and abs(c[0] + c[1] - c[2] - c[3]) > 1:
            return False
        start += d
    if any(a == b for a, b in zip(seq, seq[1:])):
        return False
    for n in range(1, h + 1):
        if n % k:
            c = [seq[:n].count(w) for w in range(k)]
            if max(c) - min(c) > 1:
                return False
    return True


def count_valid(days, k):
    """Depth-first count with the prefix and consecutive rules as pruning."""
    h = sum(days)
    total = 0
    seq = []

    def rec():
        nonlocal total
        if len(seq) == h:
            total += reference_valid(seq, days, k)
            return
        for w in range(k):
            if seq and seq[-1] == w:
                continue
            seq.append(w)
            n = len(seq)
            c = [seq.count(x) for x in range(k)]
            if n % k == 0 or max(c) - min(c) <= 1:
                rec()
            seq.pop()

    rec()
    return total


def test_championship_rules_leave_26624_sequences():
    # the count for 14 hanchans over 5/5/4 with the prefix rule
    assert count_valid((5, 5, 4), 4) == 26624


def test_spec_wording_for_14_hanchans():
    seq = [0, 1, 2, 3, 0, 2, 1, 3, 2, 0, 3, 1, 0, 2]  # E S W N E W S N W E N S E W
    assert is_valid(np.array(seq), (5, 5, 4), 4)
    counts = np.bincount(seq, minlength=4)
    assert set(counts) <= {3, 4} and counts[0] + counts[1] == 7 == counts[2] + counts[3]
    # both extras East-or-South breaks "one extra E/S and one extra W/N"
    bad = [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1]
    assert not is_valid(np.array(bad), (5, 5, 4), 4)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=10, max_size=10))
def test_sequence_faults_agree_with_reference(seq):
    assert is_valid(np.array(seq), (5, 5), 4) == reference_valid(seq, (5, 5), 4)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=7, max_size=7))
def test_three_winds_agree_with_reference(seq):
    assert is_valid(np.array(seq), (4, 3), 3) == reference_valid(seq, (4, 3), 3)


@pytest.mark.parametrize("days,k", [((5, 5, 4), 4), ((7, 6), 3), ((4, 4), 4), ((3, 3, 3), 3),
                                    ((5, 4, 5, 2), 4), ((4,), 4)])
def test_patterns_valid_and_balanced(days, k):
    rng = np.random.default_rng(7)
    players = 12 * k
    pat = choose_patterns(np.arange(players) // 5, days, k, rng)
    for row in pat:
        assert reference_valid(row.tolist(), days, k)
    for h in range(sum(days)):
        assert np.bincount(pat[:, h], minlength=k).tolist() == [players // k] * k


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=1, max_size=15), st.sampled_from([3, 4]))
def test_wind_blocks_split_places_into_equal_pieces(sizes, k):
    total = sum(sizes)
    sizes = sizes + [1] * (-total % k)  # a multiple of k places, as an event has
    country = np.repeat(np.arange(len(sizes)), sizes)
    blocks = wind_blocks(country, k)
    seen = np.concatenate([piece for block in blocks for piece in block])
    assert sorted(seen.tolist()) == list(range(len(country)))  # every place once
    for block in blocks:
        assert len(block) == k
        assert len({len(piece) for piece in block}) == 1 and len(block[0]) >= 1
        for piece in block:
            assert len(set(country[piece].tolist())) == 1  # a piece is one country


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 30), min_size=1, max_size=15), st.sampled_from([3, 4]))
def test_whole_pieces_keep_delegations_on_one_pattern(sizes, k):
    """wind_blocks(whole=True): equal pieces as large as the largest delegation (at most a
    k-th of the places), filled largest delegation first: every place once, and every
    delegation that fits in a piece lies in at most two consecutive full pieces; the largest,
    when it fits, in one. The patterns then put each piece on one wind everywhere."""
    total = sum(sizes)
    sizes = sizes + [1] * (-total % k)
    country = np.repeat(np.arange(len(sizes)), sizes)
    blocks = wind_blocks(country, k, whole=True)
    seen = np.concatenate([piece for block in blocks for piece in block])
    assert sorted(seen.tolist()) == list(range(len(country)))
    size = min(max(sizes), len(country) // k)
    pieces = [piece for block in blocks for piece in block]
    for block in blocks:
        assert len(block) == k and len({len(piece) for piece in block}) == 1
    where = {c: {i for i, piece in enumerate(pieces) if c in country[piece]}
             for c in range(len(sizes))}
    for c, n in enumerate(sizes):
        full = [i for i in where[c] if len(pieces[i]) == size]
        if n <= size and full:
            assert max(full) - min(full) <= 1
    largest = int(np.argmax(sizes))
    if sizes[largest] <= size:
        assert len(where[largest]) == 1
    pat = choose_patterns(country, (len(country) % 3 + 2, 4), k, np.random.default_rng(1),
                          whole=True)
    for piece in pieces:
        assert (pat[piece] == pat[piece[0]]).all()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=6, max_size=6),
       st.lists(st.integers(0, 3), min_size=6, max_size=6), st.sampled_from([3, 4]))
def test_shared_image_names_the_image_on_the_same_wind(a, b, k):
    a, b = np.array(a) % k, np.array(b) % k
    q = shared_image(a, b, k)
    for h in range(len(a)):
        assert image(b, int(q[h]), k)[h] == a[h]
        others = [r for r in range(k) if r != q[h]]
        assert all(image(b, r, k)[h] != a[h] for r in others)


def test_patterns_put_compatriots_on_one_wind(default_event, same_wind_share):
    """Pieces share a sequence; a block's pieces take the k images of one orbit."""
    ev = default_event
    pat = choose_patterns(ev.country_of, ev.days, ev.table_size, np.random.default_rng(5))
    for block in wind_blocks(ev.country_of, ev.table_size):
        rows = [pat[piece] for piece in block]
        for r in rows:
            assert (r == r[0]).all()  # one sequence per piece
        firsts = np.stack([r[0] for r in rows])
        for h in range(pat.shape[1]):
            assert len(set(firsts[:, h].tolist())) == ev.table_size  # one piece per wind
    # over all hanchans, compatriot pairs on the same wind (a quarter if winds were random)
    assert same_wind_share(ev.country_of, pat) > 0.7


def test_images_differ_everywhere():
    rng = np.random.default_rng(1)
    for k in (3, 4):
        seq = random_valid_sequence(rng, (5, 5, 4), k)
        imgs = np.stack([image(seq, q, k) for q in range(k)])
        for h in range(imgs.shape[1]):
            assert len(set(imgs[:, h])) == k
        for img in imgs:
            assert is_valid(img, (5, 5, 4), k)


def test_assign_winds_keeps_a_keyed_plan_valid():
    rng = np.random.default_rng(3)
    days = (5, 5, 4)
    pat = choose_patterns(np.arange(80), days, 4, rng)
    plan = np.zeros((14, 20, 4), dtype=np.int64)
    for h in range(14):
        for w in range(4):
            plan[h, :, w] = rng.permutation(np.nonzero(pat[:, h] == w)[0])
    lines = []
    out, left = assign_winds(plan, days, 1, 20000, log=lines.append)
    assert left == 0 and lines == []  # nothing to repair, nothing to report
    f = sequence_faults(winds_of(out), days, 4)
    assert not (f["count_bad"].any() or f["day_bad"].any() or f["consecutive"].any()
                or f["prefix"].any())
    for h in range(14):  # still the same tables
        assert sorted(map(sorted, out[h].tolist())) == sorted(map(sorted, plan[h].tolist()))


def test_all_permutations_of_one_block_are_valid():
    for perm in itertools.permutations(range(4)):
        assert is_valid(np.array(perm), (4,), 4)


def rule_breaks(plan, days):
    f = sequence_faults(winds_of(plan), days, plan.shape[2])
    return {k: int(f[k].sum()) for k in ("count_bad", "day_bad", "consecutive", "prefix")}


def same_tables(a, b):
    return all(sorted(map(sorted, a[h].tolist())) == sorted(map(sorted, b[h].tolist()))
               for h in range(a.shape[0]))


@pytest.mark.parametrize("groups, days", [
    ("planes", (5, 4)),  # golfers 32 x 9: 9 disjoint planes of AG(5, 2)
    ("affine", (10, 10, 10, 10)),  # 16 x 40: the 5 rounds of AG(2, 4) in turn
    ("affine", (5, 4)),
])
def test_assign_winds_repairs_a_design_grouping(groups, days):
    """Seats as a design gives them break the rules; the block repair (every block of
    S hanchans a proper colouring, then Kempe cycles) seats every player validly without
    changing any table, for every player, recounted by sequence_faults."""
    from seating import designs

    H = sum(days)
    plan = designs.binary_planes(5) if groups == "planes" else designs.affine_geometry(4, 2)
    plan = plan[np.arange(H) % plan.shape[0]]
    assert sum(rule_breaks(plan, days).values()) > 0
    lines = []
    out, left = assign_winds(plan, days, 1, 20000, log=lines.append)
    assert left == 0
    assert rule_breaks(out, days) == {"count_bad": 0, "day_bad": 0, "consecutive": 0,
                                      "prefix": 0}
    assert same_tables(out, plan)
    # progress lines: the breaks found, then the integer program or the restarts, whose
    # fewest breaks never rise
    assert all(line.startswith("winds: ") for line in lines)
    assert "break the wind rules" in lines[0]
    assert any("integer program" in line or "repair restart" in line for line in lines[1:])
    fewest = [int(n) for n in re.findall(r"fewest weighted breaks (\d+)", "\n".join(lines))]
    assert fewest == sorted(fewest, reverse=True)


def test_repair_leaves_fixed_hanchans_alone():
    """Re-planning: hanchans held fixed keep every seat; the others are repaired."""
    from seating import designs

    days = (5, 5)
    plan = designs.binary_planes(5)[np.arange(10) % 9]
    movable = np.arange(10) >= 3
    out, _ = assign_winds(plan, days, 2, 20000, movable=movable)
    assert (out[:3] == plan[:3]).all()
    assert same_tables(out, plan)
    assert sum(rule_breaks(out, days).values()) < sum(rule_breaks(plan, days).values())


@st.composite
def groupings(draw):
    """Any grouping of a small field: every hanchan a random split into tables."""
    size = draw(st.sampled_from([3, 4]))
    tables = draw(st.integers(2, 9))
    hanchans = draw(st.integers(1, 8))
    cuts = sorted(draw(st.sets(st.integers(1, hanchans - 1), max_size=3))) if hanchans > 1 else []
    days = tuple(b - a for a, b in zip([0, *cuts], [*cuts, hanchans]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    plan = np.stack([rng.permutation(size * tables).reshape(tables, size)
                     for _ in range(hanchans)])
    return plan, days


@settings(max_examples=40, deadline=None)
@given(groupings())
def test_any_small_grouping_gets_valid_winds(case):
    """Small fields are seated exactly (the integer program of winds._exact): whatever the
    groups and however short the days, every player keeps every wind rule, recounted by
    sequence_faults, and nobody changes table."""
    plan, days = case
    out, left = assign_winds(plan, days, 1, 2000)
    assert left == 0
    assert rule_breaks(out, days) == {"count_bad": 0, "day_bad": 0, "consecutive": 0,
                                      "prefix": 0}
    assert same_tables(out, plan)


def test_short_days_need_more_than_block_colourings(monkeypatch):
    """Days of 2, 1 and 2 hanchans: each 2-hanchan day asks one East-or-South and one
    West-or-North seat of everyone, which the block repair (hanchans 1-4 seated as a
    proper colouring) cannot always give; the exact seating does. A grouping the fuzz test
    found (20 places, 2 delegations of 7)."""
    from seating import winds

    plan = np.loadtxt(DATA / "short-days-grouping.txt", dtype=np.int64).reshape(5, 5, 4)
    days = (2, 1, 2)
    assert sum(rule_breaks(plan, days).values()) > 0
    with monkeypatch.context() as m:
        m.setattr(winds, "EXACT_VARIABLES", 0)  # the block repair alone
        m.setattr(winds, "LATE_VARIABLES", 0)
        _, left = assign_winds(plan, days, 5, 2000, repair_steps=100_000)
        assert left > 0
    out, left = assign_winds(plan, days, 5, 2000)
    assert left == 0 and sum(rule_breaks(out, days).values()) == 0
    assert same_tables(out, plan)


def test_breaks_the_repair_leaves_in_a_larger_field_are_solved_over_every_hanchan(
        monkeypatch):
    """40 places over 12 hanchans in days of 1 to 3 (1,920 seat variables, above
    EXACT_VARIABLES, so the repair runs first): the block repair leaves breaks (it left 8
    weighted breaks after its 3 M default steps, and the windows of hanchans none fewer),
    and the integer program over every hanchan with LATE_NODES nodes seats everyone
    validly. Recounted by sequence_faults; nobody changes table."""
    from seating import winds

    plan = np.loadtxt(DATA / "short-days-40-grouping.txt", dtype=np.int64).reshape(12, 10, 4)
    days = (2, 1, 1, 2, 1, 1, 1, 3)
    assert winds.EXACT_VARIABLES < plan.size * 4 <= winds.LATE_VARIABLES
    with monkeypatch.context() as m:
        m.setattr(winds, "LATE_VARIABLES", 0)
        m.setattr(winds, "_exact_window", lambda plan, *args: plan)
        _, left = assign_winds(plan, days, 5, 2000, repair_steps=100_000)
        assert left > 0  # the block repair alone
    lines = []
    out, left = assign_winds(plan, days, 5, 2000, repair_steps=100_000, log=lines.append)
    assert left == 0 and sum(rule_breaks(out, days).values()) == 0
    assert same_tables(out, plan)
    assert any("over every hanchan" in line and "seated" in line for line in lines)


def test_last_breaks_are_solved_in_a_window(monkeypatch):
    """A valid seating with two seats of one table exchanged in the last hanchan, breaking
    rules of the second day only: the exact window around the breaks gives valid seats
    again and leaves the hanchans far from them alone."""
    from seating import winds

    rng = np.random.default_rng(4)
    plan = np.stack([rng.permutation(24).reshape(6, 4) for _ in range(9)])
    days = (4, 5)
    valid, left = assign_winds(plan, days, 1, 0)
    assert left == 0
    breaks = []
    for g, (a, b) in itertools.product(range(6), itertools.combinations(range(4), 2)):
        broken = valid.copy()
        broken[8, g, [a, b]] = broken[8, g, [b, a]]
        where = winds._fault_hanchans(broken, days)
        if where.any() and not where[:4].any():
            breaks.append(broken)
    assert breaks
    solved = []  # the hanchans each exact solve was free to reseat
    exact = winds._exact
    monkeypatch.setattr(winds, "_exact",
                        lambda p, d, free: solved.append(free) or exact(p, d, free))
    for broken in breaks:
        assert sum(rule_breaks(broken, days).values()) > 0
        out = winds._exact_window(broken, days, np.ones(9, dtype=bool))
        assert solved and not any(free[:3].any() for free in solved)
        solved.clear()
        assert rule_breaks(out, days) == {"count_bad": 0, "day_bad": 0, "consecutive": 0,
                                          "prefix": 0}
        assert (out[:3] == broken[:3]).all()
        assert same_tables(out, broken)
