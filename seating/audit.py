"""Audit any schedule: read it, build its Event, recount it with the championship's check.

A schedule comes as text (audit/README.md shows every format):

* seating CSV: `hanchan,table,wind,place[,country,...]` as the pipeline writes it; wind is
  E/S/W/N, a seat number or empty; a missing or empty country makes the player their own
  country; other columns (area, day) are ignored.
* rows of tables, one round per line: `01,05,09,13, 02,06,10,14` (seats by commas, tables
  by spaces; or tables by `|` or `;`, seats by commas or spaces) or letter blocks
  `ABCD EFGH` (one letter a player; players numbered in letter order, capitals first).
  `xx`, `x`, `-`, `.` or `?` is an unknown seat (in letter blocks `-`, `.` or `?`).
* bracketed lists: one list of games `[[0, 1, 3], [0, 2, 4]]` (a game list: packed into
  rounds, see below), or one list of tables per line (`[ [1, 2, 3, 4], [5, 6, 7, 8] ]`,
  one round per line).

Numbers are 1-based unless a 0 appears (or `# numbering: 0`). A game list is not a list of
rounds: each game goes to the earliest round in which none of its players sits yet (first
fit, designs.pack_games), or to its own hanchan with `# pack: no`. Lines starting with `#`
are comments; `# key: value` with a known key is a setting or a claim to check:
players, numbering, table size, winds (yes/no), pack (yes/no), claim (free text, shown),
and `expect games`, `expect table visits`, `expect pairs`, `expect repeats`,
`expect repeat-free rounds` (checked, shown as holding or not).
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from .check import meetings
from .designs import pack_games, rounds_to_plan
from .event import WIND_NAMES, Event

UNKNOWN_NUMBER = {"x", "xx", "-", ".", "?"}  # an unknown seat in rows of numbers
UNKNOWN_LETTER = {"-", ".", "?"}  # ... in letter blocks
SETTINGS = ("players", "numbering", "table size", "winds", "pack", "claim")
# players numbered up to twice the seats of a round, plus 8 (hanchans, tables and seats of a
# CSV likewise: up to twice those it lists, plus 8); beyond it a number is a typo
GAP_FACTOR, GAP_SLACK = 2, 8
EXPECTS = ("games", "table visits", "pairs", "repeats", "repeat-free rounds")


@dataclass
class Schedule:
    """A schedule as read: plan[hanchan, table, seat] of player indices (-1 empty seat)."""

    name: str
    plan: np.ndarray
    labels: list[str]  # how the file names each player
    countries: list[str | None]  # None: the player is their own country
    winds_known: bool
    form: str  # what was read, in words
    faults: list[str] = field(default_factory=list)
    claims: list[str] = field(default_factory=list)
    expects: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class AuditEvent(Event):
    """An Event whose places carry the schedule's own names instead of "CODE nn"."""

    labels: tuple[str, ...] = ()

    @property
    def place_names(self) -> list[str]:
        return list(self.labels) if self.labels else super().place_names


class ScheduleError(ValueError):
    """A schedule that cannot be read; the message is one line naming the place."""


# ---------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------


def _settings(text: str) -> tuple[dict, list[str], list[tuple[str, str]], list[str]]:
    """Split `# key: value` settings, claims and expectations from the other lines."""
    settings: dict[str, str] = {}
    claims: list[str] = []
    expects: list[tuple[str, str]] = []
    body: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("#"):
            body.append(line)
            continue
        body.append("")  # kept as a blank line, so that a CSV row's line number stays its own
        m = re.match(r"#\s*([A-Za-z -]+?)\s*:\s*(.*)$", stripped)
        if not m:
            continue
        key, value = m.group(1).lower(), m.group(2).strip()
        if key.startswith("expect "):
            what = key[len("expect "):].strip()
            if what not in EXPECTS:
                raise ScheduleError(f"unknown expectation '{what}'; known: {', '.join(EXPECTS)}")
            expects.append((what, value))
        elif key == "claim":
            claims.append(value)
        elif key in SETTINGS:
            settings[key] = value
    return settings, body, expects, claims


def _digits(text: str) -> bool:
    """Whether text is a whole number in ASCII digits (str.isdigit also takes '²', which
    int() refuses)."""
    return re.fullmatch(r"[0-9]+", text) is not None


