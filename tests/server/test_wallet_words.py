"""The wallet's history in words (issue 30, items 2 and 7): each entry names what the
chips moved for, in English and Russian. A stake names the game, the opponents and how
it ended for the wallet's owner (a stake lost whole is no longer a bare "Stake held at
table 8a2186c62e −50"); a bet names the market with the players' names (no "seat 1"),
the outcome backed and whether it won, lost or was returned, and why. Also: a bet's
answer and the settlement's frame carry the bettor's balance, and a settled market says
why it refunded.

Whole games are played by the engines on a store of their own (no server): the same
seed and moves give the same game (B2), so each scenario picks the bets that make it."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import re
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from sqlalchemy import update

from kozyr.games import GAMES
from kozyr.games.dealing import SECURE
from kozyr.games.markets import VOID, Book
from kozyr.server.money import escrow, ledger, wallets
from kozyr.server.money.betting import TableBets
from kozyr.server.money.ledger import Account
from kozyr.server.play.games import final_result, game_of, new_state
from kozyr.server.runtime.config import sqlite_url
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Seat, Store, TableRow, User

Body = Callable[[Store], Awaitable[None]]


def run(body: Body) -> None:
    async def main() -> None:
        with tempfile.TemporaryDirectory() as folder:
            store = Store(sqlite_url(Path(folder)))
            store.on_new_user.append(wallets.grant_new_user)
            store.on_start.append(escrow.escrow_at_start)
            store.on_finish.append(escrow.settle_at_finish)
            await store.migrate()
            try:
                await body(store)
            finally:
                await store.close()

    asyncio.run(main())


def blank(tid: str, game: str, options: dict[str, Any], seats: list[Seat], seed: int) -> TableRow:
    n = len(seats)
    row = TableRow(
        id=tid,
        game=game,
        players=n,
        options=GAMES[game].options_from_json({"players": n, **options}).to_json(),
        seed=seed,
        dealing=SECURE,
        seats=seats,
        join_order=list(range(n)),
    )
    row.first_dealer = GAMES[game].draw_start(n, row.seed, row.dealing)
    return row


def played(row: TableRow) -> tuple[Any, list[str]]:
    """The whole game of ``row`` with moves drawn from its seed: the state and the moves."""
    state = new_state(row)
    rng = random.Random(row.seed)
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))
    return state, list(state.actions)


async def stake_game(
    store: Store, row: TableRow, stake: dict[str, Any], moves: list[str]
) -> TableRow:
    """A stake game through the store's hooks: the escrow with its start, the settlement
    with its last move (as the server commits them)."""
    row.stake = stake
    await store.insert_table(row)
    row.status = "playing"
    await store.save_table(row, started=True)
    state = new_state(row)
    for seq, move in enumerate(moves, 1):
        state.play(move)
        final = None
        if state.over:
            final = dataclasses.replace(row)
            final.status, final.finished_ms = "finished", 1
            final.result = final_result(row, state)
        await store.append_action(row.id, seq, 0, "bot", move, None, final)
        if final is not None:
            return final
    raise AssertionError("the game did not end")


async def page_of(store: Store, user: User) -> list[dict[str, Any]]:
    got = await wallets.wallet_page(store, user, "100", None)
    entries: list[dict[str, Any]] = got["entries"]
    for e in entries:  # words for a player: no ids, codes or seat numbers
        for said in (e["text"], e["text_ru"]):
            assert not re.search(r"seat|места|game\.|deal\.|\bbet\b:|None|\{", said), said
    return entries


def told(entries: list[dict[str, Any]], kind: str, **memo: Any) -> tuple[str, str]:
    (found,) = [
        e
        for e in entries
        if e["kind"] == kind and all(e["memo"].get(k) == v for k, v in memo.items())
    ]
    return found["text"], found["text_ru"]


def test_a_stake_names_the_game_the_opponents_and_the_result() -> None:
    async def body(store: Store) -> None:
        masha = await store.create_user("Маша", None, guest=False)
        petya = await store.create_user("Petya", None, guest=False)
        # Imperial for 50 a game: Маша sits where the seed's game is lost
        probe = blank("imp1", "imperial", {"target": 2}, [Seat(bot=1), Seat(bot=1)], 7)
        state, moves = played(probe)
        winner = final_result(probe, state)["places"][0]
        seats = [Seat(user_id=petya.id, name="Petya")] * 2
        seats[1 - winner] = Seat(user_id=masha.id, name="Маша")
        row = blank("imp1", "imperial", {"target": 2}, seats, 7)
        await stake_game(store, row, {"kind": "per_game", "chips": 50}, moves)

        lost = await page_of(store, masha)
        assert [(e["kind"], e["amount"]) for e in lost] == [("escrow", -50), ("grant", 1000)]
        assert (lost[0]["table_id"], lost[0]["finished"]) == ("imp1", True)
        assert told(lost, "escrow") == (
            "Stake held: Imperial against Petya. You lost. The whole stake went to the winner.",
            "Залог: Империал, соперник: Petya. Вы проиграли. Весь залог ушёл выигравшему.",
        )
        won = await page_of(store, petya)
        assert [(e["kind"], e["amount"]) for e in won[:2]] == [("settle", 100), ("escrow", -50)]
        assert told(won, "settle") == (
            "Stake settled: Imperial against Маша. You won. "
            "Won 50 chips, and the stake of 50 chips back.",
            "Расчёт по ставке: Империал, соперник: Маша. Вы выиграли. "
            "Выигрыш: 50 фишек, и залог 50 фишек вернулся.",
        )
        assert told(won, "escrow") == (
            "Stake held: Imperial against Маша. You won. The settlement paid back 100 chips.",
            "Залог: Империал, соперник: Маша. Вы выиграли. По расчёту вернулось: 100 фишек.",
        )
        assert told(await page_of(store, masha), "grant") == (
            "Welcome chips",
            "Приветственные фишки",
        )
        # the opponent's account is deleted since: he is named as one, never by an id
        async with store._write() as conn:
            await conn.execute(update(m.users).where(m.users.c.id == petya.id).values(deleted_ms=1))
        assert told(await page_of(store, masha), "escrow") == (
            "Stake held: Imperial against a deleted account. You lost. "
            "The whole stake went to the winner.",
            "Залог: Империал, соперник: удалённый игрок. Вы проиграли. "
            "Весь залог ушёл выигравшему.",
        )

    run(body)


def test_a_stake_of_three_names_the_place_and_a_part_lost() -> None:
    async def body(store: Store) -> None:
        masha = await store.create_user("Маша", None, guest=False)
        petya = await store.create_user("Petya", None, guest=False)
        # Emperor per place, 3 players (+2S, 0, -2S): Маша second, Petya last, a bot first
        for seed in range(1, 60):
            probe = blank("emp1", "emperor", {"rounds": 1}, [Seat(bot=1)] * 3, seed)
            state, moves = played(probe)
            probe.result, probe.status = final_result(probe, state), "finished"
            probe.stake = {"kind": "per_place", "chips": 10}
            places = probe.result["places"]
            if [(escrow.nets(probe) or [])[s] for s in places] == [20, 0, -20]:
                break
        else:
            raise AssertionError("no seed gives three clear places")
        seats = [Seat(bot=3)] * 3
        seats[places[1]] = Seat(user_id=masha.id, name="Маша")
        seats[places[2]] = Seat(user_id=petya.id, name="Petya")
        row = blank("emp1", "emperor", {"rounds": 1}, seats, seed)
        await stake_game(store, row, {"kind": "per_place", "chips": 10}, moves)
        label = {
            places[0]: (f"Computer {places[0] + 1}", f"Компьютер {places[0] + 1}"),
            places[1]: ("Маша", "Маша"),
            places[2]: ("Petya", "Petya"),
        }

        def against(me: int) -> tuple[str, str]:
            others = [label[s] for s in range(3) if s != me]
            return " and ".join(o[0] for o in others), " и ".join(o[1] for o in others)

        en, ru = against(places[1])
        assert told(await page_of(store, masha), "settle") == (
            f"Stake settled: Emperor against {en}. You came second of 3. "
            "Even: the stake of 20 chips back.",
            f"Расчёт по ставке: Император, соперники: {ru}. "
            "Вы заняли второе место из 3. При своих: залог 20 фишек вернулся.",
        )
        en, ru = against(places[2])
        assert told(await page_of(store, petya), "escrow") == (
            f"Stake held: Emperor against {en}. You came third of 3. "
            "The whole stake went to the winner.",
            f"Залог: Император, соперники: {ru}. Вы заняли третье место из 3. "
            "Весь залог ушёл выигравшему.",
        )

        # Imperial per imperial short (target 3): a loser with one imperial marked pays
        # 2 of his 3 units and gets one back
        for seed in range(1, 200):
            probe = blank("imp2", "imperial", {"target": 3}, [Seat(bot=1)] * 2, seed)
            state, moves = played(probe)
            probe.result, probe.status = final_result(probe, state), "finished"
            probe.stake = {"kind": "per_imperial", "chips": 5}
            if sorted(escrow.nets(probe) or []) == [-10, 10]:
                break
        else:
            raise AssertionError("no seed leaves the loser one imperial")
        loser = probe.result["places"][1]
        seats = [Seat(bot=2)] * 2
        seats[loser] = Seat(user_id=masha.id, name="Маша")
        row = blank("imp2", "imperial", {"target": 3}, seats, seed)
        await stake_game(store, row, {"kind": "per_imperial", "chips": 5}, moves)
        other = 2 - loser
        assert told(await page_of(store, masha), "settle", table_id="imp2") == (
            f"Stake settled: Imperial against Computer {other}. You lost. "
            "Lost 10 chips: 5 chips of the stake of 15 chips back.",
            f"Расчёт по ставке: Империал, соперник: Компьютер {other}. Вы проиграли. "
            "Проигрыш: 10 фишек; из залога 15 фишек вернулось: 5 фишек.",
        )

    run(body)


class Watcher:
    """A bettor's connection: what the table sends him."""

    def __init__(self, user: User) -> None:
        self.user = user
        self.frames: list[dict[str, Any]] = []

    def send(self, frame: Any, size: int | None = None) -> None:
        if isinstance(frame, dict):
            self.frames.append(frame)


