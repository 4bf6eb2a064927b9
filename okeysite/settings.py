"""Django settings for okeysite, read from the environment.

Defaults are the *embedded* mode: SQLite file `db.sqlite3`, the in-memory channel
layer and a Celery worker inside the daphne process (memory broker). Setting
`REDIS_URL` switches the channel layer, the Celery broker and the cache to Redis (then
run separate `daphne`, `celery -A okeysite worker` and one `celery -A okeysite beat`
process: deploy/supervisord.conf); `DATABASE_URL` selects the database (e.g.
`postgres://postgres@127.0.0.1:5432/okeysite`). Production (REDIS_URL set, DEBUG off)
needs SECRET_KEY, and every `check --deploy` warning has its variable (README "Production").
"""
import hashlib
import os
import secrets
import time
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from okeysite.env import env_bool, env_float, env_int, env_list

BASE_DIR = Path(__file__).resolve().parent.parent


DEBUG = env_bool("DEBUG", False)  # True only on request: a debug 404 lists every URL pattern
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")  # the test client's host is added by tests
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

REDIS_URL = os.environ.get("REDIS_URL", "").strip()
EMBEDDED = not REDIS_URL

# --- security -------------------------------------------------------------------
# Production is the scaled set-up (REDIS_URL) without DEBUG, outside a test run: there the
# secret key signs sessions, password-reset links and e-mail confirmations, so a key anyone
# can read (a default in the repository) would let them forge all three. Production refuses
# to start without SECRET_KEY; the embedded mode (`make run`), DEBUG and test runs use a key
# generated once into var/secret_key (git-ignored, readable by its owner only).
PRODUCTION = not EMBEDDED and not DEBUG and "PYTEST_VERSION" not in os.environ
PUBLIC_KEYS = {"insecure-dev-key-change-me-okeysite-embedded-mode"}  # once the default: never again


