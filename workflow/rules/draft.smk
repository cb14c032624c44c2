rule draft:
    """Valid wind patterns for all places, then a greedy plan (Triska & Musliu)."""
    input:
        places=rules.countries.output.places,
    output:
        groups=stage(2, "draft", "run{run}/groups.csv"),
        summary=stage(2, "draft", "run{run}/summary.json"),
    log:
        log_of("draft-run{run}"),
    params:
        event=EVENT_CORE,
    script:
        "../../scripts/draft.py"
