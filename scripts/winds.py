"""Stage 5, winds: every place at its seat's wind, spread out by swaps (seating.winds)."""

from seating import io
from seating.event import from_config
from seating.winds import assign_winds


def main(smk):
    event = from_config({**smk.params.event, "search": smk.params.search})
    log = io.Log(smk.log[0])
    plan = io.read_groups(smk.input.groups, event)
    plan, faults = assign_winds(plan, event.days, event.seed + 5, event.search["wind_moves"],
                                repair_steps=event.search["wind_repair_moves"], log=log)
    io.write_groups(smk.output.groups, event, plan)
    io.write_json(smk.output.summary, {"weighted_wind_faults": faults})
    log(f"winds: {faults} weighted rule breaks left")


io.run_stage(main, snakemake)  # noqa: F821
