rule swaps:
    """Tabu swap search until no repeat and no avoidable compatriot meeting is left."""
    input:
        groups=rules.draft.output.groups,
    output:
        groups=stage(3, "swaps", "run{run}/groups.csv"),
        summary=stage(3, "swaps", "run{run}/summary.json"),
    log:
        log_of("swaps-run{run}"),
    benchmark:
        f"{OUT}/benchmarks/swaps-run{{run}}.tsv"
    params:
        event=EVENT_CORE,
        search=SEARCH,
    script:
        "../../scripts/swaps.py"
