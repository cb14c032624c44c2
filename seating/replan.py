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

from .event import ConfigError, Event
from .io import keys_of
from .swaps import improve_meetings
from .tables import number_tables

KEYS = {"after_hanchan", "withdraw", "replace_tables"}


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
    for item in change.get("withdraw") or []:
        place = item.get("place") if isinstance(item, dict) else None
        if place not in names:
            raise ConfigError(f"withdraw: {place!r} is not a place of this event (like "
                              f"{event.place_names[0]!r})")
        if place in seen:
            raise ConfigError(f"withdraw: {place!r} is listed twice")
        seen.add(place)
        sub = item.get("substitute", (codes + extra)[country[names[place]]])
        if sub is None or str(sub).lower() == "none":
            extra.append(f"SUB{len(extra) + 1}")  # a country of one
            country[names[place]] = len(event.countries) + len(extra) - 1
        elif str(sub) in codes or str(sub) in extra:
            country[names[place]] = (codes + extra).index(str(sub))
        else:
            if not str(sub).isalnum():
                raise ConfigError(f"withdraw: substitute country {sub!r} must be letters or "
                                  "digits, or none")
            extra.append(str(sub))
            country[names[place]] = len(event.countries) + len(extra) - 1
    areas = event.area_names
    table_area = event.area_at[-1].copy()
    for item in change.get("replace_tables") or []:
        table = item.get("table") if isinstance(item, dict) else None
        if not isinstance(table, int) or not 1 <= table <= event.tables:
            raise ConfigError(f"replace_tables: table must be 1 to {event.tables}, got {table!r}")
        area = item.get("area")
        if area not in areas:
            raise ConfigError(f"replace_tables: area {area!r} is not one of {areas}")
        table_area[table - 1] = areas.index(area)
    return replace(event, changed_from=after, place_country=tuple(int(c) for c in country),
                   table_area=tuple(int(a) for a in table_area), extra_countries=tuple(extra))


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
    log(f"re-planning hanchans {after + 1}-{event.hanchans} (1-{after} played)")
    plan, _ = improve_meetings(new, plan, keys, search["swap_moves"], search["time_limit"], log,
                               movable=movable)
    result, _ = number_tables(new, plan, movable=movable, given=seating, keep=seating, log=log)
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
