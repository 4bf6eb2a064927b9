"""Settings of the bare-Channels comparison app (``bench.live.bare_app``).

Nothing but Channels, and the site's own channel layer configuration (read from
``okeysite.settings``, which builds it from the environment), so the bare figures use
the same layer as the product: the in-memory layer in embedded mode, Redis with the
prefix in ``OKEY_CHANNEL_PREFIX`` in scaled mode.
"""
import copy

from okeysite.settings import CHANNEL_LAYERS as _SITE_CHANNEL_LAYERS

SECRET_KEY = "okeysite-bench-bare-app"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = ["channels"]
ASGI_APPLICATION = "bench.live.bare_app.application"
CHANNEL_LAYERS = copy.deepcopy(_SITE_CHANNEL_LAYERS)
USE_TZ = True
