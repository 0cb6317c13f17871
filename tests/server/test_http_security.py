"""The HTTP side's defences: Host (DNS rebinding), Origin and content type (cross-site
requests), security headers, no API docs by default, malformed bodies, slow headers."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path

import httpx
from tests.server.support import ServerProc

from kozyr.server.app import WEB_STATIC

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
PASSWORD = "correct horse 1"


def refused(r: httpx.Response, status: int, code: str) -> dict[str, str]:
    assert r.status_code == status, r.text
    body = dict(r.json())
    assert body["code"] == code, body
    assert body["message"] and body["message_ru"] and body["message"] != body["message_ru"]
    return body


def ws_handshake(server: ServerProc, host: str, origin: str | None, cookie: str = "") -> int:
    """The status of a raw WebSocket handshake (101: accepted) with the given Host."""
    lines = [
        "GET /ws HTTP/1.1",
        f"Host: {host}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    ]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    if cookie:
        lines.append(f"Cookie: {cookie}")
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        status_line = s.recv(4096).split(b"\r\n", 1)[0].decode()
    return int(status_line.split()[1])


def guest_cookie(server: ServerProc) -> str:
    with httpx.Client(base_url=server.base) as http:
        assert http.post("/api/guest").status_code == 201
        return f"kozyr_session={http.cookies['kozyr_session']}"


def test_foreign_host_is_refused(server: ServerProc) -> None:
    with httpx.Client(base_url=server.base) as http:
        for host in ("evil.example", f"evil.example:{server.port}", "127.0.0.1.evil.example"):
            refused(http.get("/api/tables", headers={"Host": host}), 400, "bad_host")
            refused(http.post("/api/guest", headers={"Host": host}), 400, "bad_host")
        for host in (f"localhost:{server.port}", f"[::1]:{server.port}", "LOCALHOST"):
            assert http.get("/api/tables", headers={"Host": host}).status_code == 200


def test_cross_site_posts_are_refused(server: ServerProc) -> None:
    port = server.port
    with httpx.Client(base_url=server.base) as http:
        for origin in (
            "http://evil.example",
            f"http://evil.example:{port}",
            "null",
            f"https://127.0.0.1:{port}",  # not https here: another site
            f"http://127.0.0.1.evil.example:{port}",
            "http://[::1]:8080",  # another port: another program (issue 27 item 8a)
        ):
            r = http.post("/api/guest", headers={"Origin": origin})
            refused(r, 403, "bad_origin")
            assert "set-cookie" not in r.headers
        for origin in (server.base, f"http://localhost:{port}", f"http://[::1]:{port}"):
            assert http.post("/api/guest", headers={"Origin": origin}).status_code == 201
        # reading needs no Origin check (the browser keeps the answer from a foreign page)
        assert http.get("/api/tables", headers={"Origin": "http://evil.example"}).status_code == 200


def test_state_changing_calls_take_json_only(server: ServerProc) -> None:
    creds = json.dumps({"name": "Plainer", "password": PASSWORD})
    with httpx.Client(base_url=server.base) as http:
        for content_type in (
            "text/plain",
            "text/plain;charset=UTF-8",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
        ):
            r = http.post("/api/register", content=creds, headers={"Content-Type": content_type})
            refused(r, 415, "bad_content_type")
        r = http.post("/api/guest", content=b"{}", headers={"Content-Type": ""})
        refused(r, 415, "bad_content_type")
        # nobody was registered by those
        assert (
            http.post("/api/login", json={"name": "Plainer", "password": PASSWORD}).status_code
            == 401
        )
        ok = http.post(
            "/api/register",
            content=creds,
            headers={"Content-Type": "application/json; charset=utf-8"},
        )
        assert ok.status_code == 201
        assert http.post("/api/logout").status_code == 200  # no body: no type needed


def test_websocket_checks_host_and_origin(server: ServerProc) -> None:
    cookie = guest_cookie(server)
    here = f"127.0.0.1:{server.port}"
    # a rebinding page: its own Host and its own Origin agree, and both are foreign
    assert ws_handshake(server, "evil.example", "http://evil.example", cookie) == 403
    assert ws_handshake(server, here, "http://evil.example", cookie) == 403
    assert ws_handshake(server, here, f"https://{here}", cookie) == 403  # http server
    assert ws_handshake(server, here, f"http://{here}", cookie) == 101
    assert ws_handshake(server, f"localhost:{server.port}", None, cookie) == 101


def test_another_port_of_an_allowed_host_is_another_site(server: ServerProc) -> None:
    """Cookies are shared by every port of a host, origins are not: a page of another
    program on this machine may neither call the API nor open the game stream."""
    cookie = guest_cookie(server)
    port = server.port
    other = port + 1 if port < 65535 else port - 1
    here = f"127.0.0.1:{port}"
    with httpx.Client(base_url=server.base, headers={"Cookie": cookie}) as http:
        for origin in (f"http://127.0.0.1:{other}", "http://127.0.0.1", "http://localhost:9999"):
            refused(
                http.post("/api/tables", json={}, headers={"Origin": origin}), 403, "bad_origin"
            )
            assert ws_handshake(server, here, origin, cookie) == 403
        # the server's own origin, under any of its allowed names, on its port
        for origin in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
            assert http.post("/api/guest", headers={"Origin": origin}).status_code == 201
            assert ws_handshake(server, here, origin, cookie) == 101
        # the port is the one the browser came to (its Host), default ports included
        assert ws_handshake(server, "localhost", "http://localhost:80", cookie) == 101
        assert ws_handshake(server, "localhost:80", "http://localhost", cookie) == 101
        assert ws_handshake(server, "localhost", f"http://localhost:{port}", cookie) == 403


def test_https_origins_behind_a_proxy(fresh_server: ServerProc) -> None:
    fresh_server.env = {
        "KOZYR_HTTPS": "1",
        "KOZYR_ALLOWED_HOSTS": "kozyr.example,127.0.0.1",
        "KOZYR_ALLOWED_ORIGINS": "http://app.example:8080",
    }
    fresh_server.start()
    port = fresh_server.port
    with httpx.Client(base_url=fresh_server.base) as http:
        refused(http.get("/healthz", headers={"Host": "localhost"}), 400, "bad_host")
        assert http.get("/healthz", headers={"Host": "kozyr.example"}).status_code == 200
        for origin in (
            f"http://127.0.0.1:{port}",
            "http://kozyr.example",
            "https://app.example:8080",
        ):
            refused(http.post("/api/guest", headers={"Origin": origin}), 403, "bad_origin")
        # the proxy passes the browser's Host (proxy_set_header Host $host): port 443
        proxied = {"Host": "kozyr.example"}
        for origin in ("https://kozyr.example", "https://kozyr.example:443"):
            r = http.post("/api/guest", headers={"Origin": origin, **proxied})
            assert r.status_code == 201
        r = http.post("/api/guest", headers={"Origin": f"https://kozyr.example:{port}", **proxied})
        refused(r, 403, "bad_origin")
        assert (
            http.post("/api/guest", headers={"Origin": f"https://127.0.0.1:{port}"}).status_code
            == 201
        )
        # KOZYR_ALLOWED_ORIGINS: exactly these, whatever the Host
        assert (
            http.post("/api/guest", headers={"Origin": "http://app.example:8080"}).status_code
            == 201
        )
    cookie = guest_cookie(fresh_server)
    assert ws_handshake(fresh_server, "kozyr.example", "http://kozyr.example", cookie) == 403
    assert ws_handshake(fresh_server, "kozyr.example", "https://kozyr.example", cookie) == 101
    host = f"kozyr.example:{port}"
    assert ws_handshake(fresh_server, host, "https://kozyr.example", cookie) == 403
    assert ws_handshake(fresh_server, host, "http://app.example:8080", cookie) == 101
    assert ws_handshake(fresh_server, host, "http://app.example:8081", cookie) == 403


def test_security_headers_on_every_response(server: ServerProc) -> None:
    with httpx.Client(base_url=server.base) as http:
        responses = [
            http.get("/"),
            http.get("/sw.js"),  # the page's service worker runs under the policy too
            http.get("/manifest.en.json"),
            http.get("/healthz"),
            http.get("/metrics"),
            http.get("/api/me"),  # 401
            http.get("/no/such/page"),  # 404
            http.get("/api/tables", headers={"Host": "evil.example"}),  # 400 from the guard
            http.post("/api/guest", content=b"x", headers={"Content-Type": "text/plain"}),
            http.post("/api/tables", json={"game": "imperial"}),  # 401
        ]
    for r in responses:
        assert r.headers["content-security-policy"] == CSP, r.request.url
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"


def test_api_docs_are_off_by_default(server: ServerProc) -> None:
    with httpx.Client(base_url=server.base) as http:
        for path in ("/api/docs", "/api/openapi.json", "/docs", "/openapi.json", "/redoc"):
            assert http.get(path).status_code == 404, path


OUTSIDE = re.compile(r"""(?:https?:)?//([A-Za-z0-9.\-\[\]:]+)""")
# an XML namespace names a specification; nothing is loaded from it
NOT_LOADED = {"www.w3.org"}


