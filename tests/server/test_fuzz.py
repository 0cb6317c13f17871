"""Fuzzed frames (hypothesis): the server never crashes, never changes a game on a
rejected frame, and answers every rejected frame with an error."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.server.support import Player, ServerProc

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**40), 2**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
TYPES = ["hello", "action", "back", "unwatch", "lobby", "ping", "Action", "", "act"]
ACTIONS = ["QS", "10H", "7C", "AD", "swap 1", "pass", "trump NT", "offer 2", "ZZ", "", "ks"]


def frames(table: str) -> st.SearchStrategy[str]:
    structured = st.fixed_dictionaries(
        {"type": st.sampled_from(TYPES)},
        optional={
            "v": st.one_of(st.just(1), json_values),
            "table": st.one_of(st.just(table), json_values),
            "id": st.one_of(st.text(min_size=1, max_size=70), json_values),
            "action": st.one_of(st.sampled_from(ACTIONS), json_values),
            "last_seq": st.one_of(st.integers(-5, 500), json_values),
            "invite": json_values,
        },
    ).map(json.dumps)
    return st.one_of(structured, json_values.map(json.dumps), st.text(max_size=60))


_marks = itertools.count()


async def _probe(p: Player, table: str, raw: str) -> None:
    """Sends one frame, then a ping as a fence: an error before the fence means the frame
    was refused, and a refused frame must not have moved the game."""
    # watch again first: a fuzzed "unwatch" must not let the grace period run out and
    # a bot move for this seat while a refused frame is being checked
    await p.hello(table, last_seq=p.seqs.get(table))
    await asyncio.sleep(0.025)
    before = (await p.http.get(f"/api/tables/{table}")).json()["table"]["seq"]
    p.drain()
    mark = next(_marks)
    await p.send(raw)
    await asyncio.sleep(0.025)
    await p.send({"type": "ping", "t": f"fence-{mark}"})
    got: list[dict[str, Any]] = []
    while True:
        frame = await asyncio.wait_for(p.inbox.get(), 10)
        assert frame["type"] != "_closed", f"connection closed by {raw!r}"
        if frame["type"] == "pong" and frame.get("t") == f"fence-{mark}":
            break
        got.append(frame)
    await asyncio.sleep(0.025)
    after = (await p.http.get(f"/api/tables/{table}")).json()["table"]["seq"]
    kinds = [f["type"] for f in got]
    if "error" in kinds:
        assert after == before, f"{raw!r} was refused but moved the game"
        error = next(f for f in got if f["type"] == "error")
        assert error["code"] and error["message"]
    elif "ack" in kinds:
        assert after == before + 1 or next(f for f in got if f["type"] == "ack").get("duplicate")


def test_fuzzed_frames(server: ServerProc) -> None:
    async def setup() -> tuple[Player, Player, str]:
        a, b = await Player(server).sign_in(), await Player(server).sign_in()
        body = {"game": "imperial", "turn_timeout": None}
        table = (await a.post("/api/tables", body))["table"]["id"]
        await b.post(f"/api/tables/{table}/join", {})
        return a, b, table

    loop = asyncio.new_event_loop()
    try:
        a, b, table = loop.run_until_complete(setup())

        @settings(
            max_examples=40,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        )
        @given(st.lists(frames(table), min_size=1, max_size=4))
        def run(raws: list[str]) -> None:
            async def go() -> None:
                for p in (a, b):
                    if p.ws is None:
                        await p.connect()
                for raw in raws:
                    await _probe(a, table, raw)

            loop.run_until_complete(go())

        run()
        # still alive, still playing, no unexpected server error
        assert httpx.get(server.base + "/healthz").status_code == 200
        assert "Traceback" not in server.log.read_text()
        loop.run_until_complete(a.close())
        loop.run_until_complete(b.close())
    finally:
        loop.close()
