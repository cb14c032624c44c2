"""One Z-cyclic whist seed expanded into a seating plan, through the wind and table stages,
recounted by the championship's check and report (seating.whist, seating.audit)."""

from pathlib import Path

from seating import audit, io, whist
from seating.check import public
from seating.report import render


def main(smk):
    log = io.Log(smk.log[0])
    row = whist.read_row(smk.input.seed)
    event, seating, figures, facts, notes = whist.seating_plan(
        row, seed=smk.params.seed, wind_steps=smk.params.wind_moves
    )
    record = {k: v for k, v in facts.items() if not k.startswith("_")}
    io.write_json(smk.output.check, audit.plain({**public(figures), "audit": record}))
    io.write_seating(smk.output.seating, event, seating)
    template = Path(smk.input.template).read_text(encoding="utf-8")
    notes = {"Source": str(smk.input.seed), **notes}
    io.write_text(smk.output.report, render(event, seating, figures, template, {}, extra=notes))
    log(
        f"whist {len(row)}: {facts['_pairs_text']}; partners once: {facts['partners_once']}, "
        f"opponents twice: {facts['opponents_twice']}"
    )


io.run_stage(main, snakemake)  # noqa: F821
