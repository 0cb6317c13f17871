"""A whole Imperial and a whole Emperor game played by bots, with spectators betting on
the winner before it starts: the pool shared as worked out by hand, every market settled
once, every escrow empty, and no frame to a spectator naming a card he may not see."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.server.betting_support import (
    bet,
    escrows,
    grant,
    ledger_of,
    markets,
    module_server,
    problems,
    settlements,
    wallet,
)
from tests.server.support import Player, ServerProc, leak_scan

pytestmark = pytest.mark.asyncio


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    yield from module_server(backend, tmp_path_factory)


GAMES = [
    ("imperial", {"players": 2, "options": {"target": 2}}, "game.winner"),
    ("emperor", {"players": 3, "options": {"rounds": 2}}, "game.emperor"),
]


@pytest.mark.parametrize(("game", "shape", "winner"), GAMES)
async def test_spectators_share_the_pool_of_a_whole_bot_game(
    server: ServerProc, game: str, shape: dict[str, object], winner: str
) -> None:
    owner = await Player(server).sign_in()
    fans = [await Player(server).sign_in() for _ in range(3)]
    players = int(shape["players"])  # type: ignore[call-overload]
    bots = {str(s): 1 for s in range(1, players)}
    body = {"game": game, **shape, "sit": False, "bots": bots}
    table = (await owner.post("/api/tables", body))["table"]["id"]
    async with ledger_of(server) as store:
        for fan in fans:
            await grant(store, fan.user["id"], 100)
        await fans[0].connect()
        await fans[0].hello(table)
        stakes = [("seat:0", 30), ("seat:1", 10), ("seat:0", 20)]
        for fan, (outcome, chips) in zip(fans, stakes, strict=True):
            assert (await bet(fan, table, winner, outcome, chips)).status_code == 201
        # the last seat gets a bot: the game starts and the bots play it out
        await owner.post(f"/api/tables/{table}/bots", {"seat": 0, "level": 1})
        done = await fans[0].expect("bet_settled", timeout=240, market=winner)
        shown = await markets(fans[0], table)
        outcome = shown[winner]["outcome"]
        # worked out by hand: a pool of 60; seat 0 backed by 30 and 20 shares it 36/24;
        # seat 1 backed by 10 alone takes all 60; seat 2 (Emperor) was backed by nobody,
        # so every bet is refunded
        expected = {
            "seat:0": [100 - 30 + 36, 100 - 10, 100 - 20 + 24],
            "seat:1": [70, 100 - 10 + 60, 80],
            "seat:2": [100, 100, 100],
        }[outcome]
        assert done["payout"] == expected[0] - 70
        assert [await wallet(store, fan) for fan in fans] == expected
        # the game is over: every market settled, those with bets exactly once
        for mk in shown.values():
            assert mk["state"] == "settled" and mk["outcome"] is not None, mk
        assert await settlements(store, table) == {winner: 1}
        assert await escrows(store, table) == 0
        assert await problems(store) == []
        record = (await fans[0].http.get(f"/api/games/{table}/record")).json()
        assert any(f["type"] == "market" for f in fans[0].frames)
        assert leak_scan(record, fans[0].frames, None) > 0
    for p in (owner, *fans):
        await p.close()
