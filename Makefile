# The two commands: `make run` (set up, load the demo, serve with worker and beat) and `make test`.
# `make run DEMO=0` loads no demo: a new site, whose first page asks for its first host.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
# Django 6 needs Python 3.12+: take the newest interpreter that actually runs.
PYTHON ?= $(shell for p in python3.14 python3.13 python3.12 \
	$$HOME/.pyenv/versions/3.14*/bin/python3 $$HOME/.pyenv/versions/3.13*/bin/python3 \
	$$HOME/.pyenv/versions/3.12*/bin/python3 python3; do \
	  if command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then \
	    command -v $$p; break; fi; done)
PORT ?= 8000
# `make test` runs the suite on pytest-xdist's workers, one per core up to 4 (TEST_WORKERS=0: in this
# process, one test after another). Each worker has a test database and Redis databases of its own
# (tests/conftest.py). Tests are handed out one at a time; those marked xdist_group go, each group
# together, to one worker (--dist loadgroup).
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); if [ $$n -gt 4 ]; then n=4; elif [ $$n -lt 2 ]; then n=0; fi; echo $$n)

.PHONY: run test venv demo lint bench clean

$(VENV)/.installed: requirements.lock
	@if [ -z "$(PYTHON)" ]; then \
	  echo "genius needs Python 3.12 or newer (Django 6). Install one, e.g. 'apt-get install python3.12' or 'pyenv install 3.13', then run make again."; \
	  exit 1; fi
	@echo "Using $(PYTHON)"
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --require-hashes -r requirements.lock
	touch $@

venv: $(VENV)/.installed

run: venv
	$(PY) manage.py migrate --no-input
	$(PY) manage.py collectstatic --no-input --verbosity 0
ifeq ($(DEMO),0)
	$(PY) manage.py serve_all --port $(PORT)
else
	$(PY) manage.py load_demo --quiet
	$(PY) manage.py serve_all --port $(PORT) --demo
endif


test: venv
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

bench: venv
	$(PY) bench/run.py $(BENCH_ARGS)

lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

clean:
	rm -rf $(VENV) var