def test_api_docs_on_and_nothing_from_outside(fresh_server: ServerProc) -> None:
    fresh_server.env = {"KOZYR_API_DOCS": "1"}
    fresh_server.start()
    with httpx.Client(base_url=fresh_server.base, follow_redirects=True) as http:
        schema = http.get("/api/openapi.json")
        assert schema.status_code == 200 and "/api/register" in schema.json()["paths"]
        docs = http.get("/api/docs")
        assert docs.status_code == 200 and docs.json() == schema.json()
        paths = ["/", "/api/docs", "/api/openapi.json", "/healthz", "/api/tables"]
        paths += [
            "/" + p.relative_to(WEB_STATIC).as_posix()
            for p in sorted(WEB_STATIC.rglob("*"))
            if p.is_file() and p.suffix in (".html", ".js", ".css", ".svg", ".json", ".webmanifest")
        ]
        for path in paths:
            r = http.get(path)
            assert r.status_code == 200, path
            for host in OUTSIDE.findall(r.text):
                bare = host.split(":")[0] if not host.startswith("[") else host
                assert bare in {"127.0.0.1", "localhost"} | NOT_LOADED, (path, host)


def test_malformed_bodies_get_a_code(server: ServerProc) -> None:
    with httpx.Client(base_url=server.base) as http:
        assert http.post("/api/guest").status_code == 201
        table = http.post("/api/tables", json={"game": "emperor"}).json()["table"]["id"]

        def post(path: str, raw: bytes) -> httpx.Response:
            return http.post(path, content=raw, headers={"Content-Type": "application/json"})

        deep = b"[" * 5000 + b"]" * 5000
        refused(post("/api/tables", deep), 400, "bad_json")
        refused(post("/api/login", b'{"name": "\xff\xfe"}'), 400, "bad_json")
        refused(post("/api/quickplay", b"[1, 2]"), 400, "bad_frame")
        big = json.dumps({"name": "x" * 70_000}).encode()
        refused(post("/api/register", big), 413, "too_large")
        body = refused(post(f"/api/tables/{table}/join", b'{"seat": "1"}'), 400, "bad_seat")
        assert body["message"].startswith("seat:") and "«seat»" in body["message_ru"]
        refused(post(f"/api/tables/{table}/bots", b'{"seat": 1, "level": 9}'), 400, "bad_bots")
        refused(post(f"/api/tables/{table}/bots", b'{"level": 2}'), 400, "bad_seat")
        refused(
            post("/api/quickplay", b'{"game": "emperor", "players": 1e400}'), 400, "bad_options"
        )
        refused(
            post("/api/tables", b'{"game": "imperial", "players": 10000000000000000000000}'),
            400,
            "bad_options",
        )
        refused(
            post("/api/tables", b'{"game": "imperial", "turn_timeout": NaN}'), 400, "bad_timeout"
        )
        refused(post("/api/tables", b'{"game": "imperial", "private": "yes"}'), 400, "bad_request")
        body = refused(post("/api/login", b'{"name": ["Olga"], "password": "x"}'), 400, "bad_name")
        assert body["message"].startswith("name:")
        refused(http.delete(f"/api/tables/{table}/bots/abc"), 400, "bad_seat")
    assert "Traceback" not in server.log.read_text()


