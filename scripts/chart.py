"""Seating chart before the draw: chart.csv, its SHA-256, chart.html and the table sheets."""

from pathlib import Path

from seating import io
from seating import publish as pub
from seating.draw import sha256_hex
from seating.event import from_config


def main(smk):
    event = from_config(smk.params.event)
    log = io.Log(smk.log[0])
    seating = io.read_seating(smk.input.seating, event)
    text = pub.chart_text(event, seating)
    digest = sha256_hex(text)
    who = pub.holders(event)
    facts = pub.event_facts(event)
    chart_page = pub.render(
        Path(smk.input.chart_template).read_text(encoding="utf-8"),
        facts=facts,
        chart_sha=digest,
        hanchans=pub.hanchan_tables(event, seating, who),
        countries=pub.by_country(event, pub.schedules(event, seating, who)),
    )
    sheets_page = pub.render(
        Path(smk.input.sheets_template).read_text(encoding="utf-8"),
        facts=facts,
        named=False,
        sheets=pub.table_sheets(event, seating, who),
    )
    io.write_text(smk.output.chart, text)
    io.write_text(smk.output.html, chart_page)
    io.write_text(smk.output.tables, sheets_page)
    io.write_text(smk.output.sha256, pub.sha256_line(digest, Path(smk.output.chart).name))
    log(f"chart: {event.hanchans} hanchans x {event.tables} tables, chart.csv SHA-256 {digest}")
    # an earlier draw left beside a new chart (the config lost its draw key): its cards name
    # the places of another chart, so they go, as the draw rule's own outputs go with it
    record = Path(smk.params.draw_record)
    if smk.params.stale_draw and record.exists():
        drawn = io.read_json(record).get("chart_sha256")
        if drawn != digest:
            for name in smk.params.stale_draw:
                Path(name).unlink(missing_ok=True)
            log(f"chart: removed the draw of an earlier chart ({drawn}): "
                + ", ".join(Path(name).name for name in smk.params.stale_draw))


io.run_stage(main, snakemake)  # noqa: F821
