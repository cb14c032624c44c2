"""Re-plan after a change during the event (seating.replan), then recount everything."""

import sys
from pathlib import Path

import yaml

from seating import io
from seating.check import public, recount
from seating.event import ConfigError, from_config
from seating.replan import replan
from seating.report import render
from seating.rules import GOAL_NAMES, targets


def main(smk):
    event = from_config({**smk.params.event, "search": smk.params.search})
    log = io.Log(smk.log[0])
    try:
        change = io.load_yaml(Path(smk.input.change).read_text(encoding="utf-8-sig"))
        seating = io.read_seating(smk.input.seating, event)
        new, result, changes = replan(event, seating, change, log)
    except (ConfigError, yaml.YAMLError, UnicodeDecodeError) as error:
        print(f"change error: {smk.input.change}: {io.one_line(error)}", file=sys.stderr)
        sys.exit(1)
    io.write_seating(smk.output.seating, new, result)
    rows = [(c["place"], h["hanchan"], h["before"], h["after"])
            for c in changes for h in c["hanchans"]]
    io.write_rows(smk.output.changes, ["place", "hanchan", "before", "after"], rows)
    figures = recount(new, result)
    goal_targets = {GOAL_NAMES[g]: t for g, t in targets(new).items()}
    io.write_json(smk.output.check, {**public(figures), "targets": goal_targets,
                                     "replan": {"after_hanchan": new.changed_from,
                                                "places_changed": len(changes)}})
    template = Path(smk.input.template).read_text(encoding="utf-8")
    extra = {"Re-planned": f"after hanchan {new.changed_from}: hanchans 1-{new.changed_from} "
                           "as played",
             "Places whose seats changed": f"{len(changes)} (changes.csv lists them)"}
    io.write_text(smk.output.report, render(new, result, figures, template, goal_targets,
                                            extra=extra))
    log(f"replan: {len(changes)} places changed seats; {figures['repeat_meetings']} repeats, "
        f"{figures['compatriot_meetings']} compatriot meetings over the whole event")


io.run_stage(main, snakemake)  # noqa: F821
