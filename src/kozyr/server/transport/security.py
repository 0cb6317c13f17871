"""Who may talk to the server from a browser: the Host and Origin checks, the JSON-only
rule for state-changing calls, and the security headers on every response.

It is a pure ASGI middleware (not Starlette's ``BaseHTTPMiddleware``, which buffers
responses and does not see WebSockets), outermost, so that even errors get the headers.

- **Host**: a request whose ``Host`` is not one of ``KOZYR_ALLOWED_HOSTS`` (any port) gets
  400 ``bad_host``, a WebSocket handshake a 403. A page on ``evil.example`` that
  re-points its DNS name at 127.0.0.1 (DNS rebinding) sends ``Host: evil.example``.
- **Origin**: a browser names the page that makes a request in ``Origin``. A state-changing
  call under ``/api`` (POST, PUT, PATCH, DELETE) and the WebSocket handshake need no
  Origin (programs send none) or this server's own: the scheme (``https`` behind HTTPS,
  ``http`` otherwise), an allowed host name, and the port the request came to (its
  ``Host``'s, which the browser sets and the Host check has vetted; none: the scheme's
  80 or 443); or one of the exact ``KOZYR_ALLOWED_ORIGINS``. Another port of an allowed
  host is another site (``http://127.0.0.1:9999`` is any program on this machine), even
  though cookies, which know no ports, are shared with it. With ``KOZYR_ALLOWED_HOSTS=*``
  the origin must name exactly the Host's name and port.
- **Content type**: those calls carry JSON or nothing; any other ``Content-Type`` (a
  cross-site form or ``text/plain`` POST, which browsers send without asking) gets 415.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kozyr.server.runtime.config import Settings
from kozyr.server.transport.protocol import ERRORS

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEFAULT_PORTS = {"http": 80, "https": 443}


def host_name(host: str) -> str | None:
    """The lower-case host name of a ``Host`` header or an origin's ``host[:port]``,
    IPv6 addresses keeping their brackets; None if it is not of that shape.

    >>> host_name("LocalHost:8000"), host_name("[::1]:80"), host_name("127.0.0.1")
    ('localhost', '[::1]', '127.0.0.1')
    >>> host_name("evil.example:80:80") is None, host_name("[::1") is None
    (True, True)
    """
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        if end < 0:
            return None
        name, rest = host[: end + 1], host[end + 1 :]
    else:
        name, colon, port = host.partition(":")
        rest = colon + port
    if rest and not (rest.startswith(":") and rest[1:].isdigit()):
        return None
    if not name or any(c in name for c in "/@?#\\ "):
        return None
    return name


def host_port(host: str, scheme: str) -> tuple[str, int] | None:
    """The host name and port of a ``Host`` header or an origin's ``host[:port]``, the port
    being the scheme's own when none is written; None if it is not of that shape.

    >>> host_port("LocalHost:8000", "http"), host_port("[::1]", "https")
    (('localhost', 8000), ('[::1]', 443))
    >>> host_port("kozyr.example:99999", "http") is None
    True
    """
    name = host_name(host)
    if name is None:
        return None
    rest = host.strip()[len(name) :]
    if not rest:
        return name, DEFAULT_PORTS.get(scheme, 80)
    port = int(rest[1:])
    return (name, port) if 0 < port < 65536 else None


def host_allowed(host: str | None, allowed_hosts: tuple[str, ...]) -> bool:
    """Whether a request's ``Host`` header names this server."""
    if "*" in allowed_hosts:
        return True
    if host is None:
        return False
    name = host_name(host)
    return name is not None and name in {h.lower() for h in allowed_hosts}


def origin_allowed(origin: str | None, host: str | None, settings: Settings) -> bool:
    """Whether a browser page at ``origin`` may change things here (None: not a browser).

    The page must be this server's own: its scheme, an allowed host name (with
    ``KOZYR_ALLOWED_HOSTS=*``, the Host's own name) and the port of ``host`` (the
    request's Host header, already checked against the allowed hosts); or be one of
    ``KOZYR_ALLOWED_ORIGINS``.
    """
    if origin is None:
        return True
    if origin in settings.allowed_origins:
        return True
    scheme, sep, netloc = origin.partition("://")
    scheme = scheme.lower()
    if not sep or scheme != settings.scheme or host is None:
        return False
    page, here = host_port(netloc, scheme), host_port(host, scheme)
    if page is None or here is None or page[1] != here[1]:
        return False  # another port is another site, cookies or not
    if "*" in settings.allowed_hosts:
        return page[0] == here[0]
    return page[0] == here[0] or page[0] in {h.lower() for h in settings.allowed_hosts}


def is_json(content_type: str | None) -> bool:
    return (
        content_type is not None
        and content_type.split(";", 1)[0].strip().lower() == "application/json"
    )


def error_body(code: str, message: str | None = None) -> bytes:
    english, russian = ERRORS[code]
    return json.dumps(
        {"type": "error", "code": code, "message": message or english, "message_ru": russian},
        ensure_ascii=False,
    ).encode()


class SecurityMiddleware:
    """The checks above, and :data:`SECURITY_HEADERS` on every HTTP response."""

    def __init__(
        self, app: ASGIApp, settings: Settings, on_reject: Callable[[str], None] | None = None
    ) -> None:
        self.app = app
        self.settings = settings
        self.on_reject = on_reject

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = headers.get("host")
        refusal: tuple[int, str] | None = None
        if not host_allowed(host, self.settings.allowed_hosts):
            refusal = (400, "bad_host")
        elif scope["type"] == "websocket":
            if not origin_allowed(headers.get("origin"), host, self.settings):
                refusal = (403, "bad_origin")
        elif scope["method"] in STATE_CHANGING and scope["path"].startswith("/api"):
            if not origin_allowed(headers.get("origin"), host, self.settings):
                refusal = (403, "bad_origin")
            else:
                content_type = headers.get("content-type")
                has_body = headers.get("content-length", "0").strip() not in ("", "0") or (
                    "transfer-encoding" in headers
                )
                if (content_type is not None or has_body) and not is_json(content_type):
                    refusal = (415, "bad_content_type")
        if refusal is not None:
            status, code = refusal
            if self.on_reject is not None:
                self.on_reject(code)
            if scope["type"] == "websocket":
                await receive()  # websocket.connect
                # closing before accepting makes the server answer the handshake with 403
                await send({"type": "websocket.close", "code": 1008})
                return
            await self._refuse(send, status, code)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(n, v) for n, v in SECURITY_HEADERS if n not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    @staticmethod
    async def _refuse(send: Send, status: int, code: str) -> None:
        body = error_body(code)
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    *SECURITY_HEADERS,
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
