# The two commands of a fresh machine: `make run` and `make test`.
# Each creates the virtual environment when it is missing and installs what it needs when that
# has changed: `make run` what runs the site (requirements.txt), `make test` the test and lint
# packages too (requirements-test.txt).

PYTHON ?= python3
VENV ?= .venv
PORT ?= 8000
HOST ?= 127.0.0.1
BIN := $(VENV)/bin
STAMP := $(VENV)/.requirements-installed
TEST_STAMP := $(VENV)/.requirements-test-installed

.PHONY: run test test-js lint lint-js bench venv venv-test screenshots

venv: $(STAMP)
venv-test: $(TEST_STAMP)

$(STAMP): requirements.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	@touch $(STAMP)

$(TEST_STAMP): $(STAMP) requirements-test.txt
	$(BIN)/python -m pip install --quiet -r requirements-test.txt
	@touch $(TEST_STAMP)

run: $(STAMP)
	PORT=$(PORT) HOST=$(HOST) exec $(BIN)/python -m sudokusite.localrun

# Two processes (pytest-xdist), each on a database and Redis databases of its own (tests/processes.py,
# loaded before the settings): the engine's tests and the other files shared out, then the browser
# tests in one (the order and the scheduler are tests/conftest.py's).
test: $(TEST_STAMP) test-js
	$(BIN)/python -m pytest -n 2 -p tests.processes $(PYTEST_ARGS)

# The README's pictures (docs/screenshots/): the browser tests marked `screenshots`, run with
# SCREENSHOTS=1 so that they write them. `make test` runs the same tests and writes nothing.
screenshots: $(TEST_STAMP)
	SCREENSHOTS=1 $(BIN)/python -m pytest -m screenshots tests/browser $(PYTEST_ARGS)

# The lint: ruff (lint and the format check) and mypy (strict on the engine, the default level on
# the rest), configured in pyproject.toml; ESLint on the board's JavaScript (lint-js).
lint: $(TEST_STAMP) lint-js
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy puzzles sudokusite

# The board's pure modules and its sync queue, with Node's own test runner (no npm package).
# The shell lists the files: Node 20 would search a directory, but Node 21+ takes only files and
# globs. The tests are .mjs; the modules they load are plain .js with no package.json saying
# "type": "module" (nothing to ship to browsers), which Node 20.19+ and 22.7+ read as ES modules
# by their import/export syntax.
test-js:
	node --test tests/js/*.test.mjs

# The JavaScript lint: ESLint (eslint.config.mjs) on the board's modules and their node tests.
# ESLint is pinned in package.json and package-lock.json; npm ci installs exactly that when
# node_modules is missing or older than the lock file. Nothing of it is served: no build step.
lint-js: node_modules/.package-lock.json
	node_modules/.bin/eslint static/js tests/js bench/requests.mjs eslint.config.mjs

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

bench: $(TEST_STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/pipeline.py
