"""Changes during the event: re-plan the hanchans not yet played.

A change file (YAML) says after which hanchan the change happens and what changes:

    after_hanchan: 5          # hanchans 1-5 are played: they are never changed
    withdraw:                 # players who leave; a substitute takes their place
      - place: POL 07         # substitute of the same country (the default)
      - place: FRA 03
        substitute: GER       # a player of another country takes the place
      - place: SWE 02
        substitute: none      # a player of no delegation: nobody's compatriot
    replace_tables:           # a table replaced by a spare table in another area
      - table: 12
        area: Side room

The places keep their names and seats: the chart stays readable and a place's winds stay
valid. From the first hanchan after the change the substitute's country counts for that
place; the remaining hanchans are repaired by the same stages, with the played hanchans held
fixed, and every rule is recounted over the whole event. Meetings are counted by
place: a substitute never meets someone the withdrawn player already met (a caution, not a
rule break). Only what the change breaks is repaired, so few places move; the result lists
exactly which places' future seats changed.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .bounds import area_shares, share_range
from .check import recount
from .event import ConfigError, Event
from .io import keys_of
from .swaps import improve_meetings
from .tables import earlier_tables, number_tables, tables_without_repeats

KEYS = {"after_hanchan", "withdraw", "replace_tables"}
SHARE_DEPTH = 3  # longest chain of place swaps tried for a place off an area share
SHARE_TRIES = 40  # most chains of swaps recounted (and their tables renumbered)


def changed_event(event: Event, change: dict) -> Event:
    """The event as it stands after the change (one clear ConfigError if the file is wrong)."""
    if not isinstance(change, dict):
        raise ConfigError("change: the file must be a mapping with after_hanchan, withdraw, ...")
    unknown = sorted(set(change) - KEYS)
    if unknown:
        raise ConfigError(f"change: unknown key {unknown[0]!r}; known keys: "
                          + ", ".join(sorted(KEYS)))
    after = change.get("after_hanchan")
    if not isinstance(after, int) or isinstance(after, bool) or not 0 <= after < event.hanchans:
        raise ConfigError(f"after_hanchan: must be a whole number from 0 to "
                          f"{event.hanchans - 1}, got {after!r}")
    names = {name: p for p, name in enumerate(event.place_names)}
    codes = [c for c, _ in event.countries]  # as configured; extras follow them
    country = event.country_of.copy()
    extra = list(event.extra_countries)
    seen = set()
    for item in _items(change, "withdraw", "place", {"place", "substitute"}):
        place = item.get("place")
        if not isinstance(place, str) or place not in names:
            raise ConfigError(f"withdraw: {place!r} is not a place of this event (like "
                              f"{event.place_names[0]!r})")
        if place in seen:
            raise ConfigError(f"withdraw: {place!r} is listed twice")
        seen.add(place)
        sub = item.get("substitute", (codes + extra)[country[names[place]]])
        if sub is None or (isinstance(sub, str) and sub.lower() == "none"):
            extra.append(f"SUB{len(extra) + 1}")  # a country of one
            country[names[place]] = len(event.countries) + len(extra) - 1
            continue
        if not isinstance(sub, str) or not sub.isascii() or not sub.isalnum():
            raise ConfigError(f"withdraw: substitute of {place!r}: {sub!r} is not a country "
                              "code (letters and digits) or none; quote a code YAML reads "
                              "as something else ('NO', '010')")
        if sub in codes or sub in extra:
            country[names[place]] = (codes + extra).index(sub)
            continue
        alike = [c for c in codes + extra if c.lower() == sub.lower()]
        if alike:
            raise ConfigError(f"withdraw: substitute of {place!r}: {sub!r} is not a country of "
                              f"this event; {alike[0]!r} is (codes are case-sensitive)")
        extra.append(sub)  # a delegation new to the event
        country[names[place]] = len(event.countries) + len(extra) - 1
    areas = event.area_names
    table_area = event.area_at[-1].copy()
    replaced = set()
    for item in _items(change, "replace_tables", "table", {"table", "area"}):
        table = item.get("table")
        if (not isinstance(table, int) or isinstance(table, bool)
                or not 1 <= table <= event.tables):
            raise ConfigError(f"replace_tables: table must be 1 to {event.tables}, got {table!r}")
        if table in replaced:
            raise ConfigError(f"replace_tables: table {table} is listed twice")
        replaced.add(table)
        area = item.get("area")
        if area not in areas:
            raise ConfigError(f"replace_tables: area {area!r} is not one of {areas}")
        table_area[table - 1] = areas.index(area)
    return replace(event, changed_from=after, place_country=tuple(int(c) for c in country),
                   table_area=tuple(int(a) for a in table_area), extra_countries=tuple(extra))


def _items(change: dict, key: str, first: str, keys: set) -> list[dict]:
    """The list under key, each item a mapping of known keys (one ConfigError if not)."""
    items = change.get(key) or []
    if not isinstance(items, list):
        raise ConfigError(f"{key}: must be a list of items like '- {first}: ...', "
                          f"got {items!r}")
    for item in items:
        if not isinstance(item, dict):
            raise ConfigError(f"{key}: each item must be a mapping like '- {first}: ...', "
                              f"got {item!r}")
        unknown = sorted(set(item) - keys, key=str)
        if unknown:
            raise ConfigError(f"{key}: unknown key {unknown[0]!r} in {item!r}; known keys: "
                              + ", ".join(sorted(keys)))
    return items


def replan(event: Event, seating: np.ndarray, change: dict, log=print
           ) -> tuple[Event, np.ndarray, list[dict]]:
    """Re-plan the hanchans after the change, moving as few places as the rules allow.

    Returns the changed event, the new seating (played hanchans untouched) and, for every
    place whose seat changed in a hanchan to come, the old and new seat. Only what the
    change breaks is repaired: the swap stage removes the repeat and compatriot meetings it
    creates (a substitute of another country), seats keep their winds (every place keeps
    its wind pattern), and every group that is unchanged keeps its table unless the tables
    and areas rules need it elsewhere (a replaced table).
    """
    new = changed_event(event, change)
    after = new.changed_from
    movable = np.arange(event.hanchans) >= after
    search = event.search
    plan = seating.copy()  # tables as groups: seats are winds, so the keys stay valid
    keys = keys_of(plan)
    played = f"1-{after} played" if after else "none played"
    log(f"re-planning hanchans {after + 1}-{event.hanchans} ({played})")
    plan, _ = improve_meetings(new, plan, keys, search["swap_moves"], search["time_limit"], log,
                               movable=movable)
    result, _ = number_tables(new, plan, movable=movable, given=seating, keep=seating, log=log)
    result = _meet_area_shares(new, result, movable, seating, log)
    assert (result[~movable] == seating[~movable]).all(), "a played hanchan changed"
    changes = []
    names = new.place_names
    winds = new.wind_names
    for p in range(event.players):
        moved = []
        for h in np.nonzero(movable)[0]:
            old = np.argwhere(seating[h] == p)[0]
            now = np.argwhere(result[h] == p)[0]
            if (old != now).any():
                moved.append({"hanchan": int(h + 1),
                              "before": f"table {old[0] + 1} {winds[old[1]]}",
                              "after": f"table {now[0] + 1} {winds[now[1]]}"})
        if moved:
            changes.append({"place": names[p], "hanchans": moved})
    return new, result, changes


def _meet_area_shares(event: Event, seating: np.ndarray, movable: np.ndarray,
                      earlier: np.ndarray, log=print) -> np.ndarray:
    """The seating, or a better one where places off their event share of an area are
    brought within it by chains of place swaps in the hanchans to come.

    A change can leave a choice of areas that the groups cannot meet, since a group moves
    four players at once (tests/test_replan.py: with a table replaced, the hall's seats fit
    12 players there 9 times and 108 exactly 8 times, and the area search stops with one
    player 7 times). Two places of one wind in one hanchan exchanging seats move one player
    each: the place off its share goes to a table of the area it lacks (or leaves the one
    it has too much of), and the place it displaces either stays within its own shares or
    is the next link of the chain (chains of 1 to SHARE_DEPTH swaps, shortest first; swaps
    with a compatriot, which change nobody else's opponents, first). A chain is kept when
    the recount has no more repeat, compatriot or unlinked meetings and no fewer countries
    met or common opponents at the worst, and, where a place then sees a table twice, the
    hanchans to come numbered again with every group in its area (the tables stage's
    exact renumbering, tables.tables_without_repeats), no more tables seen twice, no
    larger gap to a share and fewer counts off one, groups left as they were held at their
    tables of `earlier` (the seating before the change) where they can be. Chain after
    chain while they help, at most SHARE_TRIES recounted in all."""
    share, _ = area_shares(event)
    lo, hi = share_range(share)
    before = recount(event, seating)
    if before["area_max_deviation"] < 1:
        return seating
    H, T, S = seating.shape
    P = event.players
    area_at = event.area_at
    country = event.country_at
    hanchans = [h for h in range(H) if movable[h]]

    def gap(c):
        return int(np.maximum(lo - c, 0).sum() + np.maximum(c - hi, 0).sum())

    def counts(fig):
        return np.stack([(fig["_area"] == a).sum(axis=1) for a in range(len(share))], axis=1)

    def total_gap(fig):
        return sum(gap(c) for c in counts(fig))

    def countries_met(plan, p):
        """Countries p meets (as check.recount counts them: the opponents' countries of
        each hanchan, p's own left out)."""
        h, t, _ = np.nonzero(plan == p)
        opponents = plan[h, t]  # (hanchans, seats), p among them
        met = country[np.repeat(h, S), opponents.ravel()]
        return len(set(met[met != np.repeat(country[h, p], S)].tolist()))

    def chains(plan, count, meet, d, depth):
        """Chains of swaps from place d (off a share), compatriot swaps first: lists of
        (hanchan, table of d, table of the other place, seat). A swap that leaves one of
        the eight places it touches below the fewest countries met is not tried."""
        found = []
        for h in hanchans:
            td, seat = map(int, np.argwhere(plan[h] == d)[0])
            x = area_at[h, td]
            for t in range(T):
                y = area_at[h, t]
                if y == x:
                    continue
                q = int(plan[h, t, seat])
                c = count[d].copy()
                c[x] -= 1
                c[y] += 1
                if gap(c) >= gap(count[d]):
                    continue
                mates_d = [int(m) for m in plan[h, td] if m != d]
                mates_q = [int(m) for m in plan[h, t] if m != q]
                if meet[d, mates_q].any() or meet[q, mates_d].any():
                    continue  # two places would meet again
                if (country[h, mates_q] == country[h, d]).any() or (
                        country[h, mates_d] == country[h, q]).any():
                    continue
                plan2 = plan.copy()
                plan2[h, td, seat], plan2[h, t, seat] = q, d
                if any(countries_met(plan2, m) < fewest for m in [d, q] + mates_d + mates_q):
                    continue
                found.append((country[h, q] != country[h, d], h, td, t, seat, q, x, y,
                              mates_d, mates_q, plan2))
        out = []
        for _, h, td, t, seat, q, x, y, mates_d, mates_q, plan2 in sorted(
                found, key=lambda f: f[0]):
            swap = [(h, td, t, seat)]
            cq = count[q].copy()
            cq[y] -= 1
            cq[x] += 1
            if gap(cq) == 0:
                out.append(swap)
            elif depth > 1:  # q is now off by the one hanchan it was moved
                count2 = count.copy()
                count2[d, x] -= 1
                count2[d, y] += 1
                count2[q] = cq
                meet2 = meet.copy()
                for a, b in ((d, q), (q, d)):  # a leaves the mates of a for those of b
                    for m in (mates_d if a == d else mates_q):
                        meet2[a, m] -= 1
                        meet2[m, a] -= 1
                        meet2[b, m] += 1
                        meet2[m, b] += 1
                out += [swap + rest for rest in chains(plan2, count2, meet2, q, depth - 1)]
            if len(out) >= SHARE_TRIES:
                break
        return out[:SHARE_TRIES]

    best, best_fig = seating, before
    tries = SHARE_TRIES
    identity = np.tile(np.arange(T), (H, 1))  # group g of a hanchan sits at table g
    for _ in range(P):  # one place brought within its shares per round
        fewest = best_fig["countries_met_min"]
        count = counts(best_fig)
        off = [p for p in range(P) if gap(count[p])]
        meet = np.zeros((P, P), dtype=np.int64)
        for h in range(H):
            for table in best[h]:
                meet[np.ix_(table, table)] += 1
        np.fill_diagonal(meet, 0)
        kept = None
        for p, depth in ((p, depth) for depth in range(1, SHARE_DEPTH + 1) for p in off):
            for chain in chains(best, count, meet, p, depth):
                if len(chain) < depth:
                    continue  # tried at a smaller depth
                plan = best.copy()
                for h, td, t, seat in chain:
                    plan[h, td, seat], plan[h, t, seat] = plan[h, t, seat], plan[h, td, seat]
                fig = recount(event, plan)
                if any(fig[k] > best_fig[k] for k in
                       ("repeat_meetings", "compatriot_meetings", "unlinked_pairs")) or any(
                        (fig[k] or 0) < (best_fig[k] or 0)
                        for k in ("countries_met_min", "indirect_min")):
                    continue
                if fig["table_repeats"] > best_fig["table_repeats"]:
                    # the hanchans to come numbered again, every group in its area (the
                    # tables stage's exact renumbering), so the chain's counts stay
                    assign, _ = tables_without_repeats(plan, identity, movable, area_at,
                                                       prefer=earlier_tables(plan, earlier),
                                                       widen=False)
                    if assign is not None:
                        plan = np.stack([plan[h][np.argsort(assign[h])] for h in range(H)])
                        fig = recount(event, plan)
                if (fig["table_repeats"] <= best_fig["table_repeats"]
                        and fig["area_max_deviation"] <= best_fig["area_max_deviation"]
                        and total_gap(fig) < total_gap(best_fig)):
                    kept = plan, fig, len(chain)
                tries -= 1
                if kept or not tries:
                    break
            if kept or not tries:
                break
        if kept is None:
            break
        best, best_fig, swaps = kept
        log(f"area shares: {swaps} place swap(s), largest gap to a share now "
            f"{best_fig['area_max_deviation']}")
        if best_fig["area_max_deviation"] < 1:
            break
    return best

