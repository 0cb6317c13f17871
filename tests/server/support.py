"""A real server in a subprocess and real HTTP/WebSocket clients for the server tests."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from tests.server.forked import ForkedServer, launch
from websockets.asyncio.client import ClientConnection

from kozyr.records import replay, start

CARD = re.compile(r"^(10|[2-9JQKA])[SHDC]$")


def _port_block() -> range:
    """This test process's own ports.

    Below Linux's ephemeral range (32768 up), so no client socket of any test takes a
    port between its choice and the server's bind; one block per pytest-xdist worker, so
    two workers never pick the same one.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    n = int(worker[2:]) if worker[2:].isdigit() else 0
    first = 20000 + (n % 12) * 1000
    return range(first, first + 1000)


_block = _port_block()
# a random start: two separate pytest runs on one machine seldom walk the same ports
_next_port = itertools.count(random.randrange(len(_block)))


def free_port() -> int:
    """A localhost port nobody listens on, never handed out twice by this process."""
    for _ in range(len(_block)):
        port = _block[next(_next_port) % len(_block)]
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {_block}")


# Letters that occur in no reserved word (bot, guest, system, house...), so no random
# tail can make a name read as one: hex digits can ("8-0-7" reads as "bot").
_NAME_LETTERS = "fjpqwx"


def unique_name(prefix: str) -> str:
    """A fresh user name: ``prefix-`` and ten random letters that spell no reserved word."""
    return f"{prefix}-{''.join(secrets.choice(_NAME_LETTERS) for _ in range(10))}"


async def fresh_postgres(base_url: str) -> str:
    """A new empty database next to ``base_url`` (or ``base_url`` emptied)."""
    import asyncpg

    plain = base_url.replace("postgresql+asyncpg://", "postgresql://")
    name = f"kozyr_t_{secrets.token_hex(4)}"
    conn = await asyncpg.connect(plain)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
        head, _, _ = plain.rpartition("/")
        return f"{head}/{name}"
    except asyncpg.PostgresError:
        await conn.execute(
            "DROP TABLE IF EXISTS actions, table_players, game_tables, sessions, users, "
            "alembic_version CASCADE"
        )
        return plain
    finally:
        await conn.close()


TEST_ENV = {
    "KOZYR_BOT_DELAY": "0",
    "KOZYR_BOT_BUDGET": "0.05",
    "KOZYR_GRACE": "1",
    "KOZYR_TURN_TIMEOUT": "60",
    "KOZYR_BOT_KIND": "random",
    # every test client comes from 127.0.0.1: no per-address limit on tables
    "KOZYR_MAX_OPEN_TABLES_PER_ADDRESS": "0",
    "KOZYR_MAX_BOT_TABLES_PER_ADDRESS": "0",
    # one address (127.0.0.1) makes every test's accounts, uploads, hints, puzzle answers
    # and invite guesses: the tests of those limits set their own
    "KOZYR_ACCOUNT_LIMIT": "100000",
    "KOZYR_GUEST_LIMIT": "100000",
    "KOZYR_UPLOAD_LIMIT": "1000",
    "KOZYR_UPLOAD_ADDRESS_LIMIT": "100000",
    "KOZYR_HINT_LIMIT": "600",
    "KOZYR_PUZZLE_ANSWER_LIMIT": "10000",
    "KOZYR_INVITE_GUESS_LIMIT": "100000",
}
"""The test servers' settings: fast random bots, a short grace, and no limit that the
tests, all from one address, would add up to."""


@dataclass
class ServerProc:
    """``python -m kozyr serve`` on a free localhost port."""

    data: Path
    database_url: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | ForkedServer | None = None
    module: str = "kozyr"
    """What ``python -m`` runs (a crash test's wrapper that dies at a chosen point)."""
    start_timeout: float = 60

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> ServerProc:
        env = dict(os.environ)
        env.pop("KOZYR_DATABASE_URL", None)
        env.update(
            {
                **TEST_ENV,
                # ...and every account is new: their rated games rate (tests of those
                # rules, tests/server/test_rating_eligibility.py, set their own)
                "KOZYR_RATING_NEW_GAMES": "0",
                "KOZYR_RATING_SHARED_ADDRESS": "1",
            }
        )
        if self.database_url:
            env["KOZYR_DATABASE_URL"] = self.database_url
        env.update(self.env)
        self.log = self.data / f"server-{self.port}.log"
        self.data.mkdir(parents=True, exist_ok=True)
        args = ["serve", "--port", str(self.port), "--data", str(self.data)]
        self.proc = launch(self.module, args, env, self.log)
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("server did not start")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs at all."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


_ids = itertools.count(1)


