# One-step set-up: a project-local uv (in .tools/) and a project-local venv (.venv/).
PY ?= python3.11
UV := .tools/bin/uv
export UV_PROJECT_ENVIRONMENT := $(CURDIR)/.venv
export PYTHONPATH :=

# Bytecode ahead of time (as the images do, UV_COMPILE_BYTECODE): a process started with
# PYTHONDONTWRITEBYTECODE would otherwise compile every module from source on every start
# (about 1 s of a service's start-up). The workspace's own sources are editable installs, so
# they are compiled here too; a changed file is recompiled on the next make install.
COMPILE_SOURCES := .venv/bin/python -m compileall -q -j 0 shared/src services/*/src sim/src ops/src clients/python/src bench > /dev/null

.PHONY: install lint lint-types format test test-fast demo bench clean

$(UV):
	$(PY) -m pip install --quiet --disable-pip-version-check --target .tools 'uv==0.13.9'

.venv/.installed: $(UV) pyproject.toml $(wildcard uv.lock) shared/pyproject.toml services/*/pyproject.toml sim/pyproject.toml ops/pyproject.toml clients/python/pyproject.toml services/gameplay/setup.py services/gameplay/src/gameplay/engine/_core.pyx services/gameplay/src/gameplay/engine/_kept_board.pxi services/gameplay/src/gameplay/engine/_suspects.pxi \
	services/pairing/setup.py services/pairing/src/pairing/adapters/dutch/_dutch_core.pyx \
	services/pairing/src/pairing/adapters/dutch/_blossom.pyx services/pairing/src/pairing/adapters/dutch/_blossom_wide.pyx \
	services/pairing/src/pairing/adapters/dutch/_blossom_core.pxi services/pairing/src/pairing/adapters/dutch/_edge_store.pxi \
	sim/setup.py sim/src/gomoku_sim/_strategy_core.pyx
	$(UV) sync --all-packages --python $(PY) --compile-bytecode
	touch $@

install: .venv/.installed
	@$(COMPILE_SOURCES)

# ruff (lint + format) and mypy over the whole tree; CI runs this before the tests
MYPY_TARGETS := clients/python/src/gomoku_client shared/src/gomoku_shared services/registration/src/registration services/pairing/src/pairing \
	services/gameplay/src/gameplay services/awards/src/awards services/partners/src/partners services/portal/src/portal sim/src/gomoku_sim ops/src/gomoku_ops bench tools \
	services/pairing/tests/pairing_fakes.py
lint: install
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .
	.venv/bin/mypy $(MYPY_TARGETS)

lint-types: install
	.venv/bin/mypy $(MYPY_TARGETS)

format: install
	.venv/bin/ruff check --fix .
	.venv/bin/ruff format .

# Two workers (each test has its own databases, queues and exchanges; a module stays on one worker,
# so its module fixtures are built once); the tests that restart the shared broker run alone after.
TEST_WORKERS ?= 2
test: install
	.venv/bin/python -m pytest -q -n $(TEST_WORKERS) --dist loadscope --no-loadscope-reorder -m "not exclusive" $(PYTEST_ARGS)
	.venv/bin/python -m pytest -q -m exclusive $(PYTEST_ARGS); rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 5 ]

# The fast lane, no servers needed: domain, contract and architecture tests and the quick service
# tests (`-m "not slow and not infra and not exclusive"`: the slow folders, whole services driven
# through their API, PostgreSQL/RabbitMQ and broker restarts left to `make test`). Under 3 minutes
# on two workers; it prints how long it took.
test-fast: install
	@started=$$(date +%s); \
	.venv/bin/python -m pytest -q -n $(TEST_WORKERS) --dist loadscope -m "not slow and not infra and not exclusive" $(PYTEST_ARGS); \
	rc=$$?; echo "make test-fast: $$(( $$(date +%s) - started )) s"; exit $$rc

demo: install
	.venv/bin/python -m gomoku_sim.demo $(DEMO_ARGS)

bench: install
	.venv/bin/python -m bench $(BENCH_ARGS)

clean:
	rm -rf .venv .tools
