"""Z-cyclic whist seeds (seeds/whist/<P>.txt): check and rebuild them all, or expand one into
a seating plan recounted by the championship's check (results/whist/; "whist" is no event).
"""

import glob
import os


def whist_seed_files():
    return sorted(
        glob.glob("seeds/whist/*.txt"),
        key=lambda path: int(os.path.basename(path).split(".")[0]),
    )


rule whist_seeds:
    """Every seed checked against the rule; sizes with a construction rebuilt and timed."""
    input:
        seeds=whist_seed_files(),
    output:
        html="results/whist/seeds.html",
        json="results/whist/seeds.json",
        csv="results/whist/seeds.csv",
    log:
        "results/whist/seeds.log",
    params:
        build_seconds=60,
    script:
        "../../scripts/whist_seeds.py"


rule whist_plan:
    """One seed expanded (runSeeder), winds and tables, recounted: every pair meets 3 times."""
    input:
        seed="seeds/whist/{players}.txt",
        template=f"{workflow.basedir}/workflow/templates/report.html.j2",
    output:
        check="results/whist/{players}/check.json",
        seating="results/whist/{players}/seating.csv",
        report="results/whist/{players}/report.html",
    log:
        "results/whist/{players}/plan.log",
    wildcard_constraints:
        players=r"\d+",
    params:
        seed=0,
        wind_moves=20000,
    script:
        "../../scripts/whist_plan.py"
