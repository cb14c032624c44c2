"""Audit: recount any schedule (audit/<name>.csv or .txt) with the championship's check and
report (seating.audit, seating.check, seating.report)."""

import sys
from pathlib import Path

from seating import audit, io
from seating.check import public
from seating.report import render
from seating.rules import GOAL_NAMES, targets


def main(smk):
    log = io.Log(smk.log[0])
    source = Path(smk.input.schedule)
    try:
        schedule = audit.parse(source.read_text(encoding="utf-8"), source.suffix, smk.params.name)
        event, seating, figures, facts, notes = audit.audit(schedule)  # its expectations, too
    except (audit.ScheduleError, UnicodeDecodeError) as error:
        log(f"audit: {source}: {io.one_line(error)}")
        sys.exit(1)
    goal_targets = {GOAL_NAMES[g]: t for g, t in targets(event).items()}
    record = {k: v for k, v in facts.items() if not k.startswith("_")}
    io.write_json(smk.output.check,
                  audit.plain({**public(figures), "targets": goal_targets, "audit": record}))
    template = Path(smk.input.template).read_text(encoding="utf-8")
    notes = {"Source": str(source), **notes}
    io.write_text(smk.output.report,
                  render(event, seating, figures, template, goal_targets, extra=notes))
    held = sum(e["holds"] for e in facts["expectations"])
    log(f"audit {source}: {facts['format']}; {figures['players']} players, "
        f"{figures['hanchans']} hanchans, games {figures['games_min']}..{figures['games_max']}, "
        f"{figures['repeat_meetings']} repeats, {len(facts['faults'])} faults, "
        f"claims {held}/{len(facts['expectations'])} hold")


io.run_stage(main, snakemake)  # noqa: F821
