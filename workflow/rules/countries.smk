rule countries:
    """Places per country, delegation size classes, compatriot weights and bounds."""
    output:
        places=stage(1, "countries", "places.csv"),
        summary=stage(1, "countries", "summary.json"),
    log:
        log_of("countries"),
    params:
        event=EVENT_CORE,
    script:
        "../../scripts/countries.py"
