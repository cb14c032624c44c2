rule swaps:
    """Tabu swap search until no repeat and no avoidable compatriot meeting is left."""
    input:
        groups=rules.draft.output.groups,
    output:
        groups=stage(3, "swaps", "groups.csv"),
        summary=stage(3, "swaps", "summary.json"),
    log:
        log_of("swaps"),
    benchmark:
        f"{OUT}/benchmarks/swaps.tsv"
    params:
        event=EVENT_CORE,
        search=SEARCH,
    script:
        "../../scripts/swaps.py"
