"""The WebSocket's defences: stale intents, deep JSON, logout, clients that do not read,
and the caps on connections and frames per account and per address."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from tests.server.support import Player, ServerProc, two_at_a_table
from websockets.client import ClientProtocol
from websockets.http11 import Response
from websockets.uri import parse_uri

pytestmark = pytest.mark.asyncio


async def _seq(p: Player, table: str) -> int:
    r = await p.http.get(f"/api/tables/{table}")
    return int(r.json()["table"]["seq"])


def _action(table: str, cid: str, action: str, **extra: Any) -> str:
    return json.dumps({"type": "action", "table": table, "id": cid, "action": action, **extra})


async def _answer(p: Player, cid: str) -> dict[str, Any]:
    """The ack or the error frame for action ``cid``."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if cid in p.acks:
            return p.acks[cid]
        for e in p.errors:
            if e.get("id") == cid:
                return e
        await asyncio.sleep(0.005)
    raise TimeoutError(f"no answer to {cid}")


async def test_a_double_click_plays_one_card_the_other_is_stale(server: ServerProc) -> None:
    a, b, table = await two_at_a_table(server, {"target": 3})
    try:
        seat = a.views[table]["to_act"]
        mover, other = (a, b) if seat == 0 else (b, a)
        seen = mover.seqs[table]
        legal = mover.legal(table)
        first, second = legal[0], legal[-1]
        assert mover.ws is not None
        # Both sent at once against the same view, as a double click does.
        await mover.ws.send(_action(table, "click-1", first, seq=seen))
        await mover.ws.send(_action(table, "click-2", second, seq=seen))
        answers = [await _answer(mover, "click-1"), await _answer(mover, "click-2")]
        assert [x["type"] for x in answers] == ["ack", "error"]
        assert answers[0]["seq"] == seen + 1
        assert answers[1]["code"] == "stale" and answers[1]["message_ru"]
        assert await _seq(a, table) == seen + 1
        # A seq that is not a whole number is a bad frame, and changes nothing.
        turn = other if other.views[table]["to_act"] != seat else mover
        while turn.seqs.get(table) != seen + 1:
            await asyncio.sleep(0.005)
        for bad in ("1", 1.5, True, [seen + 1]):
            cid = f"bad-{bad!r}"
            assert turn.ws is not None
            await turn.ws.send(_action(table, cid, turn.legal(table)[0], seq=bad))
            reply = await _answer(turn, cid)
            assert reply["type"] == "error" and reply["code"] == "bad_frame", reply
        assert await _seq(a, table) == seen + 1
        # The right seq is applied; and a frame without one still works (old clients).
        cid = "with-seq"
        await turn.ws.send(_action(table, cid, turn.legal(table)[0], seq=seen + 1))
        assert (await _answer(turn, cid))["seq"] == seen + 2
        nxt = a if a.views.get(table, {}).get("to_act") == 0 else b
        while nxt.seqs.get(table) != seen + 2 or not nxt.my_turn(table, 0 if nxt is a else 1):
            await asyncio.sleep(0.005)
            nxt = a if a.my_turn(table, 0) else b
        ack = await nxt.act(table, nxt.legal(table)[0])
        assert ack["type"] == "ack" and ack["seq"] == seen + 3
    finally:
        await a.close()
        await b.close()


async def test_deeply_nested_json_is_bad_json_and_the_socket_lives(server: ServerProc) -> None:
    p = await Player(server).sign_in()
    try:
        await p.connect()
        for deep in ("[" * 5000 + "]" * 5000, '{"a":' * 5000 + "1" + "}" * 5000):
            await p.send(deep)
            error = await p.expect("error")
            assert error["code"] == "bad_json" and error["message_ru"]
        await p.send({"type": "ping", "t": 7})
        assert (await p.expect("pong"))["t"] == 7
    finally:
        await p.close()
    assert "RecursionError" not in server.log.read_text()


