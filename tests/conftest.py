from pathlib import Path

import pytest
import yaml

from seating.event import load_event

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def schema():
    return yaml.safe_load((ROOT / "workflow" / "schemas" / "config.schema.yaml").read_text())


@pytest.fixture(scope="session")
def default_config():
    return yaml.safe_load((ROOT / "config" / "config.yaml").read_text())


@pytest.fixture(scope="session")
def default_event(schema, default_config):
    return load_event(default_config, schema)


@pytest.fixture(scope="session")
def small_event(schema):
    return load_event(yaml.safe_load((DATA / "small.yaml").read_text()), schema)
