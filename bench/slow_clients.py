"""Slow clients against the server: N connections that send half a request and stop
(slowloris), then how long ``/healthz`` takes meanwhile and how soon the server has cut
the slow ones off (``KOZYR_HEADER_TIMEOUT``).

    .venv/bin/python bench/slow_clients.py --clients 500 --header-timeout 3
"""

from __future__ import annotations

import argparse
import socket
import tempfile
import time
from pathlib import Path

import httpx

from serverproc import start_server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--header-timeout", type=float, default=3.0)
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="kozyr-slow-"))
    proc, base = start_server(data, {"KOZYR_HEADER_TIMEOUT": str(args.header_timeout)})
    port = int(base.rsplit(":", 1)[1])
    try:
        slow = []
        opened = time.monotonic()
        for _ in range(args.clients):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            s.setblocking(False)
            slow.append(s)
        t = time.monotonic()
        r = httpx.get(base + "/healthz", timeout=30)
        print(
            f"{args.clients} half-sent requests open; /healthz: {r.status_code} in "
            f"{(time.monotonic() - t) * 1000:.1f} ms"
        )
        closed_at: dict[int, float] = {}
        while len(closed_at) < len(slow) and time.monotonic() - opened < 120:
            for i, s in enumerate(slow):
                if i in closed_at:
                    continue
                try:
                    if s.recv(1) == b"":
                        closed_at[i] = time.monotonic() - opened
                except BlockingIOError:
                    pass
                except OSError:
                    closed_at[i] = time.monotonic() - opened
            time.sleep(0.05)
        times = sorted(closed_at.values())
        print(
            f"closed by the server: {len(times)} of {len(slow)}; header timeout "
            f"{args.header_timeout} s; last closed {times[-1] if times else float('nan'):.1f} s "
            f"after the first was opened"
        )
        for s in slow:
            s.close()
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
