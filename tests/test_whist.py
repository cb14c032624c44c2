"""Z-cyclic whist seeds: the rule, the stored seeds, runSeeder's expansion, the search."""

from pathlib import Path

import numpy as np
import pytest

from seating import whist
from seating.audit import Schedule, audit
from seating.check import meetings
from tests.conftest import ROOT

SEEDS = ROOT / "seeds" / "whist"
STORED = sorted(int(p.stem) for p in SEEDS.glob("*.txt"))


def stored(P):
    return whist.read_row(SEEDS / f"{P}.txt")


def test_every_size_from_8_to_100_has_a_seed():
    assert [P for P in range(8, 101, 4) if P not in STORED] == []


@pytest.mark.parametrize("P", STORED)
def test_stored_seed_passes_the_check(P):
    row = stored(P)
    assert len(row) == P
    verdict = whist.check(row)
    assert verdict.ok, verdict.explain()
    assert set(verdict.partner.values()) == {1} and set(verdict.opponent.values()) == {2}


def test_a_broken_seed_is_explained():
    row = stored(20)
    i, j = [k for k in range(20) if row[k] != 19][:2]
    twice = list(row)
    twice[i] = twice[j]  # one residue twice, another missing
    faults = whist.check(twice).faults
    assert f"{row[j]} appears 2 times" in faults
    assert f"missing from the row: {row[i]}" in faults
    swapped = list(row)  # a permutation again, but two tables changed
    swapped[1], swapped[6] = swapped[6], swapped[1]
    verdict = whist.check(swapped)
    assert not verdict.ok
    assert all("gap" in f for f in verdict.faults)
    assert any(
        "between partners (must be once)" in f or "between opponents (must be twice)" in f
        for f in verdict.faults
    )
    assert "multiple of 4" in whist.check(row[:-1]).explain()
    assert "outside" in whist.check([0, 1, 2, 9]).explain()


def test_gap_explanation_names_the_gap():
    # P = 8, M = 7: [inf, 0 | 1, 2] [3, 4 | 5, 6] is not a seed
    verdict = whist.check([7, 0, 1, 2, 3, 4, 5, 6])
    assert not verdict.ok
    for g in range(1, 4):
        p, o = verdict.partner[g], verdict.opponent[g]
        if p != 1:
            assert f"gap {g} occurs {p} times between partners (must be once)" in verdict.faults
        if o != 2:
            assert f"gap {g} occurs {o} times between opponents (must be twice)" in verdict.faults


def test_seed_file_round_trip(tmp_path):
    row = stored(24)
    whist.write_row(tmp_path / "24.txt", row, "made by hand")
    assert whist.read_row(tmp_path / "24.txt") == row
    assert whist.how_made(tmp_path / "24.txt") == "made by hand"
    assert whist.parse_row("# comment\n1, 2 3\n4 # tail\n") == [1, 2, 3, 4]


def run_seeder_by_hand(row):
    """The spec's runSeeder written out step by step, as its page explains it."""
    P, M = len(row), len(row) - 1
    tables = P // 4
    out = []
    for r in range(M):
        shifted = [M if v == M else (v + r) % M for v in row]  # add r, infinity stays
        numbered = [v + 1 for v in shifted]  # players from 1; infinity becomes P
        k = ((r % tables) + 1) * 4
        rotated = numbered[k % P :] + numbered[: k % P]  # left by whole tables
        out.append([[rotated[i], rotated[i + 1]] for i in range(0, P, 2)])
    return out


def test_run_seeder_first_rounds_of_8():
    row = [7, 0, 1, 3, 2, 6, 4, 5]  # any row: the expansion does not check
    rounds = whist.run_seeder(row)
    assert len(rounds) == 7
    # round 0: +0, numbered from 1 -> [8, 1, 2, 4, 3, 7, 5, 6], rotated left by 4 seats
    assert rounds[0] == [[3, 7], [5, 6], [8, 1], [2, 4]]
    # round 1: +1 -> [7, 1, 2, 4, 3, 0, 5, 6] -> [8, 2, 3, 5, 4, 1, 6, 7], rotated by 8 = 0
    assert rounds[1] == [[8, 2], [3, 5], [4, 1], [6, 7]]


@pytest.mark.parametrize("P", [8, 20, 40, 96])
def test_run_seeder_matches_the_spec_steps(P):
    row = stored(P)
    assert whist.run_seeder(row) == run_seeder_by_hand(row)


