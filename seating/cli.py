"""`plan`: check an event file, then plan it with Snakemake.

    plan my-event.yaml [more snakemake arguments]

Snakemake reads the file itself and reports a YAML mistake without its line; this command
reads it first, so a mistake is one line naming the line and column (or the key), exit 2,
and nothing is run. Then it runs `snakemake --configfile my-event.yaml ...` in the
repository that holds this package.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

from .event import ConfigError, load_event
from .io import KeyGivenTwice, load_config, one_line

ROOT = Path(__file__).resolve().parents[1]


def check_file(path: str) -> str | None:
    """None if the event file is good, else the one-line reason."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        return f"{path}: cannot read it ({error.strerror})"
    except UnicodeDecodeError as error:
        return f"{path}: {one_line(error)}"
    try:
        # as Snakemake reads a config file: JSON first, else YAML; a key given twice is a
        # mistake here (Snakemake keeps the last one silently)
        config = load_config(text)
    except yaml.YAMLError as error:
        return f"{path}: {one_line(error)}"
    except KeyGivenTwice as error:
        return f"{path}: {error}"
    schema = yaml.safe_load((ROOT / "workflow" / "schemas" / "config.schema.yaml").read_text())
    try:
        load_event(config, schema)
    except ConfigError as error:
        return f"{path}: {error}"
    return None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0].startswith("-"):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    problem = check_file(argv[0])
    if problem:
        print(f"config error: {problem}", file=sys.stderr)
        return 2
    cmd = [sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"),
           "--configfile", argv[0], *argv[1:]]
    return subprocess.call(cmd)


if __name__ == "__main__":
    sys.exit(main())
