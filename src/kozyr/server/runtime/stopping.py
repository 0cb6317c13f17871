"""Stopping cleanly (SIGTERM, Ctrl-C): from the signal on, no table takes or plays a move.

uvicorn answers the signal by closing the listening socket and the WebSockets, waiting
for the requests under way, and only then running the application's shutdown. Without a
word from the signal the tables would play on all that while: the clocks of the people
whose sockets it closed would run out and bots would take their seats, and bots whose
threads had been shut down would play at random. :func:`on_stop_signals` puts a step of
the server's own before uvicorn's handler, so that the tables stop taking moves at the
signal itself (``docs/deploy.md``, "Stopping").
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def on_stop_signals(on_stop: Callable[[], None]) -> Callable[[], None]:
    """Runs ``on_stop`` on the running loop when SIGINT or SIGTERM arrives, then whatever
    handled the signal before (uvicorn's). Returns a function that puts the handlers back.

    Only the main thread can set signal handlers: elsewhere (a server in a test's thread)
    nothing is set, and the application's shutdown stops the moves instead."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    loop = asyncio.get_running_loop()
    previous: dict[int, Any] = {}

    def handler(signum: int, frame: FrameType | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nothing to stop
            loop.call_soon_threadsafe(on_stop)
        before = previous.get(signum)
        if callable(before):
            before(signum, frame)
        elif before == signal.SIG_DFL:  # nothing of uvicorn's: the default, as it was
            signal.signal(signum, before)
            signal.raise_signal(signum)

    for sig in STOP_SIGNALS:
        previous[sig] = signal.signal(sig, handler)

    def restore() -> None:
        for sig, before in previous.items():
            if signal.getsignal(sig) is handler and before is not None:
                signal.signal(sig, before)

    return restore


def exit_0_on_sigterm() -> None:
    """SIGTERM ends the process with status 0 once uvicorn has stopped cleanly.

    uvicorn handles SIGTERM while it serves, and raises it again when it has stopped; with
    Python's default handler that kills the process (status 143, or -15 to a parent) after
    a clean stop, which service managers take for a failure. Called before uvicorn
    starts: its handler is put back then, and exits with 0."""

    def exit_0(_signum: int, _frame: FrameType | None) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, exit_0)
