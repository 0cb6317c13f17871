"""Conservation of chips through random betting and settlement (hypothesis): a table's
book driven by a whole random game of either game, with random bets (good and bad)
between its actions. No chip appears or vanishes: every refusal moves nothing, all
wallets, escrows and the house sum to zero, every escrow is empty once the game is over,
and each wallet ends at its grant, less its stakes, plus its payouts."""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from kozyr.games.markets import Bet, payouts
from kozyr.server.money import ledger
from kozyr.server.money.betting import TableBets
from kozyr.server.money.ledger import Account
from kozyr.server.play.games import new_state
from kozyr.server.runtime.config import sqlite_url
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Seat, Store, TableRow
from kozyr.server.transport.protocol import ProtocolError

GRANT = 60
OPTIONS = {"imperial": {"players": 2, "target": 2}, "emperor": {"players": 3, "rounds": 2}}


async def total(store: Store) -> int:
    async with store.engine.connect() as conn:
        return int(await conn.scalar(select(func.sum(m.ledger_accounts.c.balance))) or 0)


async def held_by(store: Store, user_id: int) -> int:
    async with store.engine.connect() as conn:
        return await ledger.balance(conn, Account.wallet(user_id))


async def play(game: str, seed: int, data: st.DataObject, folder: Path) -> None:
    store = Store(sqlite_url(folder))
    await store.migrate()
    try:
        users = [await store.create_user(f"bettor{i}", None, True) for i in range(3)]
        for u in users:
            async with store._write() as conn:
                await ledger.post(
                    conn,
                    f"test-grant:{u.id}",
                    "grant",
                    [(Account.house(), -GRANT), (Account.wallet(u.id), GRANT)],
                )
        players = int(OPTIONS[game]["players"])
        row = TableRow(
            id="t1",
            game=game,
            players=players,
            options=OPTIONS[game],
            seed=seed,
            seats=[Seat(bot=1, name="bot") for _ in range(players)],
            first_dealer=0,
            join_order=list(range(players)),
        )
        await store.insert_table(row)
        book = TableBets(row, store)
        state = new_state(row)
        rng = random.Random(seed)
        wallets = dict.fromkeys((u.id for u in users), GRANT)
        seq = 0
        await book.follow(state.events)
        while True:
            for _ in range(data.draw(st.integers(0, 3), label="bets")):
                user = data.draw(st.sampled_from(users), label="user")
                market = data.draw(st.sampled_from(sorted(book.book.markets)), label="market")
                outcomes = [*book.book.markets[market].outcomes, "nonsense"]
                outcome = data.draw(st.sampled_from(outcomes), label="outcome")
                chips = data.draw(st.integers(-1, 30), label="chips")
                key = f"k{data.draw(st.integers(0, 40), label='key')}"
                before = await total(store), await held_by(store, user.id)
                try:
                    _, again = await book.place(user, False, seq, market, outcome, chips, key)
                except ProtocolError:
                    assert (await total(store), await held_by(store, user.id)) == before
                    continue
                if not again:
                    wallets[user.id] -= chips
            if state.over:
                break
            state.apply(rng.choice(state.legal_actions()))
            seq += 1
            await book.follow(state.events)
        # the game is over: every market settled, every escrow empty
        assert set(book.book.settled) == set(book.book.markets)
        assert not book.unsettled
        for mid, bets in book.bets.items():
            paid = payouts([Bet(b.id, b.outcome, b.chips) for b in bets], book.book.settled[mid])
            for b, n in zip(bets, paid, strict=True):
                wallets[b.user_id] += n
        async with store.engine.connect() as conn:
            assert await ledger.check(conn) == []
            for mid in book.book.markets:
                assert await ledger.balance(conn, Account.market("t1", mid)) == 0
            for u in users:
                assert await ledger.balance(conn, Account.wallet(u.id)) == wallets[u.id]
            house = await ledger.balance(conn, Account.house())
        assert house + sum(wallets.values()) == 0
    finally:
        await store.close()


@settings(
    max_examples=6,
    deadline=None,
    # each example is a whole game: shrinking one takes minutes, a failure prints its draws
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    game=st.sampled_from(["imperial", "emperor"]),
    seed=st.integers(0, 2**31),
    data=st.data(),
)
def test_chips_are_conserved_through_random_bets_and_whole_games(
    game: str, seed: int, data: st.DataObject
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(play(game, seed, data, Path(folder)))
