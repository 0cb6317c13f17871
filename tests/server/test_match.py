"""The match on its own: a table's authority over moves, driven with a fake store and no
server, sockets or timers."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from typing import Any

import pytest

from kozyr.games.base import GameState
from kozyr.games.emperor import EmperorState
from kozyr.games.imperial import ImperialState
from kozyr.server.play.games import final_result
from kozyr.server.play.match import Match
from kozyr.server.runtime.metrics import Metrics
from kozyr.server.storage.store import Duplicate, Seat, TableRow
from kozyr.server.transport.protocol import ProtocolError


class FakeStore:
    """Records what the match writes; ``fail`` makes the next append raise it."""

    def __init__(self) -> None:
        self.saved: list[TableRow] = []
        self.appended: list[tuple[Any, ...]] = []
        self.status_at_commit: list[str] = []
        self.fail: Exception | None = None

    async def save_table(self, row: TableRow, *, started: bool = False) -> None:
        if started and self.fail is not None:
            raise self.fail
        self.saved.append(dataclasses.replace(row))

    async def append_action(
        self,
        table_id: str,
        seq: int,
        seat: int,
        actor: str,
        text: str,
        client_action_id: str | None,
        finished: TableRow | None = None,
    ) -> None:
        if self.fail is not None:
            error, self.fail = self.fail, None
            raise error
        self.status_at_commit.append(self.row_status)
        self.appended.append((table_id, seq, seat, actor, text, client_action_id, finished))

    row_status = ""


def make_row(game: str = "imperial", players: int = 2, **options: Any) -> TableRow:
    seats = [Seat(user_id=10 + i, name=f"p{i}") for i in range(players)]
    return TableRow(
        id="t1",
        game=game,
        players=players,
        options={"players": players, **options},
        seed=5,
        seats=seats,
        join_order=list(range(players)),
        creator_id=10,
    )


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def started(row: TableRow) -> tuple[Match, FakeStore]:
    store = FakeStore()
    match = Match(row, store, Metrics())
    await match.start()
    return match, store


def must_follow_position(state: GameState) -> tuple[int, str, str] | None:
    """(seat, club, led card) when the seat to act must follow a spade lead and holds a
    club, read from that seat's own view."""
    seat = state.to_act
    if seat is None:
        return None
    view = state.observation(seat).to_json()
    trick = view.get("trick") or []
    if not trick or not trick[0][1].endswith("S"):
        return None
    hand = view["hand"]
    clubs = [c for c in hand if c.endswith("C")]
    if clubs and any(c.endswith("S") for c in hand):
        return seat, clubs[0], trick[0][1]
    return None


def test_start_fixes_the_first_dealer_and_saves_the_row() -> None:
    async def go() -> None:
        row = make_row()
        match, store = await started(row)
        assert row.status == "playing" and row.started_ms is not None
        assert row.first_dealer in (0, 1)
        assert [r.status for r in store.saved] == ["playing"]
        state = match.state
        assert isinstance(state, ImperialState)
        assert state.first_dealer == row.first_dealer
        assert match.seq == 0 and match.playing

    run(go())


def test_emperor_starts_from_the_join_order() -> None:
    async def go() -> None:
        row = make_row("emperor", 4)
        row.join_order = [2, 0, 3, 1]
        match, _ = await started(row)
        assert row.first_dealer is None
        assert isinstance(match.state, EmperorState)
        assert list(match.state.join_order) == [2, 0, 3, 1]

    run(go())


def test_a_legal_move_is_committed_then_adopted() -> None:
    async def go() -> None:
        row = make_row()
        match, store = await started(row)
        state = match.state
        assert state is not None and state.to_act is not None
        seat = state.to_act
        action = state.legal_actions()[0]
        probe = state.clone()
        probe.apply(action)
        text = probe.actions[-1]
        move = await match.submit(seat, action, "a1", "person")
        assert (move.seq, move.seat, move.duplicate, move.finished) == (1, seat, False, False)
        assert match.state is not state  # a copy was played, then adopted
        assert len(store.appended) == 1
        assert store.appended[0] == ("t1", 1, seat, f"user:{10 + seat}", text, "a1", None)
        assert match.entry(1) == (seat, text, "person")
        assert match.state is not None and match.state.actions == [text]

    run(go())


