"""Stage 3, swaps: no repeat and no avoidable compatriot meeting (seating.swaps)."""

from seating import io
from seating.draft import seat_keys
from seating.event import for_run, from_config
from seating.swaps import improve_meetings


def main(smk):
    event = for_run(from_config({**smk.params.event, "search": smk.params.search}),
                    smk.wildcards.run)
    log = io.Log(smk.log[0])
    plan = io.read_groups(smk.input.groups, event)
    search = event.search
    plan, summary = improve_meetings(event, plan, seat_keys(event, plan), search["swap_moves"],
                                     search["time_limit"], log)
    io.write_groups(smk.output.groups, event, plan)
    io.write_json(smk.output.summary, summary)


io.run_stage(main, snakemake)  # noqa: F821
