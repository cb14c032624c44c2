"""Publishing: the seating chart (before the draw), the live draw (with a draw key in the
config) and the files other event software reads. docs/publishing.md explains the order.
"""

import os

DRAW = config.get("draw")
if DRAW and not Path(DRAW["roster"]).is_file():
    # Snakemake's own words for a missing input are many lines, and after an earlier draw
    # it reported nothing to be done, leaving that draw's cards in place
    print(
        f"config error: draw.roster: no file {DRAW['roster']!r} (from {os.getcwd()})",
        file=sys.stderr,
    )
    sys.exit(1)
TEMPLATES = f"{workflow.basedir}/workflow/templates"

CHART_OUTPUTS = [
    f"{OUT}/chart.csv",
    f"{OUT}/chart.sha256",
    f"{OUT}/chart.html",
    f"{OUT}/tables.html",
]
EXPORT_OUTPUTS = [
    f"{OUT}/export/pantheon.txt",
    f"{OUT}/export/grid.csv",
    f"{OUT}/export/tables.csv",
    f"{OUT}/export/players.csv",
    f"{OUT}/export/plan.json",
]
DRAW_OUTPUTS = [
    f"{OUT}/draw.csv",
    f"{OUT}/draw.json",
    f"{OUT}/cards.html",
    f"{OUT}/tables-names.html",
]
# what `rule all` builds besides the plan: the chart and exports, and the draw if configured
PUBLISH_OUTPUTS = CHART_OUTPUTS + EXPORT_OUTPUTS + (DRAW_OUTPUTS if DRAW else [])
# the plan these rules read: the tables stage's seating.csv, the very bytes `publish` copies
# to results/<event>/seating.csv; reading it here builds the chart while the check runs
PLAN = stage(6, "tables", "seating.csv")


rule chart:
    """The seating chart for numbered places, its SHA-256 and the sheets for each table."""
    input:
        seating=PLAN,
        chart_template=f"{TEMPLATES}/chart.html.j2",
        sheets_template=f"{TEMPLATES}/sheets.html.j2",
    output:
        chart=CHART_OUTPUTS[0],
        sha256=CHART_OUTPUTS[1],
        html=CHART_OUTPUTS[2],
        tables=CHART_OUTPUTS[3],
    log:
        log_of("chart"),
    params:
        event=EVENT_CORE,
        # without a draw key, the files of an earlier draw that no longer match the chart
        stale_draw=[] if DRAW else DRAW_OUTPUTS,
        draw_record=DRAW_OUTPUTS[1],
    script:
        "../../scripts/chart.py"


if DRAW:

    rule draw:
        """The live draw: players to their country's places, schedule cards, named sheets."""
        input:
            seating=PLAN,
            chart=rules.chart.output.chart,
            sha256=rules.chart.output.sha256,
            roster=DRAW["roster"],
            cards_template=f"{TEMPLATES}/cards.html.j2",
            sheets_template=f"{TEMPLATES}/sheets.html.j2",
        output:
            draw=DRAW_OUTPUTS[0],
            record=DRAW_OUTPUTS[1],
            cards=DRAW_OUTPUTS[2],
            tables=DRAW_OUTPUTS[3],
        log:
            log_of("draw"),
        params:
            event=EVENT_CORE,
            public_input=DRAW["public_input"],
        script:
            "../../scripts/draw.py"


rule exports:
    """Pantheon's prescripted seating, grid and table CSVs, player numbers, the plan as JSON."""
    input:
        seating=PLAN,
        chart=rules.chart.output.chart,
        draw=DRAW_OUTPUTS[0] if DRAW else [],
        record=DRAW_OUTPUTS[1] if DRAW else [],
    output:
        pantheon=EXPORT_OUTPUTS[0],
        grid=EXPORT_OUTPUTS[1],
        tables=EXPORT_OUTPUTS[2],
        players=EXPORT_OUTPUTS[3],
        plan=EXPORT_OUTPUTS[4],
    log:
        log_of("exports"),
    params:
        event=EVENT_CORE,
    script:
        "../../scripts/exports.py"
