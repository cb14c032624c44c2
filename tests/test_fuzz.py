"""Property tests over organizer files: an accepted config always yields a valid plan, a
rejected one always one clear line, never a traceback."""

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from seating.check import recount
from seating.cli import check_file
from seating.core import plan
from seating.event import ConfigError, load_event

SMALL_SEARCH = {"swap_moves": 3000, "goal_moves": 200, "anneal_steps": 20000,
                "wind_moves": 2000, "time_limit": 60}


@st.composite
def configs(draw):
    size = draw(st.sampled_from([3, 4]))
    tables = draw(st.integers(2, 9))
    players = size * tables
    # split players into delegations of 1..players
    sizes = []
    left = players
    while left:
        n = draw(st.integers(1, min(left, max(1, tables + 2))))
        sizes.append(n)
        left -= n
    hanchans = draw(st.integers(1, 8))
    cuts = sorted(draw(st.sets(st.integers(1, hanchans - 1), max_size=2))) if hanchans > 1 else []
    days = [b - a for a, b in zip([0, *cuts], [*cuts, hanchans])]
    config = {
        "event": draw(st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True)),
        "hanchans": hanchans,
        "days": days,
        "table_size": size,
        "seed": draw(st.integers(0, 1000)),
        "countries": {f"C{i}": n for i, n in enumerate(sizes)},
        "search": SMALL_SEARCH,
    }
    if draw(st.booleans()) and tables >= 2:
        first = draw(st.integers(1, tables - 1))
        config["areas"] = {"Main": first, "Side": tables - first}
    return config


BREAKS = [
    lambda c: c.update(days=[*c["days"], 1]),
    lambda c: c["countries"].update(C0=c["countries"]["C0"] + 1),
    lambda c: c["countries"].update(C0=-1),
    lambda c: c["countries"].update(C0=1.5),
    lambda c: c.update(table_size=5),
    lambda c: c.update(event="../up"),
    lambda c: c.update(hanchens=3),
    lambda c: c.pop("seed"),
    lambda c: c["countries"].update({"C C": 1}),
    lambda c: c.update(areas={"Main": 999}),
    lambda c: c.update(countries={}),
]


@settings(max_examples=60, deadline=None)
@given(configs(), st.integers(0, len(BREAKS) - 1))
def test_every_broken_config_is_one_line(schema, config, which):
    BREAKS[which](config)
    try:
        load_event(config, schema)
    except ConfigError as error:
        assert str(error) and "\n" not in str(error)
    # some breaks can cancel out (e.g. an extra player that still fills tables): fine


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(configs())
@example({"event": "a", "hanchans": 5, "days": [2, 1, 2], "table_size": 4, "seed": 0,
          "countries": {"C0": 1, "C1": 1, "C2": 2, "C3": 2, "C4": 7, "C5": 7},
          "search": SMALL_SEARCH})  # found by CI: short days the block repair cannot seat
def test_every_accepted_config_gets_a_valid_plan(schema, config):
    event = load_event(config, schema)
    seating, _ = plan(event)
    f = recount(event, seating)
    assert f["games_min"] == f["games_max"] == event.hanchans  # everybody, every hanchan
    for key in ("wind_count_bad", "day_wind_bad", "consecutive_same_wind", "prefix_wind_bad"):
        assert f[key] == 0, key
    # a lower bound the report shows is never above what a plan reaches
    bounded = [k for k in f if k.endswith("_bound") and k[:-len("_bound")] in f]
    assert "repeat_meetings_bound" in bounded
    for key in bounded:
        assert f[key[:-len("_bound")]] >= f[key] - 1e-9, key
    ceilings = [("countries_met_min", "countries_met_ceiling"),
                ("countries_met_mean", "countries_met_mean_ceiling")]
    for key, ceiling in ceilings:
        assert f[key] <= f[ceiling] + 1e-9, key
    seated = np.sort(seating.reshape(event.hanchans, -1), axis=1)
    assert (seated == np.arange(event.players)).all()


def test_yaml_mistake_names_the_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("event: x\nhanchans: 6\ndays: [3, 3\ntable_size: 4\n")
    assert check_file(str(path)) == (f"{path}: line 4, column 11: not valid YAML: "
                                      "expected ',' or ']', but got ':'")


def test_a_file_that_is_not_utf8_is_one_line(tmp_path):
    """An event file saved in Latin-1 (found by a fuzz: a UnicodeDecodeError traceback)."""
    path = tmp_path / "latin.yaml"
    path.write_bytes("event: caf\xe9\n".encode("latin-1"))
    assert check_file(str(path)) == (f"{path}: not UTF-8 text (byte 0xe9 at byte 11); "
                                      "save the file as UTF-8")


def test_a_key_given_twice_is_one_line(tmp_path):
    """Snakemake keeps the last of two equal keys silently (12 players planned for a
    delegation written twice); `plan` names the line."""
    path = tmp_path / "twice.yaml"
    path.write_text("event: x\nhanchans: 4\ndays: [2, 2]\ntable_size: 4\nseed: 1\n"
                    "countries:\n  AAA: 4\n  AAA: 4\n  CCC: 4\n")
    assert check_file(str(path)) == (f"{path}: line 8, column 3: not valid YAML: key 'AAA' "
                                      "is given twice")


def test_a_json_file_is_read_as_snakemake_reads_it(tmp_path):
    """Snakemake reads a config as JSON first; `plan` refused JSON indented with tabs,
    which YAML does not allow, though Snakemake would plan it."""
    path = tmp_path / "event.json"
    path.write_text('{\n\t"event": "x", "hanchans": 4, "days": [2, 2], "table_size": 4,\n'
                    '\t"seed": 1, "countries": {"AAA": 4, "BBB": 4}\n}\n')
    assert check_file(str(path)) is None
    path.write_text('{"event": "x", "hanchans": 4, "days": [2, 2], "table_size": 4, '
                    '"seed": 1, "countries": {"AAA": 4, "AAA": 4}}')
    assert check_file(str(path)) == f"{path}: key 'AAA' is given twice"


def test_yaml_merge_keys_are_read_as_snakemake_reads_them(tmp_path):
    """The check of keys given twice left merge keys (<<) unread: `plan` refused a file
    Snakemake plans."""
    path = tmp_path / "merge.yaml"
    path.write_text("event: x\nhanchans: 4\ndays: [2, 2]\ntable_size: 4\nseed: 1\n"
                    "countries: {AAA: 4, BBB: 4}\nsearch:\n  <<: {anneal_steps: 1000}\n"
                    "  restarts: 1\n")
    assert check_file(str(path)) is None
