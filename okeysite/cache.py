"""The site's caches: in the scaled set-up Django's Redis cache, answering as an empty cache
while Redis cannot be reached instead of raising; in the embedded mode Django's file cache,
with an atomic `add` (EmbeddedFileCache).

The cache holds only what can be lost: allauth's rate-limit counters (the failed-login
limits of `accounts.login_limits`, sign-up and e-mail limits). When Redis is down, Django's
own backend raises on every call, and allauth's login view counts its limits before the
password is checked, so every login answered HTTP 500 for as long as the outage lasted.
Failing open (a read finds nothing, a write is dropped, a lock is granted) keeps players
able to log in meanwhile; the limits count again as soon as Redis is back. Each failure is
logged (at most once every LOG_EVERY seconds per process) so the outage is seen.
"""
import logging
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache
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


class EmbeddedFileCache(FileBasedCache):
    """`FileBasedCache` whose `add` and `incr` are atomic among the threads of this process.

    allauth's rate limits (the failed-login limits of `accounts.login_limits`) take a lock
    per counter with `cache.add` before reading and rewriting it. The file cache's `add` is
    a check then a write, so simultaneous requests (daphne serves each in a thread of its
    own) all got the lock and all read the same count: a burst of 12 wrong passwords for
    one account passed 7-9 of them under a limit of 5. The embedded server is one process
    (`make run`: one daphne, its Celery worker inside it), so a lock of the process is
    enough; the scaled set-up counts in Redis, whose `add` is atomic itself."""

    _lock = threading.Lock()  # of the class: each thread has a cache instance of its own

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        """FileBasedCache.add, never true for two callers at once (bool)."""
        with self._lock:
            return super().add(key, value, timeout, version)

    def incr(self, key, delta=1, version=None):
        """FileBasedCache.incr (a read then a write), never interleaved with another (int)."""
        with self._lock:
            return super().incr(key, delta, version)
