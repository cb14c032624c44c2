"""The audit on the spec's own blocks and lists: its claims recounted, its mistakes named."""

import json
import shutil
import subprocess
import sys
from itertools import permutations, product

import numpy as np
import pytest

from seating import audit, designs
from seating.check import public, recount
from seating.report import render
from tests.conftest import DATA, ROOT

SPEC = DATA / "spec"


def read(name):
    path = SPEC / name
    return audit.parse(path.read_text(encoding="utf-8"), path.suffix, path.stem)


def run(name):
    """(schedule, figures, facts, report notes) of a file under tests/data/spec."""
    schedule = read(name)
    _, _, figures, facts, notes = audit.audit(schedule)
    return schedule, figures, facts, notes


def expectations(facts):
    return {e["expect"]: e["holds"] for e in facts["expectations"]}


# ---- the 3-player game lists (004) ----------------------------------------------------


@pytest.mark.parametrize("n", [n for n in range(5, 20) if n != 14])
def test_sanma_lists_keep_their_claimed_game_counts(n):
    _, figures, facts, _ = run(f"sanma-{n:02d}.txt")
    assert facts["expectations"] and all(e["holds"] for e in facts["expectations"]), n
    assert facts["faults"] == []
    assert figures["players"] == n


@pytest.mark.parametrize("n", [9, 13, 15, 19])
def test_sanma_lists_everyone_meets_everyone_once(n):
    """'全員が各参加者とちょうど1回ずつ戦います' (everyone plays everyone exactly once)."""
    _, figures, facts, _ = run(f"sanma-{n:02d}.txt")
    assert facts["pairs_by_meetings"] == {"1": n * (n - 1) // 2}
    assert figures["repeat_meetings"] == 0
    assert figures["games_min"] == figures["games_max"] == (n - 1) // 2


def test_sanma_7_players_3_4_6_play_5_games():
    """'3,4,6は5ゲーム 他は6ゲーム': players 3, 4, 6 play 5 games, the others 6."""
    _, figures, facts, _ = run("sanma-07.txt")
    games = facts["games_per_player"]
    assert [p for p, g in games.items() if g == 5] == ["3", "4", "6"]
    assert [p for p, g in games.items() if g == 6] == ["0", "1", "2", "5"]
    # the list is STS(7) plus 6 games: every pair meets, 18 of 21 pairs twice, as few repeats
    # as 13 games allow
    assert facts["pairs_by_meetings"] == {"1": 3, "2": 18}
    assert facts["repeat_bound_from_games"] == figures["repeat_meetings"] == 18


def test_sanma_14_players_names_a_15th_player():
    """The spec's list for 14 players says '5, 8が7ゲーム 他は6ゲーム' (5 and 8 play 7
    games, the others 6), but it holds the game [5, 8, 14]: players are 0..13, so 14 is a
    15th player. It is STS(15) without player 14's games except that one; 6 pairs of 0..13
    (0-11, 1-13, 2-10, 3-12, 4-9, 6-7) never meet."""
    _, figures, facts, notes = run("sanma-14.txt")
    assert facts["faults"] == ["14 players (0..13), but the file names 14; counted as extra "
                               "players"]
    assert expectations(facts) == {"games: 6; 5 8: 7": False}
    games = facts["games_per_player"]
    assert games["14"] == 1 and games["5"] == games["8"] == 7
    assert {g for p, g in games.items() if p not in ("5", "8", "14")} == {6}
    assert figures["players"] == 15 and facts["pairs_by_meetings"] == {"0": 18, "1": 87}
    assert "DOES NOT HOLD" in notes["Expected games: 6; 5 8: 7"]


def test_sanma_lists_that_are_not_coverings():
    """For 10, 11, 12, 16, 17, 18 players some pairs never meet (the spec does not claim
    otherwise); our covering_triples has every pair meet in the fewest games."""
    never = {n: run(f"sanma-{n:02d}.txt")[2]["pairs_by_meetings"].get("0", 0)
             for n in (10, 11, 12, 16, 17, 18)}
    assert never == {10: 1, 11: 10, 12: 6, 16: 1, 17: 16, 18: 9}


def test_game_list_one_game_per_hanchan():
    text = "# pack: no\n[[0, 1, 2], [3, 4, 5], [0, 3, 6], [1, 4, 7]]\n"
    schedule = audit.parse(text, ".txt", "t")
    assert schedule.plan.shape == (4, 1, 3)
    packed = audit.parse(text.replace("no", "yes"), ".txt", "t")
    assert packed.plan.shape == (2, 2, 3)  # first fit: [0 1 2][3 4 5], then [0 3 6][1 4 7]
    f1 = audit.audit(schedule)[3]
    f2 = audit.audit(packed)[3]
    assert f1["games_per_player"] == f2["games_per_player"]


# ---- the tested blocks of 4 and the Dutch tables (000) ----------------------------------


def fewest_table_visits(plan, rounds):
    """Over every renumbering of the tables of rounds 2.. (round 1 fixed), the smallest
    (most visits of a player to one table, number of players with that many): exhaustive
    for 4 tables, the last two rounds vectorized."""
    tab = np.zeros((rounds, 16), dtype=np.int64)
    for h in range(rounds):
        for t in range(4):
            tab[h, plan[h, t]] = t
    perms = np.array(list(permutations(range(4))))
    onehot = np.zeros((rounds, len(perms), 16, 4), dtype=np.int8)
    for h in range(rounds):
        onehot[h, np.arange(len(perms))[:, None], np.arange(16), perms[:, tab[h]]] = 1
    best = None
    for head in product(range(len(perms)), repeat=rounds - 3):
        v = onehot[0, 0] + sum(onehot[h + 1, k] for h, k in enumerate(head))
        total = v + onehot[rounds - 2][:, None] + onehot[rounds - 1][None, :]
        most = total.max(axis=-1)
        top = most.max(axis=-1)
        key = min(zip(top.ravel().tolist(), (most == top[..., None]).sum(axis=-1).ravel().tolist()))
        best = key if best is None else min(best, key)
    return best


def test_block_16_meets_everyone_once_but_not_its_table_claims():
    """Spec: 'In 4 rounds, players 13 and 15 will have to play the same table 3 times. In 5
    rounds, add players 4, 6, 11 and 14. This is unavoidable, the alternative being that
    players will play 4 times on a table. ... This match-up is solved.'"""
    schedule, figures, facts, notes = run("block-16.txt")
    assert expectations(facts) == {"pairs: 1": True,
                                   "table visits: 2; 4 6 11 13 14 15: 3": False}
    assert figures["repeat_meetings"] == 0 and facts["pairs_by_meetings"] == {"1": 120}
    thrice = [p for p, v in facts["most_visits_to_one_table"].items() if v == 3]
    # as printed, players 05 and 16 sit at one table 3 times too (8 players, not 6)
    assert thrice == ["04", "05", "06", "11", "13", "14", "15", "16"]
    four = audit.Schedule("t", schedule.plan[:4], schedule.labels, schedule.countries, True, "")
    _, _, _, facts4, _ = audit.audit(four)
    assert [p for p, v in facts4["most_visits_to_one_table"].items() if v == 3] == ["13", "15"]
    # 'have to' and 'unavoidable' are too strong: with other table numbers, 4 rounds need no
    # player 3 times at a table (2 at most, for 12 players), and 5 rounds need only 4
    # players 3 times (3 times is unavoidable in 5 rounds, 8 players is not)
    plan = schedule.plan
    assert fewest_table_visits(plan, 4) == (2, 12)
    assert fewest_table_visits(plan, 5) == (3, 4)
    # winds as printed (seat order E S W N): counts balanced, 4 same winds back to back,
    # which the spec's principles allow
    assert [figures[k] for k in ("wind_count_bad", "day_wind_bad", "prefix_wind_bad",
                                 "consecutive_same_wind")] == [0, 0, 0, 4]
    assert "DOES NOT HOLD" in notes["Expected table visits: 2; 4 6 11 13 14 15: 3"]


def test_block_16_letters_are_the_raw_data():
    assert (read("block-16-letters.txt").plan == read("block-16.txt").plan).all()


def test_dutch_28_table_seats_three_players_twice_in_round_1():
    """The spec's '28 Players Dutch' round 1 ends with the table 25,26,27,28 where the Dutch
    cycle has 07,14,21,28: 25, 26, 27 sit twice, 07, 14, 21 not at all. Otherwise it is
    exactly our dutch_cycle(28, 7) and keeps 'Opponent, Wind, Table' balanced."""
    schedule, figures, facts, notes = run("dutch-28.txt")
    assert facts["faults"] == ["hanchan 1: 25, 26, 27 seated twice"]
    assert expectations(facts) == {"games: 7": False, "repeats: 0": True,
                                   "table visits: 1": False}
    assert {p for p, g in facts["games_per_player"].items() if g == 6} == {"07", "14", "21"}
    ours = designs.dutch_cycle(28, 7)
    differ = np.argwhere(schedule.plan != ours)
    assert {tuple(x) for x in differ.tolist()} == {(0, 6, 0), (0, 6, 1), (0, 6, 2)}
    fixed = audit.Schedule("t", ours, schedule.labels, schedule.countries, True, "")
    f = audit.audit(fixed)[2]
    assert [f[k] for k in ("repeat_meetings", "wind_count_bad", "day_wind_bad", "prefix_wind_bad",
                           "consecutive_same_wind", "table_repeats")] == [0] * 6
    assert "Faults in the file" in notes and "DOES NOT HOLD" in notes["Expected games: 7"]


def test_dutch_44_blocks():
    """The '44 Players Dutch' block (xx = unknown) agrees seat for seat with dutch_cycle(44).
    The sample of table 1 and of player 04 (players numbered linearly) agrees as tables for
    player 04 in every round and for table 1 in rounds 1-7; its table-1 rows for rounds 8-11
    are wrong: round 8 {01, 19, 26, 44} is no Dutch table, rounds 9-11 are the tables of
    rounds 8-10 (so player 39 sits twice in round 10)."""
    xx = read("dutch-44.txt")
    known = xx.plan >= 0
    assert known.sum() == 61
    assert (xx.plan[known] == designs.dutch_cycle(44, 7)[known]).all()

    sample, _, facts, _ = run("dutch-44-sample.csv")
    assert facts["faults"][0] == "hanchan 10: 39 seated twice"
    ours = designs.dutch_cycle(44)
    linear = 4 * (ours % 11) + ours // 11 + 1  # place i*11 + t is player 4t + i + 1
    number = [int(name) for name in sample.labels]

    def table(h, t):
        return sorted(number[p] for p in sample.plan[h, t] if p >= 0)

    four = sample.labels.index("04")
    for h in range(11):
        t = int(np.argwhere(sample.plan[h] == four)[0, 0])
        assert table(h, t) == sorted(linear[h, t].tolist())  # same table number, same players
    same = [table(h, 0) == sorted(linear[h, 0].tolist()) for h in range(11)]
    assert same == [True] * 7 + [False] * 4
    assert [table(h, 0) for h in (8, 9, 10)] == [sorted(linear[h, 0].tolist()) for h in (7, 8, 9)]
    assert table(7, 0) == [1, 19, 26, 44]


def test_block_24_letters_seat_e_twice():
    """Round 6 'AEPS IOXC QWHK BEDV FJLM NRTU' seats E twice and leaves out G; with G for
    the E of AEPS the block is repeat-free."""
    schedule, figures, facts, _ = run("block-24-letters.txt")
    assert facts["faults"] == ["hanchan 6: E seated twice"]
    assert figures["repeat_meetings"] == 3 and facts["games_per_player"]["G"] == 6
    fixed = schedule.plan.copy()
    fixed[5, 0, 1] = schedule.labels.index("G")
    assert recount(audit.event_of(schedule)[0], fixed, winds_known=False)[
        "repeat_meetings"] == 0


@pytest.mark.parametrize("name, rounds, never", [
    ("block-20-letters.txt", 5, 40), ("block-28-letters.txt", 9, 0),
    ("block-32-letters.txt", 10, 16), ("block-36.txt", 8, 198), ("block-40a.txt", 9, 240),
    ("league-25.txt", 6, 0), ("league-30.txt", 6, 75), ("league-40.txt", 6, 300),
    ("league-45.txt", 6, 450), ("league-50.txt", 7, 525),
])
def test_tested_blocks_are_repeat_free(name, rounds, never):
    """The 28-player block of 9 rounds is a resolvable (28, 4, 1) design and the 25-player
    league block is AG(2, 5): everybody meets everybody once. The league blocks are 'good for
    6+ sessions' (no repeat), with tables of 5."""
    _, figures, facts, _ = run(name)
    assert figures["hanchans"] == rounds and figures["repeat_meetings"] == 0
    assert facts["faults"] == [] and all(e["holds"] for e in facts["expectations"])
    assert facts["pairs_by_meetings"].get("0", 0) == never


def test_block_20a_is_imperfect_as_it_says():
    """'This is not a solution to the Social Golfer Problem ... This match-up is imperfect.'"""
    _, figures, facts, _ = run("block-20a.txt")
    assert figures["repeat_meetings"] == 27 and facts["repeat_free_hanchans"] == 3
    assert figures["table_max_visits"] == 3  # 'Table' balance: at most one round in 3 of 7


def test_league_25_is_the_affine_plane():
    assert (read("league-25.txt").plan == designs.affine_geometry(5)).all()


# ---- the CSV format and events --------------------------------------------------------


def test_csv_countries_and_own_countries():
    text = ("hanchan,table,wind,place,country,area\n"
            "1,1,E,POL 2,POL,Main\n1,1,S,Anna,,Main\n1,1,W,POL 10,POL,Main\n1,1,N,Bob,,Main\n"
            "2,1,E,Anna,,Main\n2,1,S,Bob,,Main\n2,1,W,POL 2,POL,Main\n2,1,N,Carl,DEU,Main\n")
    schedule = audit.parse(text, ".csv", "t")
    event, plan = audit.event_of(schedule)
    assert event.country_codes == ["Anna", "Bob", "DEU", "POL"]
    assert event.place_names == ["Anna", "Bob", "Carl", "POL 2", "POL 10"]
    f = recount(event, plan)
    assert f["compatriot_meetings"] == 1 and f["games_min"] == 1
    assert f["wind_count_bad"] is None  # POL 10 and Carl sit out a hanchan


def test_csv_faults_and_unknown_winds():
    text = "hanchan,table,wind,place\n1,1,E,a\n1,1,E,b\n1,1,,c\n1,2,,a\n"
    schedule = audit.parse(text, ".csv", "t")
    assert "hanchan 1, table 1: seat 1 given twice" in schedule.faults
    assert "hanchan 1: a seated twice" in schedule.faults
    assert not schedule.winds_known
    with pytest.raises(audit.ScheduleError, match="lacks the column"):
        audit.parse("hanchan,place\n1,a\n", ".csv", "t")


BLOCK_16 = """01,05,09,13, 02,06,10,14, 03,07,11,15, 04,08,12,16
07,04,13,10, 06,01,16,11, 05,02,15,12, 08,03,14,09
"""


@pytest.mark.parametrize("text, message", [
    ("# players: 16# numbering: 1\n" + BLOCK_16, "players: '16# numbering: 1' is not a whole"),
    ("# numbering: one\n" + BLOCK_16, "numbering: 'one' is not a whole number"),
    ("# expect games: 22 games\n" + BLOCK_16, "expectation: '22 games' is not a whole"),
    ("# expect repeats: none\n" + BLOCK_16, "expect repeats: 'none' is not a whole number"),
    ("# table size: four\n" + BLOCK_16, "table size: 'four' is not a whole number"),
    (BLOCK_16.replace("16\n", "1016\n", 1), "player number 1016 is far above the 16 seats"),
    ("# players: 20000\n" + BLOCK_16, "players: 20000 is far above the 16 seats"),
])
def test_mistyped_numbers_are_one_line_errors(text, message):
    """Numbers in settings and expectations that are not whole numbers, and player numbers
    far beyond the seats of a round (a typo that would make thousands of players who never
    play, and gigabytes of recount), stop the audit with one line naming them (found by a
    fuzz of the stored audit files: ValueError tracebacks and a run that took 7 GB)."""
    with pytest.raises(audit.ScheduleError) as error:
        audit.audit(audit.parse(text, ".txt", "t"))
    assert message in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize("text, message", [
    ("hanchan,table,place\n1,1,a\n1,1,b\n200000,1,c\n", "hanchan 200000 is far above the 2"),
    ("hanchan,table,place\n1,1,a\n1,2,b\n1,90000,c\n", "table 90000 is far above the 3"),
    ("# a comment\n\nhanchan,table,place\n1,1,a\n# another\n\nx,1,b\n",
     "line 7: hanchan and table must be whole numbers"),
    ("hanchan,table,place\n1,1,a\n1_0,1,b\n", "line 3: hanchan and table must be whole"),
    ("hanchan,table,wind,place\n1,1,1,a\n1,1,1000000000,b\n",
     "seat 1000000000 is far above the 2 places of the fullest table"),
])
def test_csv_typos_are_one_line_errors(text, message):
    """A typo in a hanchan or table number stops the audit with one line (it made a report
    of 200,000 hanchans, 16 MB), and a bad row is named by its line in the file, comments
    and blank lines counted (found by a fuzz of audit files)."""
    with pytest.raises(audit.ScheduleError, match=message) as caught:
        audit.parse(text, ".csv", "t")
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("suffix", [".csv", ".txt"])
def test_a_byte_order_mark_is_read_as_nothing(suffix):
    """Spreadsheets and Notepad write a byte order mark first; it was read as part of the
    header (a missing column) or of the first player number."""
    text = ("# claim: a test\nhanchan,table,wind,place\n1,1,E,a\n1,1,S,b\n1,1,W,c\n1,1,N,d\n"
            if suffix == ".csv" else "# claim: a test\n" + BLOCK_16)
    plain = audit.parse(text, suffix, "t")
    marked = audit.parse("\ufeff" + text, suffix, "t")
    assert marked.labels == plain.labels and (marked.plan == plain.plan).all()


def test_report_shows_the_claims():
    schedule = read("dutch-28.txt")
    event, plan, figures, _, notes = audit.audit(schedule)
    template = (ROOT / "workflow" / "templates" / "report.html.j2").read_text(encoding="utf-8")
    page = render(event, plan, figures, template, extra=notes)
    assert "25, 26, 27 seated twice" in page and "DOES NOT HOLD" in page
    assert "every player plays all 7 rounds" in page


# ---- end to end -----------------------------------------------------------------------


def test_snakemake_audit_end_to_end(tmp_path):
    work = tmp_path / "work"
    (work / "audit").mkdir(parents=True)
    shutil.copy(SPEC / "dutch-28.txt", work / "audit" / "spec-dutch-28.txt")
    cmd = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "-d", str(work),
           "-c1", "--quiet", "--", "results/audit/spec-dutch-28/report.html"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    out = work / "results" / "audit" / "spec-dutch-28"
    check = json.loads((out / "check.json").read_text(encoding="utf-8"))
    schedule = read("dutch-28.txt")
    event, plan = audit.event_of(schedule)
    keys = set(public(recount(event, plan, winds_known=True)))
    assert set(check) == keys | {"targets", "audit"}  # the championship's keys, and the audit
    assert check["players"] == 28 and check["hanchans"] == 7 and check["repeat_meetings"] == 0
    assert check["games_min"] == 6 and check["games_max"] == 7
    assert check["audit"]["faults"] == ["hanchan 1: 25, 26, 27 seated twice"]
    assert [e["holds"] for e in check["audit"]["expectations"]] == [False, True, False]
    assert "DOES NOT HOLD" in (out / "report.html").read_text(encoding="utf-8")
    # a bad expectation (raised by the recount, not the reading) and bytes that are not
    # UTF-8: one line each, no traceback, no report
    (work / "audit" / "bad-claim.txt").write_text("# expect repeats: none\n" + BLOCK_16)
    (work / "audit" / "latin.csv").write_bytes("hanchan,table,place\n1,1,\xe9\n".encode("latin-1"))
    cmd = cmd[:-2] + ["-k", "--", "results/audit/bad-claim/report.html",
                      "results/audit/latin/report.html"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode != 0
    assert "expect repeats: 'none' is not a whole number" in done.stderr
    assert "latin.csv: not UTF-8 text (byte 0xe9 at byte 25)" in done.stderr
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    for name in ("bad-claim", "latin"):
        assert not (work / "results" / "audit" / name / "report.html").exists()
