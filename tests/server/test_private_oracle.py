"""A private table is not there for a stranger (issue 43, item 6): ``leave`` and ``bots``
answer him 404 ``no_table`` as every other route does (they answered 409 and 403, which
told the table existed), and wrong invite codes are counted per address and per person:
after ``INVITE_GUESSES`` of them in ``INVITE_WINDOW`` seconds, 429
``too_many_invite_guesses`` with ``Retry-After``, on HTTP and on the socket alike."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import websockets
from tests.server.inprocess import inprocess_server

from kozyr.server.accounts.throttle import INVITE_GUESSES, INVITE_WINDOW


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@contextlib.contextmanager
def guests(base: str, n: int) -> Iterator[list[httpx.Client]]:
    """``n`` fresh guests, each an HTTP session of his own."""
    clients = [httpx.Client(base_url=base) for _ in range(n)]
    try:
        for http in clients:
            assert http.post("/api/guest").status_code == 201
        yield clients
    finally:
        for http in clients:
            http.close()


def private_table(http: httpx.Client) -> tuple[str, str]:
    r = http.post("/api/tables", json={"game": "imperial", "private": True})
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    return table["id"], table["invite_code"]


def refusal(r: httpx.Response) -> tuple[int, str]:
    return r.status_code, r.json()["code"]


def test_leave_and_bots_answer_a_stranger_as_if_there_were_no_table(tmp_path: Path) -> None:
    with inprocess_server(tmp_path) as srv, guests(srv.base, 2) as (owner, stranger):
        table, _ = private_table(owner)
        for tid in (table, "nosuchtable"):  # the same answer for both
            assert refusal(stranger.post(f"/api/tables/{tid}/leave")) == (404, "no_table")
            bot = {"seat": 1, "level": 1}
            assert refusal(stranger.post(f"/api/tables/{tid}/bots", json=bot)) == (
                404,
                "no_table",
            )
            assert refusal(stranger.delete(f"/api/tables/{tid}/bots/1")) == (404, "no_table")
        # nothing changed, and the owner still may
        r = owner.post(f"/api/tables/{table}/bots", json={"seat": 1, "level": 1})
        assert r.status_code == 200, r.text
        seat = r.json()["table"]["seats"][1]
        assert (seat["kind"], seat["level"]) == ("bot", 1)


def test_wrong_invites_are_throttled_per_address_and_per_person(tmp_path: Path) -> None:
    assert (INVITE_GUESSES, INVITE_WINDOW) == (30, 600.0)
    with inprocess_server(tmp_path) as srv:
        clock = FakeClock()
        srv.server.throttles.set_clock(clock)
        with guests(srv.base, 3) as (owner, guesser, neighbour):
            table, invite = private_table(owner)
            # a right invite counts for nothing
            assert guesser.get(f"/api/tables/{table}", params={"invite": invite}).status_code == 200
            for i in range(INVITE_GUESSES):
                clock.now += 1  # t = 1 .. 30 s
                r = guesser.get(f"/api/tables/{table}", params={"invite": f"wrong{i}"})
                assert refusal(r) == (404, "no_table")
            clock.now += 1  # t = 31 s: the first guess (t = 1) leaves at t = 601
            r = guesser.get(f"/api/tables/{table}", params={"invite": invite})
            assert refusal(r) == (429, "too_many_invite_guesses")
            assert r.headers["retry-after"] == "570"
            body = r.json()
            assert "invitation" in body["message"] and "приглашения" in body["message_ru"]
            # every route that takes an invite, and anyone else from this address
            joined = guesser.post(f"/api/tables/{table}/join", json={"invite": invite})
            assert refusal(joined) == (429, "too_many_invite_guesses")
            record = neighbour.get(f"/api/games/{table}/record", params={"invite": "x"})
            assert refusal(record) == (429, "too_many_invite_guesses")
            # routes without an invite are not held, and the table's own people are not
            assert owner.get(f"/api/tables/{table}").status_code == 200
            socket_refusal = _hello(srv.base, guesser, table, invite)
            assert socket_refusal == "too_many_invite_guesses"
            clock.now += 570  # t = 601
            seen = guesser.get(f"/api/tables/{table}", params={"invite": invite})
            assert seen.status_code == 200


def _hello(base: str, http: httpx.Client, table: str, invite: str) -> Any:
    """The code of the error the socket answers a hello with ``invite`` with."""

    async def go() -> Any:
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
        url = base.replace("http", "ws", 1) + "/ws"
        async with websockets.connect(
            url, additional_headers={"Cookie": cookie, "Origin": base}
        ) as ws:
            await ws.recv()  # welcome
            await ws.send(json.dumps({"v": 1, "type": "hello", "table": table, "invite": invite}))
            while True:
                frame = json.loads(await ws.recv())
                if frame["type"] == "error":
                    return frame["code"]

    return asyncio.run(go())
