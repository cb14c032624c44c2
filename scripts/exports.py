"""Files other event software reads: Pantheon's prescripted seating, a hanchan x table grid,
the 6-column table list, the players' numbers and the whole plan as JSON.

Numbers are the players' local ids from the draw (the roster's id column, else roster order);
before a draw, places are numbered in place order from 1.
"""

from pathlib import Path

from seating import io
from seating import publish as pub
from seating.draw import sha256_hex
from seating.event import from_config


def main(smk):
    event = from_config(smk.params.event)
    log = io.Log(smk.log[0])
    seating = io.read_seating(smk.input.seating, event)
    chart_sha = sha256_hex(Path(smk.input.chart).read_bytes())
    draw = None
    if smk.input.get("draw"):
        rows = io.read_rows(smk.input.draw)
        if [r["place"] for r in rows] != event.place_names:
            raise SystemExit(f"exports: {smk.input.draw} does not list the places of the chart")
        who = pub.holders(event, names=[r["name"] for r in rows], ids=[r["id"] for r in rows])
        draw = io.read_json(smk.input.record)
        numbering = f"draw: {draw['ids']}"
    else:
        who = pub.holders(event)
        numbering = "place order"
    io.write_text(smk.output.pantheon, pub.pantheon_text(seating, who))
    io.write_text(smk.output.grid, pub.grid_text(event, seating, who))
    io.write_text(smk.output.tables, pub.tables_text(seating, who))
    io.write_text(smk.output.players, pub.players_text(who))
    io.write_text(smk.output.plan, pub.plan_text(
        pub.plan_data(event, seating, who, chart_sha, numbering, draw)))
    log(f"exports: {event.hanchans} hanchans, {event.tables} tables; numbers: {numbering}")


io.run_stage(main, snakemake)  # noqa: F821
