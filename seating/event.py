"""The event an organizer describes in one YAML file, validated and turned into arrays.

Validation happens before any work: a bad file gives one ConfigError whose message is a
single line naming the key and what is wrong.
"""

from __future__ import annotations

import difflib
import math
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # jsonschema is imported where a config is validated: the stage scripts,
    import jsonschema  # which read validated values, start faster without it

WIND_NAMES = "ESWN"
CLASS_NAMES = ("large", "medium", "small")


class ConfigError(ValueError):
    """A config that cannot be planned; the message is one line for the organizer."""


@dataclass(frozen=True)
class Event:
    name: str
    hanchans: int
    days: tuple[int, ...]
    table_size: int
    seed: int
    countries: tuple[tuple[str, int], ...]
    areas: tuple[tuple[str, int], ...]
    search: dict = field(default_factory=dict, compare=False)
    # a change during the event (re-planning): from hanchan index `changed_from` on, place p
    # belongs to country place_country[p] (substitutes; extra_countries are countries of one
    # for substitutes of no country) and table t stands in area table_area[t]
    changed_from: int | None = None
    place_country: tuple[int, ...] | None = None
    table_area: tuple[int, ...] | None = None
    extra_countries: tuple[str, ...] = ()

    # ---- sizes -------------------------------------------------------------------
    @property
    def players(self) -> int:
        return sum(n for _, n in self.countries)

    @property
    def tables(self) -> int:
        return self.players // self.table_size

    @property
    def country_codes(self) -> list[str]:
        return [c for c, _ in self.countries] + list(self.extra_countries)

    @property
    def delegation_sizes(self) -> np.ndarray:
        """Players of every country (as the places now belong, after any substitution)."""
        return np.bincount(self.country_of, minlength=len(self.country_codes)).astype(np.int64)

    # ---- per place ---------------------------------------------------------------
    @property
    def country_of(self) -> np.ndarray:
        """Country index of every place (after any substitution), places in config order."""
        if self.place_country is not None:
            return np.array(self.place_country, dtype=np.int64)
        return self.planned_country_of

    @property
    def planned_country_of(self) -> np.ndarray:
        """Country index of every place as configured: delegation by delegation."""
        sizes = np.array([n for _, n in self.countries], dtype=np.int64)
        return np.repeat(np.arange(len(self.countries)), sizes)

    @property
    def country_at(self) -> np.ndarray:
        """country_at[h, p]: the country of the player at place p in hanchan h."""
        at = np.repeat(self.planned_country_of[None, :], self.hanchans, axis=0)
        if self.changed_from is not None and self.place_country is not None:
            at[self.changed_from :] = self.country_of
        return at

    @property
    def place_names(self) -> list[str]:
        width = len(str(max(n for _, n in self.countries)))
        return [f"{code} {i:0{width}d}" for code, n in self.countries for i in range(1, n + 1)]

    # ---- per hanchan -------------------------------------------------------------
    @property
    def day_of(self) -> np.ndarray:
        return np.repeat(np.arange(len(self.days)), self.days)

    @property
    def wind_names(self) -> str:
        return WIND_NAMES[: self.table_size]

    # ---- per table ---------------------------------------------------------------
    @property
    def area_of_table(self) -> np.ndarray:
        """Area index of every table as configured (tables in area order)."""
        return np.repeat(np.arange(len(self.areas)), [n for _, n in self.areas])

    @property
    def area_at(self) -> np.ndarray:
        """area_at[h, t]: the area of table t in hanchan h (after any table replacement)."""
        at = np.repeat(self.area_of_table[None, :], self.hanchans, axis=0)
        if self.changed_from is not None and self.table_area is not None:
            at[self.changed_from :] = np.array(self.table_area, dtype=np.int64)
        return at

    @property
    def area_names(self) -> list[str]:
        return [a for a, _ in self.areas]


def _error_path(error: jsonschema.ValidationError) -> str:
    return ".".join(str(p) for p in error.absolute_path) or "(top level)"


