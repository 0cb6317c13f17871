"""The cluster harness itself (``cluster_support``): nodes are separate processes on one
database with their own settings, and they and Redis can be killed, frozen and restarted."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from tests.server.cluster_support import ClusterFactory, RedisServer, redis_ping


def environ_of(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    pairs = (item.split(b"=", 1) for item in raw.split(b"\0") if b"=" in item)
    return {k.decode(): v.decode(errors="replace") for k, v in pairs}


def healthy(url: str) -> bool:
    try:
        return httpx.get(url + "/healthz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def test_two_nodes_share_one_database_with_their_own_settings(
    cluster: ClusterFactory, redis_server: RedisServer
) -> None:
    a, b = cluster(2, lease_ttl_ms=1500)
    assert a.pid != b.pid and a.port != b.port
    assert healthy(a.url) and healthy(b.url)
    for node, node_id in ((a, "node-0"), (b, "node-1")):
        env = environ_of(node.pid)
        assert env["KOZYR_NODE_ID"] == node_id
        assert env["KOZYR_REDIS_URL"] == redis_server.url
        assert env["KOZYR_LEASE_TTL_MS"] == "1500"
        assert env["KOZYR_DATABASE_URL"] == env["KOZYR_DATABASE_URL"].strip()
    assert environ_of(a.pid)["KOZYR_DATABASE_URL"] == environ_of(b.pid)["KOZYR_DATABASE_URL"]

    # one database: an account made through one node signs in through the other
    login = {"name": "harness_user", "password": "correct horse 1"}
    assert httpx.post(a.url + "/api/register", json=login, timeout=30).status_code == 201
    assert httpx.post(b.url + "/api/login", json=login, timeout=30).status_code == 200


def test_nodes_can_be_killed_frozen_and_restarted(cluster: ClusterFactory) -> None:
    nodes = cluster(2)
    a, b = nodes
    pid = a.pid
    a.stop()
    assert not healthy(a.url)  # frozen: the socket accepts, nothing answers
    assert healthy(b.url)
    a.cont()
    assert healthy(a.url)

    a.kill9()
    assert not a.alive() and not healthy(a.url)
    assert healthy(b.url)
    a.restart()
    assert a.alive() and a.pid != pid and healthy(a.url)
    assert environ_of(a.pid)["KOZYR_NODE_ID"] == "node-0"

    c = nodes.add()
    assert list(nodes) == [a, b, c] and healthy(c.url)
    assert environ_of(c.pid)["KOZYR_NODE_ID"] == "node-2"


def test_redis_can_be_lost_and_brought_back(redis_server: RedisServer) -> None:
    assert redis_ping(redis_server.port)
    url = redis_server.url
    redis_server.stop()
    assert not redis_server.alive() and not redis_ping(redis_server.port)
    redis_server.start()
    assert redis_server.url == url and redis_ping(redis_server.port)


def test_missing_postgres_skips_with_a_reason(
    monkeypatch: pytest.MonkeyPatch, cluster: ClusterFactory
) -> None:
    monkeypatch.delenv("KOZYR_TEST_POSTGRES_URL", raising=False)
    with pytest.raises(pytest.skip.Exception, match="KOZYR_TEST_POSTGRES_URL"):
        cluster(1)