def _whole(value: str, what: str) -> int:
    """A whole number the file gives (a setting, an expectation), or one clear error."""
    text = value.strip()
    if not _digits(text):
        raise ScheduleError(f"{what}: {text!r} is not a whole number")
    return int(text)


def _far_above(number: int, listed: int) -> bool:
    """Whether a number the file gives is a typo: beyond GAP_FACTOR times what it lists,
    plus GAP_SLACK (a runaway recount otherwise)."""
    return number > GAP_FACTOR * listed + GAP_SLACK


def _yes(value: str | None, default: bool) -> bool:
    if value is None:
        return default
    return value.strip().lower() in ("yes", "y", "true", "1", "on")


def parse(text: str, suffix: str, name: str) -> Schedule:
    """Read a schedule from the text of audit/<name>.csv or audit/<name>.txt."""
    text = text.removeprefix("\ufeff")  # the byte order mark spreadsheets and editors write
    if suffix.lstrip(".").lower() == "csv":
        return parse_csv(text, name)
    return parse_text(text, name)


def parse_csv(text: str, name: str) -> Schedule:
    """Our seating format: hanchan,table,wind,place[,country...], one row per seat."""
    settings, body, expects, claims = _settings(text)
    reader = csv.reader(io.StringIO("\n".join(body)))
    lines = [(reader.line_num, row) for row in reader if any(cell.strip() for cell in row)]
    if len(lines) < 2:
        raise ScheduleError("the CSV has no rows")
    header = [cell.strip() for cell in lines[0][1]]
    rows = [(n, dict(zip(header, row + [""] * (len(header) - len(row)))))
            for n, row in lines[1:]]
    missing = {"hanchan", "table", "place"} - set(header)
    if missing:
        raise ScheduleError(f"the CSV lacks the column(s) {', '.join(sorted(missing))}; "
                            "it needs hanchan,table,place (wind and country optional)")
    index: dict[str, int] = {}
    countries: list[str | None] = []
    faults = []
    seats: dict[tuple[int, int], list[tuple[int | None, int]]] = {}
    winds_known = True
    for n, row in rows:
        h, t = ((row[key] or "").strip() for key in ("hanchan", "table"))
        if not all(_digits(x.removeprefix("-")) for x in (h, t)):  # int() also reads '1_0'
            raise ScheduleError(f"line {n}: hanchan and table must be whole numbers")
        h, t = int(h), int(t)
        if h < 1 or t < 1:
            raise ScheduleError(f"line {n}: hanchan and table count from 1")
        place = (row["place"] or "").strip()
        if not place:
            raise ScheduleError(f"line {n}: empty place")
        wind = (row.get("wind") or "").strip().upper()
        if wind in WIND_NAMES and wind:
            seat = WIND_NAMES.index(wind)
        elif _digits(wind) and int(wind) >= 1:
            seat, winds_known = int(wind) - 1, False
        elif not wind:
            seat, winds_known = None, False
        else:
            raise ScheduleError(f"line {n}: wind {wind!r} is not E, S, W, N or a seat number")
        country = (row.get("country") or "").strip() or None
        if place not in index:
            index[place] = len(index)
            countries.append(country)
        elif countries[index[place]] != country:
            faults.append(f"{place} is listed with countries {countries[index[place]]} and "
                          f"{country}; the first is used")
        seats.setdefault((h, t), []).append((seat, index[place]))
    hanchans = max(h for h, _ in seats)
    tables = max(t for _, t in seats)
    listed = len({h for h, _ in seats})
    if _far_above(hanchans, listed):  # a typo (200000 for 2): a runaway recount
        raise ScheduleError(f"hanchan {hanchans} is far above the {listed} hanchans the file "
                            "lists (hanchans are numbered from 1 without gaps)")
    widest = max(Counter(h for h, _ in seats).values())
    if _far_above(tables, widest):
        raise ScheduleError(f"table {tables} is far above the {widest} tables of the file's "
                            "largest hanchan (tables are numbered from 1 without gaps)")
    crowd = max(len(v) for v in seats.values())  # the most places listed at one table
    size = max(crowd, max((s + 1 for v in seats.values() for s, _ in v if s is not None),
                          default=0))
    if _far_above(size, crowd):  # a seat number 1000000000: 149 GB of seats
        raise ScheduleError(f"seat {size} is far above the {crowd} places of the fullest "
                            "table (seats are numbered from 1)")
    plan = np.full((hanchans, tables, size), -1, dtype=np.int64)
    for (h, t), taken in seats.items():
        for seat, p in taken:
            if seat is not None:
                if plan[h - 1, t - 1, seat] >= 0:
                    faults.append(f"hanchan {h}, table {t}: seat {seat + 1} given twice")
                    continue
                plan[h - 1, t - 1, seat] = p
        for seat, p in taken:
            if seat is None:
                free = np.nonzero(plan[h - 1, t - 1] < 0)[0]
                plan[h - 1, t - 1, free[0]] = p
    labels = list(index)
    order = sorted(range(len(labels)), key=lambda p: _natural(labels[p]))
    new_index = np.empty(len(labels), dtype=np.int64)
    new_index[order] = np.arange(len(labels))
    plan = np.where(plan >= 0, new_index[np.maximum(plan, 0)], -1)
    labels = [labels[p] for p in order]
    countries = [countries[p] for p in order]
    winds_known = _yes(settings.get("winds"), winds_known)
    schedule = Schedule(name, plan, labels, countries, winds_known,
                        "seating CSV (hanchan, table, wind, place, country)", faults, claims,
                        expects)
    _check_rounds(schedule)
    return schedule


