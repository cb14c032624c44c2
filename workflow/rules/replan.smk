rule replan:
    """Re-plan the hanchans not yet played after a change (changes/<change>.yaml):
    withdrawals with substitutes, tables replaced by spares; played hanchans never change.
    """
    input:
        change="changes/{change}.yaml",
        seating=f"{OUT}/seating.csv",
        template=f"{workflow.basedir}/workflow/templates/report.html.j2",
    output:
        seating=f"{OUT}/replan/{{change}}/seating.csv",
        changes=f"{OUT}/replan/{{change}}/changes.csv",
        check=f"{OUT}/replan/{{change}}/check.json",
        report=f"{OUT}/replan/{{change}}/report.html",
    log:
        log_of("replan-{change}"),
    params:
        event=EVENT_CORE,
        search=SEARCH,
    script:
        "../../scripts/replan.py"
