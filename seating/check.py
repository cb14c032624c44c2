"""Stage 7, check: recount every rule from the finished seating alone.

Nothing here looks at what the search believed: the input is the seating (who sits at which
table and wind in every hanchan), the places' countries and the event's days and areas.
Every figure of check.json and report.html comes from `recount`.
"""

from __future__ import annotations

import numpy as np

from . import bounds
from .countries import size_classes
from .event import Event
from .rules import sequence_faults


def meetings(seating: np.ndarray, players: int) -> np.ndarray:
    """meet[p, q]: hanchans in which p and q sat at the same table (empty seats are -1)."""
    meet = np.zeros((players, players), dtype=np.int64)
    H, T, S = seating.shape
    for h in range(H):
        for t in range(T):
            table = seating[h, t][seating[h, t] >= 0]
            meet[np.ix_(table, table)] += 1
    np.fill_diagonal(meet, 0)
    return meet


def opponents_by_hanchan(seating: np.ndarray, players: int) -> list[list[np.ndarray]]:
    """For every player, per hanchan, the array of its opponents (empty if it sat out)."""
    H = seating.shape[0]
    where = {}
    for h in range(H):
        for t in range(seating.shape[1]):
            for p in seating[h, t]:
                if p >= 0:
                    where[(h, int(p))] = t
    result = []
    for p in range(players):
        row = []
        for h in range(H):
            t = where.get((h, p))
            if t is None:
                row.append(np.zeros(0, dtype=np.int64))
            else:
                table = seating[h, t]
                row.append(table[(table >= 0) & (table != p)])
        result.append(row)
    return result


def _worst(values: np.ndarray, names: list[str], how_many: int = 5, low: bool = True) -> list:
    order = np.argsort(values if low else -values, kind="stable")[:how_many]
    return [[names[i], float(values[i]) if values.dtype.kind == "f" else int(values[i])]
            for i in order]