def http_client(base: str, cookies: httpx.Cookies | None = None) -> httpx.AsyncClient:
    """A person's HTTP client. It keeps an idle connection 2 s at most, under the server's
    5 s (``timeout_keep_alive``, kozyr/server/serve.py): a request sent on a connection the
    server is closing at that moment fails (httpx.ReadError), and a POST is not retried.
    Under load a person's sign-in and next request can be 5 s apart (it happened in CI,
    test_stakes_concurrency.py)."""
    return httpx.AsyncClient(
        base_url=base,
        cookies=cookies,
        timeout=30,
        limits=httpx.Limits(keepalive_expiry=2.0),
    )


class Player:
    """A person: an HTTP session (cookie) and at most one WebSocket."""

    def __init__(self, server: ServerProc, name: str | None = None) -> None:
        self.server = server
        self.http = http_client(server.base)
        self.name = name
        self.user: dict[str, Any] = {}
        self.ws: ClientConnection | None = None
        self.frames: list[dict[str, Any]] = []
        """Every frame received, in order (for the leak scan)."""
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.views: dict[str, dict[str, Any]] = {}
        self.seqs: dict[str, int] = {}
        self.acks: dict[str, dict[str, Any]] = {}
        self.errors: list[dict[str, Any]] = []
        self.tables: dict[str, dict[str, Any]] = {}
        self._reader: asyncio.Task[None] | None = None
        self.closed_code: int | None = None
        self._last_sent = 0.0

    async def sign_in(self) -> Player:
        if self.name is None:
            r = await self.http.post("/api/guest")
        else:
            r = await self.http.post(
                "/api/register", json={"name": self.name, "password": "correct horse 1"}
            )
        assert r.status_code == 201, r.text
        self.user = r.json()["user"]
        return self

    @property
    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())

    async def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        r = await self.http.post(path, json=body or {})
        assert r.status_code < 300, r.text
        return dict(r.json())

    async def connect(self, origin: str | None = None) -> None:
        headers = {"Cookie": self.cookie}
        if origin:
            headers["Origin"] = origin
        self.ws = await websockets.connect(
            self.server.ws_url, additional_headers=headers, max_size=8 * 1024 * 1024
        )
        self.closed_code = None
        self._reader = asyncio.create_task(self._read(self.ws))
        welcome = await self.expect("welcome")
        assert welcome["user"]["id"] == self.user["id"]

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                frame = json.loads(raw)
                self.frames.append(frame)
                kind = frame.get("type")
                table = frame.get("table")
                if kind in ("update", "sync"):
                    self.seqs[table] = frame["seq"]
                    if "view" in frame:
                        self.views[table] = frame["view"]
                elif kind == "ack":
                    self.acks[frame["id"]] = frame
                elif kind == "error":
                    self.errors.append(frame)
                elif kind == "table":
                    self.tables[frame["table"]["id"]] = frame
                await self.inbox.put(frame)
        except websockets.ConnectionClosed as e:
            self.closed_code = e.rcvd.code if e.rcvd else None
        finally:
            await self.inbox.put({"type": "_closed", "code": self.closed_code})

    async def disconnect(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            if self._reader is not None:
                await self._reader
            self.ws = None

    async def send(self, frame: dict[str, Any] | str) -> None:
        assert self.ws is not None
        await self.ws.send(frame if isinstance(frame, str) else json.dumps(frame))

    async def expect(self, kind: str, timeout: float = 20, **match: Any) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {kind} frame {match}")
            frame = await asyncio.wait_for(self.inbox.get(), left)
            if frame["type"] == kind and all(frame.get(k) == v for k, v in match.items()):
                return frame
            if frame["type"] == "_closed" and kind != "_closed":
                raise ConnectionError(f"closed ({frame['code']}) while waiting for {kind}")

    async def hello(self, table: str, last_seq: int | None = None, **extra: Any) -> dict[str, Any]:
        await self.send({"v": 1, "type": "hello", "table": table, "last_seq": last_seq, **extra})
        return await self.expect("table")

    async def spectate(self, table: str) -> None:
        """Watches ``table`` from this player's socket (opened if need be), without waiting
        for its frames: the bots of a table of bots alone play only while someone watches
        (docs/deploy.md)."""
        if self.ws is None:
            await self.connect()
        await self.send({"v": 1, "type": "hello", "table": table})

    def drain(self) -> None:
        while not self.inbox.empty():
            self.inbox.get_nowait()

    async def act(self, table: str, action: str, cid: str | None = None) -> dict[str, Any]:
        cid = cid or f"c{next(_ids)}"
        # stay well under the server's flood limit (50 frames a second)
        wait = self._last_sent + 0.025 - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        self._last_sent = time.monotonic()
        await self.send({"v": 1, "type": "action", "table": table, "id": cid, "action": action})
        deadline = time.monotonic() + 20
        while cid not in self.acks:
            for e in self.errors:
                if e.get("id") == cid:
                    return e
            if self.closed_code is not None or self.ws is None:
                raise ConnectionError(f"closed ({self.closed_code}) before ack {cid}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"no ack for {cid}")
            await asyncio.sleep(0.002)
        ack = self.acks[cid]
        while self.seqs.get(table, 0) < ack["seq"]:  # its update comes right after
            if time.monotonic() > deadline:
                raise TimeoutError(f"no update after ack {cid}")
            await asyncio.sleep(0.002)
        return ack

    def legal(self, table: str) -> list[str]:
        view = self.views.get(table) or {}
        return list(view.get("legal") or view.get("legal_actions") or [])

    def my_turn(self, table: str, seat: int) -> bool:
        view = self.views.get(table)
        return bool(view and not view.get("over") and view.get("to_act") == seat)

    async def play_until_over(
        self, table: str, seat: int, rng: random.Random, timeout: float = 300
    ) -> None:
        """Plays random legal moves whenever the view says it is this seat's turn."""
        deadline = time.monotonic() + timeout
        while True:
            view = self.views.get(table)
            if view is not None and self.over(table):
                return
            if self.my_turn(table, seat) and self.legal(table):
                seq = self.seqs[table]
                ack = await self.act(table, rng.choice(self.legal(table)))
                assert ack["type"] == "ack", ack
                assert ack["seq"] == seq + 1
                continue
            if time.monotonic() > deadline:
                raise TimeoutError(f"game {table} did not end; view {view}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.inbox.get(), 5)

    def over(self, table: str) -> bool:
        view = self.views.get(table) or {}
        return bool(view.get("over") or view.get("phase") == "over" or view.get("standing"))

    async def close(self) -> None:
        await self.disconnect()
        await self.http.aclose()


def cards_in(value: Any) -> set[str]:
    """Every card named anywhere in a JSON value."""
    found: set[str] = set()
    if isinstance(value, str):
        if CARD.match(value):
            found.add(value)
    elif isinstance(value, list):
        for v in value:
            found |= cards_in(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            found |= cards_in(k) | cards_in(v)
    return found


def typed_text_out(frame: dict[str, Any]) -> dict[str, Any]:
    """``frame`` without the text a person typed (a line of table talk, #44): the one
    thing a frame may carry that names a card nobody was shown ("I had the QS!")."""
    if frame.get("type") == "said":
        return {k: v for k, v in frame.items() if k != "text"}
    return frame


def leak_scan(record: dict[str, Any], frames: list[dict[str, Any]], seat: int | None) -> int:
    """Checks that every frame sent to ``seat`` (None: a spectator) names only cards that
    the engine's own observation for that seat at that point shows, and that the view in
    each frame is exactly that observation. Returns the number of frames checked."""
    state = start(record)
    states = [state.clone()]
    for text in record["actions"]:
        state.play(text)
        states.append(state.clone())
    assert replay(record).actions == states[-1].actions
    checked = 0
    seq = 0
    table = record["table"]
    for frame in frames:
        kind = frame.get("type")
        where = frame.get("table")
        if (where["id"] if isinstance(where, dict) else where) not in (table, None):
            continue  # another table's frame
        if kind in ("update", "sync"):
            seq = frame["seq"]
        at = states[seq]
        obs = at.observation(seat).to_json()
        allowed = cards_in(obs) | cards_in(at.events)
        named = cards_in(typed_text_out(frame))
        assert named <= allowed, (
            f"frame {kind} seq {seq} to seat {seat} names {sorted(named - allowed)}"
        )
        if "view" in frame:
            view = dict(frame["view"])
            if kind == "update":
                obs.pop("events")
            assert view == obs, f"view at seq {seq} is not seat {seat}'s observation"
            if seat is None:
                assert not view.get("hand"), "a spectator was shown a hand"
        checked += 1
    return checked


async def two_at_a_table(
    server: ServerProc, options: dict[str, Any], timeout: float | None = None
) -> tuple[Player, Player, str]:
    """Two people at a fresh Imperial table whose game has not already ended in the first
    declarations (a small target can be reached before the first card)."""
    a, b = await Player(server).sign_in(), await Player(server).sign_in()
    await a.connect()
    await b.connect()
    body = {"game": "imperial", "options": options, "turn_timeout": timeout}
    for _ in range(20):
        table = (await a.post("/api/tables", body))["table"]["id"]
        await b.post(f"/api/tables/{table}/join", {})
        for p in (a, b):
            await p.hello(table)
            await p.expect("sync")
        if a.views[table]["to_act"] is not None:
            return a, b, table
        for p in (a, b):
            await p.send({"type": "unwatch", "table": table})
    raise AssertionError("no game lasted past its declarations")
