"""Stage 2, draft: valid wind patterns, then a greedy plan (seating.winds, seating.draft)."""

import numpy as np

from seating import io
from seating.check import meetings
from seating.draft import draft, from_design
from seating.event import for_run, from_config
from seating.winds import choose_patterns


def main(smk):
    event = for_run(from_config(smk.params.event), smk.wildcards.run)
    log = io.Log(smk.log[0])
    places = [row["place"] for row in io.read_rows(smk.input.places)]
    if places != event.place_names:
        raise ValueError(f"{smk.input.places} does not list this event's places")
    made = None
    if int(smk.wildcards.run) == smk.params.design_run:
        made = from_design(event.country_of, event.hanchans, event.days, event.table_size,
                           event.seed)
        if made is None:
            log("draft: no design has enough repeat-free rounds; greedy draft instead")
    if made is not None:
        plan, method = made
    else:
        rng = np.random.default_rng(event.seed)
        patterns = choose_patterns(event.players, event.days, event.table_size, rng)
        plan = draft(event.country_of, patterns.T.copy(), event.table_size, event.seed + 2)
        method = "greedy (Triska & Musliu) over valid wind patterns"
    io.write_groups(smk.output.groups, event, plan)
    meet = meetings(plan, event.players)
    repeats = int(np.maximum(np.triu(meet, 1) - 1, 0).sum())
    compat = event.country_of[:, None] == event.country_of[None, :]
    summary = {"method": method, "repeat_meetings": repeats,
               "compatriot_meetings": int(np.triu(np.where(compat, meet, 0), 1).sum())}
    io.write_json(smk.output.summary, summary)
    log(f"draft ({method}): {repeats} repeat meetings, "
        f"{summary['compatriot_meetings']} compatriot meetings")


main(snakemake)  # noqa: F821
