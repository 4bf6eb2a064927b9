"""ASGI entry point for daphne: `daphne okeysite.asgi:application`.

In embedded mode (no `REDIS_URL`) this is also where the in-process Celery worker
starts — only the serving process imports this module (ARCHITECTURE.md, known traps).
"""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")
get_asgi_application()  # sets Django up before anything imports models

from okeysite import embedded  # noqa: E402
from okeysite.celery import warm_up  # noqa: E402
from okeysite.routing import build_application  # noqa: E402
from okeysite.ws_close import patch_daphne  # noqa: E402

_inner = build_application()
patch_daphne()  # close codes 1007/1008/1009 (games/frames.py), wire budget, request idle timer


async def application(scope, receive, send):
    """The site's ASGI callable; remembers the server loop for the embedded channel layer."""
    embedded.note_server_loop()
    return await _inner(scope, receive, send)


embedded.start_embedded_worker()
warm_up()
