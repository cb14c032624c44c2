rule tables:
    """Table numbers by the Hungarian method: new table every hanchan, areas in proportion."""
    input:
        groups=rules.winds.output.groups,
    output:
        seating=stage(6, "tables", "seating.csv"),
        summary=stage(6, "tables", "summary.json"),
    log:
        log_of("tables"),
    params:
        event=EVENT_CORE,
    script:
        "../../scripts/tables.py"
