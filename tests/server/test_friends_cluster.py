"""Challenges in cluster mode (#44): the challenged person's socket and the challenger's
are on other processes than the one that takes each request; the ``challenge`` frames
reach them over the bus, and the accepted challenge's table is played from both."""

from __future__ import annotations

import pytest
from tests.server.cluster_support import ClusterFactory
from tests.server.support import Player, unique_name

pytestmark = pytest.mark.asyncio


async def test_a_challenge_reaches_sockets_on_other_processes(cluster: ClusterFactory) -> None:
    n0, n1, n2 = cluster(3)
    # A's socket on node 0, B's on node 1; every request goes through node 2
    a_sock, b_sock = Player(n0, unique_name("ca")), Player(n1, unique_name("cb"))
    await a_sock.sign_in()
    await b_sock.sign_in()
    a, b = Player(n2), Player(n2)
    a.http.cookies.update(a_sock.http.cookies)
    b.http.cookies.update(b_sock.http.cookies)
    try:
        await a_sock.connect()
        await b_sock.connect()
        r = await a.http.post("/api/challenges", json={"to": b_sock.name, "game": "imperial"})
        assert r.status_code == 201, r.text
        cid = r.json()["challenge"]["id"]
        got = await b_sock.expect("challenge")
        assert (got["challenge"]["id"], got["challenge"]["state"]) == (cid, "open")
        r = await b.http.post(f"/api/challenges/{cid}/accept")
        assert r.status_code == 200, r.text
        table = r.json()["table"]
        told = await a_sock.expect("challenge")
        assert (told["challenge"]["state"], told["challenge"]["table"]) == ("accepted", table)
        # both play it from their own processes: each is seated there
        assert (await a_sock.hello(table))["you"] == 0
        assert (await b_sock.hello(table))["you"] == 1
    finally:
        for p in (a_sock, b_sock, a, b):
            await p.close()
