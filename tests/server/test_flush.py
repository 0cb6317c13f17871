"""A connection's queue goes to its socket in one write once the running code yields,
straight from a callback when the socket takes it at once, and through the writer task
otherwise (a full transport, a handshake or close under way), never out of order."""

from __future__ import annotations

import asyncio

import pytest

from kozyr.server.connection import Connection
from kozyr.server.storage.store import User
from kozyr.server.transport.protocol import Client

pytestmark = pytest.mark.asyncio


class _Batch:
    def __init__(self) -> None:
        self.open = True
        self.gone = False
        self.writes: list[list[str]] = []

    def can_write_now(self) -> bool:
        return self.open

    def write_now(self, texts: list[str]) -> None:
        if self.gone:
            raise ConnectionResetError("the peer is gone")
        self.writes.append(list(texts))


def _connection() -> tuple[Connection, _Batch]:
    """A Connection's writing half alone (no server, no socket)."""
    conn = object.__new__(Connection)
    batch = _Batch()
    conn.client = Client(User(id=1, name="Anna", guest=False))
    conn.wakeup = asyncio.Event()
    conn._loop = asyncio.get_running_loop()
    conn._flush_due = False
    conn._writer_busy = False
    conn._dead = False
    conn._batch = batch  # type: ignore[assignment]
    conn.client.attach(conn._wake)
    return conn, batch


async def test_frames_queued_together_leave_in_one_write_after_the_code_yields() -> None:
    conn, batch = _connection()
    conn.client.send("ack")
    conn.client.send("update")
    assert batch.writes == []  # not while the move's code runs
    await asyncio.sleep(0)
    assert batch.writes == [["ack", "update"]]
    assert conn.client.queue == [] and conn.client.pending_bytes == 0
    assert not conn.wakeup.is_set()  # the writer task was not needed
    conn.client.send("next")
    await asyncio.sleep(0)
    assert batch.writes == [["ack", "update"], ["next"]]


async def test_a_socket_that_cannot_take_them_now_leaves_them_to_the_writer_task() -> None:
    conn, batch = _connection()
    batch.open = False  # e.g. the transport is paused: a write would have to wait
    conn.client.send("a")
    await asyncio.sleep(0)
    assert batch.writes == [] and conn.client.queue == ["a"]
    assert conn.wakeup.is_set()
    assert conn.client.pending_bytes == 1  # still counted until written


async def test_while_the_writer_task_holds_frames_the_next_ones_wait_for_it() -> None:
    conn, batch = _connection()
    conn._writer_busy = True
    conn.client.send("b")
    await asyncio.sleep(0)
    assert batch.writes == [] and conn.client.queue == ["b"]  # not ahead of the task's
    assert conn.wakeup.is_set()


async def test_a_peer_gone_stops_all_writing() -> None:
    conn, batch = _connection()
    batch.gone = True
    conn.client.send("a")
    await asyncio.sleep(0)
    assert conn._dead
    batch.gone = False
    conn.client.send("b")
    await asyncio.sleep(0)
    assert batch.writes == []
