"""Puzzles from real deals (#29, docs/puzzles.md): ``kozyr puzzles build`` on a store with
a finished, an unfinished and a finished private table and a bot game of each game, then
the puzzle book (daily, next, answer, history) on what it built.

Built once for the module (fast settings: 4 worlds to screen, 12 to confirm)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select

from kozyr.bots.registry import make_bot
from kozyr.games import GAMES
from kozyr.games.base import GameState
from kozyr.records import replay, to_record
from kozyr.review import ranker
from kozyr.server.reviews import puzzle_build, puzzle_finder
from kozyr.server.reviews.puzzle_book import PuzzleBook, shown, utc_day
from kozyr.server.runtime.config import sqlite_url
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Seat, Store, TableRow, User, now_ms
from kozyr.server.transport.protocol import ProtocolError

SETTINGS = puzzle_finder.Settings(worlds=4, margin=1.5, per_game=2, seed=0)
TABLE_SEED = 4242
PRIVATE_SEED = 4343
DAY_MS = 86_400_000


def bot_played(game: str, seed: int) -> GameState:
    """A finished game of heuristic bots at the game's default size, dealt by ``seed``."""
    spec = GAMES[game]
    state = spec.new_state(spec.options_from_json({"players": spec.default_players}), seed=seed)
    bots = [make_bot(game, "heuristic", s + 1) for s in range(spec.default_players)]
    while not state.over:
        seat = state.to_act
        assert seat is not None
        state.apply(bots[seat].choose(state.observation(seat), state.legal_actions(), 1.0))
    return state


async def store_table(
    store: Store,
    table_id: str,
    state: GameState,
    upto: int | None,
    private: bool = False,
    seed: int = TABLE_SEED,
) -> None:
    """``state``'s game (dealt by ``seed``) as a table of bots in the store: finished
    with every action, or still playing with the first ``upto``; ``private``: a private
    table."""
    record = to_record(state)
    texts = record["actions"] if upto is None else record["actions"][:upto]
    row = TableRow(
        id=table_id,
        game=state.game,
        players=state.players,
        options=record["options"],
        seed=seed,
        private=private,
        seats=[Seat(bot=1, name=f"bot {s}") for s in range(state.players)],
        status="finished" if upto is None else "playing",
        first_dealer=record.get("first_dealer"),
        join_order=record.get("join_order") or [],
        finished_ms=now_ms() if upto is None else None,
        result=record["result"] if upto is None else None,
    )
    await store.insert_table(row)
    seats = replay_seats(record, len(texts))
    async with store.transaction() as conn:
        await conn.execute(
            insert(m.actions),
            [
                {
                    "table_id": table_id,
                    "seq": i + 1,
                    "seat": seats[i],
                    "actor": "bot",
                    "action_text": text,
                    "client_action_id": None,
                    "created_ms": now_ms(),
                }
                for i, text in enumerate(texts)
            ],
        )


def replay_seats(record: dict[str, Any], n: int) -> list[int]:
    from kozyr.records import replay_steps

    return [
        seat for _, seat in list(replay_steps({**record, "actions": record["actions"][:n]}))[1:]
    ]


