"""Seating plan of one tournament, in seven file-to-file stages.

    snakemake                             # the default event, config/config.yaml
    snakemake --configfile other.yaml     # exactly that event
    snakemake --forcerun goals            # re-run one stage (and what follows)

Each stage writes results/<event>/<NN>_<stage>/; results/<event>/ gets the final
seating.csv, check.json and report.html. The rules, in the order of the spec:
"""

from snakemake.utils import min_version

min_version("9.0")


include: "workflow/rules/common.smk"
include: "workflow/rules/publish.smk"  # chart, draw, exports (defines PUBLISH_OUTPUTS)


rule all:
    input:
        f"{OUT}/seating.csv",
        f"{OUT}/check.json",
        f"{OUT}/report.html",
        PUBLISH_OUTPUTS,


include: "workflow/rules/countries.smk"  # 1 places, size classes, compatriot weights
include: "workflow/rules/draft.smk"  # 2 wind patterns and a greedy first plan
include: "workflow/rules/swaps.smk"  # 3 no repeat, no avoidable compatriot meeting
include: "workflow/rules/goals.smk"  # 4 common opponents, countries, mix, back to back
include: "workflow/rules/winds.smk"  # 5 seat winds
include: "workflow/rules/tables.smk"  # 6 table numbers and areas
include: "workflow/rules/check.smk"  # 7 recount everything, report
include: "workflow/rules/audit.smk"  # audit any schedule: audit/<name>.csv|.txt
include: "workflow/rules/whist.smk"  # whist seeds: results/whist/seeds.html, results/whist/<P>/
include: "workflow/rules/replan.smk"  # changes during the event: changes/<change>.yaml
