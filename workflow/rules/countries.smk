rule countries:
    """Places per country, delegation size classes, compatriot weights and bounds."""
    output:
        places=stage(1, "countries", "places.csv"),
        summary=stage(1, "countries", "summary.json"),
    params:
        event=EVENT_CORE,
    log:
        log_of("countries"),
    script:
        "../../scripts/countries.py"
