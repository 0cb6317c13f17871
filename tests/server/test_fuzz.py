"""Fuzzed frames (hypothesis): the server never crashes, never changes a game on a
rejected frame, and answers every rejected frame with an error."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.server.support import Player, ServerProc

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
TYPES = ["hello", "action", "back", "unwatch", "lobby", "ping", "Action", "", "act"]
ACTIONS = ["QS", "10H", "7C", "AD", "swap 1", "pass", "trump NT", "offer 2", "ZZ", "", "ks"]


def frames(table: str) -> st.SearchStrategy[str]:
    structured = st.fixed_dictionaries(
        {"type": st.sampled_from(TYPES)},
        optional={
            "v": st.one_of(st.just(1), json_values),
            "table": st.one_of(st.just(table), json_values),
            "id": st.one_of(st.text(min_size=1, max_size=70), json_values),
            "action": st.one_of(st.sampled_from(ACTIONS), json_values),
            "last_seq": st.one_of(st.integers(-5, 500), json_values),
            "invite": json_values,
        },
    ).map(json.dumps)
    return st.one_of(structured, json_values.map(json.dumps), st.text(max_size=60))


_marks = itertools.count()


async def _probe(p: Player, table: str, raw: str) -> None:
    """Sends one frame, then a ping as a fence: an error before the fence means the frame
    was refused, and a refused frame must not have moved the game."""
    # watch again first: a fuzzed "unwatch" must not let the grace period run out and
    # a bot move for this seat while a refused frame is being checked
    await p.hello(table, last_seq=p.seqs.get(table))
    await asyncio.sleep(0.025)
    before = (await p.http.get(f"/api/tables/{table}")).json()["table"]["seq"]
    p.drain()
    mark = next(_marks)
    await p.send(raw)
    await asyncio.sleep(0.025)
    await p.send({"type": "ping", "t": f"fence-{mark}"})
    got: list[dict[str, Any]] = []
    while True:
        frame = await asyncio.wait_for(p.inbox.get(), 10)
        assert frame["type"] != "_closed", f"connection closed by {raw!r}"
        if frame["type"] == "pong" and frame.get("t") == f"fence-{mark}":
            break
        got.append(frame)
    await asyncio.sleep(0.025)
    after = (await p.http.get(f"/api/tables/{table}")).json()["table"]["seq"]
    kinds = [f["type"] for f in got]
    if "error" in kinds:
        assert after == before, f"{raw!r} was refused but moved the game"
        error = next(f for f in got if f["type"] == "error")
        assert error["code"] and error["message"]
    elif "ack" in kinds:
        assert after == before + 1 or next(f for f in got if f["type"] == "ack").get("duplicate")


def test_fuzzed_frames(server: ServerProc) -> None:
    async def setup() -> tuple[Player, Player, str]:
        a, b = await Player(server).sign_in(), await Player(server).sign_in()
        body = {"game": "imperial", "turn_timeout": None}
        table = (await a.post("/api/tables", body))["table"]["id"]
        await b.post(f"/api/tables/{table}/join", {})
        return a, b, table

    loop = asyncio.new_event_loop()
    try:
        a, b, table = loop.run_until_complete(setup())

        @settings(
            max_examples=40,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        )
        @given(st.lists(frames(table), min_size=1, max_size=4))
        def run(raws: list[str]) -> None:
            async def go() -> None:
                for p in (a, b):
                    if p.ws is None:
                        await p.connect()
                for raw in raws:
                    await _probe(a, table, raw)

            loop.run_until_complete(go())

        run()
        # still alive, still playing, no unexpected server error
        assert httpx.get(server.base + "/healthz").status_code == 200
        assert "Traceback" not in server.log.read_text()
        loop.run_until_complete(a.close())
        loop.run_until_complete(b.close())
    finally:
        loop.close()


# -- HTTP bodies ----------------------------------------------------------------------

FIELDS = ["name", "password", "game", "players", "options", "bots", "private", "sit", "seat"]
FIELDS += ["turn_timeout", "invite", "level", "", "__proto__", "constructor"]
HOSTILE: list[Any] = [
    None, True, False, 0, -1, 1, 2, 3, 4, 5, 2**31, 2**63, -(2**63), 10**30, 1e308, -0.0,
    0.5, "", "imperial", "emperor", "x" * 300, "\u0000", "\ud7ff", "guest-1", "Olga",
    "correct horse 1", "аdmin", [], {}, [1, 2], {"players": 3}, {"0": 1}, [None],
]  # fmt: skip
RAW_BODIES = [
    b"[" * 5000 + b"]" * 5000,
    b'{"a":' * 3000 + b"1" + b"}" * 3000,
    b"1" * 5000,
    b'{"players": ' + b"9" * 5000 + b"}",
    b'{"turn_timeout": NaN}',
    b'{"turn_timeout": Infinity, "game": "imperial"}',
    b'{"level": -Infinity}',
    b'{"name": "\xff\xfe\xfd", "password": "x"}',
    b"\xef\xbb\xbf{}",
    b"\x00\x01\x02",
    b'{"seat": 1, "seat": "1"}',
    b'{"name": "\\ud800", "password": "correct horse 1"}',
    b"{" + b'"k": 1,' * 10_000 + b'"k": 2}',
    b'{"name": "' + b"a" * 70_000 + b'"}',
    b"   ",
    b"null",
    b'"text"',
    b"{",
]
CONTENT_TYPES = [
    "application/json",
    "application/json; charset=utf-8",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=zz",
    "application/json-patch+json",
    "",
]


def _value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth < 4 and roll < 0.15:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    if depth < 4 and roll < 0.3:
        keys = rng.sample(FIELDS, rng.randint(0, 4))
        return {k: _value(rng, depth + 1) for k in keys}
    if roll < 0.4:
        return rng.randint(-(2**70), 2**70)
    if roll < 0.5:
        return "".join(chr(rng.randint(0, 0x2FFF)) for _ in range(rng.randint(0, 20)))
    return rng.choice(HOSTILE)


def _body(rng: random.Random) -> tuple[bytes, str | None]:
    """A body and its Content-Type (None: no header)."""
    roll = rng.random()
    if roll < 0.1:
        raw = rng.choice(RAW_BODIES)
    elif roll < 0.2:
        raw = rng.randbytes(rng.randint(0, 200))
    elif roll < 0.3:
        raw = json.dumps(_value(rng)).encode()
    else:
        fields = rng.sample(FIELDS, rng.randint(0, 5))
        raw = json.dumps({f: _value(rng) for f in fields}).encode()
    roll = rng.random()
    if roll < 0.75:
        return raw, "application/json"
    if roll < 0.85:
        return raw, None
    return raw, rng.choice(CONTENT_TYPES)


def test_fuzzed_http_bodies(fresh_server: ServerProc) -> None:
    """Thousands of random and hostile bodies against every POST route: each is answered
    below 500, and every refusal names a code in English and Russian."""
    fresh_server.env = {"KOZYR_ACCOUNT_LIMIT": "40", "KOZYR_GUEST_LIMIT": "40"}
    fresh_server.start()
    rng = random.Random(20240611)

    async def go() -> tuple[dict[int, int], list[str]]:
        async with (
            httpx.AsyncClient(base_url=fresh_server.base, timeout=60) as http,
            httpx.AsyncClient(base_url=fresh_server.base, timeout=60) as other,
        ):
            assert (await http.post("/api/guest")).status_code == 201
            made = await http.post("/api/tables", json={"game": "emperor", "players": 4})
            table = made.json()["table"]["id"]
            routes = ["/api/register", "/api/login", "/api/guest", "/api/logout"]
            routes += ["/api/tables", "/api/quickplay", "/api/tables/nope/join"]
            routes += [f"/api/tables/{table}/{what}" for what in ("join", "leave", "bots")]
            statuses: dict[int, int] = {}
            problems: list[str] = []
            gate = asyncio.Semaphore(8)

            async def one(i: int) -> None:
                path = routes[i % len(routes)]
                raw, content_type = _body(rng)
                headers = {} if content_type is None else {"Content-Type": content_type}
                async with gate:
                    # signing out (or in) on another client keeps this one's session
                    client = other if path in ("/api/logout", "/api/login") else http
                    try:
                        r = await client.post(path, content=raw, headers=headers)
                    except (httpx.ReadError, httpx.RemoteProtocolError):
                        # a kept-alive connection the server closed as this request went
                        # out (its 5 s idle limit, reached on a loaded machine): that is
                        # no answer from the server, so the request is sent again
                        r = await client.post(path, content=raw, headers=headers)
                statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
                if r.status_code >= 500:
                    problems.append(f"{path} {raw[:80]!r} {content_type}: {r.status_code}")
                elif r.status_code >= 400:
                    body = r.json()
                    if not (body.get("code") and body.get("message") and body.get("message_ru")):
                        problems.append(f"{path} {raw[:80]!r}: {r.status_code} {body}")

            await asyncio.gather(*(one(i) for i in range(2500)))
            return statuses, problems

    statuses, problems = asyncio.run(go())
    assert problems == []
    assert sum(statuses.values()) == 2500
    # the bodies reached every kind of answer: accepted, refused, too large, wrong type
    for status in (200, 400, 413, 415):
        assert statuses.get(status, 0) > 0, statuses
    assert httpx.get(fresh_server.base + "/healthz").status_code == 200
    assert "Traceback" not in fresh_server.log.read_text()


# -- lone surrogates (issue 27 item 5) ------------------------------------------------

FIELDS_OF = {
    "hello": ["type", "table", "invite", "last_seq"],
    "action": ["type", "table", "id", "action", "seq"],
    "back": ["type", "table"],
    "unwatch": ["type", "table"],
    "lobby": ["type", "offset", "limit"],
    "ping": ["type", "t"],
}
lone_surrogates = st.integers(0xD800, 0xDFFF).map(chr)
# text around one lone surrogate (hypothesis's own text has none, so it never pairs)
unicode_breaking = st.builds(
    lambda before, s, after: before + s + after,
    st.text(max_size=8),
    lone_surrogates,
    st.text(max_size=8),
)


@st.composite
def surrogate_frames(draw: st.DrawFn, table: str) -> tuple[str, str]:
    """A frame of each type with a lone surrogate in one of its fields, as a value, in a
    list or object under it, or as a key; (the JSON text, where it is)."""
    kind = draw(st.sampled_from(sorted(FIELDS_OF)))
    frame: dict[str, Any] = {"type": kind, "v": 1}
    frame.update({"table": table, "id": "a1", "action": "QS", "t": 7, "invite": "x"})
    bad = draw(unicode_breaking)
    field = draw(st.sampled_from([*FIELDS_OF[kind], "key"]))
    if field == "key":
        frame[bad] = 1
    else:
        frame[field] = draw(st.sampled_from([bad, [1, bad], {"k": bad}, {bad: 1}]))
    # ensure_ascii writes the surrogate as the escape a client would send: "\ud800"
    return json.dumps(frame, ensure_ascii=True), field


def test_lone_surrogates_get_bad_frame_and_the_socket_stays(server: ServerProc) -> None:
    """A lone surrogate anywhere in any frame is answered ``bad_frame`` (nothing of it is
    echoed: it could not be written as UTF-8), and the socket still answers a ping."""

    async def setup() -> tuple[Player, str]:
        a, b = await Player(server).sign_in(), await Player(server).sign_in()
        body = {"game": "imperial", "turn_timeout": None}
        table = (await a.post("/api/tables", body))["table"]["id"]
        await b.post(f"/api/tables/{table}/join", {})
        await b.http.aclose()
        await a.connect()
        await a.hello(table)
        return a, table

    loop = asyncio.new_event_loop()
    try:
        a, table = loop.run_until_complete(setup())
        marks = itertools.count()

        @settings(
            max_examples=60,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        )
        @given(surrogate_frames(table))
        def run(sample: tuple[str, str]) -> None:
            raw, field = sample

            async def go() -> None:
                await asyncio.sleep(0.05)  # under the frames-per-second limits
                a.drain()
                await a.send(raw)
                error = await a.expect("error", timeout=10)
                assert error["code"] == "bad_frame", (raw, error)
                assert "surrogate" in error["message"]
                assert error["message_ru"]
                assert "id" not in error and "table" not in error
                mark = f"after-{next(marks)}"
                await a.send({"type": "ping", "t": mark})
                pong = await a.expect("pong", timeout=10)
                assert pong["t"] == mark, (raw, field)
                assert a.closed_code is None

            loop.run_until_complete(go())

        run()
        assert "Traceback" not in server.log.read_text()
        assert "Exception in ASGI application" not in server.log.read_text()
        loop.run_until_complete(a.close())
    finally:
        loop.close()
