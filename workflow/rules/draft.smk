rule draft:
    """Valid wind patterns for all places, then a greedy plan (Triska & Musliu)."""
    input:
        places=rules.countries.output.places,
    output:
        groups=stage(2, "draft", "groups.csv"),
        summary=stage(2, "draft", "summary.json"),
    params:
        event=EVENT_CORE,
    log:
        log_of("draft"),
    script:
        "../../scripts/draft.py"
