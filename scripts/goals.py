"""Stage 4, the finer goals, each locked before the next (seating.goals)."""

from seating import io
from seating.draft import seat_keys
from seating.event import for_run, from_config
from seating.goals import improve_goals


def main(smk):
    event = for_run(from_config({**smk.params.event, "search": smk.params.search}),
                    smk.wildcards.run)
    log = io.Log(smk.log[0])
    plan = io.read_groups(smk.input.groups, event)
    search = event.search
    plan, _, summary = improve_goals(event, plan, seat_keys(event, plan), search["goal_moves"],
                                     search["time_limit"], log, steps=search["anneal_steps"],
                                     b2b_steps=search.get("back_to_back_steps"))
    io.write_groups(smk.output.groups, event, plan)
    io.write_json(smk.output.summary, summary)


io.run_stage(main, snakemake)  # noqa: F821