def test_refusals_change_nothing() -> None:
    async def go() -> None:
        row = make_row()
        match, store = await started(row)
        state = match.state
        assert state is not None and state.to_act is not None
        other = 1 - state.to_act
        with pytest.raises(ProtocolError) as e:
            await match.submit(other, state.legal_actions()[0], "x", "person")
        assert e.value.code == "not_your_turn"
        with pytest.raises(ProtocolError) as e:
            await match.submit(state.to_act, "nonsense", "y", "person")
        assert e.value.code == "illegal_action"
        with pytest.raises(ProtocolError) as e:
            await match.submit(state.to_act, state.legal_actions()[0], "z", "person", 3)
        assert e.value.code == "stale"
        assert match.state is state and match.seq == 0 and store.appended == []
        assert match.seen_ids == {}

    run(go())


def test_the_same_action_id_is_applied_once() -> None:
    async def go() -> None:
        match, store = await started(make_row())
        state = match.state
        assert state is not None and state.to_act is not None
        seat, action = state.to_act, state.legal_actions()[0]
        first = await match.submit(seat, action, "same", "person")
        again = await match.submit(seat, action, "same", "person")
        assert (first.seq, first.duplicate) == (1, False)
        assert (again.seq, again.duplicate) == (1, True)
        assert len(store.appended) == 1 and match.seq == 1

    run(go())


@pytest.mark.parametrize(
    ("error", "code", "status"),
    [(RuntimeError("database gone"), "busy", 503), (Duplicate(), "duplicate", 400)],
)
def test_a_failed_commit_adopts_nothing(error: Exception, code: str, status: int) -> None:
    async def go() -> None:
        match, store = await started(make_row())
        state = match.state
        assert state is not None and state.to_act is not None
        store.fail = error
        with pytest.raises(ProtocolError) as e:
            await match.submit(state.to_act, state.legal_actions()[0], "c", "person")
        assert (e.value.code, e.value.status) == (code, status)
        assert match.state is state and match.seq == 0 and match.seen_ids == {}

    run(go())


def test_the_gate_runs_after_the_live_checks_and_may_refuse() -> None:
    async def go() -> None:
        match, store = await started(make_row())
        state = match.state
        assert state is not None and state.to_act is not None
        calls: list[tuple[int, str]] = []

        def gate(seat: int, by: str) -> None:
            calls.append((seat, by))
            raise ProtocolError("stale", "The person is back.")

        with pytest.raises(ProtocolError) as e:
            await match.submit(state.to_act, state.legal_actions()[0], None, "bot", 1, gate)
        assert e.value.code == "stale" and calls == []  # the seq was wrong first
        with pytest.raises(ProtocolError) as e:
            await match.submit(state.to_act, state.legal_actions()[0], None, "bot", 0, gate)
        assert e.value.message == "The person is back." and calls == [(state.to_act, "bot")]
        assert store.appended == [] and match.seq == 0

    run(go())


def test_a_rule_refusal_names_the_rule_in_both_languages() -> None:
    """Playing a club when one must follow spades (I7): the catalog's messages."""

    async def go() -> None:
        match, _ = await started(make_row())
        found = None
        for _ in range(200):
            state = match.state
            assert state is not None and not state.over
            found = must_follow_position(state)
            if found:
                break
            assert state.to_act is not None
            await match.submit(state.to_act, state.legal_actions()[0], None, "person")
        assert found is not None, "no spade lead met a hand with a club"
        seat, club, _led = found
        before = match.seq
        with pytest.raises(ProtocolError) as e:
            await match.submit(seat, club, "bad", "person")
        assert e.value.code == "illegal_action"
        assert e.value.message == "You hold spades, the suit led, so you must follow suit"
        assert (
            e.value.message_ru
            == "Масть хода — пики, и она у вас есть, значит, нужно ходить в масть"
        )
        assert e.value.reason == {
            "code": "must_follow",
            "params": {"card": club, "suit": "S"},
            "rule": "I7",
        }
        frame = e.value.frame(table="t1", id="bad")
        assert frame["code"] == "illegal_action" and frame["reason"]["code"] == "must_follow"
        assert (
            frame["message_ru"]
            == "Масть хода — пики, и она у вас есть, значит, нужно ходить в масть"
        )
        assert match.seq == before

    run(go())


