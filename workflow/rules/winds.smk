rule winds:
    """Seat winds: every place at its valid pattern, then winds spread out by swaps."""
    input:
        groups=rules.goals.output.groups,
    output:
        groups=stage(5, "winds", "groups.csv"),
        summary=stage(5, "winds", "summary.json"),
    params:
        event=EVENT_CORE,
        search=SEARCH,
    log:
        log_of("winds"),
    script:
        "../../scripts/winds.py"
