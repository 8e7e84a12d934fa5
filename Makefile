# Set-up is part of every target: a fresh machine with Python 3.11 needs nothing else.
PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test test-rules lint bench-rules clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

## the app on http://127.0.0.1:8000 (SQLite file under ./pingduel-data unless PINGDUEL_DATABASE_URL)
run: $(BIN)/.installed
	$(BIN)/pingduel serve --host $(or $(HOST),127.0.0.1) --port $(or $(PORT),8000)

## the whole test suite
test: $(BIN)/.installed
	$(BIN)/pytest

## the rules engine alone (seconds)
test-rules: $(BIN)/.installed
	$(BIN)/pytest tests/rules

## ruff, formatting, import layers, rules purity, size limits, mypy
lint: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/python scripts/check_rules_purity.py
	$(BIN)/python scripts/check_limits.py
	$(BIN)/mypy

## engine micro-benchmark (prints numbers; not a test)
bench-rules: $(BIN)/.installed
	$(BIN)/python scripts/bench_rules.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