async def test_logout_closes_the_sessions_sockets(server: ServerProc) -> None:
    name, password = "Logout-Tester", "correct horse 1"
    a = await Player(server, name).sign_in()
    b = await Player(server).sign_in()
    # The same account signed in a second time (another device): its own session.
    other = httpx.AsyncClient(base_url=server.base)
    try:
        r = await other.post("/api/login", json={"name": name, "password": password})
        assert r.status_code == 200
        table = (await a.post("/api/tables", {"game": "imperial", "turn_timeout": None}))["table"]
        table_id = table["id"]
        await b.post(f"/api/tables/{table_id}/join", {})
        await a.connect()
        await a.hello(table_id)
        cookie = "; ".join(f"{k}={v}" for k, v in other.cookies.items())
        device = await websockets.connect(server.ws_url, additional_headers={"Cookie": cookie})
        assert json.loads(await device.recv())["type"] == "welcome"
        seq = await _seq(b, table_id)
        assert (await a.http.post("/api/logout")).status_code == 200
        closed = await a.expect("_closed", timeout=10)
        assert closed["code"] == 4401
        # The socket can no longer act for the user.
        assert a.ws is not None
        with pytest.raises(websockets.ConnectionClosed):
            for i in range(3):
                await a.ws.send(_action(table_id, f"after-{i}", "pass"))
                await asyncio.sleep(0.05)
        assert await _seq(b, table_id) == seq
        # The other session's socket is untouched.
        await device.send(json.dumps({"type": "ping", "t": 1}))
        assert json.loads(await device.recv()) == {"v": 1, "type": "pong", "t": 1}
        await device.close()
    finally:
        await other.aclose()
        await a.close()
        await b.close()


# -- clients that do not read -------------------------------------------------------------


class RawSocket:
    """A WebSocket client on a plain TCP stream (the ``websockets`` sans-I/O protocol), so
    that it can go on writing while it reads nothing; its receive buffer is small."""

    def __init__(self, url: str, cookie: str) -> None:
        self.url = url
        self.cookie = cookie
        self.proto = ClientProtocol(parse_uri(url))
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        uri = parse_uri(self.url)
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (uri.host, uri.port))
        self.reader, self.writer = await asyncio.open_connection(sock=sock, limit=4096)
        request = self.proto.connect()
        request.headers["Cookie"] = self.cookie
        self.proto.send_request(request)
        self.writer.write(b"".join(self.proto.data_to_send()))
        while True:
            data = await self.reader.read(4096)
            assert data, "closed during the handshake"
            self.proto.receive_data(data)
            if any(isinstance(e, Response) for e in self.proto.events_received()):
                return

    async def send(self, frame: dict[str, Any]) -> None:
        assert self.writer is not None
        self.proto.send_text(json.dumps(frame).encode())
        self.writer.write(b"".join(self.proto.data_to_send()))
        await asyncio.wait_for(self.writer.drain(), 5)

    async def ended(self) -> bool:
        """Reads what is there: True once the server has ended the connection."""
        assert self.reader is not None
        try:
            while True:
                data = await asyncio.wait_for(self.reader.read(1 << 16), 5)
                if not data:
                    return True
        except (ConnectionError, OSError):
            return True
        except TimeoutError:
            return False

    def close(self) -> None:
        if self.writer is not None:
            self.writer.transport.abort()


def _rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
    assert match is not None
    return int(match.group(1)) / 1024


async def _connections(http: httpx.AsyncClient) -> int:
    text = (await http.get("/metrics")).text
    match = re.search(r"^kozyr_connections (\S+)$", text, re.MULTILINE)
    assert match is not None
    return int(float(match.group(1)))


async def _hammer(sock: RawSocket, table: str) -> None:
    """Asks for the table's whole state again and again (under the flood limits)."""
    try:
        while True:
            await sock.send({"type": "hello", "table": table})
            await asyncio.sleep(0.06)
    except (ConnectionError, OSError, TimeoutError):
        return