def test_the_last_move_finishes_the_row_only_after_its_commit() -> None:
    async def go() -> None:
        row = make_row(target=1)
        match, store = await started(row)
        for _ in range(2000):
            state = match.state
            assert state is not None
            if state.over:
                break
            assert state.to_act is not None
            store.row_status = row.status
            move = await match.submit(state.to_act, state.legal_actions()[0], None, "bot")
        assert match.state is not None and match.state.over
        assert move.finished and row.status == "finished" and row.result is not None
        # The finished row went to the store with the last action, while this match
        # still called the game "playing".
        assert store.status_at_commit[-1] == "playing"
        finished = store.appended[-1][6]
        assert finished is not None and finished.status == "finished"
        assert [a[6] for a in store.appended[:-1]] == [None] * (len(store.appended) - 1)
        with pytest.raises(ProtocolError) as e:
            await match.submit(0, 0, None, "person")
        assert e.value.code == "game_over"

    run(go())


def test_restore_replays_the_committed_log() -> None:
    async def go() -> None:
        row = make_row()
        match, store = await started(row)
        for k in range(5):
            state = match.state
            assert state is not None and state.to_act is not None
            await match.submit(state.to_act, state.legal_actions()[0], f"id{k}", "person")
        log = [(seat, text, actor, cid) for _, _, seat, actor, text, cid, _ in store.appended]
        again = Match(row, FakeStore(), Metrics())
        again.restore(log)
        assert again.seq == 5 and again.log == match.log
        assert again.state is not None and match.state is not None
        assert again.state.actions == match.state.actions
        assert again.event_index == match.event_index
        seat = log[2][0]
        assert (await again.submit(seat, 0, "id2", "person")).duplicate

    run(go())


def test_not_started_before_the_seats_are_filled() -> None:
    match = Match(make_row(), FakeStore(), Metrics())
    with pytest.raises(ProtocolError) as e:
        run(match.submit(0, 0, None, "person"))
    assert e.value.code == "not_started"


def test_a_start_the_store_refuses_leaves_the_table_open() -> None:
    async def go() -> None:
        row = make_row()
        store = FakeStore()
        store.fail = RuntimeError("a start hook refused")
        match = Match(row, store, Metrics())
        with pytest.raises(RuntimeError):
            await match.start()
        assert row.status == "open" and row.started_ms is None and row.first_dealer is None
        assert match.state is None and not match.playing and store.saved == []

    run(go())


VARIANTS = [
    ("imperial", 2, {}),
    ("imperial", 3, {"must_head": True}),
    ("emperor", 3, {}),
    ("emperor", 4, {}),
]


@pytest.mark.parametrize(("game", "players", "options"), VARIANTS)
def test_whole_games_through_the_match_equal_the_engines_own(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """The match checks a move on a copy without the game's history and joins the copy's
    part of it at adoption: a game played through the match, with refusals and failed
    commits on the way, must be the game the engine plays with ``apply`` alone, history,
    views and all, after every move."""

    async def go() -> None:
        rng = random.Random(7)
        row = make_row(game, players, **options)
        match, store = await started(row)
        assert match.state is not None
        reference = match.state.clone()
        moves = 0
        while match.playing and moves < 2000:
            state = match.state
            assert state is not None and state.to_act is not None
            seat, legal = state.to_act, state.legal_actions()
            before = (len(state.actions), len(state.events))
            if moves % 7 == 3:  # a move the rules refuse changes nothing
                wrong = next((a for a in range(52) if a not in legal), None)
                if wrong is not None:
                    with pytest.raises(ProtocolError):
                        await match.submit(seat, wrong, None, "person")
            if moves % 11 == 5:  # nor does a commit that fails
                store.fail = RuntimeError("database gone")
                with pytest.raises(ProtocolError):
                    await match.submit(seat, legal[0], None, "person")
            assert match.state is state
            assert (len(state.actions), len(state.events)) == before
            action = rng.choice(legal)
            await match.submit(seat, state.action_text(action), None, "person")
            reference.apply(action)
            moves += 1
            now = match.state
            assert now is not None
            assert now.actions == reference.actions and now.events == reference.events
            assert match.events(match.seq) == reference.events[before[1] :]
            for role in [None, *range(players)]:
                assert now.observation(role) == reference.observation(role)
        assert moves > 0
        if reference.over:  # the result read from the copy's part of the history
            assert row.status == "finished"
            assert row.result == final_result(row, reference)
            assert store.appended[-1][-1].result == row.result

    run(go())
