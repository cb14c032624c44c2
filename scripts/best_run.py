"""Keep the best of the independent searches by the order of the goals (seating.goals)."""

from seating import io
from seating.check import public, recount
from seating.event import from_config
from seating.goals import rank_key, targets


def main(smk):
    event = from_config({**smk.params.event, "search": smk.params.search})
    log = io.Log(smk.log[0])
    goal_targets = targets(event)
    runs = []
    for run, path in enumerate(smk.input.groups):
        plan = io.read_groups(path, event)
        figures = public(recount(event, plan))
        runs.append((rank_key(figures, goal_targets), run, plan, figures))
    key, best, plan, _ = min(runs, key=lambda r: (r[0], r[1]))
    io.write_groups(smk.output.groups, event, plan)
    keys = ["repeat_meetings", "compatriot_meetings", "unlinked_pairs", "indirect_min",
            "countries_met_min", "day_mix_max_excess", "total_mix_max_excess",
            "back_to_back_country"]
    io.write_json(smk.output.summary, {
        "kept_run": best,
        "runs": [{"run": run, **{k: figures[k] for k in keys}} for _, run, _, figures in runs],
    })
    for _, run, _, figures in runs:
        log(f"run {run}: " + ", ".join(f"{k} {figures[k]}" for k in keys)
            + ("  <- kept" if run == best else ""))


main(snakemake)  # noqa: F821
