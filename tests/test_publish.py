"""Publishing: the chart, the live draw, schedule cards and exports.

End to end on the small event with a draw (tests/data/draw-small.yaml), plus pure-function
checks on a 3-player event and on bad rosters.
"""

import csv
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

from seating import publish as pub
from seating.draw import RosterError, check_roster, draw, read_roster, sha256_hex
from seating.event import load_event
from tests.conftest import DATA, ROOT

CONFIG = DATA / "draw-small.yaml"
ROSTER = DATA / "roster-small-64.csv"
EVENT = "draw-small-64"
PUBLIC_INPUT = yaml.safe_load(CONFIG.read_text())["draw"]["public_input"]
CHART_FILES = ["chart.csv", "chart.sha256", "chart.html", "tables.html"]
DRAW_FILES = ["draw.csv", "draw.json", "cards.html", "tables-names.html"]
EXPORT_FILES = [f"export/{name}" for name in
                ("pantheon.txt", "grid.csv", "tables.csv", "players.csv", "plan.json")]
PUBLISHED = CHART_FILES + DRAW_FILES + EXPORT_FILES
WORDS = {"E": "east", "S": "south", "W": "west", "N": "north"}


# ---- the recipe of docs/draw.md, written again independently ---------------------------


def recipe(chart: bytes, roster: bytes, public_input: str) -> dict[str, str]:
    """place -> name, straight from the published bytes."""
    def h(data: bytes) -> str:
        return hashlib.sha256(data).hexdigest()

    seed = h(f"{h(chart)}\n{h(roster)}\n{public_input}".encode())
    table = list(csv.reader(io.StringIO(chart.decode("utf-8"), newline="")))
    places = sorted({cell for row in table[1:] for cell in row[4:] if cell})
    people = list(csv.DictReader(io.StringIO(roster.decode("utf-8-sig"), newline="")))
    out = {}
    for country in {p.rsplit(" ", 1)[0] for p in places}:
        names = [r["name"].strip() for r in people if r["country"].strip() == country]
        for i in reversed(range(1, len(names))):
            j = int(h(f"{seed}\n{country}\n{i}".encode()), 16) % (i + 1)
            names[i], names[j] = names[j], names[i]
        out.update(zip(sorted(p for p in places if p.rsplit(" ", 1)[0] == country), names))
    return out


# ---- running the workflow -------------------------------------------------------------


def snakefile(tmp: Path) -> Path:
    """The repository's Snakefile (it includes workflow/rules/publish.smk)."""
    return ROOT / "Snakefile"


