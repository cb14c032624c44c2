rule draft:
    """Valid wind patterns for all places, then a greedy plan (Triska & Musliu); with
    search.design_start the last run starts from a combinatorial design instead."""
    input:
        places=rules.countries.output.places,
    output:
        groups=stage(2, "draft", "run{run}/groups.csv"),
        summary=stage(2, "draft", "run{run}/summary.json"),
    log:
        log_of("draft-run{run}"),
    params:
        event=EVENT_CORE,
        design_run=RESTARTS if SEARCH["design_start"] else -1,
    script:
        "../../scripts/draft.py"
