"""Friends, blocks and challenges over HTTP and the socket (#44 items 3 and 4), on each
backend: the lists per account (guests have none), their bound, what a block stops (and
that the blocked person is told nothing more than an ordinary refusal), a challenge's
rules, its frame to the challenged person's open page, and the table its accept opens."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from sqlalchemy import insert, inspect, select, update
from tests.server.betting_support import ledger_of, problems
from tests.server.support import Player, ServerProc, cards_in, unique_name

from kozyr.server.storage import models as m

pytestmark = pytest.mark.asyncio

PER_PLACE_5 = {"kind": "per_place", "chips": 5}
"""Emperor for three: +2S, 0, -2S, so each seat puts 2S = 10 chips in escrow."""


async def person(server: ServerProc, prefix: str = "fr") -> Player:
    return await Player(server, unique_name(prefix)).sign_in()


def refused(r: httpx.Response, status: int, code: str) -> None:
    assert (r.status_code, r.json()["code"]) == (status, code), r.text
    assert r.json()["message"] and r.json()["message_ru"] != r.json()["message"]


async def friends(p: Player) -> list[dict[str, Any]]:
    r = await p.http.get("/api/friends")
    assert r.status_code == 200, r.text
    return list(r.json()["friends"])


async def test_guests_have_neither_list_nor_challenges(server: ServerProc) -> None:
    guest, a = await Player(server).sign_in(), await person(server)
    try:
        refused(await guest.http.get("/api/friends"), 403, "not_for_guests")
        refused(await guest.http.get("/api/blocks"), 403, "not_for_guests")
        refused(await guest.http.post(f"/api/friends/{a.name}"), 403, "not_for_guests")
        refused(await guest.http.post(f"/api/blocks/{a.name}"), 403, "not_for_guests")
        refused(await guest.http.get("/api/challenges"), 403, "not_for_guests")
        body = {"to": a.name, "game": "imperial"}
        refused(await guest.http.post("/api/challenges", json=body), 403, "not_for_guests")
        # nobody signed in
        async with httpx.AsyncClient(base_url=server.base) as anon:
            refused(await anon.get("/api/friends"), 401, "unauthorized")
    finally:
        await guest.close()
        await a.close()


async def test_follow_shows_online_and_where(server: ServerProc) -> None:
    a, b = await person(server), await person(server)
    try:
        refused(await a.http.post(f"/api/friends/{a.name}"), 400, "self_in_list")
        refused(await a.http.post("/api/friends/nobody-is-called-this"), 404, "no_user")
        assert await friends(a) == []
        # any case of the name finds him; following twice is one follow
        assert (await a.http.post(f"/api/friends/{b.name.upper()}")).json() == {"name": b.name}
        assert (await a.http.post(f"/api/friends/{b.name}")).status_code == 200
        assert await friends(a) == [{"name": b.name, "online": False, "where": None}]
        await b.connect()
        assert await friends(a) == [{"name": b.name, "online": True, "where": None}]
        # a public table with a free seat: playing there, with its id
        public = await b.post("/api/tables", {"game": "imperial", "players": 2})
        tid = public["table"]["id"]
        assert await friends(a) == [
            {
                "name": b.name,
                "online": True,
                "where": {"doing": "playing", "game": "imperial", "table": tid},
            }
        ]
        await b.post(f"/api/tables/{tid}/leave")
        # a private table: "playing", without its id
        await b.post("/api/tables", {"game": "emperor", "players": 3, "private": True})
        assert await friends(a) == [
            {
                "name": b.name,
                "online": True,
                "where": {"doing": "playing", "game": "emperor", "table": None},
            }
        ]
        # the list is the follower's: b follows nobody
        assert await friends(b) == []
        assert (await a.http.delete(f"/api/friends/{b.name}")).status_code == 200
        assert await friends(a) == []
    finally:
        await a.close()
        await b.close()


async def test_a_follow_past_the_bound_is_refused_and_changes_nothing(
    server: ServerProc,
) -> None:
    a, extra = await person(server), await person(server)
    tag = unique_name("many")
    async with ledger_of(server) as store, store.transaction() as conn:
        now = int(time.time() * 1000)
        await conn.execute(
            insert(m.users),
            [
                {
                    "name": f"{tag}{i}",
                    "name_key": f"{tag}{i}",
                    "guest": False,
                    "created_ms": now,
                }
                for i in range(500)
            ],
        )
        ids = (await conn.execute(select(m.users.c.id).where(m.users.c.name.like(f"{tag}%")))).all()
        assert len(ids) == 500
        await conn.execute(
            insert(m.follows),
            [{"follower_id": a.user["id"], "followee_id": r.id, "created_ms": now} for r in ids],
        )
    try:
        assert len(await friends(a)) == 500
        refused(await a.http.post(f"/api/friends/{extra.name}"), 409, "too_many_follows")
        listed = await friends(a)
        assert len(listed) == 500 and extra.name not in {f["name"] for f in listed}
        # one name per request: ten thousand names at once is no name of anyone
        refused(await a.http.post("/api/friends/" + "x" * 10_000), 404, "no_user")
        assert len(await friends(a)) == 500
        # one fewer, and the 500th is taken
        assert (await a.http.delete(f"/api/friends/{tag}0")).status_code == 200
        assert (await a.http.post(f"/api/friends/{extra.name}")).status_code == 200
        assert len(await friends(a)) == 500
    finally:
        await a.close()
        await extra.close()


async def test_a_block_stops_sitting_at_the_blockers_table_silently(server: ServerProc) -> None:
    a, b, c = await person(server), await person(server), await person(server)
    try:
        refused(await a.http.post(f"/api/blocks/{a.name}"), 400, "self_in_list")
        assert (await a.http.post(f"/api/blocks/{b.name}")).status_code == 200
        assert (await a.http.get("/api/blocks")).json() == {"blocks": [{"name": b.name}]}
        assert (await b.http.get("/api/blocks")).json() == {"blocks": []}
        table = (await a.post("/api/tables", {"game": "emperor", "players": 3}))["table"]
        r = await b.http.post(f"/api/tables/{table['id']}/join", json={})
        refused(r, 409, "seat_refused")
        assert "block" not in r.text.lower()
        info = (await a.http.get(f"/api/tables/{table['id']}")).json()["table"]
        assert [s["kind"] for s in info["seats"]] == ["person", "empty", "empty"]
        # someone else sits there; a table b creates himself is his to sit at
        assert (await c.http.post(f"/api/tables/{table['id']}/join", json={})).status_code == 200
        refused(await b.http.post(f"/api/tables/{table['id']}/join", json={}), 409, "seat_refused")
        # quick play does not seat him there either
        qp = await b.post("/api/quickplay", {"game": "emperor", "players": 3, "rated": False})
        assert qp["table"]["id"] != table["id"]
        # unblocked: he may sit with a again
        assert (await a.http.delete(f"/api/blocks/{b.name}")).status_code == 200
        await b.post(f"/api/tables/{qp['table']['id']}/leave")
        other = (await a.post("/api/tables", {"game": "imperial", "players": 2}))["table"]
        assert (await b.http.post(f"/api/tables/{other['id']}/join", json={})).status_code == 200
    finally:
        for p in (a, b, c):
            await p.close()


async def test_bad_challenges_are_refused_and_store_nothing(server: ServerProc) -> None:
    a, b, blocker = await person(server), await person(server), await person(server)
    guest = await Player(server).sign_in()
    try:

        async def challenge(to: str, **extra: Any) -> httpx.Response:
            return await a.http.post(
                "/api/challenges", json={"to": to, "game": "imperial", **extra}
            )

        refused(await challenge(a.name), 400, "challenge_self")
        refused(await challenge("nobody-is-called-this"), 404, "no_user")
        assert (await blocker.http.post(f"/api/blocks/{a.name}")).status_code == 200
        r = await challenge(blocker.name)
        refused(r, 409, "challenge_refused")
        assert "block" not in r.text.lower()
        # a guest takes no challenges: the same answer
        refused(await challenge(guest.user["name"]), 409, "challenge_refused")
        refused(await challenge(b.name, game="preferans"), 400, "bad_game")
        refused(await challenge(b.name, bots=[3]), 400, "bad_bots")  # 2 players: no bot seat
        refused(
            await challenge(b.name, stake={"kind": "per_game", "chips": 0}), 400, "bad_stake_chips"
        )
        assert (await a.http.get("/api/challenges")).json() == {"incoming": [], "outgoing": []}
        for _ in range(10):
            assert (await challenge(b.name)).status_code == 201
        refused(await challenge(b.name), 409, "too_many_challenges")
        mine = (await a.http.get("/api/challenges")).json()
        assert len(mine["outgoing"]) == 10 and mine["incoming"] == []
        assert len((await b.http.get("/api/challenges")).json()["incoming"]) == 10
        # a cancelled one frees a place
        first = mine["outgoing"][0]["id"]
        refused(await b.http.post(f"/api/challenges/{first}/cancel"), 404, "no_challenge")
        refused(await blocker.http.post(f"/api/challenges/{first}/accept"), 404, "no_challenge")
        assert (await a.http.post(f"/api/challenges/{first}/cancel")).status_code == 200
        refused(await a.http.post(f"/api/challenges/{first}/cancel"), 409, "challenge_gone")
        assert (await challenge(b.name)).status_code == 201
    finally:
        for p in (a, b, blocker, guest):
            await p.close()


async def test_a_challenge_reaches_the_open_page_and_its_accept_seats_both(
    server: ServerProc,
) -> None:
    a, b = await person(server), await person(server)
    try:
        await a.connect()
        await b.connect()
        r = await a.http.post(
            "/api/challenges",
            json={"to": b.name, "game": "emperor", "players": 3, "bots": [2], "stake": PER_PLACE_5},
        )
        assert r.status_code == 201, r.text
        sent = r.json()["challenge"]
        assert (sent["from"], sent["to"], sent["state"], sent["table"]) == (
            a.name,
            b.name,
            "open",
            None,
        )
        frame = await b.expect("challenge")
        assert frame["challenge"]["id"] == sent["id"] and frame["challenge"]["from"] == a.name
        assert frame["challenge"]["expires_ms"] - frame["challenge"]["created_ms"] == 300_000
        # only the challenger can cancel, only the challenged person accept
        refused(await a.http.post(f"/api/challenges/{sent['id']}/accept"), 404, "no_challenge")
        r = await b.http.post(f"/api/challenges/{sent['id']}/accept")
        assert r.status_code == 200, r.text
        table_id = r.json()["table"]
        told = await a.expect("challenge")
        assert told["challenge"]["state"] == "accepted" and told["challenge"]["table"] == table_id
        info = (await a.http.get(f"/api/tables/{table_id}")).json()["table"]
        assert [(s["kind"], s["name"], s["level"]) for s in info["seats"]] == [
            ("person", a.name, None),
            ("person", b.name, None),
            ("bot", None, 2),
        ]
        assert info["status"] == "playing" and info["stake"] == PER_PLACE_5
        refused(await b.http.post(f"/api/challenges/{sent['id']}/accept"), 409, "challenge_gone")
        # a decline is told to the challenger
        r = await a.http.post("/api/challenges", json={"to": b.name, "game": "imperial"})
        second = r.json()["challenge"]["id"]
        await b.expect("challenge")
        assert (await b.http.post(f"/api/challenges/{second}/decline")).status_code == 200
        told = await a.expect("challenge")
        assert (told["challenge"]["id"], told["challenge"]["state"]) == (second, "declined")
        # no challenge frame names a card (they carry who, game, terms and seats only)
        sent_frames = [f for p in (a, b) for f in p.frames if f["type"] == "challenge"]
        assert len(sent_frames) == 4 and cards_in(sent_frames) == set()
        # the stakes went into escrow through the ledger (10 from each), which balances
        for p in (a, b):
            assert (await p.http.get("/api/wallet")).json()["held"] == 10
        async with ledger_of(server) as store:
            assert await problems(store) == []
    finally:
        await a.close()
        await b.close()


async def test_an_expired_challenge_cannot_be_accepted(server: ServerProc) -> None:
    a, b = await person(server), await person(server)
    try:
        r = await a.http.post("/api/challenges", json={"to": b.name, "game": "imperial"})
        cid = r.json()["challenge"]["id"]
        async with ledger_of(server) as store, store.transaction() as conn:
            await conn.execute(
                update(m.challenges).where(m.challenges.c.id == cid).values(expires_ms=1)
            )
        refused(await b.http.post(f"/api/challenges/{cid}/accept"), 409, "challenge_gone")
        assert (await b.http.get("/api/challenges")).json()["incoming"] == []
        async with ledger_of(server) as store, store.engine.connect() as conn:
            row = (await conn.execute(select(m.challenges).where(m.challenges.c.id == cid))).one()
        assert (row.state, row.table_id) == ("expired", None)
    finally:
        await a.close()
        await b.close()


async def test_the_migration_makes_the_models_tables(server: ServerProc) -> None:
    """Migration 0023 creates the three tables with the columns ``models.py`` names."""
    async with ledger_of(server) as store, store.engine.connect() as conn:
        for table in (m.follows, m.blocks, m.challenges):
            names = await conn.run_sync(
                lambda c, name=table.name: [col["name"] for col in inspect(c).get_columns(name)]
            )
            assert names == [c.name for c in table.columns], table.name


async def test_a_block_after_the_challenge_stops_its_accept(server: ServerProc) -> None:
    a, b = await person(server), await person(server)
    try:
        r = await a.http.post("/api/challenges", json={"to": b.name, "game": "imperial"})
        cid = r.json()["challenge"]["id"]
        assert (await a.http.post(f"/api/blocks/{b.name}")).status_code == 200
        refused(await b.http.post(f"/api/challenges/{cid}/accept"), 409, "challenge_refused")
        # no table was opened for it, and it is still open (until its time)
        for p in (a, b):
            assert (await p.http.get("/api/games")).json()["games"] == []
        assert [c["id"] for c in (await b.http.get("/api/challenges")).json()["incoming"]] == [cid]
    finally:
        await a.close()
        await b.close()


async def test_a_deleted_account_leaves_no_follow_block_or_open_challenge(
    server: ServerProc,
) -> None:
    """Its row stays (the ledger names it for ever), so nothing cascades: the lists that
    name it on either side go, and its open challenges, sent or received, are cancelled."""
    a, b, c = await person(server), await person(server), await person(server)
    try:
        for who, whom in ((a, b), (b, a)):
            assert (await who.http.post(f"/api/friends/{whom.name}")).status_code == 200
        assert (await c.http.post(f"/api/blocks/{a.name}")).status_code == 200
        sent = await a.http.post("/api/challenges", json={"to": b.name, "game": "imperial"})
        got = await b.http.post("/api/challenges", json={"to": a.name, "game": "imperial"})
        assert (sent.status_code, got.status_code) == (201, 201), (sent.text, got.text)
        r = await a.http.post("/api/me/delete", json={"password": "correct horse 1"})
        assert r.status_code == 200, r.text
        assert await friends(b) == []
        assert (await c.http.get("/api/blocks")).json() == {"blocks": []}
        assert (await b.http.get("/api/challenges")).json() == {"incoming": [], "outgoing": []}
        ids = [sent.json()["challenge"]["id"], got.json()["challenge"]["id"]]
        async with ledger_of(server) as store, store.engine.connect() as conn:
            states = (
                await conn.execute(select(m.challenges.c.state).where(m.challenges.c.id.in_(ids)))
            ).scalars()
            assert sorted(states) == ["cancelled", "cancelled"]
            follows = await conn.execute(
                select(m.follows).where(
                    (m.follows.c.follower_id == a.user["id"])
                    | (m.follows.c.followee_id == a.user["id"])
                )
            )
            assert follows.all() == []
    finally:
        for p in (a, b, c):
            await p.close()
