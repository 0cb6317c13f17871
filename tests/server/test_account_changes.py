"""Account changes over a real server: rename, change password, delete, a guest becoming an
account, each with its refusals; and the periodic clean-up of idle guests."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
from sqlalchemy import select, update
from tests.server.support import Player, ServerProc
from tests.server.test_ratings_http import account, against_bot, get, refused, two_people, unique

from kozyr.server.runtime.config import normalise_database_url, sqlite_url
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, now_ms

pytestmark = pytest.mark.asyncio

PASSWORD = "correct horse 1"  # support.Player registers with it


async def test_rename_and_its_refusals(server: ServerProc) -> None:
    me, other, guest = await account(server, "Bob-"), await account(server), Player(server)
    await guest.sign_in()
    try:
        open_table = (await me.post("/api/tables", {"game": "imperial", "private": True}))["table"]
        http = me.http
        taken = other.name
        assert taken is not None and me.name is not None
        await refused(await http.post("/api/me/name", json={"name": taken}), 409, "name_taken")
        look_alike = "B0b-" + me.name[4:]  # a zero for the o: the same skeleton as ours...
        r = await other.http.post("/api/me/name", json={"name": look_alike})
        await refused(r, 409, "name_confusable")  # ...so someone else may not take it
        for bad in ("x", "deleted", "Удалён", "guest-abc", "Ivan Иван"):
            await refused(await http.post("/api/me/name", json={"name": bad}), 400, "bad_name")
        await refused(await http.post("/api/me/name", json={}), 400, "bad_name")
        r = await guest.http.post("/api/me/name", json={"name": unique("Guestly-")})
        await refused(r, 403, "not_for_guests")
        async with httpx.AsyncClient(base_url=server.base) as nobody:
            r = await nobody.post("/api/me/name", json={"name": unique("X-")})
            await refused(r, 401, "unauthorized")
        assert (await get(None, server, f"/api/users/{me.name}"))["name"] == me.name

        new = unique("Renamed-")
        assert (await me.post("/api/me/name", {"name": new}))["user"]["name"] == new
        await refused(await http.get(f"/api/users/{me.name}"), 404, "no_user")
        assert (await get(None, server, f"/api/users/{new}"))["name"] == new
        assert (await get(me, server, "/api/me"))["user"]["name"] == new
        seats = (await get(me, server, f"/api/tables/{open_table['id']}"))["table"]["seats"]
        assert seats[0]["name"] == new
        # own look-alike and case changes are fine
        assert (await me.post("/api/me/name", {"name": new.upper()}))["user"]["name"] == (
            new.upper()
        )
        r = await httpx.AsyncClient(base_url=server.base).post(
            "/api/login", json={"name": new, "password": PASSWORD}
        )
        assert r.status_code == 200
    finally:
        await me.close()
        await other.close()
        await guest.close()


async def test_change_password_signs_out_the_other_sessions(server: ServerProc) -> None:
    me, guest = await account(server), await Player(server).sign_in()
    elsewhere = Player(server, me.name)
    try:
        r = await elsewhere.http.post("/api/login", json={"name": me.name, "password": PASSWORD})
        assert r.status_code == 200
        elsewhere.user = r.json()["user"]
        await elsewhere.connect()

        http = me.http
        body = {"old": "not my password", "new": "a new password 2"}
        await refused(await http.post("/api/me/password", json=body), 403, "bad_password")
        body = {"old": PASSWORD, "new": "short"}
        await refused(await http.post("/api/me/password", json=body), 400, "bad_password")
        await refused(
            await http.post("/api/me/password", json={"old": PASSWORD}), 400, "bad_request"
        )
        body = {"old": "", "new": "a new password 2"}
        r = await guest.http.post("/api/me/password", json=body)
        await refused(r, 403, "not_for_guests")
        assert (await elsewhere.http.get("/api/me")).status_code == 200  # nothing changed

        await me.post("/api/me/password", {"old": PASSWORD, "new": "a new password 2"})
        assert (await http.get("/api/me")).status_code == 200  # this session stays
        await refused(await elsewhere.http.get("/api/me"), 401, "unauthorized")
        closed = await elsewhere.expect("_closed")
        assert closed["code"] == 4401
        async with httpx.AsyncClient(base_url=server.base) as fresh:
            old = {"name": me.name, "password": PASSWORD}
            await refused(await fresh.post("/api/login", json=old), 401, "bad_login")
            new = {"name": me.name, "password": "a new password 2"}
            assert (await fresh.post("/api/login", json=new)).status_code == 200
    finally:
        await me.close()
        await elsewhere.close()
        await guest.close()


async def test_delete_keeps_the_games_and_frees_the_name(server: ServerProc) -> None:
    me, other, guest = await account(server), await account(server), Player(server)
    await guest.sign_in()
    try:
        table = await two_people(server, me, other, rated=True)
        name = me.name
        assert name is not None
        http = me.http
        r = await http.post("/api/me/delete", json={"password": "not my password"})
        await refused(r, 403, "bad_password")
        await refused(await http.post("/api/me/delete", json={}), 400, "bad_password")
        r = await guest.http.post("/api/me/delete", json={"password": PASSWORD})
        await refused(r, 403, "not_for_guests")
        assert (await get(None, server, f"/api/users/{name}"))["games"] == 1

        await me.post("/api/me/delete", {"password": PASSWORD})
        await refused(await http.get("/api/me"), 401, "unauthorized")
        await refused(await http.get(f"/api/users/{name}"), 404, "no_user")
        (game,) = (await get(other, server, f"/api/users/{other.name}/games"))["games"]
        assert game["id"] == table and game["rating_change"] is not None
        assert [(x["name"], x["deleted"]) for x in game["players"]] == [
            ("deleted", True),
            (other.name, False),
        ]
        info = (await get(other, server, f"/api/tables/{table}"))["table"]
        assert [s["name"] for s in info["seats"]] == ["deleted", other.name]
        record = await get(other, server, f"/api/games/{table}/record")
        assert record["players"] == ["deleted", other.name]
        board = await get(None, server, "/api/leaderboard?variant=imperial-2p")
        assert "deleted" not in [x["name"] for x in board["players"]]
        # the name is free again
        again = await Player(server, name).sign_in()
        assert again.user["id"] != me.user["id"]
        await again.close()
    finally:
        await me.close()
        await other.close()
        await guest.close()


async def test_a_guest_becomes_an_account_with_his_games(server: ServerProc) -> None:
    guest, taken = await Player(server).sign_in(), await account(server)
    try:
        table = await against_bot(server, guest)
        http = guest.http
        name = unique("Upgraded-")
        body = {"name": taken.name, "password": "a good password"}
        await refused(await http.post("/api/me/upgrade", json=body), 409, "name_taken")
        body = {"name": name, "password": "short"}
        await refused(await http.post("/api/me/upgrade", json=body), 400, "bad_password")
        body = {"name": "guest-xyz", "password": "a good password"}
        await refused(await http.post("/api/me/upgrade", json=body), 400, "bad_name")
        body = {"name": name, "password": "a good password"}
        r = await taken.http.post("/api/me/upgrade", json=body)
        await refused(r, 409, "not_guest")

        user = (await guest.post("/api/me/upgrade", body))["user"]
        assert user == {"id": guest.user["id"], "name": name, "guest": False}
        profile = await get(None, server, f"/api/users/{name}")
        assert (profile["guest"], profile["games"]) == (False, 1)
        (game,) = (await get(None, server, f"/api/users/{name}/games"))["games"]
        assert game["id"] == table and game["players"][0]["name"] == name
        await refused(await http.post("/api/me/upgrade", json=body), 409, "not_guest")
        rated = await guest.post("/api/tables", {"game": "imperial", "rated": True})
        assert rated["table"]["rated"] is True  # an account may sit at a rated table
        async with httpx.AsyncClient(base_url=server.base) as fresh:
            r = await fresh.post("/api/login", json=body)
            assert r.status_code == 200 and r.json()["user"]["id"] == guest.user["id"]
    finally:
        await guest.close()
        await taken.close()


async def test_idle_guests_are_removed(fresh_server: ServerProc) -> None:
    # the job every half second; finished tables served from the database at once
    fresh_server.env.update({"KOZYR_GUEST_SWEEP_SECONDS": "0.5", "KOZYR_FINISHED_LINGER": "0"})
    server = fresh_server.start()
    idle, played, old_game = [await Player(server).sign_in() for _ in range(3)]
    person = await account(server)
    recent = await against_bot(server, played)
    old = await against_bot(server, old_game)
    for p in (idle, played, old_game, person):
        await p.close()

    url = server.database_url
    store = Store(normalise_database_url(url) if url else sqlite_url(server.data))
    long_ago = now_ms() - 40 * 86_400_000
    try:
        async with store._write() as conn:
            await conn.execute(update(m.users).values(created_ms=long_ago))
            await conn.execute(
                update(m.game_tables)
                .where(m.game_tables.c.id == old)
                .values(created_ms=long_ago, started_ms=long_ago, finished_ms=long_ago + 1)
            )
        names = [p.user["name"] for p in (idle, played, old_game)]
        deadline = time.monotonic() + 60
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as http:
            while True:
                gone = [n for n in names if (await http.get(f"/api/users/{n}")).status_code == 404]
                if len(gone) == 2 or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.2)
            assert sorted(gone) == sorted([idle.user["name"], old_game.user["name"]])
            assert (await http.get(f"/api/users/{played.user['name']}")).status_code == 200
            assert (await http.get(f"/api/users/{person.name}")).status_code == 200
            seats = (await http.get(f"/api/tables/{old}")).json()["table"]["seats"]
            assert seats[0]["name"] == "deleted"  # retired: his old game stays
            seats = (await http.get(f"/api/tables/{recent}")).json()["table"]["seats"]
            assert seats[0]["name"] == played.user["name"]
        async with store.engine.connect() as conn:
            ids = [idle.user["id"], old_game.user["id"]]
            rows = await conn.execute(
                select(m.users.c.name, m.sessions.c.user_id)
                .outerjoin(m.sessions, m.sessions.c.user_id == m.users.c.id)
                .where(m.users.c.id.in_(ids))
            )
        # both retired: their rows stay, as the ledger names their ids, without sessions
        assert sorted(rows.all()) == [("deleted", None), ("deleted", None)]
    finally:
        await store.close()
