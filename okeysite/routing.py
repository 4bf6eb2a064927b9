"""The ASGI application tree: HTTP (Django; static files first through WhiteNoise,
okeysite/static_asgi.py, when settings.OKEY_SERVE_STATIC) and WebSockets (session auth +
Origin check, docs/protocol.md §1): the games' sockets and the pages' own `/ws/me/` (social).

`build_application()` is separate from `okeysite/asgi.py` so tests can build the same
stack without starting the embedded Celery worker.
"""
from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.conf import settings
from django.core.asgi import get_asgi_application


def build_application():
    """Return the ASGI app: HTTP to Django (static files before it when
    settings.OKEY_SERVE_STATIC), WebSockets to the consumers behind session auth and the
    Origin check."""
    http_app = get_asgi_application()
    if settings.OKEY_SERVE_STATIC:
        from okeysite.static_asgi import StaticFiles

        http_app = StaticFiles(http_app)

    from games.routing import websocket_urlpatterns
    from social.routing import websocket_urlpatterns as social_routes

    return ProtocolTypeRouter(
        {
            "http": http_app,
            "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(
                websocket_urlpatterns + social_routes))),
        }
    )