def _closed_within(s: socket.socket, limit: float) -> bool:
    """Whether the server closes ``s`` (reads give b"") before ``limit`` seconds pass."""
    s.settimeout(limit)
    try:
        while s.recv(4096):
            pass
    except TimeoutError:
        return False
    return True


def test_half_sent_headers_are_cut_off(fresh_server: ServerProc) -> None:
    fresh_server.env = {"KOZYR_HEADER_TIMEOUT": "1"}
    fresh_server.start()
    where = ("127.0.0.1", fresh_server.port)
    with socket.create_connection(where) as idle, socket.create_connection(where) as half:
        half.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        assert _closed_within(half, 20)
        assert _closed_within(idle, 20)  # never sent a byte
    # a kept-alive connection: a whole request is answered, half of the next is cut off
    with socket.create_connection(where) as kept:
        kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        kept.settimeout(10)
        assert kept.recv(4096).startswith(b"HTTP/1.1 200")
        kept.sendall(b"GET /healthz HTT")
        assert _closed_within(kept, 20)
    assert httpx.get(fresh_server.base + "/healthz").status_code == 200


def test_deploy_doc_names_every_setting() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "deploy.md").read_text()
    for name in (
        "KOZYR_ALLOWED_HOSTS",
        "KOZYR_ALLOWED_ORIGINS",
        "KOZYR_HTTPS",
        "KOZYR_API_DOCS",
        "KOZYR_LOGIN_LIMIT",
        "KOZYR_ACCOUNT_LIMIT",
        "KOZYR_GUEST_LIMIT",
        "KOZYR_PUZZLE_ANSWER_LIMIT",
        "KOZYR_INVITE_GUESS_LIMIT",
        "KOZYR_UPLOAD_LIMIT",
        "KOZYR_UPLOAD_ADDRESS_LIMIT",
        "KOZYR_HINT_LIMIT",
        "KOZYR_HINT_SECONDS",
        "KOZYR_HEADER_TIMEOUT",
        "KOZYR_BODY_TIMEOUT",
        "KOZYR_MAX_CONNECTIONS",
        "KOZYR_FORWARDED_ALLOW_IPS",
        "client_header_timeout",
        "limit_conn",
    ):
        assert name in doc, name
