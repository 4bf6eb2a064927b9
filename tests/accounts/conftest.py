"""Fixtures of the accounts tests: the shared cache under a key prefix of this run's own."""
import os

import pytest

CACHE_PREFIX = f"okeysite-test-{os.getpid()}"


@pytest.fixture(autouse=True)
def _private_cache_prefix(settings):
    """The login limits count in the shared cache (Redis in the test run): give this run its
    own key prefix, so that another run on the same Redis never counts into ours."""
    caches = {name: dict(conf) for name, conf in settings.CACHES.items()}
    caches["default"]["KEY_PREFIX"] = CACHE_PREFIX
    settings.CACHES = caches
    yield