class Built:
    def __init__(
        self,
        store: Store,
        built: puzzle_build.Built,
        lines: list[puzzle_build.Progress],
        finished: GameState,
        private: GameState,
    ) -> None:
        self.finished = finished
        self.private = private
        self.store = store
        self.built = built
        self.lines = lines
        self.loop = asyncio.new_event_loop()

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def rows(self) -> list[Any]:
        async def read() -> list[Any]:
            async with self.store.engine.connect() as conn:
                return list((await conn.execute(select(m.puzzles).order_by(m.puzzles.c.id))).all())

        return list(self.run(read()))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    data: Path = tmp_path_factory.mktemp("puzzles")
    finished = bot_played("imperial", TABLE_SEED)
    private = bot_played("imperial", PRIVATE_SEED)
    loop = asyncio.new_event_loop()
    store = Store(sqlite_url(data))
    progress: list[puzzle_build.Progress] = []

    async def setup() -> puzzle_build.Built:
        await store.migrate()
        await store_table(store, "fin1", finished, None)
        await store_table(store, "open1", finished, 40)
        await store_table(store, "priv1", private, None, private=True, seed=PRIVATE_SEED)
        return await puzzle_build.build(
            store,
            SETTINGS,
            bot_games=1,
            jobs=0,
            report=lambda p: progress.append(puzzle_build.Progress(**vars_of(p))),
        )

    done = loop.run_until_complete(setup())
    loop.close()
    # the store's engines belong to the loop that made them: a fresh store for the tests
    out = Built(Store(sqlite_url(data)), done, progress, finished, private)
    yield out
    out.run(out.store.close())
    out.loop.close()


def vars_of(p: puzzle_build.Progress) -> dict[str, int]:
    return {"games": p.games, "total": p.total, "positions": p.positions, "found": p.found}


def original(row: Any, built: Built) -> dict[str, Any]:
    """The whole record of the game a puzzle came from."""
    if row.source == "bot":
        return puzzle_finder.bot_game(row.game, row.bot_seed)
    return to_record(built.finished)


def this_deal(observation: dict[str, Any]) -> dict[str, Any]:
    """An observation without its events (the whole game's history, every earlier deal's
    cards included) and the last deal's events."""
    events = observation.get("events", [])
    deals = [i for i, e in enumerate(events) if e.get("type") == "deal"]
    return {**observation, "events": events[deals[-1] if deals else 0 :]}


def cards_in_json(data: Any) -> set[str]:
    return set(re.findall(r'"((?:10|[2-9JQKA])[SHDC])"', json.dumps(data)))


# -- building -----------------------------------------------------------------------


def test_build_reads_finished_games_and_bot_games_only(built: Built) -> None:
    b = built.built
    # one finished table and one bot game of each game; neither the playing table nor
    # the finished private one is read
    assert (b.server_games, b.bot_games, b.skipped) == (1, 2, 0)
    rows = built.rows()
    assert rows, "no puzzle found in three games"
    assert b.found == len(rows)
    assert {r.table_id for r in rows if r.source == "server"} <= {"fin1"}
    assert all(r.table_id not in ("open1", "priv1") for r in rows)
    sources = built.run(_sources(built.store))
    assert sources == {
        "table:fin1",
        "bot:imperial-2p:1",
        f"bot:emperor-{GAMES['emperor'].default_players}p:1",
    }
    # progress: from 0 of 3 games to 3 of 3, counts never going down
    assert (built.lines[0].games, built.lines[0].total) == (0, 3)
    assert (built.lines[-1].games, built.lines[-1].found) == (3, len(rows))
    assert all(
        a.positions <= c.positions for a, c in zip(built.lines, built.lines[1:], strict=False)
    )


async def _sources(store: Store) -> set[str]:
    async with store.engine.connect() as conn:
        return {k for (k,) in (await conn.execute(select(m.puzzle_sources.c.key))).all()}


def test_every_best_card_beats_every_other_by_the_margin(built: Built) -> None:
    for row in built.rows():
        values = json.loads(row.card_values)
        cut = SETTINGS.margin * ranker(row.game).MISTAKE
        assert values[0][0] == row.best
        assert row.margin == pytest.approx(values[0][1] - values[1][1], abs=0.011)
        assert row.margin >= cut
        assert all(values[0][1] - v >= cut for _, v in values[1:])
        # the stored legal cards are the position's: replayed, the seat is to play them
        state = replay(json.loads(row.position))
        assert state.to_act == row.seat
        assert sorted(c for c, _ in values) == sorted(
            state.action_text(a) for a in state.legal_actions()
        )
        assert row.played in {c for c, _ in values}


