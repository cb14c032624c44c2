"""Publishing the plan: the seating chart, the sheets posted at the tables, the players'
schedule cards and the files other event software reads.

Everything here is a pure function of the event and ``seating[hanchan, table, wind]`` (a place
index at every seat), plus, after the draw, who sits at each place. A place is shown as a
"seat holder" dict: ``{"place": "POL 07", "country": "POL", "name": None or str, "id": int}``;
before the draw ``name`` is None and ``id`` is the place's number in place order, from 1.

Pages are rendered from Jinja2 templates with autoescape on, so every name, country and area
an organizer types is HTML-escaped.
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter

import jinja2
import numpy as np

from .event import Event

WIND_WORDS = {"E": "East", "S": "South", "W": "West", "N": "North"}
TABLES_HEADER = ["hanchan", "table", "east", "south", "west", "north"]


def csv_text(header: list[str], rows) -> str:
    """CSV as text, exactly as seating.io writes it (``\\n`` line ends, minimal quoting)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buf.getvalue()


# ---- who sits at a place -------------------------------------------------------------


def holders(event: Event, names: list[str] | None = None,
            ids: list[int] | None = None) -> list[dict]:
    """The seat holder of every place, places in event order.

    Before the draw (``names`` None) a place stands for itself; after it, ``names`` and
    ``ids`` give the player drawn to each place and their local id. ``ids`` default to the
    place order, from 1.
    """
    codes = event.country_codes
    country = event.country_of
    return [
        {
            "place": place,
            "country": codes[country[p]],
            "name": None if names is None else names[p],
            "id": p + 1 if ids is None else int(ids[p]),
        }
        for p, place in enumerate(event.place_names)
    ]


def draw_text(event: Event, at_place) -> str:
    """draw.csv: ``place,name,country,id`` for every place in event order, ``at_place`` being
    the drawn ``seating.draw.Player`` of every place."""
    return csv_text(["place", "name", "country", "id"],
                    ([place, p.name, p.country, p.id]
                     for place, p in zip(event.place_names, at_place)))


# ---- the chart -----------------------------------------------------------------------


def chart_header(event: Event) -> list[str]:
    return ["hanchan", "day", "table", "area", *(WIND_WORDS[w].lower() for w in event.wind_names)]


def chart_text(event: Event, seating: np.ndarray) -> str:
    """chart.csv: one row per hanchan and table, the place at each wind. Its SHA-256 is the
    chart's hash, published before the draw."""
    names = event.place_names
    areas = event.area_names
    area_of = event.area_of_table
    day_of = event.day_of
    H, T, _ = seating.shape
    rows = (
        [h + 1, day_of[h] + 1, t + 1, areas[area_of[t]], *(names[p] for p in seating[h, t])]
        for h in range(H)
        for t in range(T)
    )
    return csv_text(chart_header(event), rows)


def sha256_line(digest: str, filename: str) -> str:
    """One line in the format of ``sha256sum``, so ``sha256sum -c`` checks it."""
    return f"{digest}  {filename}\n"


def hanchan_tables(event: Event, seating: np.ndarray, who: list[dict]) -> list[dict]:
    """For every hanchan, every table with its area and the seat holder at each wind."""
    winds = event.wind_names
    areas = event.area_names
    area_of = event.area_of_table
    day_of = event.day_of
    H, T, _ = seating.shape
    return [
        {
            "hanchan": h + 1,
            "day": int(day_of[h]) + 1,
            "tables": [
                {
                    "table": t + 1,
                    "area": areas[area_of[t]],
                    "seats": [{"wind": w, **who[p]} for w, p in zip(winds, seating[h, t])],
                }
                for t in range(T)
            ],
        }
        for h in range(H)
    ]


def schedules(event: Event, seating: np.ndarray, who: list[dict]) -> list[dict]:
    """Every place's whole event: per hanchan its day, table, area, wind and opponents, and
    what a player checks by hand (winds, areas, tables, opponents and countries met)."""
    winds = event.wind_names
    areas = event.area_names
    area_of = event.area_of_table
    day_of = event.day_of
    H, T, S = seating.shape
    rows: list[list[dict]] = [[] for _ in range(event.players)]
    for h in range(H):
        for t in range(T):
            seats = seating[h, t]
            for s, p in enumerate(seats):
                rows[p].append({
                    "hanchan": h + 1,
                    "day": int(day_of[h]) + 1,
                    "table": t + 1,
                    "area": areas[area_of[t]],
                    "wind": winds[s],
                    "opponents": [{"wind": winds[o], **who[seats[o]]}
                                  for o in range(S) if o != s],
                })
    out = []
    for p, mine in enumerate(rows):
        wind_count = Counter(r["wind"] for r in mine)
        area_count = Counter(r["area"] for r in mine)
        met = {o["place"] for r in mine for o in r["opponents"]}
        out.append({
            **who[p],
            "rows": mine,
            "winds": [(w, wind_count[w]) for w in winds],
            "areas": [(a, area_count[a]) for a in areas],
            "tables": len({r["table"] for r in mine}),
            "opponents": len(met),
            "countries": len({o["country"] for r in mine for o in r["opponents"]}),
        })
    return out


