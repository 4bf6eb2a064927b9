# The README's two commands: `make run` (serve the site, embedded mode) and `make test`.
# Both create and use the virtual environment .venv from pyproject.toml.
PY      := .venv/bin/python
HOST    ?= 127.0.0.1
PORT    ?= 8000
# daphne's options, the same in deploy/supervisord.conf, the README and bench/stack.py (which
# says why each): small WebSocket frames only; a ping after 3 s of silence and the socket
# dropped when its pong is 4 s late (a dead peer is noticed within about 9 s); a handshake
# not accepted within 5 s refused.
DAPHNE_OPTS := --websocket-max-message-size 65536 --websocket-max-frame-size 65536 --ping-interval 3 --ping-timeout 4 --websocket_connect_timeout 5
# The tests use the machine's real PostgreSQL and Redis (never mocks).
# one database per run, so that runs side by side never share a test database
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/okeysite_$(shell echo $$PPID)
TEST_REDIS_URL    ?= redis://127.0.0.1:6379/0

.PHONY: run test check lint services chromium nginx node

.venv/.installed: pyproject.toml setup.py games/bots/_rami_core.c
	test -x $(PY) || python3 -m venv .venv
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $@

run: .venv/.installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput -v 0
	$(PY) -m daphne $(DAPHNE_OPTS) -b $(HOST) -p $(PORT) okeysite.asgi:application

# Start PostgreSQL and Redis when they are not up (they are on this kind of machine).
services:
	@pg_isready -q -h 127.0.0.1 -p 5432 || pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start
	@redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
	@for i in $$(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && exit 0; sleep 1; done; echo "PostgreSQL or Redis did not start" >&2; exit 1

# Browser tests drive Debian's chromium (never a downloaded browser build).
chromium:
	@test -x /usr/bin/chromium || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; }

# The multi-host test puts Debian's nginx in front of the web hosts (deploy/nginx.conf); the
# package's own service is never started (only the test runs it, on its own config).
nginx:
	@command -v nginx >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null; }

# The table client's unit tests run on Node's built-in test runner.
node:
	@command -v node >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs >/dev/null; }

# The suite runs on TEST_WORKERS pytest-xdist workers, one test file per worker at a time
# (module-scoped servers and browsers stay with their file); each worker has its own test
# database (pytest-django suffixes the name) and its own Celery queue and channel prefix
# (tests/conftest.py keys them by process). Most tests wait on sockets, servers and the
# browser, so three workers keep two cores busy.  TEST_WORKERS=0 runs in one process.
TEST_WORKERS ?= 3

test: .venv/.installed services chromium nginx node lint
	node --test tests/js/
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# Developers' quick run: the pure engine and bot tests with the embedded settings and no
# service at all (no PostgreSQL, Redis nor browser; it passes with them down).  It needs
# the install, so the rami solver's compiled core is built (its tests fail without it
# where a C compiler is here).
check: .venv/.installed
	env -u DATABASE_URL -u REDIS_URL $(PY) -m pytest tests/engine tests/bots $(PYTEST_ARGS)

# ruff (configured in pyproject.toml) on the whole repository; `make test` runs it first.
lint: .venv/.installed
	$(PY) -m ruff check .