def recount_pairs(P):
    """Meetings per pair recounted by seating.check from the expanded plan, and the roles."""
    plan = whist.schedule(stored(P))
    M = P - 1
    assert plan.shape == (M, P // 4, 4)
    meet = meetings(plan, P)
    across, beside = whist.roles(plan, P)
    return meet, across, beside


@pytest.mark.parametrize("P", [P for P in STORED if P <= 100])
def test_expansion_meets_every_pair_exactly_three_times(P):
    meet, across, beside = recount_pairs(P)
    upper = np.triu_indices(P, 1)
    assert (meet[upper] == 3).all()
    assert (across[upper] == 1).all()  # partners: once, across the table
    assert (beside[upper] == 2).all()  # opponents: twice, beside


def test_audit_recount_of_an_expansion():
    P = 28
    plan = whist.schedule(stored(P))
    labels = [str(p + 1) for p in range(P)]
    sched = Schedule(
        "whist-28", plan, labels, [None] * P, True, "whist", expects=[("pairs", "exactly 3")]
    )
    _, _, figures, facts, _ = audit(sched)
    assert facts["pairs_by_meetings"] == {"3": P * (P - 1) // 2}
    assert facts["expectations"][0]["holds"]
    assert figures["games_min"] == figures["games_max"] == P - 1


def test_seating_plan_through_winds_and_tables():
    event, seating, figures, facts, notes = whist.seating_plan(stored(16), wind_steps=2000)
    assert facts["pairs_by_meetings"] == {"3": 16 * 15 // 2}
    assert facts["partners_once"] and facts["opponents_twice"]
    assert all(e["holds"] for e in facts["expectations"])
    assert "Partners across (expansion)" in notes


def test_search_finds_a_small_seed():
    row = whist.search(16, seconds=30, seed=3)
    assert row is not None and whist.check(row).ok


def test_shapes_have_every_gap_once_between_partners_and_twice_between_opponents():
    # the shapes are the tables before their shifts; gaps do not change with a shift, so
    # the gap counts of the unshifted shapes are already the rule's
    M = 43
    gaps, lift, cost = whist._anneal_shapes(M, 20_000 * M, 5)
    assert cost == 0
    shape = whist._shapes(gaps, lift, M)
    assert shape[0, 0] == M and all(len(set(t)) == 4 for t in shape.tolist())
    partner, opponent = whist.gap_counts(shape.ravel().tolist(), M)
    assert set(partner[1:]) == {1} and set(opponent[1:]) == {2}


def test_tiling_shifts_the_shapes_into_a_seed():
    M = 43
    for trial in range(20):
        gaps, lift, cost = whist._anneal_shapes(M, 20_000 * M, trial)
        shift, nodes = whist._tile(M, whist._shapes(gaps, lift, M), 500_000, trial)
        if cost == 0 and shift[0] == 0:
            break
    assert shift[0] == 0, "no tiling in 20 shape sets"
    shape = whist._shapes(gaps, lift, M)
    row = shape[0].tolist() + [v for i in range(1, 11) for v in ((shape[i] + shift[i]) % M)]
    assert sorted(row) == list(range(44))
    assert whist.check(row).ok, whist.check(row).explain()


def test_tiling_covers_residues_past_128():
    # blocks of four consecutive residues after infinity's table {0, 1, 2}: the only tiling
    # puts them at 3, 7, ..., 127 (residues 128-130 sit in the third 64-bit word)
    M = 131
    shape = np.array([[M, 0, 1, 2]] + [[0, 1, 2, 3]] * 32, dtype=np.int64)
    shift, nodes = whist._tile(M, shape, 10_000, 1)
    assert shift[0] == 0 and nodes == 32
    covered = sorted([0, 1, 2] + [int(s + k) % M for s in shift[1:] for k in range(4)])
    assert covered == list(range(M))
    assert sorted(shift[1:].tolist()) == list(range(3, 128, 4))


@pytest.mark.parametrize("players", [28, 44])
def test_search_finds_seeds(players):
    progress = {}
    row = whist.search(players, seconds=60, seed=1, progress=progress)
    assert row is not None and len(row) == players and whist.check(row).ok
    assert progress["tilings"] >= 1 and progress["shapes"] >= progress["tilings"]


def test_mirror_construction_rebuilds_40_from_4():
    row = whist.orbit_search(40, seconds=30, seed=2, small_row=stored(4))
    assert row is not None and whist.check(row).ok
    assert whist.mirror_options(39) == [3]
    assert whist.mirror_options(15) == []  # the squares of the gaps do not add up to 0


@pytest.mark.parametrize("P, small", [(36, 8), (56, 12), (156, 32), (176, 8)])
def test_mirror_formula_writes_down_a_seed(P, small):
    row = whist.mirror_formula(stored(small), P - 1)
    assert whist.check(row).ok
    assert sorted(row) == list(range(P))


def test_mirror_formula_fits_only_where_its_proof_holds():
    assert whist.mirror_formula_fits(31, 155) and whist.mirror_formula_fits(7, 175)
    assert not whist.mirror_formula_fits(3, 39)  # 3 | q: a -> 3a is not one-to-one
    assert not whist.mirror_formula_fits(27, 135)
    assert not whist.mirror_formula_fits(11, 99)  # 9 has the prime factor 3 = 3 (mod 4)
    with pytest.raises(ValueError):
        whist.mirror_formula(stored(4), 39)


def test_backtracking_rebuilds_40_and_a_prime_layout():
    # 39 = 3 x 13: multiplier 16 (order 3) fixes the multiples of 13, which hold the seed
    # for 4 scaled; the other 36 residues fill 3 base tables, each standing for 3 tables
    assert (16, 4, 0, 0, 3) in whist.backtrack_options(39, {4: stored(4)})
    row = whist.backtrack_search(40, 16, 0, small_row=stored(4), seconds=20, seed=1)
    assert row is not None and whist.check(row).ok
    assert row[:4] == [39, 0, 13, 26]
    # M = 31 prime: multiplier 5 (order 3), 2 orbits in base tables, 6 orbits with 0 and
    # infinity in 5 free tables (the layout the 44-player seed uses)
    layout = whist.backtrack_layout(31, 5, range(6))
    assert (layout.base_tables, layout.free_tables) == (1, 5)
    assert sorted(layout.free + [v for o in layout.base_orbits for v in o]) == list(range(32))


def test_seed_table_html_escapes(tmp_path):
    path = tmp_path / "8.txt"
    whist.write_row(path, stored(8), "by <search> & luck")
    rows = whist.seed_table([path], build_seconds=1)
    assert rows[0]["check"] == "valid"
    html = whist.seed_table_html(rows)
    assert "by &lt;search&gt; &amp; luck" in html and "<search>" not in html


def test_missing_seeds_dir_is_not_silently_empty():
    assert Path(SEEDS).is_dir() and len(STORED) >= 14


def test_layouts_the_free_tables_cannot_finish_are_left_out():
    # M = 99, G = <89>: 89 = -1 (mod 9) keeps the gaps 11, 22, 33, 44 up to sign, so each
    # base table pair at such a gap counts twice; with the seed for 12 on the multiples of 9
    # and no free table, nothing can hold them once as partners
    assert whist.free_gaps(99, [1, 89], 9) == (4, 0)
    # G = <10>: 10 = -1 (mod 11) and 1 (mod 9) keeps the multiples of 9 and of 11: 9 gaps,
    # more than the 5 partner gaps of 3 free tables (one pair is infinity's)
    assert whist.free_gaps(99, [1, 10]) == (9, 0)
    options = whist.backtrack_options(99, {12: stored(12), 4: stored(4)}, max_free=10)
    assert (89, 12, 0, 0, 11) not in options and (10, None, 1, 3, 11) not in options
    assert (37, None, 2, 5, 4) in options  # G = <37> moves every gap but the multiples of 11
    assert whist.free_gaps(39, [1, 16, 22], 13) == (0, 0)


def test_involution_options_of_99():
    # 10 = 1 (mod 9), -1 (mod 11): fixes the 9 multiples of 11 (5 fixed pairs with
    # infinity), turns round the 5 gaps 9, 18, .., 45 (5 swap pairs), 80 residues left for
    # 10 pairs of base tables; 89 = -1 (mod 9), 1 (mod 11) likewise with 11 and 2
    assert whist.involution_options(99) == [10, 89]
    assert whist.involution_options(103) == []  # M prime: only +-1 square to 1


def _kept_by(row, m, M):
    tables = [row[i : i + 4] for i in range(0, len(row), 4)]

    def image(v):
        return v if v == M else (m * v) % M

    def key(t):  # a table as its two partner pairs, unordered
        return frozenset([frozenset(t[:2]), frozenset(t[2:])])

    return {key(t) for t in tables} == {key([image(v) for v in t]) for t in tables}


def test_stored_100_is_kept_by_its_involution_and_rebuilt_from_its_recipe():
    row = stored(100)
    assert _kept_by(row, 10, 99) and not _kept_by(row, 89, 99)
    # the recipe in the seed file's comment gives the same row again (deterministic)
    assert "involution_search(100, 10, seed=1)" in whist.how_made(SEEDS / "100.txt")
    assert whist.involution_search(100, 10, seconds=60, seed=1) == row


@pytest.mark.parametrize("P, m, small", [(36, 29, 8), (56, 21, None), (92, 64, None)])
def test_involution_search_finds_seeds_kept_by_m(P, m, small):
    progress = {}
    row = whist.involution_search(
        P, m, seconds=60, seed=2, small_row=stored(small) if small else None, progress=progress
    )
    assert row is not None and whist.check(row).ok, progress
    assert _kept_by(row, m, P - 1)
    assert P - 1 in row[:4]  # infinity's table first
    if small:  # the residues m fixes (the multiples of (P - 1) / (small - 1)) hold it scaled
        assert row[:small] == whist.scaled(stored(small), P - 1)
    assert progress["tilings"] >= 1


def test_involution_search_refuses_a_multiplier_without_a_layout():
    with pytest.raises(ValueError):
        whist.involution_search(100, 4)  # 4 * 4 = 16, not 1 (mod 99)


def test_construct_rebuilds_100_by_an_involution():
    # 99 = 9 x 11 has no mirror formula (9 has the prime factor 3 = 3 mod 4); the first
    # construction tried after it is the involution x -> 10x
    built = whist.construct(100, {12: stored(12)}, seconds=40, seed=1)
    assert built is not None and whist.check(built[0]).ok
    assert built[1].startswith("involution x -> 10x")
