"""Stakes inside the server without HTTP (B5): the settlement from a finished row agrees
with ``Game.settle`` on the game's state; a top-up key replayed on another day is refused
and moves nothing; the escrow refuses a start nobody can cover, moving nothing."""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest

from kozyr.games import GAMES
from kozyr.games.dealing import SECURE
from kozyr.games.stakes import StakeTerms
from kozyr.server.money import escrow, ledger, wallets
from kozyr.server.money.ledger import Account
from kozyr.server.play.games import new_state, settle_result
from kozyr.server.runtime.config import sqlite_url
from kozyr.server.storage.store import Seat, Store, TableRow
from kozyr.server.transport.protocol import ProtocolError

CASES = [
    ("imperial", {"players": 3, "target": 2}, "per_game"),
    ("imperial", {"players": 2, "target": 3}, "per_imperial"),
    ("emperor", {"players": 4, "rounds": 1}, "per_place"),
    ("emperor", {"players": 3, "rounds": 1}, "per_trick"),
]


def finished_row(game: str, options: dict[str, Any], seed: int) -> tuple[TableRow, Any]:
    n = int(options["players"])
    row = TableRow(
        id=f"t{seed}",
        game=game,
        players=n,
        options=GAMES[game].options_from_json(options).to_json(),
        seed=seed,
        dealing=SECURE,
        seats=[Seat(bot=1, name="bot 1") for _ in range(n)],
        join_order=list(range(n)),
    )
    row.first_dealer = GAMES[game].draw_start(n, row.seed, row.dealing)
    state = new_state(row)
    rng = random.Random(seed)
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))
    row.status, row.result = "finished", state.summary()
    return row, state


@pytest.mark.parametrize(("game", "options", "kind"), CASES)
def test_the_settlement_from_the_result_is_the_games_own(
    game: str, options: dict[str, Any], kind: str
) -> None:
    terms = StakeTerms(kind, 7)
    for seed in range(1, 6):
        row, state = finished_row(game, options, seed)
        row.stake = terms.to_json()
        got = settle_result(row, terms)
        assert got == GAMES[game].settle(terms, state)
        hold = escrow.row_hold(row)
        assert hold is not None and all(n >= -hold for n in got) and sum(got) == 0
        info = escrow.settlement_info(row)
        assert [s["net"] for s in info["settlement"]] == got
        # the transfers move exactly each seat's net
        moved = [0] * row.players
        for t in info["transfers"]:
            moved[t["from"]] -= t["chips"]
            moved[t["to"]] += t["chips"]
        assert moved == got


async def with_store(body: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = Store(sqlite_url(Path(folder)))
        store.on_new_user.append(wallets.grant_new_user)
        await store.migrate()
        try:
            await body(store)
        finally:
            await store.close()


def test_a_top_up_key_replayed_on_another_day_is_refused() -> None:
    async def body(store: Store) -> None:
        user = await store.create_user("guest-x", None, guest=True)
        async with store.transaction() as conn:  # 150 of his 200 chips are in a game
            moves = [(Account.wallet(user.id), -150), (Account.escrow("t9"), 150)]
            await ledger.post(conn, "escrow:t9", "escrow", moves)
        got = await wallets.top_up(store, user, "k", day="2026-01-01")
        assert got == {"balance": 100, "amount": 50, "replayed": False}
        async with store.transaction() as conn:  # he loses 60 more
            moves = [(Account.wallet(user.id), -60), (Account.escrow("t8"), 60)]
            await ledger.post(conn, "escrow:t8", "escrow", moves)
        with pytest.raises(ProtocolError) as refused:
            await wallets.top_up(store, user, "k", day="2026-01-02")
        assert refused.value.code == "key_reused" and "2026-01-01" in refused.value.message
        assert await wallets.balance_of(store, user.id) == 40
        # a new key the next day is due: 40 -> 100
        got = await wallets.top_up(store, user, "k2", day="2026-01-02")
        assert got == {"balance": 100, "amount": 60, "replayed": False}
        async with store.engine.connect() as conn:
            assert await ledger.check(conn) == []

    asyncio.run(with_store(body))


def test_a_start_nobody_can_cover_moves_nothing() -> None:
    async def body(store: Store) -> None:
        rich = await store.create_user("rich", None, guest=False)
        poor = await store.create_user("guest-poor", None, guest=True)
        row = TableRow(
            id="tx",
            game="imperial",
            players=3,
            options={"players": 3, "target": 5},
            seed=5,
            seats=[
                Seat(user_id=rich.id, name="rich"),
                Seat(user_id=poor.id, name="guest-poor"),
                Seat(bot=1, name="bot 1"),
            ],
            stake={"kind": "per_imperial", "chips": 50},  # hold 250: the guest has 200
        )
        store.on_start.append(escrow.escrow_at_start)
        await store.insert_table(row)
        row.status = "playing"
        with pytest.raises(escrow.StakeRefused) as refused:
            await store.save_table(row, started=True)
        assert refused.value.hold == 250
        assert refused.value.short == [escrow.Short(1, poor.id, 200)]
        saved = await store.table("tx")
        assert saved is not None and saved.status == "open"
        async with store.engine.connect() as conn:
            assert await ledger.balance(conn, Account.escrow("tx")) == 0
            assert await ledger.balance(conn, Account.wallet(rich.id)) == 1000
            assert await ledger.check(conn) == []

    asyncio.run(with_store(body))


def test_accounts_from_before_wallets_get_their_grant_on_first_read() -> None:
    async def body(store: Store) -> None:
        store.on_new_user.clear()  # as the accounts made before 0010 were
        old = await store.create_user("old", None, guest=False)
        old_guest = await store.create_user("guest-old", None, guest=True)
        async with store.engine.connect() as conn:
            assert await ledger.balance(conn, Account.wallet(old.id)) == 0
        assert await wallets.balance_of(store, old.id) == 1000
        assert await wallets.balance_of(store, old.id) == 1000  # once
        assert await wallets.balance_of(store, old_guest.id) == 200
        async with store.engine.connect() as conn:
            history = await ledger.entries(conn, Account.wallet(old.id))
            assert [(e["kind"], e["amount"]) for e in history] == [("grant", 1000)]
            assert await ledger.check(conn) == []

    asyncio.run(with_store(body))
