"""Stage 2, draft: the first plan (seating.draft.first_plan: a design, or greedy over valid
wind patterns)."""

import numpy as np

from seating import io
from seating.check import meetings
from seating.draft import first_plan
from seating.event import for_run, from_config


def main(smk):
    event = for_run(from_config(smk.params.event), smk.wildcards.run)
    log = io.Log(smk.log[0])
    places = [row["place"] for row in io.read_rows(smk.input.places)]
    if places != event.place_names:
        raise ValueError(f"{smk.input.places} does not list this event's places")
    design = int(smk.wildcards.run) == smk.params.design_run
    plan, method = first_plan(event, design, log)
    io.write_groups(smk.output.groups, event, plan)
    meet = meetings(plan, event.players)
    repeats = int(np.maximum(np.triu(meet, 1) - 1, 0).sum())
    compat = event.country_of[:, None] == event.country_of[None, :]
    summary = {"method": method, "repeat_meetings": repeats,
               "compatriot_meetings": int(np.triu(np.where(compat, meet, 0), 1).sum())}
    io.write_json(smk.output.summary, summary)
    log(f"draft ({method}): {repeats} repeat meetings, "
        f"{summary['compatriot_meetings']} compatriot meetings")


io.run_stage(main, snakemake)  # noqa: F821
