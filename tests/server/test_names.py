"""Names that cannot pass for someone else's: NFKC, one script, no look-alike skeleton."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from tests.server.support import ServerProc

from kozyr.server.accounts.auth import check_name
from kozyr.server.accounts.names import mixes_scripts, normalise, skeleton
from kozyr.server.runtime.config import Settings
from kozyr.server.storage.store import Store
from kozyr.server.transport.protocol import ProtocolError

PASSWORD = "correct horse 1"


def test_nfkc_before_the_checks() -> None:
    assert normalise("ℊuest-abc") == "guest-abc"
    assert normalise("Ｏｌｇａ") == "Olga"
    assert check_name(" Ｏｌｇａ ") == "Olga"
    for name in ("ℊuest-abc", "ＧＵＥＳＴ-x1"):
        with pytest.raises(ProtocolError) as e:
            check_name(name)
        assert e.value.code == "bad_name" and "guest-" in e.value.message


def test_mixed_scripts_are_refused() -> None:
    assert mixes_scripts("аdmin")  # Cyrillic а, Latin dmin
    assert mixes_scripts("Ολγa")  # Greek with a Latin a
    assert not mixes_scripts("Ольга_1")
    assert not mixes_scripts("Olga 2.0")
    assert not mixes_scripts("山田たろう")  # Japanese: Han with kana
    with pytest.raises(ProtocolError) as e:
        check_name("аnton")  # Cyrillic а ("аdmin" is reserved_name first)
    assert e.value.code == "bad_name" and "alphabet" in e.value.message
    assert "алфавит" in e.value.message_ru


def test_skeletons_of_look_alikes() -> None:
    # Cyrillic а, с, е, о, р, х, у and Latin a, c, e, o, p, x, y
    assert skeleton("асеорху") == skeleton("aceopxy") == "aceopxy"
    assert skeleton("ВОРОН") == skeleton("BOPOH") == "bopoh"  # capitals alike
    assert skeleton("ворон") != skeleton("bopoh")  # small в, н are not b, h
    assert skeleton("b0b") == skeleton("bOb") == "bob"
    assert skeleton("I1l") == "lll"
    assert skeleton("ΑΒΕ") == skeleton("ABE")  # Greek capitals
    assert skeleton("Ivan") != skeleton("ivan")  # "I" is "l", "i" is not
    assert skeleton("Ольга") != skeleton("Olga")  # not letter for letter alike


def _register(http: httpx.Client, name: str) -> httpx.Response:
    return http.post("/api/register", json={"name": name, "password": PASSWORD})


def test_look_alike_names_are_refused(server: ServerProc) -> None:
    with httpx.Client(base_url=server.base) as http:
        assert _register(http, "anton").status_code == 201
        r = _register(http, "аnton")  # Cyrillic а
        assert r.status_code == 400 and r.json()["code"] == "bad_name"
        assert _register(http, "ace").status_code == 201
        r = _register(http, "асе")  # all Cyrillic, letter for letter like "ace"
        assert r.status_code == 409
        body = r.json()
        assert body["code"] == "name_confusable" and body["message"] and body["message_ru"]
        assert _register(http, "Boris").status_code == 201
        assert _register(http, "B0ris").json()["code"] == "name_confusable"
        assert _register(http, "BORIS").json()["code"] == "name_taken"  # the same name
        r = _register(http, "ℊuest-abc")
        assert r.status_code == 400 and r.json()["code"] == "bad_name"
        # a name is stored (and signs in) in its NFKC form
        made = _register(http, "Ｖｅｒａ")
        assert made.status_code == 201 and made.json()["user"]["name"] == "Vera"
        login = http.post("/api/login", json={"name": "Vera", "password": PASSWORD})
        assert login.status_code == 200


async def _sql(server: ServerProc, statement: str) -> list[tuple[Any, ...]]:
    settings = Settings(data=server.data, database_url=server.database_url)
    store = Store(settings.url)
    try:
        async with store.engine.begin() as conn:
            result = await conn.execute(text(statement))
            return [tuple(row) for row in result.all()] if result.returns_rows else []
    finally:
        await store.close()


def test_skeletons_are_backfilled_at_start(fresh_server: ServerProc) -> None:
    fresh_server.start()
    with httpx.Client(base_url=fresh_server.base) as http:
        assert _register(http, "Boris").status_code == 201
    fresh_server.stop()
    asyncio.run(_sql(fresh_server, "UPDATE users SET name_skeleton = NULL"))
    fresh_server.start()
    with httpx.Client(base_url=fresh_server.base) as http:
        # refused only if Boris's skeleton was filled in at start
        assert _register(http, "B0ris").json()["code"] == "name_confusable"
    rows = asyncio.run(_sql(fresh_server, "SELECT name, name_skeleton FROM users"))
    assert rows == [("Boris", "boris")]
