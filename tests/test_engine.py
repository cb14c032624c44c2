"""The swap engine's incremental bookkeeping against a recount from scratch.

Every delta the search relies on (evaluate, swap) must equal what a full recount
of the changed plan gives; a wrong delta would silently mislead the search.
"""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from seating import engine


def random_state(seed, players=32, hanchans=6, size=4, countries=7, keyed=False,
                 indirect_window=4, countries_window=6):
    rng = np.random.default_rng(seed)
    groups = players // size
    country = np.sort(rng.integers(0, countries, players))
    plan = np.stack([rng.permutation(players).reshape(groups, size) for _ in range(hanchans)])
    day_of = np.sort(rng.integers(0, 2, hanchans))
    cls = rng.integers(0, 3, countries)[country]
    target = (rng.random((countries, 2, 3)) * 5)[country]
    key = np.full((hanchans, players), -1)
    if keyed:
        for s in range(size):
            key[np.arange(hanchans)[:, None], plan[:, :, s]] = s
    state = engine.State(plan, key, np.ones(hanchans, bool), country, rng.random(countries) * 3,
                         cls, day_of, target, target.sum(axis=1), 9, 7,
                         np.ones(engine.NGOALS, bool))
    state.seg[engine.INDIRECT, engine.ACTIVE] = indirect_window
    state.seg[engine.COUNTRIES, engine.ACTIVE] = countries_window
    state.recount()
    return state, rng


def fresh(state):
    """Cost, counts and low lists of the same plan, rebuilt from nothing."""
    arrays = [a.copy() for a in state.st]
    cost = state.cost.copy()
    state.recount()
    return cost, arrays


def same_low_lists(a, b, players):
    return all(sorted(a[8][u, :a[9][u]]) == sorted(b[8][u, :b[9][u]]) for u in range(players))


def same_opponent_lists(a, players):
    """The kept lists of opponents hold exactly the places each place has met."""
    meet, nbr, deg = a[2], a[11], a[12]
    return all(sorted(nbr[u, :deg[u]].tolist()) == np.nonzero(meet[u])[0].tolist()
               for u in range(players))


def same_met_bits(a, country, players):
    """The kept bit rows hold exactly who each place has met or is a compatriot of."""
    meet, bits = a[2], a[13]
    for u in range(players):
        got = np.unpackbits(bits[u].view(np.uint8), bitorder="little")[:players].astype(bool)
        want = (meet[u] > 0) | (country == country[u])
        want[u] = False
        if not np.array_equal(got, want):
            return False
    return True


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([(32, 6, 4), (27, 7, 3), (40, 8, 4)]),
       st.sampled_from([1, 4]))
def test_evaluate_equals_swap_and_recount(seed, shape, window):
    # window 1: the lock of the finer goals (no unlinked pair), where a swap leaves most
    # pairs' common opponents above the low threshold and so untouched
    players, hanchans, size = shape
    state, rng = random_state(seed, players, hanchans, size, indirect_window=window)
    for _ in range(150):
        h = int(rng.integers(hanchans))
        x, y = (int(v) for v in rng.choice(players, 2, replace=False))
        if state.pos[h, x] // size == state.pos[h, y] // size:
            continue
        delta = state.evaluate(h, x, y)
        before = state.cost.copy()
        state.swap(h, x, y)
        np.testing.assert_allclose(state.cost - before, delta, atol=1e-6)
    cost, arrays = fresh(state)
    np.testing.assert_allclose(cost, state.cost, atol=1e-6)
    for got, want in zip(arrays[:8], state.st[:8]):
        np.testing.assert_array_equal(got, want)
    assert same_low_lists(arrays, state.st, players)
    assert same_opponent_lists(arrays, players)
    assert same_met_bits(state.st, state.ev[0], players)  # kept by the swaps
    assert same_met_bits(arrays, state.ev[0], players)  # rebuilt


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_double_swap_evaluates_exactly(seed):
    state, rng = random_state(seed, keyed=True)
    for _ in range(100):
        h = int(rng.integers(6))
        ga, gb = rng.choice(8, 2, replace=False)
        s1, s2 = rng.choice(4, 2, replace=False)
        x, y = state.plan[h, ga, s1], state.plan[h, gb, s1]
        x2, y2 = state.plan[h, ga, s2], state.plan[h, gb, s2]
        engine.evaluate(state.ev, state.st, state.seg, state.active, state.work, h, x, y, x2, y2)
        delta = state.work[6].copy()
        before = state.cost.copy()
        state.swap(h, x, y)
        state.swap(h, x2, y2)
        np.testing.assert_allclose(state.cost - before, delta, atol=1e-6)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([1, 2, 3]))
