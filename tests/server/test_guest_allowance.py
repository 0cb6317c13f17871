"""Guests have an allowance of their own (issue 30, 10c): a café, a school or a club behind
one address lets a whole room play as guests, while accounts with a name and a password
(registrations, and guests turned into accounts) stay at ``KOZYR_ACCOUNT_LIMIT`` an hour,
and the guests' own allowance (``KOZYR_GUEST_LIMIT``) is bounded too.

In process: the app driven through httpx's ASGI transport (its life cycle run by hand), each
client with the address it comes from, so that a room of people behind one address and a
stranger at another are told apart without a network.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI

from kozyr.server.accounts import auth
from kozyr.server.app import create_app
from kozyr.server.runtime.config import Settings

PASSWORD = "correct horse 1"
CAFE = "203.0.113.7"
ELSEWHERE = "198.51.100.20"

pytestmark = pytest.mark.asyncio


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Passwords hashed with argon2's cheapest settings: these tests count accounts, and
    twenty real hashes would be most of their time."""
    monkeypatch.setattr(auth, "_hasher", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1))


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@asynccontextmanager
async def app_at(data: Path, **settings: Any) -> AsyncIterator[FastAPI]:
    """The server's app with its life cycle (database, lobby) running, no socket."""
    app = create_app(Settings(data=data, bot_delay=0.0, bot_kind="random", **settings))
    async with app.router.lifespan_context(app):
        yield app


def browser(app: FastAPI, address: str) -> httpx.AsyncClient:
    """One person's browser (its own cookies) at ``address``."""
    transport = httpx.ASGITransport(app=app, client=(address, 50_000))
    return httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1")


async def new_guest(app: FastAPI, address: str) -> httpx.Response:
    async with browser(app, address) as http:
        return await http.post("/api/guest")


async def register(app: FastAPI, address: str, name: str) -> httpx.Response:
    async with browser(app, address) as http:
        return await http.post("/api/register", json={"name": name, "password": PASSWORD})


def refused(r: httpx.Response, code: str) -> dict[str, Any]:
    """A 429 with ``code``, its words in both languages and when to come back."""
    assert r.status_code == 429, (r.status_code, r.text)
    body: dict[str, Any] = r.json()
    assert body["code"] == code
    assert body["message"] and body["message_ru"] and body["message"] != body["message_ru"]
    assert int(r.headers["retry-after"]) >= 1
    return body


async def test_a_cafes_hundred_guests_get_in_while_registrations_stay_limited(
    tmp_path: Path,
) -> None:
    """With the default limits (20 accounts, 200 guests an hour), a hundred people in one
    café play as guests, one after another, each in his own browser; registrations from
    there still stop at 20 an hour; the guests are not refused after them either. (Guests
    used to count towards the 20: the café's 21st guest was refused for an hour.)"""
    async with app_at(tmp_path) as app:
        clock = FakeClock()
        app.state.server.throttles.set_clock(clock)
        ids = set()
        for _ in range(100):
            clock.now += 1
            r = await new_guest(app, CAFE)
            assert r.status_code == 201, (len(ids) + 1, r.text)
            user = r.json()["user"]
            assert user["guest"] is True
            ids.add(user["id"])
        assert len(ids) == 100  # a hundred people, a hundred guests
        for i in range(20):
            r = await register(app, CAFE, f"Regular {i:02d}")
            assert r.status_code == 201, (i, r.text)
        body = refused(await register(app, CAFE, "Regular 20"), "too_many_accounts")
        assert "address" in body["message"]
        # the guests' allowance is another: the room keeps coming in
        assert (await new_guest(app, CAFE)).status_code == 201
        # and another address was never touched by any of it
        assert (await register(app, ELSEWHERE, "Stranger")).status_code == 201
        assert (await new_guest(app, ELSEWHERE)).status_code == 201


async def test_the_guests_allowance_is_bounded_and_frees_up_with_time(tmp_path: Path) -> None:
    """A script minting guests from one address stops at ``KOZYR_GUEST_LIMIT`` an hour
    with ``too_many_guests`` (in both languages, with Retry-After); registrations from there
    are not blocked by it, and the guests' window frees up as it slides."""
    async with app_at(tmp_path, guest_limit=30, account_limit=3) as app:
        clock = FakeClock()
        app.state.server.throttles.set_clock(clock)
        for i in range(30):
            clock.now += 10  # t = 10 .. 300 s (from 1000)
            assert (await new_guest(app, CAFE)).status_code == 201, i
        clock.now += 10  # t = 310 s
        r = await new_guest(app, CAFE)
        body = refused(r, "too_many_guests")
        assert "guest" in body["message"]
        assert "гост" in body["message_ru"]
        # the first guest (t=10) leaves the hour at t=3610: 3300 s from t=310
        assert r.headers["retry-after"] == "3300"
        # hammering it does not keep it locked: refused guests are not counted
        for _ in range(10):
            refused(await new_guest(app, CAFE), "too_many_guests")
        # a person who wants an account may still make one
        assert (await register(app, CAFE, "Owner")).status_code == 201
        # another address has a whole allowance of its own
        assert (await new_guest(app, ELSEWHERE)).status_code == 201
        clock.now = 1000 + 3610
        assert (await new_guest(app, CAFE)).status_code == 201
        refused(await new_guest(app, CAFE), "too_many_guests")  # the second leaves at 3620
        clock.now = 1000 + 3620
        assert (await new_guest(app, CAFE)).status_code == 201


async def test_a_guest_turned_into_an_account_counts_as_an_account(tmp_path: Path) -> None:
    """Guests are many; names with passwords stay few: turning a guest into an account
    takes one of the address's accounts, as registering does (else the guests' allowance
    would be a way round the accounts' one). One not made (a name taken) gives its
    place back; past the limit the guest stays a guest."""
    async with app_at(tmp_path, account_limit=2) as app:
        clock = FakeClock()
        app.state.server.throttles.set_clock(clock)
        assert (await register(app, CAFE, "Anna")).status_code == 201
        async with browser(app, CAFE) as one, browser(app, CAFE) as two:
            assert (await one.post("/api/guest")).status_code == 201
            assert (await two.post("/api/guest")).status_code == 201
            taken = await one.post("/api/me/upgrade", json={"name": "Anna", "password": PASSWORD})
            assert taken.status_code == 409 and taken.json()["code"] == "name_taken"
            made = await one.post("/api/me/upgrade", json={"name": "Boris", "password": PASSWORD})
            assert made.status_code == 200 and made.json()["user"]["guest"] is False
            clock.now += 60
            r = await two.post("/api/me/upgrade", json={"name": "Vera", "password": PASSWORD})
            refused(r, "too_many_accounts")
            assert r.headers["retry-after"] == "3540"
            me = (await two.get("/api/me")).json()["user"]
            assert me["guest"] is True
            # an account is no guest: asking again is refused as before, taking no place
            again = await one.post("/api/me/upgrade", json={"name": "Gleb", "password": PASSWORD})
            assert again.status_code == 409 and again.json()["code"] == "not_guest"
        # the guests' own allowance is untouched by all this
        assert (await new_guest(app, CAFE)).status_code == 201