def _natural(label: str) -> list:
    """Sort key: 'POL 7' before 'POL 10'."""
    return [(0, int(x), "") if x.isdigit() else (1, 0, x) for x in re.split(r"(\d+)", label)]


def _tokens(body: str) -> list[str]:
    return re.findall(r"\[|\]|[^\s\[\],]+", body)


def _nested(tokens: list[str]) -> list:
    """Parse bracketed lists into nested Python lists of token strings."""
    stack: list[list] = [[]]
    for tok in tokens:
        if tok == "[":
            stack.append([])
        elif tok == "]":
            if len(stack) == 1:
                raise ScheduleError("a ']' closes nothing")
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(tok)
    if len(stack) != 1:
        raise ScheduleError("a '[' is never closed")
    return stack[0]


def _depth(x) -> int:
    return 1 + max((_depth(y) for y in x), default=0) if isinstance(x, list) else 0


def parse_text(text: str, name: str) -> Schedule:
    """Rows of tables, letter blocks or bracketed lists (see the module docstring)."""
    settings, body, expects, claims = _settings(text)
    lines = [line.strip() for line in body if line.strip()]
    if not lines:
        raise ScheduleError("the file holds no schedule")
    packed = None
    letters = False
    if lines[0].startswith("["):
        top = _nested(_tokens("\n".join(lines)))
        if any(not isinstance(x, list) for x in top):
            raise ScheduleError("text outside the brackets")
        if len(top) == 1 and _depth(top[0]) == 3:  # one list of rounds, each a list of tables
            top = top[0]
        if all(_depth(x) == 2 for x in top) and len(top) > 1:
            rounds = top
            form = "bracketed lists, one round per line"
        else:
            games = [g for x in top for g in (x if _depth(x) == 2 else [x])]
            if any(_depth(g) != 1 for g in games):
                raise ScheduleError("a game must be a flat list of players")
            packed = _yes(settings.get("pack"), True)
            rounds = [games]
            form = "game list"
    else:
        size = settings.get("table size")
        rounds = []
        letters = not any(ch.isdigit() for line in lines for ch in line)
        for line in lines:
            if letters:
                chunks = re.split(r"[\s|;,]+", line)
                seats = [list(c) for c in chunks if c]
            elif re.search(r"[|;]", line):  # tables between | or ;, seats by commas or spaces
                seats = [re.findall(r"[^\s,]+", c) for c in re.split(r"[|;]", line)]
                seats = [t for t in seats if t]
            else:  # the spec's rows: seats by commas, tables by spaces
                seats = [[s for s in c.split(",") if s] for c in line.split()]
                seats = [t for t in seats if t]
            if size:
                flat = [s for table in seats for s in table]
                k = _whole(size, "table size")
                if k < 1:
                    raise ScheduleError("table size: must be 1 or more")
                seats = [flat[i:i + k] for i in range(0, len(flat), k)]
            rounds.append(seats)
        form = ("letter blocks, one round per line" if letters
                else "rows of tables, one round per line")
    names, labels, numbering, faults = _players(rounds, settings, letters)
    rounds = [[[names.get(s, -1) for s in table] for table in r] for r in rounds]
    if packed is not None:
        games = rounds[0]
        plan = pack_games(games) if packed else rounds_to_plan([[g] for g in games])
        how = (f"packed into {plan.shape[0]} rounds (first fit)" if packed
               else "one game per hanchan")
        form = f"game list of {len(games)} games, {how}"
    else:
        plan = rounds_to_plan(rounds)
    form += f", {numbering}"
    winds_known = _yes(settings.get("winds"), packed is None)
    schedule = Schedule(name, plan, labels, [None] * len(labels), winds_known, form, faults,
                        claims, expects)
    _check_rounds(schedule)
    return schedule