def test_one_puzzle_recomputed_independently(built: Built) -> None:
    row = built.rows()[0]
    # from the original game's record, not the stored position: the same seat's view
    record = original(row, built)
    cut = {**record, "actions": record["actions"][: row.action_index]}
    state = replay({**cut, "seed": None, "deals": record["deals"]})
    obs = state.observation(row.seat)
    rk = ranker(row.game)
    seed = SETTINGS.seed + row.action_index + puzzle_finder.CONFIRM_SEED
    ranked = rk.rank(obs, SETTINGS.worlds * puzzle_finder.CONFIRM, 60.0, seed)
    got = [[state.action_text(r.action), round(r.value, 2)] for r in ranked]
    assert got == json.loads(row.card_values)
    assert got[0][1] - got[1][1] >= SETTINGS.margin * rk.MISTAKE


def test_rebuild_adds_nothing(built: Built) -> None:
    before = [r.key for r in built.rows()]
    again = built.run(puzzle_build.build(built.store, SETTINGS, bot_games=1, jobs=0))
    assert (again.found, again.server_games, again.bot_games, again.skipped) == (0, 0, 0, 3)
    assert [r.key for r in built.rows()] == before
    assert len(set(before)) == len(before)


# -- what is served -----------------------------------------------------------------


def test_every_served_position_is_the_solvers_observation(built: Built) -> None:
    book = PuzzleBook(built.store)
    hidden_somewhere = False
    solver = built.run(_user(built.store, "solver"))
    for row in built.rows():
        assert built.run(book.one(row.id, None))["puzzle"]["position"]  # signed out too
        served = built.run(book.one(row.id, solver))["puzzle"]
        record = original(row, built)
        truth = replay({**record, "actions": record["actions"][: row.action_index]})
        assert served["position"] == truth.observation(row.seat).to_json()
        assert served["seat"] == row.seat
        # no card of another hand that the seat had not seen, anywhere in the puzzle
        # (the events name every card played in earlier deals too: the deal's own view)
        seen = cards_in_json(this_deal(truth.observation(row.seat).to_json()))
        others = {
            c
            for s in range(truth.players)
            if s != row.seat
            for c in cards_in_json(truth.observation(s).to_json()["hand"])
        }
        hidden = others - seen
        hidden_somewhere |= bool(hidden)
        assert not cards_in_json(this_deal(served["position"])) & hidden
        assert not cards_in_json({k: v for k, v in served.items() if k != "position"}) & hidden
        assert "best" not in served and "card_values" not in served
        # nor in the answer: its values, words and line name the seat's own cards only
        answer = built.run(book.answer(row.id, solver, row.best))
        assert not cards_in_json(answer) & hidden
        assert not cards_in_json(answer) - set(served["legal"])
        for lang in ("en", "ru"):
            shown_cards = _symbol_cards(answer["line"][lang] + answer["why"][lang])
            assert shown_cards <= {_symbol(c, lang) for c in served["legal"]}
    assert hidden_somewhere, "the check above never had a hidden card to miss"


def _symbol(card: str, lang: str) -> str:
    from kozyr.cards import card_name, parse_card

    return card_name(parse_card(card), lang, symbols=True)  # type: ignore[arg-type]


def _symbol_cards(text: str) -> set[str]:
    return set(re.findall(r"(?:10|[2-9JQKAВДКТ])[♠♥♦♣]", text))


# -- answering and ratings ----------------------------------------------------------


async def _user(store: Store, name: str) -> User:
    return await store.create_user(name, None, guest=True)