@pytest.mark.parametrize(
    ("budget", "why"),
    [
        # The byte budget is reached first...
        (256 * 1024, "more than 262144 bytes of frames waited to be written"),
        # ... or, with a budget too large to matter, a write stuck past the timeout.
        (512 * 1024 * 1024, "a frame waited [0-9]+ s to be written"),
    ],
    ids=["byte-budget", "write-timeout"],
)
async def test_a_client_that_never_reads_is_cut_off_and_its_memory_freed(
    fresh_server: ServerProc, budget: int, why: str
) -> None:
    fresh_server.env.update(
        {
            "KOZYR_SOCKET_BUFFER": str(budget),
            "KOZYR_WRITE_TIMEOUT": "2",
            "KOZYR_BOT_DELAY": "0.01",
        }
    )
    server = fresh_server.start()
    assert server.proc is not None
    http = httpx.AsyncClient(base_url=server.base, timeout=30)
    socks: list[RawSocket] = []
    try:
        assert (await http.post("/api/guest")).status_code == 201
        body = {
            "game": "emperor",
            "options": {"rounds": 30},
            "bots": [3, 3, 3, 3],
            "sit": False,
        }
        table = (await http.post("/api/tables", json=body)).json()["table"]["id"]
        fan = await Player(server).sign_in()
        await fan.spectate(table)  # bots alone play while someone watches
        await asyncio.sleep(3)  # a long game under way: a big sync frame
        before = _rss_mb(server.proc.pid)
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
        for _ in range(4):
            s = RawSocket(server.ws_url, cookie)
            await s.open()
            socks.append(s)
        hammers = [asyncio.create_task(_hammer(s, table)) for s in socks]
        assert await _connections(http) == 5  # and the fan's
        # The server gives up on each of them (they never read a byte).
        deadline = time.monotonic() + 90
        while await _connections(http) > 1:
            assert time.monotonic() < deadline, "the non-reading sockets were never closed"
            await asyncio.sleep(0.5)
        await asyncio.wait_for(asyncio.gather(*hammers), 30)
        for s in socks:
            assert await s.ended()
        cut = re.findall(r"closing a WebSocket of user \d+ \(1013\): (.*)", server.log.read_text())
        assert len(cut) == 4 and all(re.fullmatch(why, line) for line in cut), cut
        # A generous bound: before the byte budget each such socket pinned tens of MB.
        assert _rss_mb(server.proc.pid) - before < 60
        # The game went on for everybody else.
        info = (await http.get(f"/api/tables/{table}")).json()["table"]
        assert info["status"] == "playing" and info["seq"] > 0
        seq = info["seq"]
        await fan.expect("update", seq=seq + 1)
        await fan.close()
    finally:
        for s in socks:
            s.close()
        await http.aclose()


# -- caps per account and per address ------------------------------------------------------


async def _open(server: ServerProc, p: Player) -> websockets.ClientConnection:
    ws = await websockets.connect(server.ws_url, additional_headers={"Cookie": p.cookie})
    return ws


async def _refused(ws: websockets.ClientConnection) -> dict[str, Any]:
    """The error frame a refused socket gets (after its welcome, if any), and its close."""
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if frame["type"] == "error":
            break
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(ws.recv(), 10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    return dict(frame)


async def test_caps_on_sockets_per_account_and_per_address(fresh_server: ServerProc) -> None:
    fresh_server.env.update(
        {"KOZYR_MAX_SOCKETS_PER_ACCOUNT": "2", "KOZYR_MAX_SOCKETS_PER_ADDRESS": "3"}
    )
    server = fresh_server.start()
    a, b, c = [await Player(server).sign_in() for _ in range(3)]
    opened: list[websockets.ClientConnection] = []
    try:
        opened += [await _open(server, a), await _open(server, a)]
        third = await _open(server, a)
        error = await _refused(third)
        assert error["code"] == "too_many_connections" and error["message_ru"]
        opened.append(await _open(server, b))  # the address's third
        error = await _refused(await _open(server, c))  # its fourth
        assert error["code"] == "too_many_connections"
        # A closed socket frees its place.
        await opened.pop(0).close()
        await asyncio.sleep(0.3)
        ws = await _open(server, c)
        opened.append(ws)
        assert json.loads(await ws.recv())["type"] == "welcome"
        await ws.send(json.dumps({"type": "ping", "t": 2}))
        assert json.loads(await ws.recv())["type"] == "pong"
    finally:
        for ws in opened:
            await ws.close()
        for p in (a, b, c):
            await p.close()


async def test_frames_per_second_are_counted_over_all_an_accounts_sockets(
    fresh_server: ServerProc,
) -> None:
    fresh_server.env.update({"KOZYR_ACCOUNT_FRAMES": "20", "KOZYR_FLOOD_FRAMES": "1000"})
    server = fresh_server.start()
    a = await Player(server).sign_in()
    opened: list[websockets.ClientConnection] = []
    try:
        opened = [await _open(server, a) for _ in range(3)]
        for ws in opened:
            assert json.loads(await ws.recv())["type"] == "welcome"
        # 3 x 10 pings at once: each socket is far under any per-connection limit, but
        # the account sends 30 against a budget of 20.
        for i in range(10):
            for ws in opened:
                with contextlib.suppress(websockets.ConnectionClosed):
                    await ws.send(json.dumps({"type": "ping", "t": i}))
        codes = []
        for ws in opened:
            try:
                while True:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if frame["type"] == "error":
                        codes.append(frame["code"])
                    if frame["type"] == "pong" and frame.get("t") == 9:
                        codes.append("open")  # answered to its last ping: still open
                        break
            except websockets.ConnectionClosed as e:
                assert e.rcvd is not None and e.rcvd.code == 1008
            except TimeoutError:
                codes.append("open")
        assert "flood" in codes
        assert all(code in ("flood", "open") for code in codes)
    finally:
        for ws in opened:
            await ws.close()
        await a.close()
