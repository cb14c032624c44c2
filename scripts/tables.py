"""Stage 6, tables: Hungarian method per hanchan, renumbered while it improves (seating.tables)."""

from seating import io
from seating.event import from_config
from seating.tables import number_tables


def main(smk):
    event = from_config(smk.params.event)
    log = io.Log(smk.log[0])
    plan = io.read_groups(smk.input.groups, event)
    seating, summary = number_tables(event, plan, log=log)
    io.write_seating(smk.output.seating, event, seating)
    io.write_json(smk.output.summary,
                  {"tables": event.tables, "areas": dict(event.areas), **summary})
    held = f"; areas held: {summary['areas_held']}" if "areas_held" in summary else ""
    log(f"tables: {event.hanchans} hanchans numbered over {event.tables} tables; "
        f"exact renumbering: {summary['exact_renumbering']}{held}")


io.run_stage(main, snakemake)  # noqa: F821