def test_answers_are_judged_and_the_first_attempt_rated_once(built: Built) -> None:
    book = PuzzleBook(built.store)
    rows = built.rows()
    first, second = rows[0], rows[1]
    alice = built.run(_user(built.store, "alice"))
    shown_to_her = built.run(book.one(first.id, alice))["puzzle"]
    assert shown_to_her["tried"] is None and "best" not in shown_to_her
    right = built.run(book.answer(first.id, alice, first.best))
    assert right["correct"] and right["first"] and right["best"] == first.best
    assert right["rating"]["after"] > right["rating"]["before"] == 1500
    assert right["rating"]["change"] == right["rating"]["after"] - right["rating"]["before"]
    assert right["verdict"]["en"].endswith("is the best card here.")
    assert right["verdict"]["ru"].endswith("лучшая карта в этой позиции.")
    puzzle_after = built.run(book.one(first.id, alice))["puzzle"]
    # her account is new: her answer moves no puzzle (tests/server/test_puzzle_answers.py)
    assert puzzle_after["rating"] == shown(first.mu)
    assert "best" not in puzzle_after and "values" not in puzzle_after
    assert puzzle_after["tried"] == {"card": first.best, "solved": True}
    # again, wrongly: judged, kept, but moves nothing
    wrong_card = json.loads(first.card_values)[1][0]
    again = built.run(book.answer(first.id, alice, wrong_card))
    assert not again["correct"] and not again["first"] and again["rating"] is None
    me = built.run(book.rating(alice))
    assert me == {"rating": right["rating"]["after"], "attempts": 1, "solved": 1}
    # a first attempt that fails lowers the rating
    miss = json.loads(second.card_values)[-1][0]
    built.run(book.one(second.id, alice))
    failed = built.run(book.answer(second.id, alice, miss))
    assert not failed["correct"] and failed["first"]
    assert failed["rating"]["before"] == right["rating"]["after"]
    assert failed["rating"]["after"] < failed["rating"]["before"]
    assert "less than" in failed["verdict"]["en"] and "меньше" in failed["verdict"]["ru"]
    history = built.run(book.history(alice, 0, 10))
    assert [(a["puzzle"], a["solved"], a["first"]) for a in history["attempts"]] == [
        (second.id, False, True),
        (first.id, False, False),
        (first.id, True, True),
    ]
    assert history["me"]["rating"] == failed["rating"]["after"]
    # next: never one she tried
    for _ in range(len(rows)):
        nxt = built.run(book.next(alice, None))["puzzle"]
        if nxt is None:
            break
        assert nxt["id"] not in {first.id, second.id}
        built.run(book.answer(nxt["id"], alice, nxt["legal"][0]))
    assert built.run(book.next(alice, None))["puzzle"] is None


def test_next_is_nearest_the_rating_and_of_the_game_asked(built: Built) -> None:
    book = PuzzleBook(built.store)
    bob = built.run(_user(built.store, "bob"))
    rows = [r for r in built.rows() if r.game == "emperor"]
    assert rows
    got = built.run(book.next(bob, "emperor"))["puzzle"]
    assert got["game"] == "emperor"
    nearest = min(rows, key=lambda r: (abs(r.mu - 25.0), r.id))
    assert got["id"] == nearest.id


def test_the_daily_puzzle_is_stable_within_a_day(built: Built) -> None:
    book = PuzzleBook(built.store)
    noon = 1_790_000_000_000
    a = built.run(book.daily(None, noon))
    b = built.run(book.daily(None, noon + 3_600_000))
    assert a["day"] == b["day"] == utc_day(noon)
    assert a["puzzle"]["id"] == b["puzzle"]["id"] and a["puzzle"]["daily"]
    days = {built.run(book.daily(None, noon + k * DAY_MS))["puzzle"]["id"] for k in range(8)}
    assert len(days) > 1  # it does change from day to day


