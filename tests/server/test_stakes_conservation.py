"""Conservation of chips (B5), hypothesis over random sequences of new accounts (grants),
stake games of every kind, people leaving mid-game, tables that never start, top-ups and
restarts of the server: after every step the ledger's sums are zero and every cached
balance is its entries' sum; at the end each wallet is its grant, plus its top-ups, plus
what its games won or lost worked out by hand from their results.

The server runs in this process (its lobby and store, no HTTP), restarted on the same
database, with random bots that move at once so that the games stay short."""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.server.stakes_support import net_by_hand

from kozyr.server.money import ledger, wallets
from kozyr.server.money.ledger import Account
from kozyr.server.runtime.config import Settings
from kozyr.server.services import Server
from kozyr.server.transport.protocol import ProtocolError

KINDS: list[tuple[str, int, dict[str, Any], str]] = [
    ("imperial", 2, {"target": 2}, "per_game"),
    ("imperial", 2, {"target": 2}, "per_imperial"),
    ("emperor", 3, {"rounds": 1}, "per_place"),
    ("emperor", 3, {"rounds": 1}, "per_trick"),
]

GAME = st.tuples(
    st.just("game"),
    st.integers(0, 5),
    st.integers(0, len(KINDS) - 1),
    st.integers(1, 40),
    st.booleans(),
)
STEP = st.one_of(
    GAME,
    GAME,  # games are what the test is about: drawn three times as often
    GAME,
    st.tuples(st.just("person"), st.booleans()),
    st.tuples(st.just("open"), st.integers(0, 5), st.integers(1, 40)),
    st.tuples(st.just("top_up"), st.integers(0, 5)),
    st.tuples(st.just("restart")),
)


async def boot(folder: Path) -> Server:
    server = Server(
        Settings(
            data=folder,
            database_url=None,
            bot_delay=0.0,
            bot_kind="random",
            grace=0.05,
            turn_timeout=0.5,
            max_open_tables=0,
            max_open_tables_per_address=0,
        )
    )
    await server.store.migrate()
    await server.bus.start()
    await server.lobby.restore()
    return server


async def shut(server: Server) -> None:
    await server.lobby.close()
    await server.bus.stop()
    await server.store.close()


async def conserved(server: Server) -> None:
    async with server.store.engine.connect() as conn:
        assert await ledger.check(conn) == []


async def run(steps: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        server = await boot(folder)
        people = [
            await server.store.create_user("ann", None, guest=False),
            await server.store.create_user("guest-bob", None, guest=True),
        ]
        owed = {people[0].id: 1000, people[1].id: 200}
        games: list[tuple[str, int, str, dict[str, Any]]] = []
        try:
            for n, step in enumerate(steps):
                if step[0] == "person":
                    user = await server.store.create_user(f"p{n}", None, guest=step[1])
                    people.append(user)
                    owed[user.id] = 200 if user.guest else 1000
                elif step[0] == "game":
                    user = people[step[1] % len(people)]
                    game, players, options, kind = KINDS[step[2]]
                    stake = {"kind": kind, "chips": step[3]}
                    try:
                        table = await server.lobby.create(
                            user,
                            game,
                            players,
                            options,
                            bots=[1] * (players - 1),
                            stake=stake,
                            turn_timeout=0.5,
                        )
                    except ProtocolError as e:
                        assert e.code == "stake_too_high"
                        assert e.params is not None
                        assert e.params["balance"] < e.params["hold"]
                        continue
                    games.append((table.id, user.id, game, stake))
                    if step[4] and table.playing:
                        await table.leave(user.id)
                elif step[0] == "open":
                    user = people[step[1] % len(people)]
                    stake = {"kind": "per_game", "chips": step[2]}
                    try:
                        await server.lobby.create(user, "imperial", 3, stake=stake)
                    except ProtocolError as e:
                        assert e.code in ("stake_too_high", "too_many_tables")
                elif step[0] == "top_up":
                    user = people[step[1] % len(people)]
                    try:
                        got = await wallets.top_up(server.store, user, f"key-{n}")
                    except ProtocolError as e:
                        assert e.code == "top_up_not_due"
                    else:
                        owed[user.id] += got["amount"]
                elif step[0] == "restart":
                    await shut(server)
                    server = await boot(folder)
                await conserved(server)
            deadline = time.monotonic() + 120
            for table_id, _, _, _ in games:
                while True:
                    row = await server.store.table(table_id)
                    assert row is not None
                    if row.status == "finished":
                        break
                    assert time.monotonic() < deadline, f"{table_id} did not finish"
                    await asyncio.sleep(0.05)
            await conserved(server)
            for table_id, user_id, game, stake in games:
                row = await server.store.table(table_id)
                assert row is not None
                owed[user_id] += net_by_hand(game, stake, row.options, row.result)[0]
            async with server.store.engine.connect() as conn:
                for user in people:
                    got = await ledger.balance(conn, Account.wallet(user.id))
                    assert got == owed[user.id], user.name
                for table_id, *_ in games:
                    assert await ledger.balance(conn, Account.escrow(table_id)) == 0
        finally:
            await shut(server)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(STEP, min_size=2, max_size=8))
def test_chips_are_conserved_through_games_leaves_and_restarts(
    steps: list[tuple[Any, ...]],
) -> None:
    asyncio.run(run(steps))
