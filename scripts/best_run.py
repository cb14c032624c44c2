"""Keep the best of the independent searches by the order of the goals (seating.goals).

The hard meeting rules come first; then a run whose planned winds break a rule (a design
start with free seats) is kept only when every run does (seating.rules.run_key).
"""

from seating import io
from seating.check import public, recount
from seating.event import from_config
from seating.rules import WIND_RULES, run_key, targets


def main(smk):
    event = from_config({**smk.params.event, "search": smk.params.search})
    log = io.Log(smk.log[0])
    goal_targets = targets(event)
    methods = [io.read_json(path)["method"] for path in smk.input.drafts]
    runs = []
    for run, path in enumerate(smk.input.groups):
        plan = io.read_groups(path, event)
        figures = public(recount(event, plan))
        figures["wind_faults"] = sum(figures[k] for k in WIND_RULES)  # seats = planned winds
        runs.append((run_key(figures, goal_targets), run, plan, figures))
    _, best, plan, _ = min(runs, key=lambda r: (r[0], r[1]))
    io.write_groups(smk.output.groups, event, plan)
    keys = ["wind_faults", "repeat_meetings", "compatriot_meetings", "unlinked_pairs",
            "indirect_min",
            "countries_met_min", "day_mix_max_excess", "day_mix_two_off",
            "total_mix_max_excess", "total_mix_two_off", "back_to_back_country"]
    stopped = sorted({path.split("/")[-3] + " " + path.split("/")[-2] for path in smk.input.searches
                      if io.read_json(path).get("hit_time_limit")})
    io.write_json(smk.output.summary, {
        "kept_run": best,
        "time_limit_hit": stopped,
        "runs": [{"run": run, "draft": methods[run], **{k: figures[k] for k in keys}}
                 for _, run, _, figures in runs],
    })
    for _, run, _, figures in runs:
        log(f"run {run} ({methods[run]}): " + ", ".join(f"{k} {figures[k]}" for k in keys)
            + ("  <- kept" if run == best else ""))


io.run_stage(main, snakemake)  # noqa: F821
