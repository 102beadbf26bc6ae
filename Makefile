# Two commands for a fresh machine with Python 3.11+: `make run` serves the site, `make test` checks it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench bench-live soak install clean

$(STAMP): requirements.lock
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python 3.11 or newer is required")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py runserver 127.0.0.1:8000

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy .

test: lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m games.engine.bench

# One daphne and one Celery worker on DATABASE_URL and REDIS_URL, under scripted tables' load.
BENCH_TABLES ?= 10,50,200
BENCH_SECONDS ?= 30
bench-live: $(STAMP)
	$(BIN)/python -m games.bench_live --tables $(BENCH_TABLES) --seconds $(BENCH_SECONDS)

# Real daphne servers and a Celery worker on DATABASE_URL and REDIS_URL, killed at intervals.
SOAK_MINUTES ?= 2
soak: $(STAMP)
	$(BIN)/python -m games.soak --minutes $(SOAK_MINUTES)

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
