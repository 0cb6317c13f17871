"""Sockets that never read: how much server memory do they pin, and are they closed?

Starts ``kozyr serve`` on localhost (SQLite in a temporary folder), opens one long
bot-only Emperor table (every seat a bot, many rounds), then ``--sockets`` raw WebSocket
clients that complete the handshake, watch that table and ask for its full ``sync``
again and again (under the flood limit), and never read a byte. Prints the server's
RSS (``/proc/PID/status``) over ``--seconds``, how many of those sockets the server still
holds open (``kozyr_connections``), and what each client finds when it finally reads
(the close code, or the connection simply ended). A table of bots alone plays only
while someone watches it (docs/deploy.md, "Tables of bots alone"): one more socket, of
another account, watches it from the start and reads every frame (it is left out of the
count of connections open).

    .venv/bin/python bench/slow_readers.py --sockets 8 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import socket
import tempfile
import time
from pathlib import Path

import httpx
import websockets
from websockets.client import ClientProtocol
from websockets.frames import Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from serverproc import rss_mb, start_server


class RawSocket:
    """A WebSocket client built on the ``websockets`` sans-I/O protocol over a plain TCP
    stream, so that it can stop reading while it keeps writing (a slow or hostile peer).
    Its receive buffer is kept small, so the server's writes back up quickly."""

    def __init__(self, url: str, cookie: str) -> None:
        self.url = url
        self.cookie = cookie
        self.proto = ClientProtocol(parse_uri(url))
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self, rcvbuf: int = 4096) -> None:
        uri = parse_uri(self.url)
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (uri.host, uri.port))
        # A small stream limit: the client stops reading once 2 x this is buffered.
        self.reader, self.writer = await asyncio.open_connection(sock=sock, limit=4096)
        request = self.proto.connect()
        request.headers["Cookie"] = self.cookie
        self.proto.send_request(request)
        self._flush()
        while True:
            data = await self.reader.read(4096)
            if not data:
                raise ConnectionError("closed during the handshake")
            self.proto.receive_data(data)
            for event in self.proto.events_received():
                if isinstance(event, Response):
                    if event.status_code != 101:
                        raise ConnectionError(f"handshake refused: {event.status_code}")
                    return

    def _flush(self) -> None:
        assert self.writer is not None
        self.writer.write(b"".join(self.proto.data_to_send()))

    async def send(self, frame: dict[str, object]) -> None:
        """Writes one frame; never reads. Fails once the server has dropped the socket."""
        assert self.writer is not None
        self.proto.send_text(json.dumps(frame).encode())
        self._flush()
        await self.writer.drain()

    async def read_to_end(self, timeout: float) -> str:
        """Reads everything the server sent; says how the connection ended."""
        assert self.reader is not None
        frames = 0
        try:
            while True:
                data = await asyncio.wait_for(self.reader.read(1 << 16), timeout)
                if not data:
                    break
                self.proto.receive_data(data)
                for event in self.proto.events_received():
                    if getattr(event, "opcode", None) in (Opcode.TEXT, Opcode.BINARY):
                        frames += 1
        except TimeoutError:
            return f"still open after {frames} frames"
        except ConnectionError as e:
            return f"reset by the server after {frames} frames ({type(e).__name__})"
        if self.proto.close_rcvd is not None:
            return f"closed {self.proto.close_rcvd.code} after {frames} frames"
        return f"ended without a close frame after {frames} frames"

    def close(self) -> None:
        if self.writer is not None:
            self.writer.transport.abort()


async def flood_hellos(sock: RawSocket, table: str, stop: float, per_second: float) -> str:
    """Asks for the table's full state over and over, reading nothing."""
    sent = 0
    try:
        while time.monotonic() < stop:
            await asyncio.wait_for(sock.send({"type": "hello", "table": table}), 5)
            sent += 1
            await asyncio.sleep(1 / per_second)
    except (ConnectionError, OSError, TimeoutError) as e:
        return f"writes failed after {sent} hellos ({type(e).__name__})"
    return f"sent {sent} hellos"


