rule winds:
    """Seat winds: every place at its valid pattern, then winds spread out by swaps."""
    input:
        groups=rules.best_run.output.groups,
    output:
        groups=stage(5, "winds", "groups.csv"),
        summary=stage(5, "winds", "summary.json"),
    log:
        log_of("winds"),
    params:
        event=EVENT_CORE,
        search=SEARCH,
    script:
        "../../scripts/winds.py"