def recount(event: Event, seating: np.ndarray, winds_known: bool = True) -> dict:
    """All figures of the check, recounted from seating[hanchan, table, seat].

    Empty seats are -1 (a hanchan may have fewer tables, a player may sit out: audits of
    game lists). Seat s is wind s when winds_known; wind figures are None when winds are
    unknown, the table size is not 3 or 4, or somebody sits out a hanchan.
    """
    P = event.players
    H, T, S = seating.shape
    names = event.place_names
    country_at = event.country_at  # (H, P): substitutes change a place's country
    codes = event.country_codes
    sizes = event.delegation_sizes
    meet = meetings(seating, P)
    upper = np.triu(np.ones((P, P), dtype=bool), 1)
    fig: dict = {
        "event": event.name,
        "players": P,
        "hanchans": H,
        "tables": T,
        "table_size": S,
    }
    played = np.zeros(P, dtype=np.int64)
    for h in range(H):
        seated = seating[h][seating[h] >= 0]
        played[seated] += 1
    fig["games_min"] = int(played.min())
    fig["games_max"] = int(played.max())
    full = bool((played == H).all())  # everybody plays every hanchan
    fig["_games"] = played

    # -- who meets whom ------------------------------------------------------------------
    fig["repeat_meetings"] = int(np.maximum(meet - 1, 0)[upper].sum())
    seats = np.zeros(P, dtype=np.int64)  # opponent seats of every player
    for h in range(H):
        for t in range(T):
            table = seating[h, t][seating[h, t] >= 0]
            seats[table] += len(table) - 1
    fig["repeat_meetings_bound"] = _repeat_bound(event, seats)
    fig["repeat_pairs_max_meetings"] = int(meet[upper].max()) if P > 1 else 0
    # the spread of meetings over pairs of different countries: with repeats unavoidable,
    # every such pair should meet floor(x) or ceil(x) times, x their average
    country = event.country_of
    others = upper & (country[:, None] != country[None, :])
    pair_counts = meet[others]
    mean = pair_counts.mean() if pair_counts.size else 0.0
    low, high = int(np.floor(mean + 1e-9)), int(np.ceil(mean - 1e-9))
    fig["pair_meetings_min"] = int(pair_counts.min()) if pair_counts.size else 0
    fig["pair_meetings_fair"] = [low, high]
    fig["pairs_outside_fair"] = int(((pair_counts < low) | (pair_counts > high)).sum())
    per_country = np.zeros(len(codes), dtype=np.int64)
    for h in range(H):  # compatriots at the same table, with the countries of that hanchan
        for t in range(T):
            table = seating[h, t][seating[h, t] >= 0]
            for i in range(len(table)):
                for j in range(i + 1, len(table)):
                    if country_at[h, table[i]] == country_at[h, table[j]]:
                        per_country[country_at[h, table[i]]] += 1
    fig["compatriot_meetings"] = int(per_country.sum())
    # the proven minimum assumes full hanchans and delegations that fit in the seats
    floor = (bounds.compatriot_floor(sizes, T, H, S)
             if full and sizes.max() <= T * S else None)
    fig["compatriot_meetings_bound"] = int(floor.sum()) if floor is not None else 0
    fig["compatriot_meetings_by_country"] = {
        codes[c]: {"meetings": int(per_country[c]),
                   "bound": int(floor[c]) if floor is not None else 0}
        for c in range(len(codes)) if per_country[c] or (floor is not None and floor[c])
    }
    adj = (meet > 0).astype(np.int64)
    common = adj @ adj
    never = (meet == 0) & upper
    fig["unlinked_pairs"] = int((never & (common == 0)).sum())
    fig["unlinked_pairs_bound"] = (bounds.unlinked_floor(event)
                                   if full and (seating >= 0).all() else 0)
    if never.any():
        low = int(common[never].min())
        fig["indirect_min"] = low
        fig["indirect_min_pairs"] = int((never & (common == low)).sum())
    else:
        fig["indirect_min"] = None
        fig["indirect_min_pairs"] = 0
    fig["indirect_ceiling"] = bounds.indirect_ceiling(event)
    opp = opponents_by_hanchan(seating, P)
    met_countries = np.array([
        len({int(country_at[h, q]) for h in range(H) for q in opp[p][h]
             if country_at[h, q] != country_at[h, p]})
        for p in range(P)
    ])
    fig["countries_met_min"] = int(met_countries.min())
    fig["countries_met_mean"] = round(float(met_countries.mean()), 3)
    fig["countries_met_max"] = int(met_countries.max())
    fig["countries_met_ceiling"] = bounds.countries_ceiling(event)
    fig["countries_met_mean_ceiling"] = round(bounds.countries_mean_ceiling(event), 3)
    b2b = np.zeros((P, max(H - 1, 0)), dtype=bool)
    for p in range(P):
        for h in range(H - 1):
            a = set(country_at[h, opp[p][h]].tolist())
            b = set(country_at[h + 1, opp[p][h + 1]].tolist())
            b2b[p, h] = bool(a & b)
    fig["back_to_back_country"] = int(b2b.sum())
    # (counted for plans that seat no two compatriots at a table, as the rules above ask)
    fig["back_to_back_country_bound"] = (bounds.back_to_back_floor(event)
                                         if full and fig["compatriot_meetings"] == 0 else 0)
    fig["_met_countries"] = met_countries
    fig["_b2b"] = b2b

    # -- opponents' size classes -----------------------------------------------------
    class_of = size_classes(sizes)
    per_day, total = bounds.mix_targets(event)
    day_of = event.day_of
    mix = np.zeros((P, len(event.days), 3), dtype=np.int64)
    for p in range(P):
        for h in range(H):
            for q in opp[p][h]:
                mix[p, day_of[h], class_of[country_at[h, q]]] += 1
    mix_total = mix.sum(axis=1)

    def excess(value, target):
        return np.maximum(np.maximum(value - np.ceil(target), np.floor(target) - value), 0)

    day_ex = excess(mix, per_day)
    tot_ex = excess(mix_total, total)
    fig["day_mix_max_excess"] = int(day_ex.max())
    fig["day_mix_outside"] = int((day_ex > 0).sum())
    fig["day_mix_two_off"] = int((day_ex > 1).sum())
    fig["total_mix_max_excess"] = int(tot_ex.max())
    fig["total_mix_outside"] = int((tot_ex > 0).sum())
    fig["total_mix_two_off"] = int((tot_ex > 1).sum())
    fig["_mix_total"] = mix_total
    fig["_mix_target"] = total

    # -- winds -----------------------------------------------------------------------
    if winds_known and S in (3, 4) and full:
        w = np.full((P, H), -1, dtype=np.int64)
        for h in range(H):
            for t in range(T):
                for s in range(S):
                    if seating[h, t, s] >= 0:
                        w[seating[h, t, s], h] = s
        f = sequence_faults(w, event.days, S)
        fig["wind_count_bad"] = int(f["count_bad"].sum())
        fig["day_wind_bad"] = int(f["day_bad"].sum())
        fig["consecutive_same_wind"] = int(f["consecutive"].sum())
        fig["prefix_wind_bad"] = int(f["prefix"].sum())
        fig["wind_two_apart"] = int(f["two_apart"].sum())
        fig["_winds"] = w
    else:
        for k in ("wind_count_bad", "day_wind_bad", "consecutive_same_wind", "prefix_wind_bad",
                  "wind_two_apart"):
            fig[k] = None

    # -- tables and areas ------------------------------------------------------------
    table_of = np.full((P, H), -1, dtype=np.int64)
    for h in range(H):
        for t in range(T):
            for p in seating[h, t]:
                if p >= 0:
                    table_of[p, h] = t
    visits = np.zeros((P, T), dtype=np.int64)
    for p in range(P):
        for t in table_of[p][table_of[p] >= 0]:
            visits[p, t] += 1
    fig["table_repeats"] = int(np.maximum(visits - 1, 0).sum())
    fig["table_repeats_bound"] = P * max(0, H - T) if full else 0
    fig["table_max_visits"] = int(visits.max())
    area_at = event.area_at
    A = len(event.areas)
    area = np.where(table_of >= 0, area_at[np.arange(H)[None, :], np.maximum(table_of, 0)], -1)
    count = np.stack([(area == a).sum(axis=1) for a in range(A)], axis=1)
    share, day_share = bounds.area_shares(event)
    fig["area_max_deviation"] = round(float(np.abs(count - share[None, :]).max()), 3)
    fig["area_max_deviation_bound"] = round(bounds.area_deviation_floor(event), 3)
    day_count = np.zeros((P, len(event.days), A), dtype=np.int64)
    for h in range(H):
        for a in range(A):
            day_count[:, day_of[h], a] += area[:, h] == a
    fig["area_day_max_deviation"] = round(float(np.abs(day_count - day_share[None]).max()), 3)
    # (player, day, area) counts outside [floor, ceil] of the day's share
    day_lo, day_hi = bounds.share_range(day_share)
    day_outside = (day_count > day_hi[None]) | (day_count < day_lo[None])
    fig["area_day_outside"] = int(day_outside.sum())
    same_area = (area[:, 1:] == area[:, :-1]) & (area[:, 1:] >= 0)
    fig["consecutive_same_area"] = int(same_area.sum())
    fig["consecutive_same_area_bound"] = bounds.consecutive_area_floor(event)
    fig["_area"] = area
    fig["_table_of"] = table_of

    # -- who is worst off ---------------------------------------------------------------
    never_pairs = never & (common == fig["indirect_min"]) if never.any() else never
    fig["worst"] = {
        "countries_met": _worst(met_countries, names),
        "back_to_back_country": _worst(b2b.sum(axis=1), names, low=False),
        "indirect": [[names[a], names[b], int(common[a, b])]
                     for a, b in zip(*np.nonzero(never_pairs))][:5],
        "table_repeats": _worst(np.maximum(visits - 1, 0).sum(axis=1), names, low=False),
        "area_day_outside": _worst(day_outside.sum(axis=(1, 2)), names, low=False),
    }
    return fig


def _repeat_bound(event: Event, opponents: np.ndarray) -> int:
    """Fewest repeat meetings (sum of max(0, m - 1) over all pairs) by counting: a player
    with more opponent seats than other players must meet some of them again. (Seats
    beyond the non-compatriots alone prove nothing: a first meeting with a compatriot is
    no repeat, and the rules rank repeats above compatriots.)"""
    excess = np.maximum(opponents - (event.players - 1), 0).sum()
    return int(-(-excess // 2))


def public(fig: dict) -> dict:
    """The figures without the arrays kept for drawing (keys starting with '_')."""
    return {k: v for k, v in fig.items() if not k.startswith("_")}