def _players(rounds, settings, letters: bool):
    """Map the file's player tokens to indices 0..P-1; labels as the file writes them."""
    unknown = UNKNOWN_LETTER if letters else UNKNOWN_NUMBER
    tokens = {s for r in rounds for table in r for s in table if s.lower() not in unknown}
    faults = []
    if letters:
        bad = sorted(t for t in tokens if len(t) != 1 or not t.isalpha())
        if bad:
            raise ScheduleError(f"not a player letter: {', '.join(bad)}")
        order = sorted(tokens)  # capitals first, as in the spec's 28- and 32-player blocks
        return {t: i for i, t in enumerate(order)}, order, "players are letters", faults
    bad = sorted(t for t in tokens if not _digits(t))
    if bad:
        raise ScheduleError(f"not a player number: {', '.join(bad[:5])}")
    numbers = {t: int(t) for t in tokens}
    base = settings.get("numbering")
    base = _whole(base, "numbering") if base else (0 if 0 in numbers.values() else 1)
    if base not in (0, 1):
        raise ScheduleError("numbering must be 0 or 1")
    top = max(numbers.values(), default=base)
    declared = _whole(settings["players"], "players") if settings.get("players") else None
    players = top - base + 1 if declared is None else max(declared, top - base + 1)
    seats = max((sum(len(table) for table in r) for r in rounds), default=0)
    if _far_above(players, seats):
        # a typo (2728 for 28) would make thousands of players who never play, and the
        # recount's player-by-player matrices would take gigabytes
        what = (f"players: {declared}" if declared is not None and declared >= top - base + 1
                else f"player number {top}")
        raise ScheduleError(f"{what} is far above the {seats} seats of a round (players are "
                            f"numbered from {base} without gaps)")
    if declared is not None and top - base + 1 > declared:
        outside = sorted({n for n in numbers.values() if n - base >= declared})
        faults.append(f"{declared} players ({base}..{declared - 1 + base}), but the file names "
                      f"{', '.join(map(str, outside))}; counted as extra players")
    if any(n < base for n in numbers.values()):
        raise ScheduleError(f"player numbers start at {base}")
    width = len(str(players - 1 + base)) if base == 1 else 1
    labels = [f"{i + base:0{width}d}" for i in range(players)]
    names = {t: n - base for t, n in numbers.items()}
    return names, labels, f"players numbered from {base}", faults




def _check_rounds(schedule: Schedule) -> None:
    """Faults the recount would only hide: a player twice in a hanchan or at one table."""
    plan, labels = schedule.plan, schedule.labels
    for h in range(plan.shape[0]):
        seated = plan[h][plan[h] >= 0]
        values, counts = np.unique(seated, return_counts=True)
        twice = values[counts > 1]
        if len(twice):
            tables = [t + 1 for t in range(plan.shape[1])
                      if len(set(plan[h, t][plan[h, t] >= 0].tolist())) < (plan[h, t] >= 0).sum()]
            where = f" (twice at table {', '.join(map(str, tables))})" if tables else ""
            schedule.faults.append(
                f"hanchan {h + 1}: {', '.join(labels[p] for p in twice)} seated twice{where}")
    unknown = int((plan < 0).sum()) if not schedule.form.startswith("game list") else 0
    if unknown:
        rows = sorted({h + 1 for h in np.nonzero((plan < 0).any(axis=(1, 2)))[0]})
        schedule.faults.append(f"{unknown} empty or unknown seats (hanchan "
                               f"{', '.join(map(str, rows))})")


# ---------------------------------------------------------------------------------------
# The event and the recount
# ---------------------------------------------------------------------------------------


