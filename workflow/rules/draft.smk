rule draft:
    """Valid wind patterns for all places, then a greedy plan (Triska & Musliu)."""
    input:
        places=rules.countries.output.places,
    output:
        groups=stage(2, "draft", "groups.csv"),
        summary=stage(2, "draft", "summary.json"),
    log:
        log_of("draft"),
    params:
        event=EVENT_CORE,
    script:
        "../../scripts/draft.py"
