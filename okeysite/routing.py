"""The ASGI application tree: HTTP (Django, plus static files in embedded/debug mode)
and WebSockets (session auth + Origin check, docs/protocol.md §1): the games' sockets and the
pages' own `/ws/me/` (social).

`build_application()` is separate from `okeysite/asgi.py` so tests can build the same
stack without starting the embedded Celery worker.
"""
from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.conf import settings
from django.core.asgi import get_asgi_application


def build_application(serve_static=None):
    """Return the ASGI app. `serve_static` (default settings.OKEY_SERVE_STATIC) wraps HTTP
    in Django's `ASGIStaticFilesHandler` so daphne serves `/static/` without a proxy."""
    http_app = get_asgi_application()
    if settings.OKEY_SERVE_STATIC if serve_static is None else serve_static:
        from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

        http_app = ASGIStaticFilesHandler(http_app)

    from games.routing import websocket_urlpatterns
    from social.routing import websocket_urlpatterns as social_routes

    return ProtocolTypeRouter(
        {
            "http": http_app,
            "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(
                websocket_urlpatterns + social_routes))),
        }
    )