def local_secret_key(path):
    """The key stored at `path` (a Path), created with 64 random bytes on first use (str).
    Two processes starting at once agree: the file is created exclusively, the loser reads it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _attempt in range(50):  # the winner may not have written it yet
            key = path.read_text().strip()
            if key:
                return key
            time.sleep(0.02)
        raise
    key = secrets.token_urlsafe(64)
    with os.fdopen(fd, "w") as out:
        out.write(key)
    return key


SECRET_KEY = os.environ.get("SECRET_KEY", "").strip()
if SECRET_KEY in PUBLIC_KEYS:
    raise ImproperlyConfigured("SECRET_KEY is a public value from the repository: set a secret one")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set: production (REDIS_URL set, DEBUG off) needs a secret key of its own, "
            "e.g. SECRET_KEY=$(python3 -c 'import secrets; print(secrets.token_urlsafe(64))'), "
            "the same in every process")
    SECRET_KEY = local_secret_key(BASE_DIR / "var" / "secret_key")

# HTTPS behind a proxy: each `check --deploy` warning has its variable (README "Production").
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_REDIRECT_EXEMPT = env_list("SECURE_REDIRECT_EXEMPT", "")
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", False)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", False)
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = int(env_float("SECURE_HSTS_SECONDS", 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
if os.environ.get("SECURE_PROXY_SSL_HEADER"):  # "X-Forwarded-Proto: https" as the proxy sets it
    _header, _colon, _value = os.environ["SECURE_PROXY_SSL_HEADER"].partition(":")
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + _header.strip().upper().replace("-", "_"), _value.strip())
# A table socket lives no longer than its login session (accounts.session_sockets): logout
# and password changes (signals) and bans (accounts.moderation) close it at once, and the
# session's expiry closes it when it comes. Beyond those events the session is read again
# on this timer (seconds) and on a received frame once the last check is
# OKEY_SESSION_RECHECK seconds old: only for what no event tells (a session row deleted by
# hand, an account made inactive without a ban), so hourly, not on every frame.
OKEY_SESSION_CHECK_INTERVAL = env_float("OKEY_SESSION_CHECK_INTERVAL", 3600.0)
OKEY_SESSION_RECHECK = env_float("OKEY_SESSION_RECHECK", 3600.0)
# Abuse limits: tables one user may have open or playing at once, and create in an hour.
OKEY_MAX_ACTIVE_TABLES = int(env_float("OKEY_MAX_ACTIVE_TABLES", 8))
OKEY_TABLES_PER_HOUR = int(env_float("OKEY_TABLES_PER_HOUR", 40))
# Proxies in front of daphne that append to X-Forwarded-For: the login limits key on the
# address before them (0: the socket's peer address, right when nothing is in front).
ALLAUTH_TRUSTED_PROXY_COUNT = int(env_float("OKEY_TRUSTED_PROXY_COUNT", 0))

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "accounts",
    "games",
    "leaderboards",
    "social",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.moderation.SuspensionMiddleware",  # suspended/banned users are logged out with the reason
    "accounts.staff_security.StaffMFAMiddleware",  # staff need a second factor for /admin/
    "accounts.player_settings.PreferredLanguageMiddleware",  # the language saved in the settings
    "accounts.guests.GuestActivityMiddleware",  # a guest who keeps playing is not removed
]

ROOT_URLCONF = "okeysite.urls"
WSGI_APPLICATION = "okeysite.wsgi.application"
ASGI_APPLICATION = "okeysite.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.guests.guest_context",  # is_guest: the guest banner
                "okeysite.js_catalog.catalog_context",  # js_catalog_version: the catalogue's address
            ],
        },
    },
]

# --- database -----------------------------------------------------------------
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Persistent connections: opening a PostgreSQL session per call cost more than the
        # call (bench/README.md, live tables); a health check drops one the server closed.
        # Test runs close them (the test database is dropped while server threads would
        # still hold theirs).
        conn_max_age=env_int("OKEY_DB_CONN_MAX_AGE", 0 if "PYTEST_VERSION" in os.environ else 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded worker thread and daphne's thread pool both write: take the write
    # lock at BEGIN (no lock upgrade deadlocks), the threads of this process taking turns
    # on a Python lock (okeysite.sqlite) rather than polling SQLite's. WAL with
    # synchronous=NORMAL: a commit is one write, no fsync; a crash of the process loses
    # nothing, a power cut may lose the last commits but never corrupts the file.
    DATABASES["default"]["ENGINE"] = "okeysite.sqlite"
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE",
         "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"}
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
        "OKEY_DB_POOL", "PYTEST_VERSION" not in os.environ):
    # One pool of PostgreSQL sessions per process, lent to whichever thread calls. Django's
    # ASGI handler runs every HTTP request in a thread of its own, so a persistent
    # connection served one request and was then dropped with its thread: a new session
    # for every page and form (each lobby change's POST took 50-100 ms on an idle server).
    # Pooled sessions also keep their prepared statements. OKEY_DB_POOL=0: one
    # connection per thread, kept OKEY_DB_CONN_MAX_AGE seconds, as before.
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps the sessions (Django requires 0)
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env_int("OKEY_DB_POOL_MIN", 2),
        "max_size": env_int("OKEY_DB_POOL_MAX", 16),
        "timeout": 10,  # seconds a thread waits for a free session before the call fails
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("OKEY_DB_PREPARED", True):
    # Server-side binding with prepared statements: PostgreSQL parses and plans each of the
    # writer's statements once per connection instead of on every move (bench/commit_cost.py:
    # 6.5 -> 5.2 ms of CPU per version in the committing process). OKEY_DB_PREPARED=0 behind
    # a transaction-pooling PgBouncer, which cannot keep prepared statements.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"server_side_binding": True, "prepare_threshold": 2})
if os.environ.get("OKEY_TEST_DB_NAME"):
    # lets two test runs share one PostgreSQL server without fighting over test_<name>
    DATABASES["default"]["TEST"] = {"NAME": os.environ["OKEY_TEST_DB_NAME"]}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- channels -----------------------------------------------------------------
def redis_layer_host(url):
    """The channel layer's host entry (dict) for the Redis at `url`: a command on a pooled
    connection that Redis closed (it restarted) is sent again on a new connection, twice at
    most, 50-500 ms apart. Without it the first broadcast of every process after a Redis
    restart failed ("Connection closed by server") and was lost. A frame sent twice is
    harmless: each is a whole state at a version."""
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError, TimeoutError as RedisTimeoutError

    return {"address": url, "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), 2),
            "retry_on_error": [RedisConnectionError, RedisTimeoutError]}


if EMBEDDED:
    CHANNEL_LAYERS = {"default": {"BACKEND": "okeysite.embedded.ServerLoopChannelLayer"}}
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [redis_layer_host(REDIS_URL)],
                       "prefix": os.environ.get("OKEY_CHANNEL_PREFIX", "okeysite")},
        }
    }

# --- celery -------------------------------------------------------------------
CELERY_BROKER_URL = REDIS_URL or "memory://"
# Bounded socket waits: a Redis that stops answering (rather than refusing) fails a publish or
# the worker's connection within seconds instead of hanging it on the OS's TCP timeout.
# No acknowledgement emulation: kombu's Redis transport otherwise books every delivered
# message in an "unacked" hash and sorted set and removes it again on the ack (two Redis
# transactions per task, the worker's main cost per computer step). What it would protect
# is restored by nothing sooner than the visibility timeout anyway: a timer lost with a
# worker is sent again by the sweeper (games.play.turns.sweep), and a task run twice does
# nothing the second time (ARCHITECTURE.md invariant 5).
CELERY_BROKER_TRANSPORT_OPTIONS = {"polling_interval": 0.1} if EMBEDDED else {
    "ack_emulation": False, "socket_connect_timeout": 3, "socket_timeout": 10}
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
# The (disabled) result backend holds no state: one for the process. Celery otherwise
# builds one in every thread that sends a task, loading its entry points (about 5 ms of
# CPU), and every HTTP request runs on a thread of its own (a table start's timers).
CELERY_RESULT_BACKEND_THREAD_SAFE = True
# Tasks are idempotent by (game, version), so redelivery after a lost worker is safe.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Celery's Django fix-up closes every database connection before and after each task
# unless this is set: each computer step then opened a new PostgreSQL session (the
# server's largest cost per version). With it set that high it never closes them;
# `okeysite.celery` instead drops the old or broken ones around each task, the way
# Django does around a request (CONN_MAX_AGE, health checks).
CELERY_DB_REUSE_MAX = 10**9
# The ETA scheduler sleeps up to this long between checks (default 1 s): bot steps are 0.4 s.
CELERY_WORKER_TIMER_PRECISION = 0.1
# A lost broker (a Redis restart) is waited for, however long it takes, at start-up as later;
# the timers it held are gone with it and the sweeper sends them again. The tasks running
# when the connection drops are cancelled: their acks could not reach the broker anyway,
# and each task does nothing once its game moved on.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
# The sweeper runs in its own `celery beat` process (deploy/supervisord.conf): a worker that
# dies takes no sweeper with it. Every OKEY_SWEEP_INTERVAL seconds it sends again the timers
# of deadlines more than 2 s overdue (games.play.turns.OVERDUE), so a lost timer costs a
# table at most about 2 s + the interval. A sweep that waited longer than its interval in a
# queue is dropped: the next one is already on its way.
OKEY_SWEEP_INTERVAL = env_float("OKEY_SWEEP_INTERVAL", 2.0)
# One scheduler sends the timers (ARCHITECTURE.md invariant 5): a deadline due within this
# many seconds of its commit has its timer sent by the writer; a later one (a human's move
# time, mostly met long before it runs out) by the sweep that finds it this close to due,
# so no task waits 30 s in a worker to fire for nothing. It must exceed the sweep interval
# by the longest a sweep may be late, else a timer goes out after its deadline.
OKEY_TIMER_HORIZON = env_float("OKEY_TIMER_HORIZON", OKEY_SWEEP_INTERVAL + 2.0)
CELERY_BEAT_SCHEDULE = {
    "okey-sweep-deadlines": {"task": "games.tasks.sweep", "schedule": OKEY_SWEEP_INTERVAL,
                             "options": {"expires": max(OKEY_SWEEP_INTERVAL, 1.0)}},
    "okey-compact-old-matches": {"task": "games.tasks.compact_matches", "schedule": 3600.0,
                                 "options": {"expires": 3600.0}},
}
# Finished matches older than this many days keep their game record and lose their move
# rows (games.compaction); 0 keeps every row.
OKEY_COMPACT_AFTER_DAYS = env_int("OKEY_COMPACT_AFTER_DAYS", 90)

# --- game timing knobs (seconds) -----------------------------------------------
OKEY_BOT_DELAY = env_float("OKEY_BOT_DELAY", 1.0)  # before a computer starts a turn
OKEY_BOT_STEP_DELAY = env_float("OKEY_BOT_STEP_DELAY", 0.4)  # before a computer takes over a seat mid-turn
OKEY_NEXT_ROUND_DELAY = env_float("OKEY_NEXT_ROUND_DELAY", 8.0)
# a player whose last socket closes in their own turn: the computer plays it this much later (at most their clock)
OKEY_DISCONNECT_GRACE = env_float("OKEY_DISCONNECT_GRACE", 5.0)
# The seeding window before each deal (docs/fair-deals.md §1): the seats' browsers send
# their client seeds after seeing the round's commitment; 0 deals at once with empty seeds.
OKEY_SEED_WINDOW = env_float("OKEY_SEED_WINDOW", 3.0)
# A player with no socket at the table for this many of their own turns, up to the end of
# the match, has left it like one who chose "Leave the match": last place, no win
# (games.results, docs/results.md).
OKEY_LEFT_AFTER_TURNS = env_int("OKEY_LEFT_AFTER_TURNS", 3)
# Solo tables (okeysite-shuffle-2, docs/fair-deals.md §10): the first deal waits for the
# player's seed, at most this long (a page that never loads must not hold the table forever).
OKEY_SOLO_SEED_CAP = env_float("OKEY_SOLO_SEED_CAP", 120.0)
# Arena tables start as soon as they are seated, before their players' pages are open: the
# first deal waits at most this long for every player's seed (dealt as soon as all are in;
# a page that has not sent one by then gives the empty seed, and the record says so).
OKEY_ARENA_SEED_WAIT = env_float("OKEY_ARENA_SEED_WAIT", 20.0)
OKEY_DEFAULT_MOVE_TIME = int(env_float("OKEY_DEFAULT_MOVE_TIME", 30))  # RULES.md §6, D-16
# "Play now": how long a quick-match table waits for other players before computers fill it.
OKEY_QUICK_MATCH_WAIT = env_float("OKEY_QUICK_MATCH_WAIT", 20.0)
# Arenas (games.arena): the last pairing is at the end minus one match's expected length
# (minutes, per ruleset), and a player whose arena page has not asked for the standings
# for OKEY_ARENA_AWAY seconds (the page asks every 5 s) is not paired.
OKEY_ARENA_MATCH_MINUTES = {"okey51": 12, "okey17": 20, "rami": 8}
OKEY_ARENA_AWAY = env_float("OKEY_ARENA_AWAY", 15.0)
# Rematch: how long the invited players have to answer before computers fill the silent seats.
OKEY_REMATCH_WAIT = env_float("OKEY_REMATCH_WAIT", 60.0)
# Wrong invite codes of private tables: at most this many per user and per client address
# in any OKEY_INVITE_GUESS_WINDOW seconds (counted in the shared cache), then HTTP 429.
OKEY_INVITE_GUESSES = int(env_float("OKEY_INVITE_GUESSES", 10))
OKEY_INVITE_GUESS_WINDOW = env_float("OKEY_INVITE_GUESS_WINDOW", 60.0)
OKEY_RULESETS = env_list("OKEY_RULESETS", "okey51,okey17,rami")  # offered in the lobby form (comma list)
OKEY_SERVE_STATIC = env_bool("OKEY_SERVE_STATIC", DEBUG or EMBEDDED)
OKEY_WS_RATE = env_float("OKEY_WS_RATE", 10.0)  # frames per second allowed per socket
OKEY_WS_BURST = env_float("OKEY_WS_BURST", 30.0)
# A socket dropping frames faster than it earns them (a flood score that decays at
# OKEY_WS_RATE / 10 per second) is closed with 1008 once the score passes this.
OKEY_WS_FLOOD_LIMIT = env_float("OKEY_WS_FLOOD_LIMIT", 100.0)
# Before any consumer reads them (okeysite/ws_close.py): a socket sending more than this many
# frames per second, past bursts of OKEY_WS_WIRE_BURST, is muted and closed with 1008.
OKEY_WS_WIRE_RATE = env_float("OKEY_WS_WIRE_RATE", 100.0)
OKEY_WS_WIRE_BURST = env_float("OKEY_WS_WIRE_BURST", 500.0)
# Simultaneous table sockets per user and per client address; more are closed with 4429.
OKEY_WS_MAX_PER_USER = int(env_float("OKEY_WS_MAX_PER_USER", 8))
OKEY_WS_MAX_PER_IP = int(env_float("OKEY_WS_MAX_PER_IP", 32))
# lobby sockets per client address in one daphne process (the lobby list is anonymous)
OKEY_WS_LOBBY_MAX_PER_IP = int(env_float("OKEY_WS_LOBBY_MAX_PER_IP", 16))
# Heartbeat (docs/protocol.md): the client pings every 20 s; a socket that sent
# nothing for OKEY_WS_IDLE_TIMEOUT seconds is closed with 4408 (90 s: a browser may run a
# hidden tab's timers only once a minute), and a socket's presence row lives
# OKEY_PRESENCE_TTL seconds past its last refresh (a process that dies takes its sockets'
# presence with it after that long).
OKEY_WS_IDLE_TIMEOUT = env_float("OKEY_WS_IDLE_TIMEOUT", 90.0)
# The socket of the player to move at an online table (the others wait for them, D-16) is
# asked for a frame (a server `ping`, answered `pong`) once it was quiet this many
# seconds, and closed with 4408 when still silent OKEY_WS_PROBE_DEAD seconds after its last
# frame: a dropped network is noticed within about 7 s, then the disconnect grace applies.
OKEY_WS_PROBE_AFTER = env_float("OKEY_WS_PROBE_AFTER", 2.0)
OKEY_WS_PROBE_DEAD = env_float("OKEY_WS_PROBE_DEAD", 6.0)
OKEY_PRESENCE_TTL = env_float("OKEY_PRESENCE_TTL", 120.0)

# --- auth (django-allauth) -----------------------------------------------------
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_LOGIN_METHODS = {"email", "username"}  # the name shown at the tables, or the e-mail
ACCOUNT_FORMS = {"login": "accounts.login_form.LoginForm"}  # its field labelled "Username or email"
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_UNIQUE_EMAIL = True
# No enumeration prevention: with verification optional, allauth's sign-up form already says
# when an address is taken (it can hide that only when verification is mandatory), so the
# prevention hid nothing, while on the add-e-mail form it stored another account's address
# as a second, unverified row of the adder's (the login limits and allauth's e-mail login
# then met two accounts under one address). Without it, that form refuses the address.
ACCOUNT_PREVENT_ENUMERATION = False
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
LOGIN_URL = "account_login"
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if EMBEDDED or DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "okeysite <noreply@localhost>")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)

# Staff use allauth's multi-factor authentication (accounts.staff_security); the admin login is
# allauth's. Failed logins are limited by `accounts.login_limits.AccountAdapter`: per address
# (login_failed, ip), per address and account (login_failed, key) and, across all addresses,
# a short per-account cool-down (login_failed_account) that always ends within its minute:
# an attacker locks out only their own attempts, never the owner's next login for long.
ACCOUNT_ADAPTER = "accounts.guest_signup.AccountAdapter"  # the login limits, plus guests signing up as themselves
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes"]
MFA_TOTP_ISSUER = "okeysite"
ACCOUNT_RATE_LIMITS = {"login_failed": "30/m/ip,5/300s/key", "login_failed_account": "20/m/key"}

# --- cache ----------------------------------------------------------------------
# The login limits' counters, shared by every process: Redis in the scaled set-up, files
# under var/cache otherwise (the embedded server is one process; nothing to create), with
# an `add` atomic across the request threads (okeysite/cache.py), in a folder of the
# site's database: two sites on one checkout (several test servers at once) would
# otherwise count each other's sign-ups and logins from the same address. Room for many
# counters: a full file cache deletes entries at random, a cool-down among them. The
# embedded tests count in EMBEDDED_CACHE whatever the run's mode.
_db = DATABASES["default"]
_site = hashlib.sha256(f"{_db.get('HOST')}:{_db.get('PORT')}/{_db['NAME']}".encode()).hexdigest()[:12]
EMBEDDED_CACHE = {"BACKEND": "okeysite.cache.EmbeddedFileCache", "LOCATION": BASE_DIR / "var" / "cache" / _site,
                  "OPTIONS": {"MAX_ENTRIES": 20_000}}
if EMBEDDED:
    CACHES = {"default": EMBEDDED_CACHE}
else:
    # Failing open while Redis is down (okeysite/cache.py): it only holds rate-limit counters.
    CACHES = {"default": {"BACKEND": "okeysite.cache.FailOpenRedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": os.environ.get("OKEY_CHANNEL_PREFIX", "okeysite"),
                          "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2}}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

# --- i18n ----------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("fr", _("French")),
    ("es", _("Spanish")),
    ("en", _("English")),
    ("tr", _("Turkish")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --- static files ----------------------------------------------------------------
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("OKEY_STATIC_ROOT") or BASE_DIR / "staticfiles")  # collectstatic writes here
# hashed names and Brotli/gzip copies (collectstatic), served with far-future cache headers
# by WhiteNoise (okeysite/static_asgi.py) when OKEY_SERVE_STATIC, else by the web server
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "okeysite.static_storage.HashedStaticStorage"},
}
# nothing collected (test servers, a fresh checkout): the source files, found on request
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
# hashed names never change content: a year, immutable (WhiteNoise's default for them)
WHITENOISE_MAX_AGE = 3600
# the site's own pages are the only ones that load its files: no CORS header on each
WHITENOISE_ALLOW_ALL_ORIGINS = False

# Production logs one JSON object per line (okeysite.operations.logs), each game line with
# the table id and game version of its write; OKEY_LOG_FORMAT=json|text overrides.
LOG_FORMAT = os.environ.get("OKEY_LOG_FORMAT", "json" if PRODUCTION else "text")
if LOG_FORMAT not in ("json", "text"):
    raise ImproperlyConfigured(f"OKEY_LOG_FORMAT must be json or text, not {LOG_FORMAT!r}")
LOG_LEVEL = os.environ.get("OKEY_LOG_LEVEL", "INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"game": {"()": "okeysite.operations.logs.GameContext"}},
    "formatters": {"json": {"()": "okeysite.operations.logs.JsonFormatter"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["game"],
                    **({"formatter": "json"} if LOG_FORMAT == "json" else {})},
        # counts ERROR records for /metrics (okeysite_errors_total)
        "errors": {"()": "okeysite.operations.metrics.ErrorCounter"},
    },
    "root": {"handlers": ["errors"], "level": "WARNING"},
    "loggers": {
        "games": {"handlers": ["console", "errors"], "level": LOG_LEVEL, "propagate": False},
        "okeysite": {"handlers": ["console", "errors"], "level": LOG_LEVEL, "propagate": False},
        "accounts": {"handlers": ["console", "errors"], "level": LOG_LEVEL, "propagate": False},
        "django.request": {"handlers": ["console", "errors"], "level": "ERROR", "propagate": False},
    },
}
# /metrics answers staff, or a scraper sending "Authorization: Bearer <this token>".
OKEY_METRICS_TOKEN = os.environ.get("OKEY_METRICS_TOKEN", "")

# Small WebSocket messages only (an action frame is well under 4 KB). Read by
# `manage.py runserver` (daphne); the daphne CLI takes `--websocket-max-message-size`.
DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE = 64 * 1024
DAPHNE_WEBSOCKET_MAX_FRAME_SIZE = 64 * 1024
