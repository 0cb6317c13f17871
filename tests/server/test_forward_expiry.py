"""Cluster mode: a forwarded request carries its caller's deadline, and the owner drops
one that arrives after it (its caller has answered its client already: a Redis that
stalled and then resumed must not apply a change the client was told had failed)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import pytest

from kozyr.server.cluster import Cluster, OwnerSilent
from kozyr.server.runtime.config import Settings
from kozyr.server.storage.store import User, now_ms

pytestmark = pytest.mark.asyncio


class _Posts:
    available = True

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def post(self, channel: str, message: dict[str, Any]) -> None:
        self.sent.append((channel, message))


def _bare_cluster(rpc_timeout: float) -> tuple[Cluster, _Posts, list[str]]:
    """A Cluster without its lobby, store or ownership: only its messaging is used."""
    cluster = object.__new__(Cluster)
    posts = _Posts()
    served: list[str] = []

    def spawn(coro: Coroutine[Any, Any, Any]) -> None:
        served.append(coro.cr_code.co_name)
        coro.close()  # not run: only whether it would be is checked

    cluster.me = "node-a"
    cluster.settings = Settings(rpc_timeout=rpc_timeout)
    cluster.bus = posts  # type: ignore[assignment]
    cluster._calls = {}
    cluster._spawn = spawn  # type: ignore[method-assign]
    return cluster, posts, served


async def test_a_request_is_dropped_after_its_callers_timeout_and_run_before() -> None:
    caller, posts, _ = _bare_cluster(rpc_timeout=0.2)
    owner, _, served = _bare_cluster(rpc_timeout=0.2)
    user = User(id=7, name="Anna", guest=False)
    sent_at = now_ms()
    with pytest.raises(OwnerSilent):
        await caller.call("node-b", "leave", "t1", user, {})
    [(_channel, request)] = posts.sent
    # the deadline is the caller's own: sent + 200 ms
    assert sent_at + 200 <= request["expires_ms"] <= now_ms()
    # it reaches the owner now, after the caller gave up: not run
    owner._on_node(request)
    assert served == []
    # the same request in time is run
    owner._on_node({**request, "expires_ms": now_ms() + 5_000})
    assert served == ["_serve"]


async def test_a_request_without_a_deadline_is_run() -> None:
    """From a process of the version before: it sends no deadline."""
    owner, _, served = _bare_cluster(rpc_timeout=2.0)
    owner._on_node({"kind": "req", "id": "x", "from": "node-b", "op": "leave", "table": "t1"})
    await asyncio.sleep(0)
    assert served == ["_serve"]
