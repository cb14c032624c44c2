# Two commands on a fresh machine:
#   make run    install what is needed and plan the default event (config/config.yaml)
#   make test   install what is needed and run the whole test suite (what CI runs)
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench slurm clean

$(BIN)/.installed: requirements.txt pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps -e .
	$(BIN)/python -m seating.precompile
	touch $@

run: $(BIN)/.installed
	$(BIN)/snakemake

lint: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/snakefmt --check Snakefile workflow

test: lint
	$(BIN)/pytest -n 2 --dist loadfile

bench: $(BIN)/.installed
	$(BIN)/python benchmarks/speed.py

slurm: $(BIN)/.installed
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-slurm.txt

clean:
	rm -rf results .snakemake
