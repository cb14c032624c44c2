rule check:
    """Recount every rule from the seating alone: check.json and the report."""
    input:
        seating=rules.tables.output.seating,
        runs=rules.best_run.output.summary,
        template=f"{workflow.basedir}/workflow/templates/report.html.j2",
    output:
        check=stage(7, "check", "check.json"),
        report=stage(7, "check", "report.html"),
    log:
        log_of("check"),
    params:
        event=EVENT_CORE,
        search=SEARCH,
    script:
        "../../scripts/check.py"


rule publish:
    """The final files at the top of results/<event>/."""
    input:
        seating=rules.tables.output.seating,
        check=rules.check.output.check,
        report=rules.check.output.report,
    output:
        seating=f"{OUT}/seating.csv",
        check=f"{OUT}/check.json",
        report=f"{OUT}/report.html",
    localrule: True
    shell:
        "cp {input.seating} {output.seating} && cp {input.check} {output.check}"
        " && cp {input.report} {output.report}"
