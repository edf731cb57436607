# The two commands of a fresh machine: `make run` and `make test`.
# Each creates the virtual environment and installs requirements.txt when they are missing
# or have changed.

PYTHON ?= python3
VENV ?= .venv
PORT ?= 8000
HOST ?= 127.0.0.1
BIN := $(VENV)/bin
STAMP := $(VENV)/.requirements-installed

.PHONY: run test bench venv

venv: $(STAMP)

$(STAMP): requirements.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	@touch $(STAMP)

run: $(STAMP)
	PORT=$(PORT) HOST=$(HOST) exec $(BIN)/python -m sudokusite.localrun

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/pipeline.py