def test_bad_input_is_refused_with_a_code(built: Built) -> None:
    book = PuzzleBook(built.store)
    row = built.rows()[0]
    carol = built.run(_user(built.store, "carol"))
    legal = {c for c, _ in json.loads(row.card_values)}
    outside = next(c for c in ("AS", "AH", "AD", "AC", "7S", "7H") if c not in legal)
    for card in (outside, "", "XX", "swap 1"):
        with pytest.raises(ProtocolError) as e:
            built.run(book.answer(row.id, carol, card))
        assert e.value.code == "bad_puzzle_card" and e.value.status == 400
    assert built.run(book.history(carol, 0, 10))["attempts"] == []  # nothing kept
    for pid in (0, -1, 2**31, 10**6):
        with pytest.raises(ProtocolError) as e:
            built.run(book.one(pid, None))
        assert (e.value.code, e.value.status) == ("no_puzzle", 404)
    with pytest.raises(ProtocolError) as e:
        built.run(book.next(None, "chess"))
    assert e.value.code == "bad_game"


def test_a_puzzle_of_a_private_table_is_never_served(built: Built) -> None:
    """A puzzle from a private table's game (built by an older ``kozyr puzzles build``,
    which read private tables) is not served by id, as the next one or as the daily one:
    its position is a private player's hand."""
    record = to_record(built.private)
    index = 0  # the game's first choice between cards
    state = replay({**record, "actions": []})
    while not puzzle_finder.is_card_choice(state):
        index += 1
        state = replay({**record, "actions": record["actions"][:index]})
    seat = state.to_act
    assert seat is not None
    legal = [state.action_text(a) for a in state.legal_actions()]
    position = puzzle_finder.position_of(record, index, state)
    hand = state.observation(seat).to_json()["hand"]

    async def insert_legacy() -> int:
        async with built.store.transaction() as conn:
            result = await conn.execute(
                insert(m.puzzles).values(
                    key=f"table:priv1:{index}",
                    game="imperial",
                    players=state.players,
                    source="server",
                    table_id="priv1",
                    bot_seed=None,
                    position=json.dumps(position),
                    action_index=index,
                    seat=seat,
                    best=legal[0],
                    played=legal[1],
                    card_values=json.dumps([[c, 10.0 - i] for i, c in enumerate(legal)]),
                    margin=1.0,
                    worlds=12,
                    mu=25.0,  # the rating a fresh solver is nearest: next's first pick
                    sigma=8.0,
                    attempts=0,
                    solved=0,
                    created_ms=now_ms(),
                )
            )
            return int(result.inserted_primary_key[0])

    async def remove(pid: int) -> None:
        async with built.store.transaction() as conn:
            await conn.execute(m.puzzles.delete().where(m.puzzles.c.id == pid))

    pid = built.run(insert_legacy())
    try:
        book = PuzzleBook(built.store)
        dave = built.run(_user(built.store, "dave"))
        for who in (None, dave):
            with pytest.raises(ProtocolError) as e:
                built.run(book.one(pid, who))
            assert (e.value.code, e.value.status) == ("no_puzzle", 404)
        with pytest.raises(ProtocolError) as e:
            built.run(book.answer(pid, dave, legal[0]))
        assert (e.value.code, e.value.status) == ("no_puzzle", 404)
        nxt = built.run(book.next(dave, "imperial"))["puzzle"]
        assert nxt is None or nxt["id"] != pid
        days = {
            built.run(book.daily(None, 1_800_000_000_000 + k * DAY_MS))["puzzle"]["id"]
            for k in range(20)
        }
        assert pid not in days
        # and the hand is in none of those replies
        assert hand and (nxt is None or nxt["position"]["hand"] != hand)
    finally:
        built.run(remove(pid))


def test_the_migration_makes_the_models_tables(built: Built) -> None:
    """Migration 0020 creates every puzzle table with the columns ``models.py`` names."""

    async def columns(table: str) -> list[str]:
        async with built.store.engine.connect() as conn:
            rows = (await conn.exec_driver_sql(f"PRAGMA table_info({table})")).all()
        return [r[1] for r in rows]

    for table in (
        m.puzzles,
        m.puzzle_attempts,
        m.puzzle_ratings,
        m.puzzle_days,
        m.puzzle_sources,
    ):
        assert built.run(columns(table.name)) == [c.name for c in table.columns], table.name
