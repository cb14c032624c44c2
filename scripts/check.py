"""Stage 7, check: recount every rule from the seating alone (seating.check, seating.report)."""

from pathlib import Path

from seating import io
from seating.check import public, recount
from seating.event import from_config
from seating.report import render
from seating.rules import GOAL_NAMES, targets


def main(smk):
    event = from_config({**smk.params.event, "search": smk.params.search})
    log = io.Log(smk.log[0])
    seating = io.read_seating(smk.input.seating, event)
    figures = recount(event, seating)
    goal_targets = {GOAL_NAMES[g]: t for g, t in targets(event).items()}
    runs = io.read_json(smk.input.runs)
    io.write_json(smk.output.check, {**public(figures), "targets": goal_targets,
                                     "time_limit_hit": runs["time_limit_hit"]})
    template = Path(smk.input.template).read_text(encoding="utf-8")
    extra = {}
    if runs["time_limit_hit"]:
        extra["Search stopped by its time limit"] = (
            ", ".join(runs["time_limit_hit"]) + ": goals marked ✗ may be reachable with "
            "more time (search.time_limit)")
    io.write_text(smk.output.report, render(event, seating, figures, template, goal_targets,
                                            extra=extra, runs=runs))
    log(f"check: {figures['repeat_meetings']} repeats, {figures['compatriot_meetings']} "
        f"compatriot, {figures['unlinked_pairs']} unlinked, countries met "
        f"{figures['countries_met_min']}..{figures['countries_met_max']}, back to back "
        f"{figures['back_to_back_country']}")


io.run_stage(main, snakemake)  # noqa: F821
