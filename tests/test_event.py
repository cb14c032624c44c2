"""Config validation: every bad input is one clear line naming the key."""

import copy
import re

import pytest

from seating.event import ConfigError, load_event
from tests.conftest import ROOT


def test_default_event(default_event):
    ev = default_event
    assert ev.players == 200 and ev.tables == 50 and ev.hanchans == 14
    assert ev.days == (5, 5, 4)
    assert "POL 07" in ev.place_names and "ROU 01" in ev.place_names
    assert len(set(ev.place_names)) == 200
    assert [n for _, n in ev.areas] == [30, 12, 8]
    assert ev.search["time_limit"] > 0  # defaults filled from the schema


def mutate(config, path, value):
    config = copy.deepcopy(config)
    node = config
    for key in path[:-1]:
        node = node.setdefault(key, {})
    if value is DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return config


DELETE = object()

BAD = [
    (("hanchans",), DELETE, r"^missing required key 'hanchans'$"),
    (("days",), [5, 5, 5], r"days: .*sums to 15 hanchans, but hanchans is 14"),
    (("table_size",), 5, r"table_size: 5 is not 3 or 4"),
    (("countries", "POL"), -3, r"countries\.POL: a delegation needs at least 1 player"),
    (("countries", "POL"), 0, r"countries\.POL"),
    (("countries", "POL"), 2.5, r"countries\.POL: must be a whole number"),
    (("countries", "POL"), 19, r"countries: 201 players do not fill tables of 4; add 3 "
                               r"substitutes"),
    (("countries",), {}, r"countries"),
    (("areas", "Gallery"), 13, r"areas: the areas hold 51 tables, but 200 players"),
    (("event",), "../escape", r"event: '\.\./escape' is not a plain name"),
    (("seed",), -1, r"seed"),
    (("hanchnas",), 14, r"unknown key 'hanchnas' \(did you mean 'hanchans'\?\)"),
    (("search", "goal_move"), 5, r"search: unknown key 'goal_move' \(did you mean "
                                 r"'goal_moves'\?\)"),
]


@pytest.mark.parametrize("path,value,message", BAD)
def test_bad_config_is_one_clear_line(schema, default_config, path, value, message):
    config = mutate(default_config, path, value)
    with pytest.raises(ConfigError) as err:
        load_event(config, schema)
    text = str(err.value)
    assert "\n" not in text
    assert re.search(message, text), text


def test_bad_country_code(schema, default_config):
    config = copy.deepcopy(default_config)
    config["countries"]["<b>X"] = 2
    with pytest.raises(ConfigError, match="country code '<b>X' must be"):
        load_event(config, schema)


def test_readme_documents_every_key(schema):
    readme = (ROOT / "config" / "README.md").read_text()
    keys = list(schema["properties"]) + list(schema["properties"]["search"]["properties"])
    missing = [k for k in keys if f"`{k}`" not in readme]
    assert not missing, f"config/README.md does not document {missing}"
