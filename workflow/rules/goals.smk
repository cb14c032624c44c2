rule goals:
    """The finer goals in order: common opponents, countries met, class mix, back to back."""
    input:
        groups=rules.swaps.output.groups,
    output:
        groups=stage(4, "goals", "run{run}/groups.csv"),
        summary=stage(4, "goals", "run{run}/summary.json"),
    log:
        log_of("goals-run{run}"),
    benchmark:
        f"{OUT}/benchmarks/goals-run{{run}}.tsv"
    params:
        event=EVENT_CORE,
        search=SEARCH,
    script:
        "../../scripts/goals.py"


rule best_run:
    """Of the independent searches (search.restarts), keep the best by the order of goals."""
    input:
        groups=expand(stage(4, "goals", "run{run}/groups.csv"), run=range(RUNS)),
        drafts=expand(stage(2, "draft", "run{run}/summary.json"), run=range(RUNS)),
        searches=expand(
            [
                stage(3, "swaps", "run{run}/summary.json"),
                stage(4, "goals", "run{run}/summary.json"),
            ],
            run=range(RUNS),
        ),
    output:
        groups=stage(4, "goals", "groups.csv"),
        summary=stage(4, "goals", "summary.json"),
    log:
        log_of("best_run"),
    params:
        event=EVENT_CORE,
        search=SEARCH,
    script:
        "../../scripts/best_run.py"
