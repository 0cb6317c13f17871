"""Creating a table with options past their range (I12 target 1-20, E4 rounds 1-30) is
refused 400 ``bad_options`` in English and Russian, never a 500, and leaves the lobby and
the database as they were (docs/chips.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from tests.server.inprocess import inprocess_server

from kozyr.server.runtime.config import sqlite_url
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store

MAX_STAKE = {"kind": "per_imperial", "chips": 1_000_000}

REFUSED: list[tuple[str, dict[str, Any], str]] = [
    ("imperial", {"target": 21}, "target must be a whole number from 1 to 20, not 21"),
    ("imperial", {"target": 10**30}, "target must be a whole number from 1 to 20, not a 100-bit"),
    ("imperial", {"target": -(10**30)}, "target must be a whole number from 1 to 20, not a 100-"),
    ("imperial", {"target": 4_000_000_000_000}, "target must be a whole number from 1 to 20"),
    ("imperial", {"target": 0}, "target must be a whole number from 1 to 20, not 0"),
    ("imperial", {"target": 5.5}, "target must be a whole number from 1 to 20, not 5.5"),
    ("imperial", {"target": "20"}, "target must be a whole number from 1 to 20, not '20'"),
    ("imperial", {"target": None}, "target must be a whole number from 1 to 20, not None"),
    ("imperial", {"target": [5]}, "target must be a whole number from 1 to 20, not [5]"),
    ("imperial", {"stake": 10**30}, "stake must be a whole number from 0 to 1000000"),
    ("imperial", {"tombe_value": 3}, "tombe_value must be 1 or 2, not 3"),
    ("imperial", {"trick_bonus_over": 13}, "trick_bonus_over must be a whole number from 0 to"),
    ("imperial", {"must_head": "yes"}, "must_head must be true or false, not 'yes'"),
    ("imperial", {"nonsense": 1}, "unknown option 'nonsense'"),
    ("emperor", {"rounds": 31}, "rounds must be a whole number from 1 to 30, not 31"),
    ("emperor", {"rounds": 10**30}, "rounds must be a whole number from 1 to 30, not a 100-"),
    ("emperor", {"bargain_from": 32}, "bargain_from must be a whole number from 2 to 31"),
    ("emperor", {"max_offer": 4}, "max_offer must be a whole number from 1 to 3, not 4"),
]


def _stored_tables(data: Path) -> int:
    async def count() -> int:
        store = Store(sqlite_url(data))
        try:
            async with store.engine.connect() as conn:
                return int(await conn.scalar(select(func.count()).select_from(m.game_tables)) or 0)
        finally:
            await store.close()

    return asyncio.run(count())


@pytest.fixture(scope="module")
def lobby(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[httpx.Client, Any, Path]]:
    """One in-process server for the module, a guest signed in, the lobby still empty."""
    data = tmp_path_factory.mktemp("limits")
    with inprocess_server(data) as srv, httpx.Client(base_url=srv.base, timeout=30) as http:
        assert http.post("/api/guest").status_code == 201
        yield http, srv, data


def _unchanged(http: httpx.Client, srv: Any, data: Path) -> None:
    assert http.get("/api/tables").json()["tables"] == []
    assert srv.server.lobby.tables == {}
    assert _stored_tables(data) == 0


@pytest.mark.parametrize(
    ("game", "options", "english"), REFUSED, ids=[f"{g}-{o}"[:60] for g, o, _ in REFUSED]
)
def test_an_option_past_its_range_is_refused_and_leaves_nothing_behind(
    lobby: tuple[httpx.Client, Any, Path], game: str, options: dict[str, Any], english: str
) -> None:
    http, srv, data = lobby
    players = 3 if game == "imperial" else 4
    stake = MAX_STAKE if game == "imperial" else {"kind": "per_trick", "chips": 1_000_000}
    # the attack: a stake table of bots alone, whose holds come from the house
    body = {
        "game": game,
        "players": players,
        "options": options,
        "bots": [1] * players,
        "sit": False,
        "stake": stake,
    }
    r = http.post("/api/tables", json=body)
    assert r.status_code == 400, r.text
    error = r.json()
    assert error["code"] == "bad_options", error
    assert error["message"].startswith(english), error
    assert error["message_ru"].startswith(("Параметр «", "Неизвестный параметр")), error
    _unchanged(http, srv, data)


def test_a_number_too_large_for_a_float_is_refused(lobby: tuple[httpx.Client, Any, Path]) -> None:
    http, srv, data = lobby
    # Python's JSON reader takes 1e400 as infinity
    raw = b'{"game": "imperial", "options": {"target": 1e400}, "bots": [1], "sit": false}'
    r = http.post("/api/tables", content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "bad_options", r.text
    assert r.json()["message"] == "target must be a whole number from 1 to 20, not inf"
    assert r.json()["message_ru"] == "Параметр «target»: целое число от 1 до 20, а не inf"
    _unchanged(http, srv, data)
