"""The live draw: which player of a delegation takes which of its country's places.

The draw is a deterministic function of three public inputs, so anyone can recompute it:

- the SHA-256 of ``chart.csv`` (published, with ``chart.sha256``, before the draw),
- the SHA-256 of the roster file (published before the draw),
- the public input announced at draw time (a number drawn on stream, a lottery result).

From them, ``seed = sha256(f"{chart}\\n{roster}\\n{public_input}")`` (hex digests, UTF-8).
Each country's players, in roster order, are shuffled by Fisher-Yates: for i from n-1 down
to 1, swap item i with item ``j = int(sha256(f"{seed}\\n{country}\\n{i}"), 16) % (i + 1)``.
The k-th player of the shuffled list takes the country's k-th place (``POL 01`` first).
docs/draw.md gives the same recipe as a dozen lines of standard-library Python.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
from collections import Counter
from dataclasses import dataclass

from .event import Event
from .io import one_line

ROSTER_COLUMNS = ("name", "country")


class RosterError(ValueError):
    """A roster that cannot be drawn; the message is one line for the organizer."""


@dataclass(frozen=True)
class Player:
    """One line of the roster: name, country code, local id (the roster's id or its order)."""

    name: str
    country: str
    id: int
    row: int  # 1-based position among the roster's players


def sha256_hex(data: bytes | str) -> str:
    """Hex SHA-256 of bytes, or of a string encoded as UTF-8."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def read_roster(data: bytes) -> list[Player]:
    """Parse a roster CSV (UTF-8, optional BOM) with columns name,country and optional id.

    Names and country codes are stripped of surrounding spaces. Ids, when the column is
    there, must be distinct whole numbers of at least 1 (event software such as Pantheon
    uses them); without the column a player's id is their position in the roster, from 1.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RosterError(f"roster: {one_line(error)}") from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    columns = reader.fieldnames or []
    for column in columns:
        plain = column.strip().lower()
        if column not in (*ROSTER_COLUMNS, "id") and plain in (*ROSTER_COLUMNS, "id"):
            raise RosterError(f"roster: column {column!r} must be written {plain!r}, exactly "
                              "(the draw's published recipe reads the header as it is)")
    missing = [c for c in ROSTER_COLUMNS if c not in columns]
    if missing:
        raise RosterError(
            f"roster: missing column {', '.join(missing)}; the header must have name,country "
            f"(optional id), found {','.join(columns) or 'nothing'}"
        )
    has_id = "id" in columns
    players = []
    first_line = {}
    for row in reader:
        line = reader.line_num  # the file's own line (blank lines are skipped, not counted)
        name = (row["name"] or "").strip()
        country = (row["country"] or "").strip()
        if not name or not country:
            raise RosterError(f"roster line {line}: empty {'name' if not name else 'country'}")
        number = len(players) + 1
        if has_id:
            raw = (row["id"] or "").strip()
            if not re.fullmatch(r"[0-9]+", raw) or int(raw) < 1:  # not '²' or '١'
                raise RosterError(f"roster line {line}: id {raw!r} is not a whole number >= 1")
            number = int(raw)
        if not has_id and (name, country) in first_line:
            raise RosterError(f"roster lines {first_line[name, country]} and {line}: the same "
                              f"player ({name}, {country}); two players of one name need an id "
                              "column to tell them apart")
        first_line.setdefault((name, country), line)
        players.append(Player(name=name, country=country, id=number, row=len(players) + 1))
    repeated = sorted(i for i, n in Counter(p.id for p in players).items() if n > 1)
    if repeated:
        raise RosterError(f"roster: id {', '.join(map(str, repeated))} used more than once")
    return players


def check_roster(event: Event, players: list[Player]) -> None:
    """Each country must send exactly as many players as it has places in the chart."""
    have = Counter(p.country for p in players)
    want = dict(event.countries)
    wrong = []
    for code in [*want, *sorted(set(have) - set(want))]:
        n, places = have.get(code, 0), want.get(code, 0)
        if n == places:
            continue
        if not places:
            wrong.append(f"{code} has {n} player{'s' * (n != 1)} but no places")
        else:
            wrong.append(f"{code} has {n} player{'s' * (n != 1)} for {places} "
                         f"place{'s' * (places != 1)}")
    if wrong:
        raise RosterError("roster does not match the chart: " + "; ".join(wrong))


def draw_seed(chart_sha: str, roster_sha: str, public_input: str) -> str:
    """The draw's seed: SHA-256 of the two hex digests and the public input, one per line."""
    return sha256_hex(f"{chart_sha}\n{roster_sha}\n{public_input}")


def shuffle(items: list, seed: str, country: str) -> list:
    """Fisher-Yates driven by SHA-256: a new list, the same for the same seed and country."""
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = int(sha256_hex(f"{seed}\n{country}\n{i}"), 16) % (i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def draw(event: Event, players: list[Player], chart_sha: str, roster_sha: str,
         public_input: str) -> list[Player]:
    """The player at every place (places in event order): the live draw, country by country.

    The roster must already match the chart (``check_roster``).
    """
    seed = draw_seed(chart_sha, roster_sha, public_input)
    at_place: list[Player] = []
    for code, _ in event.countries:
        at_place += shuffle([p for p in players if p.country == code], seed, code)
    return at_place
