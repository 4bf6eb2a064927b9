"""Django settings for okeysite, read from the environment.

Defaults are the *embedded* mode: SQLite file `db.sqlite3`, the in-memory channel
layer and a Celery worker inside the daphne process (memory broker). Setting
`REDIS_URL` switches the channel layer and the Celery broker to Redis (then run
separate `daphne` and `celery -A okeysite worker -B` processes); `DATABASE_URL`
selects the database (e.g. `postgres://postgres@127.0.0.1:5432/okeysite`).
"""
import os
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default):
    """`name` from the environment as a bool ("1", "true", "yes", "on" are true)."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def env_list(name, default):
    """`name` from the environment as a comma-separated list of non-empty strings."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_float(name, default):
    """`name` from the environment as a float (seconds for the OKEY_* timing knobs)."""
    value = os.environ.get(name)
    return float(value) if value not in (None, "") else default


DEBUG = env_bool("DEBUG", False)  # True only on request: a debug 404 lists every URL pattern
SECRET_KEY = os.environ.get("SECRET_KEY", "insecure-dev-key-change-me-okeysite-embedded-mode")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")  # the test client's host is added by tests
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

REDIS_URL = os.environ.get("REDIS_URL", "").strip()
EMBEDDED = not REDIS_URL

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
            ],
        },
    },
]

# --- database -----------------------------------------------------------------
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=0
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded worker thread and daphne's thread pool both write: take the write
    # lock at BEGIN (no lock upgrade deadlocks) and wait for it instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )
if os.environ.get("OKEY_TEST_DB_NAME"):
    # lets two test runs share one PostgreSQL server without fighting over test_<name>
    DATABASES["default"]["TEST"] = {"NAME": os.environ["OKEY_TEST_DB_NAME"]}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- channels -----------------------------------------------------------------
if EMBEDDED:
    CHANNEL_LAYERS = {"default": {"BACKEND": "okeysite.embedded.ServerLoopChannelLayer"}}
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": os.environ.get("OKEY_CHANNEL_PREFIX", "okeysite")},
        }
    }

# --- celery -------------------------------------------------------------------
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_BROKER_TRANSPORT_OPTIONS = {"polling_interval": 0.1} if EMBEDDED else {"visibility_timeout": 3600}
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
# Tasks are idempotent by (game, version), so redelivery after a lost worker is safe.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# The ETA scheduler sleeps up to this long between checks (default 1 s): bot steps are 0.4 s.
CELERY_WORKER_TIMER_PRECISION = 0.1
CELERY_BEAT_SCHEDULE = {
    "okey-sweep-deadlines": {"task": "games.tasks.sweep", "schedule": 15.0},
}

# --- game timing knobs (seconds) -----------------------------------------------
OKEY_BOT_DELAY = env_float("OKEY_BOT_DELAY", 1.0)  # before a computer starts a turn
OKEY_BOT_STEP_DELAY = env_float("OKEY_BOT_STEP_DELAY", 0.4)  # between actions inside a turn
OKEY_NEXT_ROUND_DELAY = env_float("OKEY_NEXT_ROUND_DELAY", 8.0)
# a player whose last socket closes in their own turn: the computer plays it this much later (at most their clock)
OKEY_DISCONNECT_GRACE = env_float("OKEY_DISCONNECT_GRACE", 5.0)
OKEY_DEFAULT_MOVE_TIME = int(env_float("OKEY_DEFAULT_MOVE_TIME", 30))  # RULES.md §6, D-16
OKEY_RULESETS = env_list("OKEY_RULESETS", "okey51,okey17,rami")  # offered in the lobby form (comma list)
OKEY_SWEEP_INTERVAL = env_float("OKEY_SWEEP_INTERVAL", 15.0)
OKEY_SERVE_STATIC = env_bool("OKEY_SERVE_STATIC", DEBUG or EMBEDDED)
OKEY_WS_RATE = env_float("OKEY_WS_RATE", 10.0)  # frames per second allowed per socket
OKEY_WS_BURST = env_float("OKEY_WS_BURST", 30.0)

# --- auth (django-allauth) -----------------------------------------------------
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_UNIQUE_EMAIL = True
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
LOGIN_URL = "account_login"
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if EMBEDDED or DEBUG else "django.core.mail.backends.smtp.EmailBackend",
)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "okeysite <noreply@localhost>")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)

# Staff use allauth's multi-factor authentication (accounts.staff_security); the admin login is
# allauth's, rate-limited: 5 failed logins a minute per IP, 5 per 5 minutes per account.
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes"]
MFA_TOTP_ISSUER = "okeysite"
ACCOUNT_RATE_LIMITS = {"login_failed": "5/m/ip,5/300s/key"}
# Rate-limit counters live in the process's memory (each daphne process counts on its own).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

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
STATIC_ROOT = BASE_DIR / "staticfiles"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {
        "games": {"handlers": ["console"], "level": os.environ.get("OKEY_LOG_LEVEL", "INFO"), "propagate": False},
        "okeysite": {"handlers": ["console"], "level": os.environ.get("OKEY_LOG_LEVEL", "INFO"), "propagate": False},
    },
}

# Small WebSocket messages only (an action frame is well under 4 KB). Read by
# `manage.py runserver` (daphne); the daphne CLI takes `--websocket-max-message-size`.
DAPHNE_WEBSOCKET_MAX_MESSAGE_SIZE = 64 * 1024
DAPHNE_WEBSOCKET_MAX_FRAME_SIZE = 64 * 1024
