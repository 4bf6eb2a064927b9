"""Static files answered at the ASGI level, before Django: WhiteNoise finds the file and
picks its headers and encoding (okeysite/static_storage.py writes the hashed, Brotli and
gzip copies); this module only speaks ASGI.

WhiteNoise's own Django middleware is synchronous: under daphne every file would queue in
Django's one thread for synchronous code behind the page's other requests (a table page
loads some sixty modules), so the files are served here on the event loop instead.
"""
from whitenoise.middleware import WhiteNoiseMiddleware

CHUNK = 64 * 1024


class StaticFiles:
    """ASGI app: a GET or HEAD under STATIC_URL that names a static file is answered from
    WhiteNoise's table of files (settings WHITENOISE_*); every other scope goes to `app`."""

    def __init__(self, app):
        self.app = app
        self.whitenoise = WhiteNoiseMiddleware(get_response=None)
        self.prefix = self.whitenoise.static_prefix

    def _find(self, path):
        if self.whitenoise.autorefresh:
            return self.whitenoise.find_file(path)
        return self.whitenoise.files.get(path)

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["path"].startswith(self.prefix):
            static_file = self._find(scope["path"])
            if static_file is not None:
                await self._serve(static_file, scope, send)
                return
        await self.app(scope, receive, send)

    @staticmethod
    async def _serve(static_file, scope, send):
        # WhiteNoise reads the request's headers in WSGI's spelling (HTTP_ACCEPT_ENCODING, …)
        meta = {"HTTP_" + name.decode("latin-1").upper().replace("-", "_"): value.decode("latin-1")
                for name, value in scope.get("headers", [])}
        response = static_file.get_response(scope["method"], meta)
        headers = [(k.lower().encode("latin-1"), str(v).encode("latin-1")) for k, v in response.headers]
        await send({"type": "http.response.start", "status": int(response.status), "headers": headers})
        body = response.file
        if body is None:
            await send({"type": "http.response.body", "body": b""})
            return
        try:
            while True:
                chunk = body.read(CHUNK)
                more = len(chunk) == CHUNK
                await send({"type": "http.response.body", "body": chunk, "more_body": more})
                if not more:
                    break
        finally:
            body.close()