def test_bets_won_lost_and_returned_say_so_with_the_players_names() -> None:
    async def body(store: Store) -> None:
        masha = await store.create_user("Маша", None, guest=False)
        fan = await store.create_user("Fan", None, guest=False)
        rival = await store.create_user("Rival", None, guest=False)
        seats = [Seat(user_id=masha.id, name="Маша"), Seat(bot=2)]
        names = ["Маша", "Computer 2"], ["Маша", "Компьютер 2"]
        # what the seed's game decides, read first with a book of its own, and a market
        # open between two moves that the game's end leaves unanswered (void)
        for seed in range(1, 100):
            row = blank("bets1", "imperial", {"target": 2}, seats, seed)
            state, moves = played(row)
            book = Book(game_of("imperial").markets, 2, None)
            book.start()
            probe = new_state(row)
            book.feed_all(probe.events)
            fed, opened = len(probe.events), set(book.open)
            for move in moves:
                probe.play(move)
                book.feed_all(probe.events[fed:])
                fed = len(probe.events)
                opened |= set(book.open) if not probe.over else set()
            decided = book.settled
            voids = sorted(m for m in opened if decided[m] == VOID and m.endswith(".capot"))
            if decided["deal.1.tricks.1"] != VOID and voids:
                break
        late = voids[0]
        last = int(late.split(".")[1]) - 1
        winner = int(decided["game.winner"].removeprefix("seat:"))
        first = int(decided["game.first_mark"].removeprefix("seat:"))
        tricks = decided["deal.1.tricks.1"]
        other_bucket = next(b for b in ("0-3", "4-6", "7-11", "12") if b != tricks)
        await store.insert_table(row)
        watcher = Watcher(fan)
        table = TableBets(row, store, lambda: {watcher: None})
        win, again = await table.place(fan, False, 0, "game.winner", f"seat:{winner}", 10, "w")
        assert not again and win.balance == 990
        await table.place(rival, False, 0, "game.winner", f"seat:{1 - winner}", 5, "r1")
        await table.place(fan, False, 0, "game.first_mark", f"seat:{1 - first}", 7, "f")
        await table.place(rival, False, 0, "game.first_mark", f"seat:{first}", 3, "r2")
        await table.place(fan, False, 0, "deal.1.tricks.1", other_bucket, 4, "t")
        # the game is played; the market of the deal that never comes is bet on
        state = new_state(row)
        await table.follow(state.events)
        for seq, move in enumerate(moves, 1):
            if late in table.book.open and late not in table.bets:
                await table.place(fan, False, seq - 1, late, "yes", 2, "v")
            state.play(move)
            await table.follow(state.events)
        assert late in table.bets and not table.unsettled

        # the bettor was told each settlement, and his balance when it paid him
        by_market = {f["market"]: f for f in watcher.frames if f["type"] == "bet_settled"}
        wins, loses = by_market["game.winner"], by_market["game.first_mark"]
        assert (wins["result"], wins["refund"], wins["payout"], wins["staked"]) == (
            "won",
            None,
            15,
            10,
        )
        assert (loses["result"], loses["payout"], "balance" in loses) == ("lost", 0, False)
        back = by_market["deal.1.tricks.1"]
        assert (back["result"], back["refund"], back["payout"]) == ("refunded", "no_winner", 4)
        void = by_market[late]
        assert (void["result"], void["refund"], void["payout"]) == ("refunded", "void", 2)
        async with store.engine.connect() as conn:
            now = await ledger.balance(conn, Account.wallet(fan.id))
        assert now == 1000 - 10 - 7 - 4 - 2 + 15 + 4 + 2
        paid = [f["balance"] for f in watcher.frames if "balance" in f]
        assert len(paid) == 3 and paid[-1] == now  # (each as its settlement left it)
        assert [b["result"] for b in table.my_bets(table.book.markets[late], fan.id)] == [
            "refunded"
        ]
        shown = table.market_json(table.book.markets["deal.1.tricks.1"])
        assert (shown["refund"], shown["title_player"]) == (
            "no_winner",
            "Deal 1: how many tricks {player} takes",
        )
        assert shown["title_player_ru"] == "Сдача 1: сколько взяток возьмёт {player}"
        assert table.market_json(table.book.markets["game.winner"])["refund"] is None

        entries = await page_of(store, fan)
        game = "Imperial: Маша and Computer 2", "Империал: Маша и Компьютер 2"
        who = names[0][winner], names[1][winner]
        assert told(entries, "bet", market="game.winner") == (
            f"Bet on {who[0]} — Who wins the game ({game[0]}). It won.",
            f"Ставка на «{who[1]}» — Кто выиграет партию ({game[1]}). Ставка сыграла.",
        )
        assert told(entries, "bets", market="game.winner") == (
            f"Bet won: Who wins the game — {who[0]} ({game[0]}).",
            f"Выигрыш по ставке: Кто выиграет партию — «{who[1]}» ({game[1]}).",
        )
        backed, marked = (
            (names[0][1 - first], names[1][1 - first]),
            (names[0][first], names[1][first]),
        )
        assert told(entries, "bet", market="game.first_mark") == (
            f"Bet on {backed[0]} — Who marks the first imperial ({game[0]}). "
            f"Lost: the outcome was {marked[0]}.",
            f"Ставка на «{backed[1]}» — Кто первым запишет империал ({game[1]}). "
            f"Проиграла: исход — «{marked[1]}».",
        )
        # a lost bet is paid nothing: its only entry is the bet
        assert [e["kind"] for e in entries if e["memo"].get("market") == "game.first_mark"] == [
            "bet"
        ]
        mine, was = (b.replace("-", "–") for b in (other_bucket, tricks))
        en_n = {"0-3": "tricks", "4-6": "tricks", "7-11": "tricks", "12": "tricks"}
        ru_n = {"0-3": "взятки", "4-6": "взяток", "7-11": "взяток", "12": "взяток"}
        assert told(entries, "bet", market="deal.1.tricks.1") == (
            f"Bet on {mine} {en_n[other_bucket]} — Deal 1: how many tricks Computer 2 takes "
            f"({game[0]}). Returned: the outcome was {was} {en_n[tricks]}, "
            "and nobody had bet on it.",
            f"Ставка на «{mine} {ru_n[other_bucket]}» — Сдача 1: сколько взяток возьмёт "
            f"Компьютер 2 ({game[1]}). Возвращена: исход — «{was} {ru_n[tricks]}», "
            "а на него никто не ставил.",
        )
        assert told(entries, "bets", market="deal.1.tricks.1") == (
            f"Bet returned: Deal 1: how many tricks Computer 2 takes — {was} {en_n[tricks]}, "
            f"and nobody had bet on it ({game[0]}).",
            f"Возврат ставки: Сдача 1: сколько взяток возьмёт Компьютер 2 — "
            f"«{was} {ru_n[tricks]}», а на этот исход никто не ставил ({game[1]}).",
        )
        assert told(entries, "bet", market=late) == (
            f"Bet on yes — Deal {last + 1}: a capot ({game[0]}). "
            "Returned: the market was called off, as the game never answered its question.",
            f"Ставка на «да» — Сдача {last + 1}: капот ({game[1]}). "
            "Возвращена: рынок отменён — игра так и не ответила на его вопрос.",
        )
        assert told(entries, "bets", market=late) == (
            f"Bet returned: Deal {last + 1}: a capot — called off, as the game never answered "
            f"it ({game[0]}).",
            f"Возврат ставки: Сдача {last + 1}: капот — рынок отменён, игра так и не ответила "
            f"на вопрос ({game[1]}).",
        )
        assert all(e["table_id"] == "bets1" for e in entries if e["kind"] in ("bet", "bets"))

        # a bet on a table still waiting for its players waits for its outcome
        wait = blank("bets2", "imperial", {"target": 2}, [Seat(), Seat(bot=1)], 3)
        await store.insert_table(wait)
        await TableBets(wait, store).place(fan, False, 0, "deal.1.capot", "no", 1, "wait")
        assert told(await page_of(store, fan), "bet", market="deal.1.capot") == (
            "Bet on no — Deal 1: a capot (Imperial: Computer 2). Waiting for the outcome.",
            "Ставка на «нет» — Сдача 1: капот (Империал: Компьютер 2). Ждёт исхода.",
        )

    run(body)