def test_mix_test_before_evaluation_is_exact(seed, which):
    """engine._mix_kept, on the two tables laid out by engine._two_tables, refuses an
    exchange exactly when it takes a count it changes (of a place at the two tables: of the
    day, which & 1; of the event, which & 2) 2 or more off a fair share, as the swap's
    recounted class counts show."""
    state, rng = random_state(seed, keyed=True)
    pclass, day_of, tgt, tgt_total = state.ev[2], state.ev[3], state.ev[4], state.ev[5]
    refused = 0
    for _ in range(60):
        h = int(rng.integers(6))
        ga, gb = rng.choice(8, 2, replace=False)
        s1, s2 = rng.choice(4, 2, replace=False)
        x, y = state.plan[h, ga, s1], state.plan[h, gb, s1]
        x2, y2 = ((state.plan[h, ga, s2], state.plan[h, gb, s2]) if rng.random() < 0.5
                  else (-1, -1))
        engine._two_tables(state.plan, state.pos, h, x, y, x2, y2, state.work[7])
        kept = engine._mix_kept(state.plan, pclass, day_of, state.st[6], state.st[7], tgt,
                                tgt_total, h, which, state.work[7])
        places = np.concatenate([state.plan[h, ga], state.plan[h, gb]])
        d = day_of[h]
        day, event = state.st[6][places, d].copy(), state.st[7][places].copy()
        state.swap(h, x, y)
        if x2 >= 0:
            state.swap(h, x2, y2)
        off = False
        for i, u in enumerate(places):
            for k in range(3):
                if which & 1 and state.st[6][u, d, k] != day[i, k]:
                    off |= engine._excess(state.st[6][u, d, k], tgt[u, d, k]) >= 2
                if which & 2 and state.st[7][u, k] != event[i, k]:
                    off |= engine._excess(state.st[7][u, k], tgt_total[u, k]) >= 2
        assert kept == (not off)
        refused += off
    assert refused > 0


def test_search_keeps_locks():
    """After locking repeats at zero, no move of a later goal may create a repeat."""
    state, _ = random_state(5, players=48, hanchans=5, countries=12, keyed=False)
    search = engine.Search(state, 1, np.zeros_like(state.cost))
    weights = np.zeros_like(state.cost)
    weights[state.seg[engine.REPEATS, engine.START]] = 1
    weights[state.seg[engine.COMPATRIOTS, engine.START]] = 1
    search.improve(-1, 3000, float("inf"), lambda m: None, weights=weights)
    search.lock_goal(engine.REPEATS)
    search.lock_goal(engine.COMPATRIOTS)
    repeats = state.cost[state.seg[engine.REPEATS, engine.START]]
    compat = state.cost[state.seg[engine.COMPATRIOTS, engine.START]]
    search.improve(engine.BACK_TO_BACK, 500, float("inf"), lambda m: None)
    assert state.cost[state.seg[engine.REPEATS, engine.START]] <= repeats + 1e-9
    assert state.cost[state.seg[engine.COMPATRIOTS, engine.START]] <= compat + 1e-9


def test_search_stops_when_its_best_stalls():
    """With a stall given, the search stops within one chunk of that many moves after its
    best figures last changed, well short of its move budget."""
    state, _ = random_state(6, players=48, hanchans=5, countries=12)
    search = engine.Search(state, 2, np.zeros_like(state.cost))
    lines = []
    used = search.improve(engine.BACK_TO_BACK, 1_000_000, float("inf"), lines.append,
                          stall=600)
    assert used < 1_000_000
    assert lines[-1].endswith("stopped")
    changed = [int(line.split("move ")[1].split()[0]) for line in lines[:-1]]
    assert 600 <= used - changed[-1] < 600 + 200


def test_mix_lock_keeps_counts_two_off_while_some_are_three_off():
    """With counts 3 or more off a fair share left, the lock of a class mix keeps their gap
    beyond 2 and then the number of counts 2 off, as the check ranks plans: a lower goal's
    search may not add counts 2 off (it added 75 on one unseen event before)."""
    state, _ = random_state(11, players=48, hanchans=6, countries=12, keyed=True)
    search = engine.Search(state, 1, np.zeros_like(state.cost))
    for goal in (engine.DAY_MIX, engine.TOTAL_MIX):
        st_ = state.seg[goal, engine.START]
        assert state.cost[st_] > 0  # random targets leave counts 3 or more off
        search.lock_goal(goal)
        assert search.locklen[goal] == 2
    before = {g: tuple(state.cost[state.seg[g, engine.START]:][:2])
              for g in (engine.DAY_MIX, engine.TOTAL_MIX)}
    engine.anneal_goal(search, engine.BACK_TO_BACK, 200_000, float("inf"), lambda m: None)
    state.recount()
    for g, (gap, two) in before.items():
        now = tuple(state.cost[state.seg[g, engine.START]:][:2])
        assert now <= (gap, two), (g, now, (gap, two))


