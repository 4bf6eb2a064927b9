"""The site's HTTP side as a browser sees it: pages, their forms, CSRF and session cookies.

Standard library only, on asyncio streams (HTTP/1.0 with ``Connection: close``, so the
body is simply read to the end). Forms are read from the page's HTML and submitted with
the values a browser would send (hidden inputs including ``csrfmiddlewaretoken``, checked
boxes and radios, selected options), so the load generator follows the site's real forms
rather than a copy of their field list.
"""
from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlencode, urljoin, urlsplit


class PageError(Exception):
    """A page or form did not answer as a browser expects; ``step`` names the step
    (e.g. ``create``), ``status`` the HTTP status (0 when the connection failed)."""

    def __init__(self, step: str, status: int, detail: str = ""):
        super().__init__(f"{step}: HTTP {status} {detail}".strip())
        self.step = step
        self.status = status


@dataclass
class Response:
    status: int
    headers: list[tuple[str, str]]
    body: str

    def header(self, name: str) -> str | None:
        """The first header called ``name`` (case-insensitive), or None."""
        name = name.lower()
        return next((v for k, v in self.headers if k.lower() == name), None)


@dataclass
class Form:
    """One ``<form>``: its ``action`` (absolute path), ``method`` and the fields a browser
    would submit by default (``values``); ``choices`` lists each radio/select's options."""
    action: str
    method: str
    values: dict[str, str] = field(default_factory=dict)
    choices: dict[str, list[str]] = field(default_factory=dict)
    element_id: str = ""


class _FormParser(HTMLParser):
    def __init__(self, page_path: str):
        super().__init__(convert_charrefs=True)
        self.page_path = page_path
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: str | None = None
        self._select_first: str | None = None
        self._select_chosen = False
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            action = urljoin(self.page_path, a.get("action") or self.page_path)
            self._form = Form(action=urlsplit(action).path, method=(a.get("method") or "get").lower(),
                              element_id=a.get("id", ""))
            self.forms.append(self._form)
        if self._form is None:
            return
        name = a.get("name")
        if tag == "input" and name and "disabled" not in a:
            kind = a.get("type", "text").lower()
            if kind in ("radio", "checkbox"):
                self._form.choices.setdefault(name, []).append(a.get("value", "on"))
                if "checked" in a:
                    self._form.values[name] = a.get("value", "on")
            elif kind not in ("submit", "button", "image", "reset", "file"):
                self._form.values[name] = a.get("value", "")
        elif tag == "select" and name:
            self._select, self._select_first, self._select_chosen = name, None, False
        elif tag == "option" and self._select:
            value = a.get("value", "")
            self._form.choices.setdefault(self._select, []).append(value)
            if self._select_first is None:
                self._select_first = value
            if "selected" in a:
                self._form.values[self._select] = value
                self._select_chosen = True
        elif tag == "textarea" and name:
            self._textarea = name
            self._form.values[name] = ""

    def handle_data(self, data):
        if self._textarea and self._form is not None:
            self._form.values[self._textarea] += data

    def handle_endtag(self, tag):
        if tag == "select" and self._select and self._form is not None:
            if not self._select_chosen and self._select_first is not None:
                self._form.values[self._select] = self._select_first
            self._select = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "form":
            self._form = None


def parse_forms(html: str, page_path: str) -> list[Form]:
    """Every form of ``html`` (the page at ``page_path``), in document order."""
    parser = _FormParser(page_path)
    parser.feed(html)
    parser.close()
    return parser.forms


_SET_COOKIE = re.compile(r"^\s*([^=;\s]+)=([^;]*)")


class Browser:
    """One user's cookie jar talking to a set of server ports (round-robin per request).

    ``cookies`` starts with the session cookie; CSRF cookies set by the site are kept;
    ``log`` (a list) records each request's time and step."""

    def __init__(self, host: str, ports: list[int], cookies: dict[str, str] | None = None, timeout: float = 60.0,
                 log: list | None = None):
        self.host = host
        self.ports = ports
        self.cookies = dict(cookies or {})
        self.timeout = timeout
        self.log = log  # gets (perf_counter seconds, step) per request when given
        self._next = 0

    def origin(self, port: int) -> str:
        return f"http://{self.host}:{port}"

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def _port(self) -> int:
        port = self.ports[self._next % len(self.ports)]
        self._next += 1
        return port

    async def request(self, method: str, path: str, data: dict | None = None, step: str = "") -> Response:
        """One request (redirects are not followed). Raises PageError(step, 0) when the
        server cannot be reached."""
        port = self._port()
        if self.log is not None:
            self.log.append((time.perf_counter(), step or path))
        body = urlencode(data or {}).encode() if method == "POST" else b""
        lines = [f"{method} {path} HTTP/1.0", f"Host: {self.host}:{port}", "Connection: close",
                 "User-Agent: okeysite-bench", "Accept-Language: en"]
        if self.cookies:
            lines.append(f"Cookie: {self.cookie_header()}")
        if method == "POST":
            lines += [f"Origin: {self.origin(port)}", f"Referer: {self.origin(port)}{path}",
                      "Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(self.host, port), self.timeout)
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
            raw = await asyncio.wait_for(reader.read(), self.timeout)
            writer.close()
        except (OSError, asyncio.TimeoutError) as exc:
            raise PageError(step or path, 0, type(exc).__name__) from None
        head, _, payload = raw.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        parts = status_line.split(" ", 2)
        status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
        headers = [(h.split(":", 1)[0].strip(), h.split(":", 1)[1].strip()) for h in header_lines if ":" in h]
        for name, value in headers:
            if name.lower() == "set-cookie":
                m = _SET_COOKIE.match(value)
                if m:
                    self.cookies[m.group(1)] = m.group(2)
        return Response(status, headers, payload.decode("utf-8", "replace"))

    async def get_page(self, path: str, step: str) -> tuple[Response, list[Form]]:
        """GET ``path``; it must answer 200. Returns the response and its forms."""
        resp = await self.request("GET", path, step=step)
        if resp.status != 200:
            raise PageError(step, resp.status, path)
        return resp, parse_forms(resp.body, path)

    async def submit(self, form: Form, overrides: dict | None = None, step: str = "") -> str:
        """POST ``form`` with its default values and ``overrides``; the site answers a good
        submission with a redirect. Returns the redirect's path. Raises PageError otherwise."""
        values = dict(form.values)
        values.update(overrides or {})
        resp = await self.request("POST", form.action, values, step=step)
        location = resp.header("Location")
        if resp.status not in (301, 302, 303) or not location:
            raise PageError(step, resp.status, form.action)
        return urlsplit(urljoin(form.action, location)).path


def find_form(forms: list[Form], *, field_name: str | None = None, action_suffix: str | None = None) -> Form | None:
    """The first POST form with a field ``field_name`` or an action ending in ``action_suffix``."""
    for form in forms:
        if form.method != "post":
            continue
        if field_name and (field_name in form.values or field_name in form.choices):
            return form
        if action_suffix and form.action.endswith(action_suffix):
            return form
    return None
