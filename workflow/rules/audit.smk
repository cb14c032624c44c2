"""Audit any schedule: audit/<name>.csv or audit/<name>.txt (formats in audit/README.md)."""

import os


def audit_schedule(wildcards):
    """audit/<name>.csv or audit/<name>.txt, whichever exists (not both)."""
    found = [
        f"audit/{wildcards.name}.{ext}"
        for ext in ("csv", "txt")
        if os.path.exists(f"audit/{wildcards.name}.{ext}")
    ]
    if len(found) > 1:
        raise ValueError(f"both {found[0]} and {found[1]} exist; keep one")
    if not found:
        raise ValueError(f"no schedule audit/{wildcards.name}.csv or .txt to audit")
    return found[0]


rule audit:
    """Recount a schedule with the championship's check: check.json and the report."""
    input:
        schedule=audit_schedule,
        template=f"{workflow.basedir}/workflow/templates/report.html.j2",
    output:
        check="results/audit/{name}/check.json",
        report="results/audit/{name}/report.html",
    log:
        "results/audit/{name}/audit.log",
    wildcard_constraints:
        name=r"[A-Za-z0-9][A-Za-z0-9_.-]*",
    localrule: True
    params:
        name=lambda wildcards: wildcards.name,
    script:
        "../../scripts/audit.py"