def event_of(schedule: Schedule) -> tuple[AuditEvent, np.ndarray]:
    """The Event of a schedule and its plan in the Event's place order.

    One day, one area of as many tables as the largest hanchan, table size = the largest
    table; countries from the file (a player without one is their own country, its code
    the player's name); places ordered country by country, countries in order of first
    appearance, so compatriots are neighbours as the Event requires.
    """
    P = len(schedule.labels)
    codes = [c if c is not None else schedule.labels[p] for p, c in enumerate(schedule.countries)]
    taken = {c for c in schedule.countries if c is not None}
    codes = [c if (schedule.countries[p] is not None or c not in taken) else f"={c}"
             for p, c in enumerate(codes)]
    order_codes = list(dict.fromkeys(codes))
    order = sorted(range(P), key=lambda p: order_codes.index(codes[p]))
    new_index = np.empty(P, dtype=np.int64)
    new_index[order] = np.arange(P)
    plan = np.where(schedule.plan >= 0, new_index[np.maximum(schedule.plan, 0)], -1)
    H, T, S = plan.shape
    counts = {c: codes.count(c) for c in order_codes}
    event = AuditEvent(
        name=schedule.name, hanchans=H, days=(H,), table_size=S, seed=0,
        countries=tuple((c, counts[c]) for c in order_codes), areas=(("Hall", T),),
        labels=tuple(schedule.labels[p] for p in order),
    )
    return event, plan


def first_repeat(plan: np.ndarray, players: int) -> int | None:
    """Number of leading hanchans without a repeat meeting (None if there is none at all)."""
    meet = np.zeros((players, players), dtype=np.int64)
    for h in range(plan.shape[0]):
        meet += meetings(plan[h:h + 1], players)
        if (meet > 1).any():
            return h
    return None


def _grouped(values: np.ndarray, names: list[str], one: str, many: str) -> str:
    """'6 games: 0 1 2 5; 5 games: 3 4 6' (largest value first)."""
    groups: dict[int, list[str]] = {}
    for p, v in enumerate(values.tolist()):
        groups.setdefault(v, []).append(names[p])
    parts = []
    for v in sorted(groups, reverse=True):
        who = groups[v]
        shown = " ".join(who) if len(who) <= 24 else f"{len(who)} players"
        parts.append(f"{v} {one if v == 1 else many}: {shown}")
    return "; ".join(parts)


def _per_player(value: str, names: list[str]) -> dict[str, int] | None:
    """'6; 3 4 6: 5' -> the expected number for each player (None: cannot be read)."""
    expected: dict[str, int] = {}
    default = None
    for part in value.split(";"):
        part = part.strip()
        if not part:
            continue
        if ":" in part:
            who, n = part.rsplit(":", 1)
            if who.strip().lower() in ("others", "rest", "all", "everyone"):
                default = _whole(n, "expectation")
                continue
            who = who.strip()
            for w in (who.split(",") if "," in who else who.split()):
                expected[_match(w.strip(), names)] = _whole(n, "expectation")
        else:
            default = _whole(part, "expectation")
    if default is not None:
        for n in names:
            expected.setdefault(n, default)
    return expected


def _match(token: str, names: list[str]) -> str:
    if token in names:
        return token
    if _digits(token):
        for n in names:
            if _digits(n) and int(n) == int(token):
                return n
    raise ScheduleError(f"expectation names {token!r}, who is not in the schedule")


def _check(what: str, value: str, facts: dict, names: list[str]) -> tuple[bool, str]:
    """Whether an expectation holds, and the recount it is compared with."""
    if what in ("games", "table visits"):
        actual = facts["games"] if what == "games" else facts["table_visits"]
        expected = _per_player(value, names)
        wrong = [n for n in names if n in expected and expected[n] != actual[names.index(n)]]
        units = ("game", "games") if what == "games" else ("time", "times")
        return not wrong, _grouped(actual, names, *units)
    if what == "pairs":
        m = re.match(r"(at most|at least|exactly)?\s*(\d+)$", value.strip().lower())
        if not m:
            raise ScheduleError(f"expect pairs: {value!r}; write N, at most N or at least N")
        how, n = m.group(1) or "exactly", int(m.group(2))
        per = facts["pair_meetings"]
        ok = {"exactly": per == n, "at most": per <= n, "at least": per >= n}[how].all()
        return bool(ok), facts["pairs_text"]
    if what == "repeats":
        want = _whole(value, "expect repeats")
        return facts["repeats"] == want, f"{facts['repeats']} repeat meetings"
    if what == "repeat-free rounds":
        free = facts["repeat_free"]
        return free == _whole(value, "expect repeat-free rounds"), f"{free} repeat-free hanchans"
    raise ScheduleError(f"unknown expectation {what!r}")


