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


class FailOpenRedisCache(RedisCache):
    """`RedisCache` whose reads and writes act as an empty cache while Redis cannot be
    reached: `get` returns the default, `get_many` {}, `add` True (an allauth cache lock is
    granted), `has_key` and `delete` False, `set`, `set_many`, `delete_many` and `touch` do
    nothing. Other errors still raise."""

    _last_logged = 0.0

    def _unreachable(self, operation, error):
        now = time.monotonic()
        if now - FailOpenRedisCache._last_logged >= LOG_EVERY:
            FailOpenRedisCache._last_logged = now
            log.error("cache %s failed, answering as an empty cache: %s", operation, error)

    def get(self, key, default=None, version=None):
        try:
            return super().get(key, default, version)
        except UNREACHABLE as error:
            self._unreachable("get", error)
            return default

    def get_many(self, keys, version=None):
        try:
            return super().get_many(keys, version)
        except UNREACHABLE as error:
            self._unreachable("get_many", error)
            return {}

    def add(self, key, value, timeout=None, version=None):
        try:
            return super().add(key, value, timeout, version)
        except UNREACHABLE as error:
            self._unreachable("add", error)
            return True

    def set(self, key, value, timeout=None, version=None):
        try:
            super().set(key, value, timeout, version)
        except UNREACHABLE as error:
            self._unreachable("set", error)

    def set_many(self, data, timeout=None, version=None):
        try:
            return super().set_many(data, timeout, version)
        except UNREACHABLE as error:
            self._unreachable("set_many", error)
            return []

    def touch(self, key, timeout=None, version=None):
        try:
            return super().touch(key, timeout, version)
        except UNREACHABLE as error:
            self._unreachable("touch", error)
            return False

    def has_key(self, key, version=None):
        try:
            return super().has_key(key, version)
        except UNREACHABLE as error:
            self._unreachable("has_key", error)
            return False

    def delete(self, key, version=None):
        try:
            return super().delete(key, version)
        except UNREACHABLE as error:
            self._unreachable("delete", error)
            return False

    def delete_many(self, keys, version=None):
        try:
            super().delete_many(keys, version)
        except UNREACHABLE as error:
            self._unreachable("delete_many", error)
