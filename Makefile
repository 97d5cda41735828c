# The two commands a newcomer needs: `make run` and `make test`. Both set up .venv themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint schema clean bench profile load

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python 3.11+ is needed")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m service

lint: $(STAMP)
	$(BIN)/ruff format --check service tests loadtests
	$(BIN)/ruff check service tests loadtests
	$(BIN)/mypy

test: lint
	$(BIN)/pytest
	# again on a 3-master Redis Cluster; the two deselected tests inspect keys with a one-node client
	TEST_REDIS_CLUSTER=1 $(BIN)/pytest -q tests/store tests/api \
	  --deselect tests/store/test_redis_store.py::test_every_key_of_a_game_shares_its_hash_tag \
	  --deselect tests/store/test_redis_store.py::test_the_store_never_touches_keys_it_does_not_own

schema: $(STAMP)
	$(BIN)/python -m service.api.contracts

# Performance (docs/performance.md): the `load` extra (locust, matplotlib, py-spy) on demand.
LOAD_STAMP := $(VENV)/.load-installed
$(LOAD_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install -q -e '.[dev,load]'
	touch $(LOAD_STAMP)

bench: $(LOAD_STAMP)
	$(BIN)/python -m loadtests.bench

profile: $(LOAD_STAMP)
	$(BIN)/python -m loadtests.profiling

load: $(LOAD_STAMP)  # make load HOST=https://rules.example.com [USERS=50 RATE=5 TIME=5m]
	@test -n "$(HOST)" || (echo "usage: make load HOST=https://... [USERS=50 RATE=5 TIME=5m]"; exit 2)
	mkdir -p loadtests/results
	$(BIN)/locust -f loadtests/locustfile.py --host "$(HOST)" --headless \
	  -u $(or $(USERS),50) -r $(or $(RATE),5) -t $(or $(TIME),5m) \
	  --csv loadtests/results/locust --html loadtests/results/locust.html

clean:
	rm -rf $(VENV) build *.egg-info