def by_country(event: Event, places: list[dict]) -> list[dict]:
    """Places grouped by country, in the config's country order."""
    groups = {code: [] for code in event.country_codes}
    for item in places:
        groups[item["country"]].append(item)
    return [{"country": code, "places": items} for code, items in groups.items()]


def table_sheets(event: Event, seating: np.ndarray, who: list[dict]) -> list[dict]:
    """What is posted at each table: for every hanchan, who sits at which wind."""
    winds = event.wind_names
    areas = event.area_names
    area_of = event.area_of_table
    day_of = event.day_of
    H, T, _ = seating.shape
    return [
        {
            "table": t + 1,
            "area": areas[area_of[t]],
            "rows": [
                {"hanchan": h + 1, "day": int(day_of[h]) + 1,
                 "seats": [{"wind": w, **who[p]} for w, p in zip(winds, seating[h, t])]}
                for h in range(H)
            ],
        }
        for t in range(T)
    ]


def cards(event: Event, seating: np.ndarray, who: list[dict]) -> list[dict]:
    """One schedule card per player, by country (config order), then name, then place."""
    order = {code: i for i, code in enumerate(event.country_codes)}
    items = schedules(event, seating, who)
    return sorted(items, key=lambda c: (order[c["country"]], (c["name"] or "").casefold(),
                                        c["name"] or "", c["place"]))


# ---- pages ---------------------------------------------------------------------------


def render(template: str, **context) -> str:
    """Render a page template with autoescape: every string from the organizer is escaped."""
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    return env.from_string(template).render(wind_words=WIND_WORDS, **context)


def event_facts(event: Event) -> dict:
    """The header facts of every page."""
    return {
        "name": event.name,
        "players": event.players,
        "countries": len(event.countries),
        "hanchans": event.hanchans,
        "days": list(event.days),
        "tables": event.tables,
        "table_size": event.table_size,
        "areas": list(event.areas),
        "winds": [WIND_WORDS[w] for w in event.wind_names],
    }


# ---- exports -------------------------------------------------------------------------


def pantheon_text(seating: np.ndarray, who: list[dict]) -> str:
    """MahjongPantheon's prescripted seating: one session per hanchan, sessions separated by
    an empty line, one table per line as the players' local ids in wind order, joined by '-'
    (East-South-West-North; three numbers at 3-player tables)."""
    sessions = ("\n".join("-".join(str(who[p]["id"]) for p in table) for table in hanchan)
                for hanchan in seating)
    return "\n\n".join(sessions) + "\n"


def grid_text(event: Event, seating: np.ndarray, who: list[dict]) -> str:
    """One row per hanchan; a column per table and wind (``Table 1 East`` ...), local ids.
    3-player tables have no North column."""
    words = [WIND_WORDS[w] for w in event.wind_names]
    header = ["hanchan", *(f"Table {t + 1} {w}" for t in range(event.tables) for w in words)]
    rows = ([h + 1, *(who[p]["id"] for p in seating[h].ravel())] for h in range(event.hanchans))
    return csv_text(header, rows)


def tables_text(seating: np.ndarray, who: list[dict]) -> str:
    """``hanchan,table,east,south,west,north``, local ids; north is empty at 3-player tables."""
    H, T, S = seating.shape
    rows = ([h + 1, t + 1, *(who[p]["id"] for p in seating[h, t]), *([""] * (4 - S))]
            for h in range(H) for t in range(T))
    return csv_text(TABLES_HEADER, rows)


def players_text(who: list[dict]) -> str:
    """``id,place,country,name``: who each local id in the exports is (name empty before the
    draw)."""
    return csv_text(["id", "place", "country", "name"],
                    ([w["id"], w["place"], w["country"], w["name"] or ""] for w in who))


def plan_data(event: Event, seating: np.ndarray, who: list[dict], chart_sha: str,
              numbering: str, draw: dict | None = None) -> dict:
    """The whole plan as one JSON-ready dict: event, players, every seat of every hanchan."""
    return {
        "event": {
            "name": event.name,
            "hanchans": event.hanchans,
            "days": list(event.days),
            "table_size": event.table_size,
            "tables": event.tables,
            "countries": dict(event.countries),
            "areas": dict(event.areas),
        },
        "chart_sha256": chart_sha,
        "draw": draw,
        "numbering": numbering,
        "players": [{"id": w["id"], "place": w["place"], "country": w["country"],
                     "name": w["name"]} for w in who],
        "hanchans": [
            {"hanchan": item["hanchan"], "day": item["day"],
             "tables": [{"table": tab["table"], "area": tab["area"],
                         "seats": [{"wind": s["wind"], "id": s["id"], "place": s["place"]}
                                   for s in tab["seats"]]}
                        for tab in item["tables"]]}
            for item in hanchan_tables(event, seating, who)
        ],
    }


def plan_text(data: dict) -> str:
    """The plan as JSON text (sorted keys, UTF-8 names kept as they are)."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