class Watcher:
    """A reading watcher of the bot-only table (its bots play only while it is watched):
    says ``hello`` and reads every frame, dropping them, until closed."""

    def __init__(self, url: str, cookie: str, table: str) -> None:
        self.url, self.cookie, self.table = url, cookie, table
        self.open = False
        self.frames = 0
        self.seq = 0
        """The table's last ``seq`` seen (how far the bots have played)."""
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run())
        await asyncio.wait_for(self._ready.wait(), 30)
        if not self.open:
            raise SystemExit("the watcher could not connect")

    async def _run(self) -> None:
        try:
            async with websockets.connect(
                self.url, additional_headers={"Cookie": self.cookie}, max_size=None
            ) as ws:
                self.open = True
                await ws.send(json.dumps({"type": "hello", "table": self.table}))
                self._ready.set()
                async for raw in ws:
                    self.frames += 1
                    frame = json.loads(raw)
                    if frame.get("type") in ("update", "sync"):
                        self.seq = int(frame.get("seq", self.seq))
        except (OSError, websockets.WebSocketException):
            pass
        finally:
            self.open = False
            self._ready.set()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


async def connections_open(http: httpx.AsyncClient) -> int:
    text = (await http.get("/metrics")).text
    match = re.search(r"^kozyr_connections (\S+)$", text, re.MULTILINE)
    return int(float(match.group(1))) if match else -1


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            "KOZYR_BOT_DELAY": str(args.bot_delay),
            "KOZYR_MAX_BOT_TABLES": "0",
            "KOZYR_MAX_BOT_TABLES_TOTAL": "0",
        }
        proc, base = start_server(Path(tmp), env)
        try:
            # Idle pooled connections are dropped before the server's keep-alive (5 s)
            # ends: the polls below come every 5 s and would race its close otherwise.
            keep = httpx.Limits(keepalive_expiry=2)
            http = httpx.AsyncClient(base_url=base, timeout=30, limits=keep)
            (await http.post("/api/guest")).raise_for_status()
            body = {
                "game": "emperor",
                "players": 4,
                "options": {"rounds": 30},
                "bots": [3, 3, 3, 3],
                "sit": False,
            }
            r = await http.post("/api/tables", json=body)
            r.raise_for_status()
            table = r.json()["table"]["id"]
            cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
            url = base.replace("http", "ws") + "/ws"
            # Another account's (the slow sockets may use up this one's sockets).
            async with httpx.AsyncClient(base_url=base, timeout=30) as other:
                (await other.post("/api/guest")).raise_for_status()
                watcher_cookie = "; ".join(f"{k}={v}" for k, v in other.cookies.items())
            watcher = Watcher(url, watcher_cookie, table)
            await watcher.start()
            await asyncio.sleep(args.warmup)  # let the game get going (a bigger sync)
            before = rss_mb(proc.pid)
            socks = [RawSocket(url, cookie) for _ in range(args.sockets)]
            for s in socks:
                await s.open()
            print(f"{args.sockets} non-reading sockets; server RSS before: {before:.0f} MB")
            stop = time.monotonic() + args.seconds
            floods = [asyncio.create_task(flood_hellos(s, table, stop, args.rate)) for s in socks]
            peak = before
            started = time.monotonic()
            while time.monotonic() < stop:
                await asyncio.sleep(min(5.0, max(0.1, stop - time.monotonic())))
                now = rss_mb(proc.pid)
                peak = max(peak, now)
                open_now = await connections_open(http) - watcher.open
                print(
                    f"  t={time.monotonic() - started:5.1f} s  RSS {now:6.0f} MB  "
                    f"server-side connections open: {open_now}"
                )
            results = await asyncio.gather(*floods)
            after = rss_mb(proc.pid)
            still = await connections_open(http) - watcher.open
            print(f"server RSS: before {before:.0f} MB, peak {peak:.0f} MB, end {after:.0f} MB")
            print(f"peak growth per socket: {(peak - before) / args.sockets:.1f} MB")
            print(f"server-side connections still open at the end: {still}")
            ends = await asyncio.gather(*(s.read_to_end(5) for s in socks))
            for i, (result, end) in enumerate(zip(results, ends, strict=True)):
                print(f"  socket {i}: {result}; reading now: {end}")
            for s in socks:
                s.close()
            await watcher.close()
            await http.aclose()
        finally:
            proc.terminate()
            proc.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--rate", type=float, default=20, help="hellos per second per socket")
    parser.add_argument("--bot-delay", type=float, default=0.02)
    parser.add_argument("--warmup", type=float, default=15, help="seconds of play first")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