def _one_line(error: jsonschema.ValidationError, schema: dict) -> str:
    """Turn a JSON-Schema error into one line an organizer can act on."""
    path = _error_path(error)
    known = list(schema.get("properties", {}))
    if error.validator == "additionalProperties" and not error.absolute_path:
        extra = sorted(set(error.instance) - set(known))
        hints = []
        for key in extra:
            close = difflib.get_close_matches(str(key), known, n=1)
            hints.append(f"'{key}'" + (f" (did you mean '{close[0]}'?)" if close else ""))
        return f"unknown key {', '.join(hints)}; known keys: {', '.join(known)}"
    if error.validator == "additionalProperties" and path == "search":
        sub = list(schema["properties"]["search"]["properties"])
        extra = sorted(set(error.instance) - set(sub))
        hints = []
        for key in extra:
            close = difflib.get_close_matches(str(key), sub, n=1)
            hints.append(f"'{key}'" + (f" (did you mean '{close[0]}'?)" if close else ""))
        return f"search: unknown key {', '.join(hints)}; known keys: {', '.join(sub)}"
    if error.validator == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        where = "" if path == "(top level)" else f"{path}: "
        return f"{where}missing required key '{missing}'"
    if error.validator == "not" and path == "event":
        name = error.instance
        return f"event: {name!r} is reserved (results/{name}/ holds other outputs)"
    if error.validator == "pattern" and error.absolute_path and error.path[-1] == "event":
        return (
            f"event: {error.instance!r} is not a plain name "
            "(letters, digits, '_', '.', '-'; it becomes a folder under results/)"
        )
    if error.validator == "pattern" and path == "draw.public_input":
        return "draw.public_input: is blank; give the string announced at the draw"
    if error.validator == "propertyNames" or (
        error.validator == "pattern" and path.startswith("countries")
    ):
        bad = error.instance
        return f"{path}: country code {bad!r} must be 1-12 plain letters or digits"
    if path == "table_size" and error.validator == "enum":
        return (f"table_size: {error.instance!r} is not 3 or 4 (the championship search plans "
                "tables of 3 or 4; audits and designs also take tables of 5)")
    if error.validator == "type" and path.startswith(("countries.", "areas.")):
        return f"{path}: must be a whole number of at least 1, got {error.instance!r}"
    if error.validator == "minimum" and path.startswith("countries."):
        return f"{path}: a delegation needs at least 1 player, got {error.instance!r}"
    return f"{path}: {error.message}"


def _defaults(schema: dict) -> dict:
    return {k: v["default"] for k, v in schema.get("properties", {}).items() if "default" in v}


def for_run(event: Event, run: int) -> Event:
    """The event as searched by independent run number `run` (its own seeds)."""
    from dataclasses import replace

    return replace(event, seed=event.seed + 1000 * int(run))


def as_config(event: Event) -> dict:
    """The event as a plain config dict (with search defaults filled in)."""
    return {
        "event": event.name,
        "hanchans": event.hanchans,
        "days": list(event.days),
        "table_size": event.table_size,
        "seed": event.seed,
        "countries": dict(event.countries),
        "areas": dict(event.areas),
        "search": dict(event.search),
    }


def from_config(config: dict) -> Event:
    """Rebuild an Event from a config that `load_event` has already validated (as_config)."""
    return Event(
        name=config["event"],
        hanchans=config["hanchans"],
        days=tuple(config["days"]),
        table_size=config["table_size"],
        seed=config["seed"],
        countries=tuple((str(c), int(n)) for c, n in config["countries"].items()),
        areas=tuple((str(a), int(n)) for a, n in config["areas"].items()),
        search=dict(config.get("search", {})),
    )


MAX_PLAYERS = 20_000  # far beyond any event planned here (800 players: benchmarks/scaling.py)


