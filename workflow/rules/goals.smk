rule goals:
    """The finer goals in order: common opponents, countries met, class mix, back to back."""
    input:
        groups=rules.swaps.output.groups,
    output:
        groups=stage(4, "goals", "groups.csv"),
        summary=stage(4, "goals", "summary.json"),
    log:
        log_of("goals"),
    benchmark:
        f"{OUT}/benchmarks/goals.tsv"
    params:
        event=EVENT_CORE,
        search=SEARCH,
    script:
        "../../scripts/goals.py"
