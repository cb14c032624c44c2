"""Validate the organizer's config before any work; shared names for the rules."""

import sys
from pathlib import Path

import yaml

from seating.event import ConfigError, as_config, load_event
from seating.io import KeyGivenTwice, load_config, one_line

SCHEMA = Path(workflow.basedir) / "workflow" / "schemas" / "config.schema.yaml"

# Snakemake keeps the last of two equal keys in a config file silently: read each file
# again, strictly (a delegation written twice would be planned once)
for _path in workflow.configfiles:
    try:
        load_config(Path(_path).read_text(encoding="utf-8"))
    except (KeyGivenTwice, yaml.YAMLError) as error:
        print(f"config error: {_path}: {one_line(error)}", file=sys.stderr)
        sys.exit(1)
    except (OSError, ValueError):
        pass  # Snakemake has read it; what it could not read it has reported
try:
    EVENT = load_event(dict(config), yaml.safe_load(SCHEMA.read_text()))
except ConfigError as error:
    print(f"config error: {error}", file=sys.stderr)
    sys.exit(1)

OUT = f"results/{EVENT.name}"
EVENT_CONFIG = as_config(EVENT)
# what every stage needs; search settings go only to the stages that search
EVENT_CORE = {k: v for k, v in EVENT_CONFIG.items() if k != "search"}
SEARCH = EVENT_CONFIG["search"]
RESTARTS = SEARCH["restarts"]
# with search.design_start, run number RESTARTS drafts from a design
RUNS = RESTARTS + (1 if SEARCH["design_start"] else 0)


wildcard_constraints:
    run=r"\d+",


def stage(number, name, file):
    return f"{OUT}/{number:02d}_{name}/{file}"


def log_of(name):
    return f"{OUT}/logs/{name}.log"
