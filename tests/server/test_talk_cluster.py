"""Table talk in cluster mode (#44): a ``say`` through a process that does not own the
table is said at the owner, and its ``said`` frames reach every watcher, relayed ones
included, by the kibitzer rule. Runs where PostgreSQL and ``redis-server`` are (the
fixtures skip it elsewhere, naming what is missing)."""

from __future__ import annotations

import pytest
from tests.server.cluster_support import ClusterFactory
from tests.server.support import Player
from tests.server.test_cluster import started, two_across
from tests.server.test_talk import lines, say

pytestmark = pytest.mark.asyncio


async def test_talk_through_a_process_that_does_not_own_the_table(
    cluster: ClusterFactory,
) -> None:
    nodes = started(cluster, 2)
    # a's socket is on the owner (node 0), b's and the fan's on node 1: relayed
    a, b, table = await two_across(nodes[0], nodes[1], {"target": 3})
    fan = await Player(nodes[1]).sign_in()
    try:
        await fan.connect()
        await fan.hello(table)
        said = await say(b, table, text="hi from node 1")
        assert said["channel"] == "players"
        assert (await a.expect("said", id=said["id"]))["text"] == "hi from node 1"
        await fan.expect("said", id=said["id"])
        psst = await say(fan, table, phrase="good_luck")
        assert psst["channel"] == "spectators"
        # the owner's rules hold through the relay
        wrong = await say(fan, table, text="x", channel="players")
        assert wrong["type"] == "error" and wrong["code"] == "talk_channel"
        for i in range(4):  # b's 2nd to 5th line in 10 s; the 6th is refused
            assert (await say(b, table, text=f"line {i}"))["type"] == "said"
        too_fast = await say(b, table, text="one more")
        assert too_fast["type"] == "error" and too_fast["code"] == "talk_too_fast"
        # the players heard none of the fan's line: a's own line comes after anything
        # the owner sent him for it
        await say(a, table, phrase="thanks")
        await b.expect("said", phrase="thanks")
        for p in (a, b):
            assert {s["channel"] for s in lines(p, table)} == {"players"}
        # a relayed hello gets back the lines its person may see
        b.drain()
        before = len(lines(b, table))
        await b.hello(table)
        # the lines come after the table's frames, read from the database: the last of
        # them is in before the next line is said (else that one could come first)
        await b.expect("said", phrase="thanks")
        await say(a, table, phrase="sorry")
        await b.expect("said", phrase="sorry")
        back = lines(b, table)[before:]
        assert [s.get("text") or s.get("phrase") for s in back] == [
            "hi from node 1",
            "line 0",
            "line 1",
            "line 2",
            "line 3",
            "thanks",
            "sorry",
        ]
    finally:
        for p in (a, b, fan):
            await p.close()