def snakemake(smk: Path, workdir: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "snakemake", "-s", str(smk), "-d", str(workdir), "-c1",
           "--quiet", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def flow(tmp_path_factory):
    return snakefile(tmp_path_factory.mktemp("flow"))


@pytest.fixture(scope="module")
def drawn(tmp_path_factory, flow):
    work = tmp_path_factory.mktemp("draw")
    (work / "tests" / "data").mkdir(parents=True)
    shutil.copy(ROSTER, work / "tests" / "data" / ROSTER.name)  # the config's relative path
    done = snakemake(flow, work, "--configfile", str(CONFIG))
    assert done.returncode == 0, done.stderr[-3000:]
    return work / "results" / EVENT


def rows_of(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


# ---- end to end -----------------------------------------------------------------------


def test_published_files(drawn):
    for name in PUBLISHED:
        assert (drawn / name).stat().st_size > 0, name
    digest = sha256_hex((drawn / "chart.csv").read_bytes())
    assert (drawn / "chart.sha256").read_text() == f"{digest}  chart.csv\n"
    assert (drawn / "draw.csv").read_text().startswith("place,name,country")
    assert json.loads((drawn / "draw.json").read_text())["chart_sha256"] == digest
    for page in ("chart.html", "tables.html", "cards.html", "tables-names.html"):
        html = (drawn / page).read_text(encoding="utf-8")
        assert '<meta charset="utf-8">' in html and "@page { size: A4" in html
        assert not re.search(r"(src=|href=|@import|url\()", html), page  # no external assets
    for page in ("cards.html", "tables-names.html"):
        html = (drawn / page).read_text(encoding="utf-8")
        assert "&lt;b&gt;html&lt;/b&gt;" in html and "<b>html</b>" not in html
        assert "Tom &amp; Jerry" in html
        for name in ("日本語", "Łódź Wiśniewski", "Ñúñez García", "Zoë Ångström-Ñandú"):
            assert name in html, name
    cards = (drawn / "cards.html").read_text(encoding="utf-8")
    assert cards.count('<section class="card">') == 64


def test_draw_recomputed_independently(drawn):
    chart = (drawn / "chart.csv").read_bytes()
    drawn_names = {r["place"]: r["name"] for r in rows_of(drawn / "draw.csv")}
    assert recipe(chart, ROSTER.read_bytes(), PUBLIC_INPUT) == drawn_names
    record = json.loads((drawn / "draw.json").read_text())
    assert record["roster_sha256"] == sha256_hex(ROSTER.read_bytes())
    assert record["public_input"] == PUBLIC_INPUT


def test_another_public_input_another_mapping(drawn, small_event):
    chart = (drawn / "chart.csv").read_bytes()
    roster = ROSTER.read_bytes()
    before = recipe(chart, roster, PUBLIC_INPUT)
    after = recipe(chart, roster, PUBLIC_INPUT + " ")
    assert after != before
    changed = sum(before[p] != after[p] for p in before)
    assert changed > 20  # a new shuffle, not a small perturbation
    # the package agrees with the recipe on that other input too
    players = read_roster(roster)
    ours = draw(small_event, players, sha256_hex(chart), sha256_hex(roster), PUBLIC_INPUT + " ")
    assert dict(zip(small_event.place_names, (p.name for p in ours))) == after


def test_every_player_keeps_their_country(drawn):
    roster = rows_of(ROSTER)
    rows = rows_of(drawn / "draw.csv")
    assert all(r["place"].rsplit(" ", 1)[0] == r["country"] for r in rows)
    assert sorted((r["name"], r["country"], r["id"]) for r in rows) == \
        sorted((r["name"], r["country"], r["id"]) for r in roster)


def parse_pantheon(text: str) -> list[list[list[int]]]:
    return [[[int(x) for x in line.split("-")] for line in block.splitlines()]
            for block in text.strip("\n").split("\n\n")]


def test_exports_recover_the_plan(drawn):
    seating = [tuple(r.values()) for r in rows_of(drawn / "seating.csv")]
    chart = {(r["hanchan"], r["table"]): (r["area"], r["day"])
             for r in rows_of(drawn / "chart.csv")}
    number = {r["id"]: (r["place"], r["country"]) for r in rows_of(drawn / "export/players.csv")}
    assert {r["id"]: r["place"] for r in rows_of(drawn / "draw.csv")} == \
        {k: v[0] for k, v in number.items()}

    def row(h, t, wind, player):
        place, country = number[str(player)]
        area, day = chart[(str(h), str(t))]
        return (str(h), str(t), wind, place, country, area, day)

    winds = "ESWN"
    pantheon = parse_pantheon((drawn / "export/pantheon.txt").read_text())
    assert [row(h, t, w, p) for h, tables in enumerate(pantheon, 1)
            for t, seats in enumerate(tables, 1) for w, p in zip(winds, seats)] == seating

    grid = rows_of(drawn / "export/grid.csv")
    tables = len(chart) // len(grid)
    assert [row(g["hanchan"], t, w, g[f"Table {t} {pub.WIND_WORDS[w]}"]) for g in grid
            for t in range(1, tables + 1) for w in winds] == seating

    assert [row(r["hanchan"], r["table"], w, r[WORDS[w]])
            for r in rows_of(drawn / "export/tables.csv") for w in winds] == seating

    plan = json.loads((drawn / "export/plan.json").read_text())
    who = {p["id"]: p for p in plan["players"]}
    assert [(str(h["hanchan"]), str(t["table"]), s["wind"], s["place"],
             who[s["id"]]["country"], t["area"], str(h["day"]))
            for h in plan["hanchans"] for t in h["tables"] for s in t["seats"]] == seating
    assert all(who[s["id"]]["place"] == s["place"]
               for h in plan["hanchans"] for t in h["tables"] for s in t["seats"])


def test_rerun_gives_identical_bytes(drawn, flow):
    before = {name: (drawn / name).read_bytes() for name in PUBLISHED}
    again = snakemake(flow, drawn.parent.parent, "--configfile", str(CONFIG),
                      "--forcerun", "chart")
    assert again.returncode == 0, again.stderr[-3000:]
    assert "draw:" in again.stderr  # the draw and the exports were made again
    for name, data in before.items():
        assert (drawn / name).read_bytes() == data, name


def drawn_again(drawn: Path, flow: Path, tmp_path: Path,
                change) -> tuple[Path, subprocess.CompletedProcess]:
    """A copy of the drawn event's working folder, planned again with its config changed
    by change(config, work); (the copy, snakemake's outcome)."""
    work = tmp_path / "work"
    shutil.copytree(drawn.parent.parent, work, symlinks=True)
    config = yaml.safe_load(CONFIG.read_text())
    change(config, work)
    (work / "again.yaml").write_text(yaml.safe_dump(config, allow_unicode=True))
    return work, snakemake(flow, work, "--configfile", str(work / "again.yaml"))


def test_roster_mismatch_stops_with_one_line(drawn, flow, tmp_path):
    def bad_roster(config, work):
        lines = ROSTER.read_text(encoding="utf-8").splitlines()
        first_aaa = next(i for i, line in enumerate(lines) if line.endswith(",AAA"))
        del lines[first_aaa]
        lines.append("999,Zed Newcomer,ZZZ")
        (work / "bad-roster.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
        config["draw"]["roster"] = "bad-roster.csv"

    work, done = drawn_again(drawn, flow, tmp_path, bad_roster)
    assert done.returncode != 0
    errors = [line for line in done.stderr.splitlines() if line.startswith("draw error:")]
    assert errors == ["draw error: roster does not match the chart: AAA has 9 players for 10 "
                      "places; ZZZ has 1 player but no places (bad-roster.csv)"]
    out = work / "results" / EVENT
    assert not any((out / name).exists() for name in DRAW_FILES)  # nothing half-written


def test_a_missing_roster_is_one_line(drawn, flow, tmp_path):
    """After a draw, the config names a roster file that is not there: Snakemake said
    nothing was to be done (the old draw's files stayed); without a draw, its missing
    input was many lines. Now one line, before any work."""
    def missing(config, work):
        config["draw"]["roster"] = "no-such-roster.csv"

    _, done = drawn_again(drawn, flow, tmp_path, missing)
    assert done.returncode != 0
    errors = [line for line in done.stderr.splitlines() if line.startswith("config error:")]
    assert len(errors) == 1 and "draw.roster: no file 'no-such-roster.csv'" in errors[0]


def test_a_new_chart_without_a_draw_removes_the_old_draw(drawn, flow, tmp_path):
    """The config loses its draw key and gets another seed: the new chart is not the one
    drawn, so the old draw's files go (they stayed, beside a chart whose hash draw.json
    did not record: found by a fuzz)."""
    def undrawn(config, work):
        del config["draw"]
        config["seed"] = 4

    work, done = drawn_again(drawn, flow, tmp_path, undrawn)
    assert done.returncode == 0, done.stderr[-3000:]
    out = work / "results" / EVENT
    assert "chart: removed the draw of an earlier chart" in done.stderr
    assert not any((out / name).exists() for name in DRAW_FILES)
    assert (out / "chart.csv").read_bytes() != (drawn / "chart.csv").read_bytes()


def pdf_pages(path: Path) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", path.read_bytes()))


def test_pages_seen_in_chromium(drawn, tmp_path):
    if not any(shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome")):
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    done = subprocess.run(["bash", str(ROOT / "benchmarks" / "screenshot.sh"), str(drawn),
                           str(tmp_path)], capture_output=True, text=True, timeout=600,
                          env={"PATH": "/usr/bin:/bin:/usr/local/bin", "PAGES": "chart cards"})
    assert done.returncode == 0, done.stderr
    for page in ("chart", "cards"):
        assert (tmp_path / f"{page}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert pdf_pages(tmp_path / "cards.pdf") == 64  # one page per player
    assert pdf_pages(tmp_path / "chart.pdf") >= 1 + 6 + 14  # a page per hanchan and country


# ---- pure functions -------------------------------------------------------------------


@pytest.fixture(scope="module")
def sanma(schema):
    return load_event(yaml.safe_load((DATA / "sanma.yaml").read_text()), schema)


def any_seating(event, seed=0) -> np.ndarray:
    """A seating of the right shape (publishing does not care how good it is)."""
    rng = np.random.default_rng(seed)
    return np.stack([rng.permutation(event.players).reshape(event.tables, event.table_size)
                     for _ in range(event.hanchans)])


def test_three_player_tables_have_no_north(sanma):
    seating = any_seating(sanma)
    who = pub.holders(sanma)
    assert [w["id"] for w in who] == list(range(1, sanma.players + 1))  # place order
    header = pub.chart_text(sanma, seating).splitlines()[0]
    assert header == "hanchan,day,table,area,east,south,west"
    pantheon = parse_pantheon(pub.pantheon_text(seating, who))
    assert np.array_equal(np.array(pantheon) - 1, seating)
    grid = list(csv.DictReader(io.StringIO(pub.grid_text(sanma, seating, who))))
    assert not any("North" in key for key in grid[0])
    tables = list(csv.DictReader(io.StringIO(pub.tables_text(seating, who))))
    assert all(r["north"] == "" for r in tables)
    again = np.array([[int(r[w]) - 1 for w in ("east", "south", "west")] for r in tables])
    assert np.array_equal(again.reshape(seating.shape), seating)
    sheets = pub.table_sheets(sanma, seating, who)
    assert len(sheets) == sanma.tables and all(len(s["rows"]) == sanma.hanchans for s in sheets)


def test_schedules_count_what_a_player_checks(small_event):
    seating = any_seating(small_event, seed=1)
    places = pub.schedules(small_event, seating, pub.holders(small_event))
    for p, item in enumerate(places):
        assert len(item["rows"]) == small_event.hanchans
        assert sum(n for _, n in item["winds"]) == small_event.hanchans
        for r in item["rows"]:
            seats = seating[r["hanchan"] - 1, r["table"] - 1]
            assert seats["ESWN".index(r["wind"])] == p
            assert len(r["opponents"]) == small_event.table_size - 1


@pytest.mark.parametrize("text, message", [
    ("name,nation\nA,AAA\n", "missing column country"),
    ("id,name,country\n1,A,AAA\n1,B,BBB\n", "id 1 used more than once"),
    ("id,name,country\nx,A,AAA\n", "line 2: id 'x' is not a whole number"),
    ("name,country\nA,AAA\n ,BBB\n", "line 3: empty name"),
    # found by a fuzz of rosters: blank lines miscounted, an ID column or a repeated line
    # taken silently, spaces in the header called a missing column
    ("name,country\n\nA,AAA\n\n ,BBB\n", "line 5: empty name"),
    ("ID,name,country\n101,A,AAA\n", "column 'ID' must be written 'id'"),
    ("id, name, country\n1,A,AAA\n", "column ' name' must be written 'name'"),
    ("name,country\nA,AAA\nB,BBB\nA,AAA\n", "lines 2 and 4: the same player (A, AAA)"),
    ("id,name,country\n\u00b2,A,AAA\n", "line 2: id '\u00b2' is not a whole number"),
])
def test_bad_rosters_give_one_line(text, message):
    with pytest.raises(RosterError, match=re.escape(message)) as caught:
        read_roster(text.encode())
    assert "\n" not in str(caught.value)


def test_roster_without_ids_numbers_in_order(small_event):
    text = "\ufeffname,country\n" + "".join(
        f"P{i},{code}\n" for code, n in small_event.countries for i in range(n))
    players = read_roster(text.encode())
    assert [p.id for p in players] == list(range(1, 65))
    check_roster(small_event, players)
    at_place = draw(small_event, players, "a" * 64, "b" * 64, "x")
    assert [p.country for p in at_place] == [c for c, n in small_event.countries for _ in range(n)]
    with pytest.raises(RosterError, match="BBB has 7 players for 8 places"):
        check_roster(small_event, [p for p in players if p.name != "P0" or p.country != "BBB"])
    with pytest.raises(RosterError, match="not UTF-8"):
        read_roster("name,country\nŁ,AAA\n".encode("iso8859-2"))
