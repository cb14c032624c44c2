"""Stage 4, the finer goals (their order and targets: seating.rules), and the search state
shared with stage 3.

Spec, in order, each never costing the ones before it: every pair that never meets has a
common opponent, and the fewest common opponents over such pairs is as high as possible
(Lester's indirect meets); as many countries met as possible, worst-off players first; a
fair small/medium/large mix on every day, and over the whole event; not the same country in
two consecutive hanchans.

Groups drafted over area patterns keep every place in its area (the seat keys hold it) as
long as that costs no meeting rule: pairs left with no common opponent release the areas,
as repeat meetings do in stage 3, and the tables stage chooses them again.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from . import engine
from .bounds import compatriot_floor, countries_ceiling, indirect_ceiling, mix_targets, repeat_floor
from .countries import compatriot_weights, size_classes
from .event import Event
from .jit import copy_into, fast
from .rules import targets

B2B_COMPATRIOTS = 0.3  # share of back-to-back steps that swap two compatriots of one
# hanchan alone (their tablemates then see the same countries, so only the two change on
# countries met, mix and back to back, and the tight locks above refuse fewer steps).
# Default event, seeds 1-24: back to back from a mean of 575 (none) to 526 (493-562), a
# day count 2 off on 4 seeds either way, core plan 4.75 -> 5.0 s; seeds 1-8: 0.5 as good
# (526), as part of double swaps 538; the same in the class mix phases left a day count 2
# off on as many seeds (3 against 4)
B2B_STEPS = 2  # without search.back_to_back_steps, the back-to-back phase anneals this
# many times anneal_steps: the lowest meeting goal, the one far from its bound. Default
# event at 3 M steps, seeds 1-8 (core plan, means over seeds 3-8): 526 at 1 (4.6 s), 469 at
# 2 (5.5 s), 427 at 3 (6.6 s)
B2B_T_END = 0.15  # the back-to-back phase cools from 1 down to this (the other phases to
# 0.05): below about 0.2 it made almost no progress (seed 1 at 80 M steps: 281 at step
# 48.5 M, 278 at the end). Default event, seeds 1-4: 80 M steps 256 / 236 / 266 / 256 at
# 0.05, 241 / 229 / 223 / 241 at 0.1, 222 / 198 / 230 / 220 at 0.15, 224 / 218 / 220 / 217
# at 0.2, 218 / 234 / 231 / 238 at 0.3 (from 0.5 down to 0.2: 249 / 234 / 250 / 259; from
# 2: 215 / 224 / 235 / 228, 20% slower); seeds 5-8: 261 / 273 / 254 / 286 at 0.05, 225 /
# 238 / 203 / 244 at 0.15; 6 M steps, seeds 1-6, mean 472 at 0.05, 439 at 0.15
MIX_ONES_SHARE = 0.25  # the counts 1 off a fair class share, ranked below back to back, are
# annealed after it for this share of anneal_steps each (the day's, then the event's), every
# goal above locked. Default event, seeds 1-4: the day's 531 / 546 / 568 / 531 -> 493 / 507 /
# 546 / 508, the event's 234 / 243 / 245 / 272 -> 226 / 205 / 241 / 258, about 1 s; four
# times the steps (seed 1): 492 and 222
COUNTRIES_STALL = 1_000  # the countries tabu search stops after this many moves without a
# change of its best figures (the annealing after it takes the worst-off further). 177 places
# at tables of 3 over 10 hanchans (benchmarks/unseen.py --table-size 3, generator seed 21):
# 6 countries from move 200 on, the other 5,800 moves took 60-80 s
SLACK_SHARE = 10  # part of the move budget spent on common opponents above their target
FINER_GOALS = (engine.INDIRECT, engine.COUNTRIES, engine.DAY_MIX, engine.TOTAL_MIX,
               engine.BACK_TO_BACK)


def build_state(event: Event, plan: np.ndarray, keys: np.ndarray,
                movable: np.ndarray | None = None, active=None) -> engine.State:
    """The search state of a plan for this event (keys: planned wind per place and hanchan)."""
    sizes = event.delegation_sizes
    per_day, total = mix_targets(event)
    if movable is None:
        movable = np.ones(event.hanchans, dtype=bool)
    if active is None:
        active = np.ones(engine.NGOALS, dtype=bool)
    classes = size_classes(sizes)
    return engine.State(
        plan, keys, movable, event.country_of, compatriot_weights(sizes),
        classes[event.country_of], event.day_of, per_day, total,
        indirect_ceiling(event) + 1, countries_ceiling(event), active,
    )


def bounds(event: Event, state: engine.State) -> np.ndarray:
    """Lower bound of every figure entry: the search stops a goal that reaches it.

    With hanchans held fixed (re-planning), what they already hold counts in full and the
    counting bounds apply to the hanchans left.
    """
    b = np.zeros_like(state.cost)
    sizes = event.delegation_sizes
    movable = state.movable
    left = int(movable.sum())
    share = left / event.hanchans
    floor = compatriot_floor(sizes, event.tables, left, event.table_size)
    weights = compatriot_weights(sizes)
    b[state.seg[engine.REPEATS, 0]] = np.floor(repeat_floor(event) * share)
    b[state.seg[engine.COMPATRIOTS, 0]] = float((weights * floor).sum())
    if left < event.hanchans:
        fixed = state.plan[~movable]
        P = event.players
        meet = np.zeros((P, P), dtype=np.int64)
        for tables in fixed:
            for table in tables:
                meet[np.ix_(table, table)] += 1
        np.fill_diagonal(meet, 0)
        country = event.country_of
        compat = country[:, None] == country[None, :]
        upper = np.triu(np.ones_like(compat), 1)
        b[state.seg[engine.REPEATS, 0]] += (meet * (meet - 1) / 2)[upper & ~compat].sum()
        w = weights[country][:, None] * np.ones((1, P))
        b[state.seg[engine.COMPATRIOTS, 0]] += (w * (meet + 1) * meet / 2)[upper & compat].sum()
    return b


RENAME_STEPS = 1_000  # exchanges of two delegations' names tried by rename_delegations, per
# pair of delegations that may exchange them, up to RENAME_MOST (the default event has one
# such pair, CZE and ITA; 32 places of one country each 341)
RENAME_MOST = 200_000
# the annealing's weights of the day's counts 3+ off a fair share (each step beyond 2), 2 and
# 1 off, then the event's (the best names are kept by the order of the goals)
RENAME_WEIGHTS = (4096.0, 256.0, 1.0, 64.0, 16.0, 1.0)


@fast
def _player_mix(p, mix, mix_total, tgt, tgt_total, seg, out, sign):
    """Add (sign 1) or take away (-1) place p's day and event mix entries in out, a cost
    vector laid out by seg (the engine's own buckets: engine._mix_entry)."""
    for d in range(mix.shape[1]):
        for k in range(mix.shape[2]):
            engine._mix_entry(out, seg, engine.DAY_MIX, mix[p, d, k], tgt[p, d, k], sign)
    for k in range(mix_total.shape[1]):
        engine._mix_entry(out, seg, engine.TOTAL_MIX, mix_total[p, k], tgt_total[p, k], sign)


@fast
def _exchange(a, b, opp, day_of, pclass, tgt, tgt_total, start, size, mix, mix_total):
    """Delegations a and b (one size) exchange names: their places exchange classes and fair
    shares, place by place, and their opponents' class counts follow."""
    H = opp.shape[1]
    K = opp.shape[2]
    for i in range(size[a]):
        qa = start[a] + i
        qb = start[b] + i
        ca = pclass[qa]
        cb = pclass[qb]
        for q, old, new in ((qa, ca, cb), (qb, cb, ca)):
            for h in range(H):
                for k in range(K):
                    p = opp[q, h, k]
                    mix[p, day_of[h], old] -= 1
                    mix[p, day_of[h], new] += 1
                    mix_total[p, old] -= 1
                    mix_total[p, new] += 1
        pclass[qa] = cb
        pclass[qb] = ca
        for d in range(tgt.shape[1]):
            for k in range(tgt.shape[2]):
                tgt[qa, d, k], tgt[qb, d, k] = tgt[qb, d, k], tgt[qa, d, k]
        for k in range(tgt_total.shape[1]):
            tgt_total[qa, k], tgt_total[qb, k] = tgt_total[qb, k], tgt_total[qa, k]


@njit(cache=True)
def _rename(opp, day_of, pclass, tgt, tgt_total, start, size, groups, gstart, seg, weights,
            steps, seed):
    """Annealing of which delegation carries which name, among delegations of one size.

    opp[p, h]: p's opponents in hanchan h. Delegation c holds places start[c] ..
    start[c] + size[c] - 1; groups[gstart[i]:gstart[i + 1]]: the delegations of one size
    whose names may be exchanged. A step exchanges the names of two whose size classes
    differ: each place of one takes the class and the fair shares of the place of the same
    number in the other (pclass, tgt and tgt_total change with them). The mix is counted in
    a cost vector laid out by seg (no gradients), weighed by weights. Returns name[c], the
    delegation whose name the schedules at c's places carry in the best naming found, and
    the cost vectors before and after.
    """
    np.random.seed(seed)
    P, H, K = opp.shape
    C = start.shape[0]
    D = tgt.shape[1]
    mix = np.zeros((P, D, 3), dtype=np.int64)
    mix_total = np.zeros((P, 3), dtype=np.int64)
    for p in range(P):
        for h in range(H):
            for k in range(K):
                mix[p, day_of[h], pclass[opp[p, h, k]]] += 1
                mix_total[p, pclass[opp[p, h, k]]] += 1
    cost = np.zeros(weights.shape[0])
    for p in range(P):
        _player_mix(p, mix, mix_total, tgt, tgt_total, seg, cost, 1.0)
    first = cost.copy()
    best = cost.copy()
    name = np.arange(C)
    best_name = name.copy()
    stamp = np.zeros(P, dtype=np.int64)
    touched = np.empty(P, dtype=np.int64)
    delta = np.zeros(weights.shape[0])
    dm = seg[engine.DAY_MIX, engine.START]
    tm = seg[engine.TOTAL_MIX, engine.START]
    # the order of the goals: day mix (3+, 2 off), event mix (3+, 2), then the counts 1 off
    # (day, event; ranked below back to back, which a name does not change)
    order = np.array([dm, dm + 1, tm, tm + 1, dm + 2, tm + 2])
    ngroups = gstart.shape[0] - 1
    t_start, t_end = 2.0, 0.05
    for step in range(steps):
        temp = t_start * (t_end / t_start) ** (step / steps)
        g = np.random.randint(ngroups)
        n = gstart[g + 1] - gstart[g]
        a = groups[gstart[g] + np.random.randint(n)]
        b = groups[gstart[g] + np.random.randint(n)]
        if pclass[start[a]] == pclass[start[b]]:
            continue
        # the places whose buckets change: both delegations and their opponents
        nt = 0
        for c in (a, b):
            for i in range(size[c]):
                q = start[c] + i
                if stamp[q] != step + 1:
                    stamp[q] = step + 1
                    touched[nt] = q
                    nt += 1
                for h in range(H):
                    for k in range(K):
                        p = opp[q, h, k]
                        if stamp[p] != step + 1:
                            stamp[p] = step + 1
                            touched[nt] = p
                            nt += 1
        delta[:] = 0.0
        for i in range(nt):
            _player_mix(touched[i], mix, mix_total, tgt, tgt_total, seg, delta, -1.0)
        _exchange(a, b, opp, day_of, pclass, tgt, tgt_total, start, size, mix, mix_total)
        for i in range(nt):
            _player_mix(touched[i], mix, mix_total, tgt, tgt_total, seg, delta, 1.0)
        d = 0.0
        for i in range(delta.shape[0]):
            d += weights[i] * delta[i]
        if d > 0 and np.random.random() >= np.exp(-d / temp):
            _exchange(a, b, opp, day_of, pclass, tgt, tgt_total, start, size, mix, mix_total)
            continue
        for i in range(delta.shape[0]):
            cost[i] += delta[i]
        name[a], name[b] = name[b], name[a]
        better = False
        for i in order:
            if cost[i] < best[i] - 1e-9:
                better = True
                break
            if cost[i] > best[i] + 1e-9:
                break
        if better:
            copy_into(best, cost)
            copy_into(best_name, name)
    return best_name, first, best


def rename_delegations(event: Event, plan: np.ndarray, keys: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray, dict] | None:
    """Who meets whom names delegations only to tell them apart: two delegations of one size
    may exchange names (every place of one takes the schedule of the place of the same
    number in the other) and every goal stays the same, except the small/medium/large mix
    when the two fall in different size classes (a size at the border of two thirds; every
    delegation of an event of one place per country). This chooses the names that even out
    the mix, by annealing (the best kept by the order of the goals).

    Returns the renamed plan and seat keys, and what the mix figures were and are, or None
    when no two delegations of one size are in different classes (or places were
    substituted: their names are no longer free).
    """
    if event.place_country is not None:
        return None
    sizes = event.delegation_sizes
    classes = size_classes(sizes)
    groups = []
    for n in np.unique(sizes):
        same = np.nonzero(sizes == n)[0]
        if len(set(classes[same].tolist())) > 1:
            groups.append(same)
    if not groups:
        return None
    H, G, S = plan.shape
    P = event.players
    opp = np.empty((P, H, S - 1), dtype=np.int64)
    for h in range(H):
        for g in range(G):
            for s in range(S):
                opp[plan[h, g, s], h] = np.delete(plan[h, g], s)
    start = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    per_day, total = mix_targets(event)
    gstart = np.concatenate([[0], np.cumsum([len(g) for g in groups])]).astype(np.int64)
    pairs = sum(int((classes[g][:, None] != classes[g][None, :]).sum()) // 2 for g in groups)
    seg = engine.layout(1, 1)
    seg[:, engine.GRADON] = 0
    weights = np.zeros(engine.cost_length_nb(seg))
    for goal, w in ((engine.DAY_MIX, RENAME_WEIGHTS[:3]), (engine.TOTAL_MIX, RENAME_WEIGHTS[3:])):
        weights[seg[goal, engine.START]:seg[goal, engine.START] + 3] = w
    name, before, after = _rename(
        opp, event.day_of.astype(np.int64), classes[event.country_of].astype(np.int64),
        per_day.copy(), total.copy(), start, sizes, np.concatenate(groups).astype(np.int64),
        gstart, seg, weights, min(RENAME_MOST, RENAME_STEPS * pairs), event.seed + 40)
    # the schedule at place i of delegation c goes to place i of delegation name[c]
    place_of = np.empty(P, dtype=np.int64)
    for c in range(len(sizes)):
        place_of[start[c]:start[c] + sizes[c]] = np.arange(start[name[c]],
                                                           start[name[c]] + sizes[c])
    source = np.empty(P, dtype=np.int64)
    source[place_of] = np.arange(P)
    def figures(cost):
        """The mix buckets by name (per day and over the event: the sum of gaps beyond 2 over
        counts 3 or more off a fair share, the counts 2 off, the counts 1 off)."""
        out = {}
        for part, goal in (("day_mix", engine.DAY_MIX), ("total_mix", engine.TOTAL_MIX)):
            st = seg[goal, engine.START]
            for i, kind in enumerate(("gaps_beyond_two", "two_off", "one_off")):
                out[f"{part}_{kind}"] = float(cost[st + i])
        return out

    summary = {"renamed": [event.country_codes[c] for c in range(len(sizes)) if name[c] != c],
               "before": figures(before), "after": figures(after)}
    return place_of[plan], keys[:, source], summary


def improve_goals(event: Event, plan: np.ndarray, keys: np.ndarray, moves: int,
                  time_limit: float, log=print, movable=None, steps: int = 4_000_000,
                  b2b_steps: int | None = None, ones_steps: int | None = None,
                  goals: tuple[int, ...] = FINER_GOALS) -> tuple[np.ndarray, np.ndarray, dict]:
    """Stage 4: search the finer goals in order, each locked before the next.

    steps: annealing steps of each goal's phase; b2b_steps those of the back-to-back
    phase (default B2B_STEPS times steps); ones_steps those of each class mix's counts 1
    off, after it (default MIX_ONES_SHARE times steps; 0: not searched). goals: the finer
    goals searched, in the order of FINER_GOALS (the others are not counted; only
    benchmarks/back_to_back.py leaves some out, to measure what the goals above back to
    back cost it)."""
    # a goal's entries are only counted from its own phase on: below the phase they would
    # only cost evaluation time
    active = np.zeros(engine.NGOALS, dtype=bool)
    active[[engine.REPEATS, engine.COMPATRIOTS]] = True
    state = build_state(event, plan, keys, movable, active)
    search = engine.Search(state, event.seed + 4, bounds(event, state))
    deadline = time.monotonic() + time_limit
    for goal in (engine.REPEATS, engine.COMPATRIOTS):
        search.lock_goal(goal)
    goal_targets = targets(event)
    used = {}
    released = False  # the areas given up for the common opponents (below)
    for goal in (g for g in FINER_GOALS if g in goals):
        name = engine.GOAL_NAMES[goal]
        target = goal_targets.get(goal)
        state.active[goal] = True
        state.recount()
        if search.reached(goal) or (target is not None and state.lowest(goal) > target):
            used[name] = 0
        elif goal == engine.INDIRECT:
            used[name] = search.improve(goal, moves, deadline, log, spread=1,
                                        stop_above=target - 1)
            if state.lowest(goal) == 0:
                # pairs with no common opponent left where the tabu search stalls (135
                # places at tables of 3 over 10 hanchans: 17 pairs after 1,000 moves, 13
                # after 30,000): the annealing takes them to none (a tabu search after it
                # raised nothing there in 6,000 moves)
                used[name] += engine.anneal_goal(search, goal, steps, deadline, log)
            S = plan.shape[2]
            if state.lowest(goal) == 0 and state.key.max() >= S:
                # drafted over area patterns (keys = wind + S x area), and pairs are still
                # left with no common opponent: a meeting rule, which outranks the areas, so
                # on with the wind keys alone, as the swap stage does for repeats (84 places
                # over 6 hanchans in three areas: 333 pairs -> none); the tables stage then
                # chooses the areas of the groups
                log(f"  {name}: pairs with no common opponent left with every place kept in "
                    "its area; searching on with the winds alone")
                search.restore_best()
                state.key[:] = state.key % S
                search.best_key[:] = search.best_key % S
                released = True
                used[name] += search.improve(goal, moves, deadline, log, spread=1,
                                             stop_above=target - 1)
                if state.lowest(goal) == 0:
                    used[name] += engine.anneal_goal(search, goal, steps, deadline, log)
            if state.lowest(goal) == target:
                # then briefly above the target: slack for the goals below (on large events
                # the last few pairs could take the whole budget)
                used[name] += search.improve(goal, max(1, moves // SLACK_SHARE), deadline, log,
                                             spread=1, stop_above=target)
        elif goal == engine.COUNTRIES:
            used[name] = search.improve(goal, moves, deadline, log, spread=4,
                                        stop_above=target - 1, stall=COUNTRIES_STALL)
            if state.lowest(goal) < target:
                # the tabu search stalls below the target: the annealing, weighing the
                # worst-off first, takes them further
                state.seg[goal, engine.ACTIVE] = target
                state.recount()
                used[name] += engine.anneal_goal(search, goal, steps, deadline, log)
        else:
            if target is not None:
                state.seg[goal, engine.ACTIVE] = target
                state.recount()
            b2b = goal == engine.BACK_TO_BACK
            if b2b:
                phase = B2B_STEPS * steps if b2b_steps is None else b2b_steps
            else:
                phase = steps
            # back to back: its own end temperature and compatriot swaps (B2B_T_END,
            # B2B_COMPATRIOTS)
            own = {"t_end": B2B_T_END, "compat_share": B2B_COMPATRIOTS} if b2b else {}
            used[name] = engine.anneal_goal(search, goal, phase, deadline, log, **own)
        search.lock_goal(goal, target)
    # the class mixes' counts 1 off a fair share, left unlocked above back to back: now
    # annealed with every goal above locked (only two places' mixes change when compatriots
    # swap), the day's first, and then locked too
    ones_steps = int(MIX_ONES_SHARE * steps) if ones_steps is None else ones_steps
    for goal in (engine.DAY_MIX, engine.TOTAL_MIX):
        st = state.seg[goal, engine.START]
        if not ones_steps or not state.active[goal] or search.locklen[goal] != 2:
            continue
        state.seg[goal, engine.ACTIVE] = state.seg[goal, engine.ALLOC]  # the 3 buckets
        state.recount()
        weights = np.zeros_like(state.cost)
        weights[st + 2] = 1.0  # the counts 1 off
        log(f"  {engine.GOAL_NAMES[goal]}: its counts 1 off a fair share, below back to back"
            f" (every goal above locked)")
        used[f"{engine.GOAL_NAMES[goal]}_1_off"] = engine.anneal_goal(
            search, goal, ones_steps, deadline, log, weights=weights, until_fair=False,
            compat_share=B2B_COMPATRIOTS)
        search.lock_goal(goal, whole=True)
    plan, keys = state.plan.copy(), state.key.copy()
    # last, so that it can only gain (a name changes no goal but the mix); not with hanchans
    # held, whose places are players already
    renamed = None
    if movable is None or np.all(movable):
        found = rename_delegations(event, plan, keys)
        if found is not None and found[2]["renamed"]:
            plan, keys, renamed = found
            log(f"  names exchanged: {', '.join(renamed['renamed'])}")
    summary = {"moves": used, "hit_time_limit": search.hit_time_limit,
               "targets": {engine.GOAL_NAMES[g]: t for g, t in goal_targets.items()},
               "renamed": renamed, "areas_released": released}
    return plan, keys, summary