def _whole_numbers(value, schema: dict, path: str = ""):
    """The config with whole-number floats (4.0, as YAML reads `4.0` and JSON may write
    it) as integers where the schema asks for an integer; a number that is not finite
    (YAML's .nan, .inf) is one ConfigError."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ConfigError(f"{path or '(top level)'}: must be a finite number, got {value!r}")
    kind = schema.get("type")
    if kind == "integer" and isinstance(value, float) and value.is_integer():
        return int(value)
    if kind == "object" and isinstance(value, dict):
        known = schema.get("properties", {})
        other = schema.get("additionalProperties")
        return {k: _whole_numbers(v, known.get(k, other if isinstance(other, dict) else {}),
                                  f"{path}.{k}" if path else str(k))
                for k, v in value.items()}
    if kind == "array" and isinstance(value, list):
        return [_whole_numbers(v, schema.get("items", {}), f"{path}.{i}")
                for i, v in enumerate(value)]
    return value


def _breaks(text: str) -> bool:
    """Whether text holds a control character or a line or paragraph separator (U+0085 and
    U+2028 split a CSV row where Python reads lines)."""
    return any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") for ch in text)


def _plain_keys(config: dict) -> None:
    """Country codes and area names as the organizer wrote them: YAML reads NO, ON, Yes,
    null, 010 and 12 as other things than text (False, True, None, 8, 12), which would
    rename a country or an area silently; and no line breaks or other control characters
    (a trailing newline passes a pattern's $)."""
    for key in ("countries", "areas"):
        names = config.get(key)
        if not isinstance(names, dict):
            continue
        for name in names:
            if not isinstance(name, str):
                raise ConfigError(f"{key}: YAML reads a name here as {name!r} "
                                  f"({type(name).__name__}), not as text; quote it "
                                  "('NO': 4, '010': 2)")
            if _breaks(name):
                raise ConfigError(f"{key}: {name!r} holds a line break or another control "
                                  "character")
    name = config.get("event")
    if isinstance(name, str) and _breaks(name):
        raise ConfigError(f"event: {name!r} is not a plain name (letters, digits, '_', '.', "
                          "'-'; it becomes a folder under results/)")


def load_event(config: dict, schema: dict) -> Event:
    """Validate an organizer's config against the schema and the counting rules."""
    if config is None:  # an empty file
        config = {}
    if not isinstance(config, dict):
        raise ConfigError(f"the config must be a mapping of keys (event: ..., hanchans: ..., "
                          f"...), not a {type(config).__name__}")
    if not config:
        raise ConfigError("the config is empty; give at least event, hanchans, days, ...")
    import jsonschema

    _plain_keys(config)
    config = _whole_numbers(config, schema)
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(config), key=lambda e: (len(e.absolute_path), e.path))
    if errors:
        raise ConfigError(_one_line(errors[0], schema))

    hanchans = config["hanchans"]
    days = tuple(config["days"])
    if sum(days) != hanchans:
        raise ConfigError(
            f"days: {list(days)} sums to {sum(days)} hanchans, but hanchans is {hanchans}"
        )
    size = config["table_size"]
    countries = tuple((str(c), int(n)) for c, n in config["countries"].items())
    players = sum(n for _, n in countries)
    if players % size:
        short = size - players % size
        raise ConfigError(
            f"countries: {players} players do not fill tables of {size}; "
            f"add {short} substitute{'s' if short > 1 else ''} (or remove {players % size})"
        )
    if players > MAX_PLAYERS:
        raise ConfigError(f"countries: {players:,} players; the planner takes at most "
                          f"{MAX_PLAYERS:,}")
    tables = players // size
    if tables < 2:
        raise ConfigError(f"countries: {players} players make {tables} table"
                          f"{'s' * (tables != 1)} of {size}; a plan needs at least 2 tables")
    areas_cfg = config.get("areas") or {"Hall": tables}
    areas = tuple((str(a), int(n)) for a, n in areas_cfg.items())
    if sum(n for _, n in areas) != tables:
        raise ConfigError(
            f"areas: the areas hold {sum(n for _, n in areas)} tables, "
            f"but {players} players at tables of {size} need exactly {tables}"
        )
    search_schema = schema["properties"]["search"]
    search = {**_defaults(search_schema), **config.get("search", {})}
    return Event(
        name=config["event"],
        hanchans=hanchans,
        days=days,
        table_size=size,
        seed=config["seed"],
        countries=countries,
        areas=areas,
        search=search,
    )