def facts_of(schedule: Schedule, event: Event, plan: np.ndarray, figures: dict) -> dict:
    """What the audit adds to the check: games per player, meetings per pair, first repeat,
    table visits, the file's faults, its claims and whether its expectations hold."""
    P = event.players
    names = event.place_names
    meet = meetings(plan, P)
    upper = np.triu_indices(P, 1)
    per_pair = meet[upper]
    values, counts = np.unique(per_pair, return_counts=True)
    words = {0: "never", 1: "once", 2: "twice"}
    pairs_text = ", ".join(f"{words.get(int(v), f'{int(v)} times')} {int(c)}"
                           for v, c in zip(values, counts))
    table_of = figures["_table_of"]
    visits = np.zeros(P, dtype=np.int64)
    for p in range(P):
        seen = table_of[p][table_of[p] >= 0]
        visits[p] = np.bincount(seen).max() if len(seen) else 0
    free = first_repeat(plan, P)
    slots = np.zeros(P, dtype=np.int64)  # opponents faced, counted with repeats
    for h in range(plan.shape[0]):
        for table in plan[h]:
            seated = table[table >= 0]
            slots[seated] += len(seated) - 1
    others = P - event.delegation_sizes[event.country_of]
    bound = -(-int(np.maximum(slots - others, 0).sum()) // 2)
    facts = {
        "games": figures["_games"],
        "table_visits": visits,
        "pair_meetings": per_pair,
        "pairs_text": f"{pairs_text} (of {len(per_pair)} pairs)",
        "repeats": figures["repeat_meetings"],
        "repeat_free": plan.shape[0] if free is None else free,
    }
    checked = []
    for what, value in schedule.expects:
        holds, recount = _check(what, value, facts, names)
        checked.append({"expect": f"{what}: {value}", "holds": holds, "recount": recount})
    return {
        "format": schedule.form,
        "players": P,
        "repeats": facts["repeats"],
        "games_per_player": {names[p]: int(g) for p, g in enumerate(facts["games"])},
        "pairs_by_meetings": {str(int(v)): int(c) for v, c in zip(values, counts)},
        "repeat_free_hanchans": facts["repeat_free"],
        "repeat_bound_from_games": bound,
        "most_visits_to_one_table": {names[p]: int(v) for p, v in enumerate(visits)},
        "faults": list(schedule.faults),
        "claims": list(schedule.claims),
        "expectations": checked,
        "_pairs_text": facts["pairs_text"],
    }


def report_notes(facts: dict, hanchans: int) -> dict[str, str]:
    """The audit's rows for the report's facts table (render's `extra`)."""
    notes = {"Read as": facts["format"]}
    games = facts["games_per_player"]
    names = list(games)
    notes["Games per player"] = _grouped(np.array(list(games.values())), names, "game", "games")
    notes["Meetings per pair"] = facts["_pairs_text"]
    notes["Repeat meetings"] = (f"{facts['repeats']} (fewest possible with these games per "
                                f"player, by counting: {facts['repeat_bound_from_games']})")
    free = facts["repeat_free_hanchans"]
    notes["First repeat meeting"] = ("none" if free >= hanchans
                                     else f"hanchan {free + 1} ({free} repeat-free before it)")
    if not facts["format"].startswith("game list"):  # packed tables have no real numbers
        visits = np.array(list(facts["most_visits_to_one_table"].values()))
        notes["Most visits to one table"] = _grouped(visits, names, "time", "times")
    if facts["faults"]:
        notes["Faults in the file"] = " · ".join(facts["faults"])
    if facts["claims"]:
        notes["Spec claims"] = " · ".join(facts["claims"])
    for e in facts["expectations"]:
        verdict = "holds" if e["holds"] else "DOES NOT HOLD"
        notes[f"Expected {e['expect']}"] = f"{verdict}; recount: {e['recount']}"
    return notes


def plain(value):
    """The value with numpy numbers turned into Python ones, for JSON."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def audit(schedule: Schedule):
    """Recount a schedule: (event, seating, figures, facts, report notes)."""
    from .check import recount

    event, plan = event_of(schedule)
    figures = recount(event, plan, winds_known=schedule.winds_known)
    facts = facts_of(schedule, event, plan, figures)
    return event, plan, figures, facts, report_notes(facts, plan.shape[0])