def test_swaps_keep_areas_and_draw_tables_of_the_same_area():
    """Seats keyed by area (wind + size x area): tables_by_area lists every hanchan's tables
    area by area, and the annealing, which draws the other table of a swap from x's area,
    changes the plan but never a seat's key, so every table keeps one area."""
    state, rng = random_state(3, players=48, hanchans=6, countries=12, keyed=True)
    H, G, S = state.plan.shape
    area = np.stack([rng.permutation(np.repeat([0, 1, 2], [2, 6, 4])) for _ in range(H)])
    for h in range(H):
        for g in range(G):
            state.key[h, state.plan[h, g]] += S * area[h, g]
    state.recount()
    tables, span = engine.tables_by_area(state.plan, state.key)
    for h in range(H):
        for g in range(G):
            lo, hi, at = span[h, g]
            assert tables[h, at] == g
            assert sorted(tables[h, lo:hi]) == list(np.nonzero(area[h] == area[h, g])[0])
    one, one_span = engine.tables_by_area(state.plan, state.key % S)
    assert (one == np.arange(G)).all() and (one_span[:, :, 2] == np.arange(G)).all()
    key = state.key.copy()
    plan = state.plan.copy()
    search = engine.Search(state, 2, np.zeros_like(state.cost))
    engine.anneal_goal(search, engine.BACK_TO_BACK, 50_000, float("inf"), lambda m: None,
                       fresh_only=False)
    assert (state.plan != plan).any()
    assert (state.key == key).all()
    seat_area = np.take_along_axis(state.key, state.plan.reshape(H, -1), axis=1) // S
    assert (seat_area.reshape(H, G, S) == area[:, :, None]).all()


@given(st.integers(1, 2**62), st.integers(1, 5000))
@settings(max_examples=40, deadline=None)
def test_annealing_generator_stays_in_range_and_spreads(seed, n):
    """The annealing's own generator: _below(n) in 0..n-1, every value of a small range
    drawn about equally often, _unit in [0, 1) with mean near 1/2."""
    draws = engine._draws(np.array([seed], dtype=np.uint64), n, 20000).astype(np.int64)
    assert draws.min() >= 0 and draws.max() < n
    small = 2 + n % 19
    draws = engine._draws(np.array([seed], dtype=np.uint64), small, 20000).astype(np.int64)
    expected = 20000 / small
    assert (np.abs(np.bincount(draws, minlength=small) - expected) < 6 * np.sqrt(expected)).all()
    units = engine._draws(np.array([seed], dtype=np.uint64), 0, 20000)
    assert (units >= 0).all() and (units < 1).all()
    assert abs(units.mean() - 0.5) < 0.02


def test_the_install_compiles_what_the_default_event_needs_once(tmp_path):
    """`python -m seating.precompile` (run by the Makefile's install) compiles each large
    kernel of the search for one signature only: a literal constant passed to one
    (`swap(..., -1)`), or a variable first set to one, would add a second compilation of it
    to every first run (seating.jit). And a later process that plans the default event (its
    shape: 200 places, three areas, days of 5/5/4; small budgets) compiles nothing more: every
    compiled function of the package it calls is found in numba's cache. Both in fresh
    processes sharing a cache directory that starts empty, so that the tests' own calls do
    not count."""
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    install = """
from seating import engine, precompile
precompile.main()
for f in (engine.run, engine.anneal, engine.swap, engine.evaluate, engine.pick_focus,
          engine._meet_change, engine._count_change, engine._player_entries):
    print(f.py_func.__name__, len(f.signatures))
"""
    out = subprocess.run([sys.executable, "-c", install], capture_output=True, text=True,
                         check=True, cwd=root, env=env).stdout.split("\n")
    counts = dict(line.split() for line in out if line and not line.startswith("precompile"))
    assert len(counts) == 8
    assert all(n == "1" for n in counts.values()), counts
    later = f"""
import importlib, pkgutil, yaml
import seating
from numba.core.registry import CPUDispatcher
from seating.check import recount
from seating.core import plan
from seating.event import load_event
schema = yaml.safe_load(open({str(root / "workflow/schemas/config.schema.yaml")!r}))
config = yaml.safe_load(open({str(root / "config/config.yaml")!r}))
config["search"].update(anneal_steps=100_000, back_to_back_steps=100_000, goal_moves=300)
event = load_event(config, schema)
recount(event, plan(event)[0])
calls = 0
for info in pkgutil.iter_modules(seating.__path__):
    module = importlib.import_module("seating." + info.name)
    for name, f in vars(module).items():
        if isinstance(f, CPUDispatcher) and f.__module__ == module.__name__:
            calls += sum(f.stats.cache_hits.values())
            if sum(f.stats.cache_misses.values()):
                print("compiled", module.__name__, name)
print("loaded", calls)
"""
    out = subprocess.run([sys.executable, "-c", later], capture_output=True, text=True,
                         check=True, cwd=root, env=env).stdout.split("\n")
    assert [line for line in out if line.startswith("compiled")] == []
    loaded = [int(line.split()[1]) for line in out if line.startswith("loaded")]
    assert loaded[0] > 10  # the plan did load compiled code from the cache
