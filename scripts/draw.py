"""The live draw: players to places of their country (seating.draw), then draw.csv, the
players' schedule cards and the table sheets with names.

Every check runs before anything is written; a failed check stops with one line
(``draw error: ...``) and a non-zero exit, and Snakemake removes this rule's outputs.
"""

from pathlib import Path

from seating import io
from seating import publish as pub
from seating.draw import RosterError, check_roster, draw, draw_seed, read_roster, sha256_hex
from seating.event import from_config


def main(smk):
    event = from_config(smk.params.event)
    log = io.Log(smk.log[0])
    seating = io.read_seating(smk.input.seating, event)
    chart = Path(smk.input.chart).read_bytes()
    chart_sha = sha256_hex(chart)
    published = Path(smk.input.sha256).read_text(encoding="utf-8").split()
    if chart != pub.chart_text(event, seating).encode("utf-8"):
        stop(log, f"{smk.input.chart} is not the chart of {smk.input.seating}; rebuild the chart")
    if not published or published[0] != chart_sha:
        stop(log, f"{smk.input.sha256} does not hold the SHA-256 of {smk.input.chart}")
    roster = Path(smk.input.roster).read_bytes()
    roster_sha = sha256_hex(roster)
    public_input = smk.params.public_input
    try:
        players = read_roster(roster)
        check_roster(event, players)
    except RosterError as error:
        stop(log, f"{error} ({smk.input.roster})")
    at_place = draw(event, players, chart_sha, roster_sha, public_input)
    record = {
        "chart_sha256": chart_sha,
        "roster": str(smk.input.roster),
        "roster_sha256": roster_sha,
        "public_input": public_input,
        "seed": draw_seed(chart_sha, roster_sha, public_input),
        "players": len(players),
        "ids": "roster id column" if any(p.id != p.row for p in players) else "roster order",
        "recipe": "docs/draw.md",
    }
    who = pub.holders(event, names=[p.name for p in at_place], ids=[p.id for p in at_place])
    facts = pub.event_facts(event)
    cards_page = pub.render(
        Path(smk.input.cards_template).read_text(encoding="utf-8"),
        facts=facts,
        draw=record,
        cards=pub.cards(event, seating, who),
    )
    sheets_page = pub.render(
        Path(smk.input.sheets_template).read_text(encoding="utf-8"),
        facts=facts,
        named=True,
        sheets=pub.table_sheets(event, seating, who),
    )
    io.write_text(smk.output.draw, pub.draw_text(event, at_place))
    io.write_json(smk.output.record, record)
    io.write_text(smk.output.cards, cards_page)
    io.write_text(smk.output.tables, sheets_page)
    log(f"draw: {len(players)} players to their places; public input {public_input!r}, "
        f"seed {record['seed']}")


def stop(log, message: str):
    """One line for the organizer, then a non-zero exit (Snakemake removes the outputs)."""
    log(f"draw error: {message}")
    raise SystemExit(1)


io.run_stage(main, snakemake)  # noqa: F821
