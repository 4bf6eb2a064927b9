"""The scaled set-up's cache: Django's Redis cache, answering as an empty cache while Redis
cannot be reached instead of raising.

The cache holds only what can be lost: allauth's rate-limit counters (the failed-login
limits of `accounts.login_limits`, sign-up and e-mail limits). When Redis is down, Django's
own backend raises on every call, and allauth's login view counts its limits before the
password is checked, so every login answered HTTP 500 for as long as the outage lasted.
Failing open (a read finds nothing, a write is dropped, a lock is granted) keeps players
able to log in meanwhile; the limits count again as soon as Redis is back. Each failure is
logged (at most once every LOG_EVERY seconds per process) so the outage is seen.
"""
import logging
import time

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError, TimeoutError as RedisTimeoutError

log = logging.getLogger("okeysite.cache")

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
LOG_EVERY = 10.0  # seconds between two logged failures of one process


def _fail_open(name, fallback):
    # RedisCache's `name`, answering `fallback` while Redis cannot be reached (a type such
    # as dict is called for a fresh value each time: callers may change what they get)
    method = getattr(RedisCache, name)

    def call(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except UNREACHABLE as error:
            self._unreachable(name, error)
            return fallback() if isinstance(fallback, type) else fallback

    answer = f"an empty {fallback.__name__}" if isinstance(fallback, type) else repr(fallback)
    call.__name__, call.__doc__ = name, f"RedisCache.{name}; {answer} while Redis cannot be reached."
    return call


class FailOpenRedisCache(RedisCache):
    """`RedisCache` whose reads and writes act as an empty cache while Redis cannot be
    reached: `get` returns the default, `get_many` {}, `add` True (an allauth cache lock is
    granted), `has_key`, `touch` and `delete` False, `set`, `set_many` and `delete_many`
    do nothing. Other errors still raise."""

    _last_logged = 0.0

    def _unreachable(self, operation, error):
        now = time.monotonic()
        if now - FailOpenRedisCache._last_logged >= LOG_EVERY:
            FailOpenRedisCache._last_logged = now
            log.error("cache %s failed, answering as an empty cache: %s", operation, error)

    def get(self, key, default=None, version=None):
        """RedisCache.get; `default` while Redis cannot be reached."""
        try:
            return super().get(key, default, version)
        except UNREACHABLE as error:
            self._unreachable("get", error)
            return default

    get_many = _fail_open("get_many", dict)
    add = _fail_open("add", True)
    set = _fail_open("set", None)
    set_many = _fail_open("set_many", list)
    touch = _fail_open("touch", False)
    has_key = _fail_open("has_key", False)
    delete = _fail_open("delete", False)
    delete_many = _fail_open("delete_many", None)
