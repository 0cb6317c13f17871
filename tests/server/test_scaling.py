"""What a change costs must not grow with the number of tables or connections (#14):
the lobby's notices are encoded once for all its watchers, gathered per moment (one per
changed table, one count of the tables), and go only to the connections looking at the
lobby; a turn timer is a timer handle, not a task per move. Counted, never timed."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from tests.server.support import Player, ServerProc

from kozyr.server.runtime.bus import LocalBus
from kozyr.server.runtime.config import Settings, sqlite_url
from kozyr.server.runtime.metrics import Metrics
from kozyr.server.storage.store import Seat, Store, TableRow, User
from kozyr.server.tables import lobby as lobby_module
from kozyr.server.tables.lobby import NOTICE_DELAY, Lobby
from kozyr.server.tables.turns import Turns
from kozyr.server.transport.protocol import Client

pytestmark = pytest.mark.asyncio


def make_lobby(tmp_path: Path) -> Lobby:
    # The store is never opened: the notices need no database.
    settings = Settings(data=tmp_path)
    return Lobby(Store(f"sqlite+aiosqlite:///{tmp_path}/k.db"), settings, Metrics(), LocalBus())


class FakeTable:
    """What the lobby reads of a table when it tells of a change."""

    def __init__(self, table_id: str, private: bool = False) -> None:
        self.id = table_id
        self.row = SimpleNamespace(status="playing", private=private)
        self.infos = 0

    def info(self) -> dict[str, Any]:
        self.infos += 1
        return {"id": self.id, "status": self.row.status}


def watchers(n: int) -> list[Client]:
    return [Client(User(i, f"p{i}", False)) for i in range(n)]


async def test_a_lobby_notice_is_encoded_once_for_every_watcher(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby = make_lobby(tmp_path)
    encoded: list[dict[str, Any]] = []
    real = lobby_module.dumps

    def counting(frame: dict[str, Any]) -> str:
        encoded.append(frame)
        return real(frame)

    monkeypatch.setattr(lobby_module, "dumps", counting)
    clients = watchers(500)
    for c in clients:
        lobby.watch_lobby(c)
    await lobby.bus.publish("lobby", {"table": {"id": "t1"}})
    # one encoding for 500 watchers, and the very same text in every queue
    assert len(encoded) == 1
    assert encoded[0] == {"v": 1, "type": "lobby", "table": {"id": "t1"}}
    texts = [c.queue[-1] for c in clients]
    assert all(t is texts[0] for t in texts) and len(texts) == 500
    # nobody watching: nothing is encoded at all
    for c in clients:
        lobby.unwatch_lobby(c)
    await lobby.bus.publish("lobby", {"table": {"id": "t2"}})
    assert len(encoded) == 1


async def test_the_changes_of_a_moment_make_one_notice_per_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby = make_lobby(tmp_path)
    counts: list[int] = []
    monkeypatch.setattr(lobby, "_count", lambda: counts.append(1))
    tables = [FakeTable(f"t{i}") for i in range(200)]
    hidden = FakeTable("secret", private=True)
    lobby.tables = {t.id: cast(Any, t) for t in [*tables, hidden]}
    (watcher,) = watchers(1)
    lobby.watch_lobby(watcher)
    # 200 public tables change three times each (a hello, a seat, another hello), and a
    # private one too, all within one moment
    for _ in range(3):
        for t in [*tables, hidden]:
            lobby._changed(cast(Any, t))
    assert watcher.queue == [] and counts == []  # gathered, not yet told
    for _ in range(50):
        await asyncio.sleep(NOTICE_DELAY)
        if watcher.queue:
            break
    await asyncio.sleep(0)  # the publishing task runs
    # one notice per public table (600 changes: 200 notices), one info each, one count
    assert len(watcher.queue) == 200
    assert [t.infos for t in tables] == [1] * 200 and hidden.infos == 0
    assert counts == [1]
    assert not any('"secret"' in text for text in watcher.queue)
    # the next moment's change is told again
    lobby._changed(cast(Any, tables[0]))
    for _ in range(50):
        await asyncio.sleep(NOTICE_DELAY)
        if len(watcher.queue) > 200:
            break
    await asyncio.sleep(0)
    assert len(watcher.queue) == 201 and counts == [1, 1]
    lobby.tables = {}
    await lobby.close()


def _timed_turns(timeout: float) -> tuple[Turns, SimpleNamespace, list[int], list[int]]:
    """A table's turns over stand-ins: (turns, match, seats timed out, seats left)."""
    row = SimpleNamespace(id="t1", turn_timeout=timeout, seats=[SimpleNamespace(bot=None)] * 2)
    state = SimpleNamespace(over=False, to_act=0)
    match = SimpleNamespace(row=row, state=state, playing=True, seq=0, to_act=0)
    left: list[int] = []
    presence = SimpleNamespace(bot_plays=lambda _seat: False, leave=left.append)
    fired: list[int] = []
    turns = Turns(
        cast(Any, match),
        cast(Any, presence),
        Settings(),
        cast(Any, None),
        asyncio.Lock(),
        cast(Any, None),
        fired.append,
    )
    return turns, match, fired, left


async def test_a_turn_timer_is_not_a_task_per_move() -> None:
    turns, match, fired, left = _timed_turns(60.0)
    before = len(asyncio.all_tasks())
    for seq in range(1, 201):  # 200 moves, each re-arming the clock
        match.seq = seq
        match.state.to_act = match.to_act = seq % 2
        turns.schedule()
        assert turns.deadline_ms is not None
    assert len(asyncio.all_tasks()) == before
    # and the clock still runs out: a short one, on seat 0's turn at seq 200
    match.row.turn_timeout = 0.05
    turns.schedule()
    for _ in range(100):
        await asyncio.sleep(0.05)
        if fired:
            break
    assert fired == [0] and left == [0]
    turns.close()


async def test_a_move_does_not_replace_the_turn_timer() -> None:
    """200 moves arm one timer handle: a move only moves the turn's end later."""
    turns, match, _fired, _left = _timed_turns(60.0)
    loop = asyncio.get_running_loop()
    armed: list[float] = []
    real_call_at = loop.call_at

    def counting_call_at(when: float, callback: Any, *args: Any) -> asyncio.TimerHandle:
        armed.append(when)
        return real_call_at(when, callback, *args)

    loop.call_at = counting_call_at  # type: ignore[method-assign]
    try:
        for seq in range(1, 201):
            match.seq = seq
            match.state.to_act = match.to_act = seq % 2
            turns.schedule()
    finally:
        del loop.call_at  # the loop's own method again
        turns.close()
    assert len(armed) == 1


async def test_the_turn_ends_a_timeout_after_the_last_move_not_the_first() -> None:
    turns, match, fired, _left = _timed_turns(0.4)
    loop = asyncio.get_running_loop()
    turns.schedule()  # seat 0's turn, seq 0: the timer is armed for 0.4 s from now
    await asyncio.sleep(0.25)
    match.seq, match.state.to_act, match.to_act = 1, 1, 1
    moved = loop.time()
    turns.schedule()  # seat 1's turn: it ends 0.4 s after this move
    await asyncio.sleep(0.3)  # the first timer has fired by now (0.55 s), and re-armed
    assert fired == []
    for _ in range(100):
        await asyncio.sleep(0.02)
        if fired:
            break
    assert fired == [1]  # seat 1, whose turn ran out, not seat 0
    assert loop.time() - moved >= 0.4 - 0.01
    turns.close()


async def test_a_shorter_turn_clock_takes_effect_at_once() -> None:
    """A turn ending before the armed timer's time gets a timer of its own."""
    turns, match, fired, _left = _timed_turns(60.0)
    turns.schedule()
    match.row.turn_timeout = 0.05
    match.seq, match.state.to_act, match.to_act = 1, 1, 1
    turns.schedule()
    for _ in range(100):
        await asyncio.sleep(0.02)
        if fired:
            break
    assert fired == [1]
    turns.close()


def lobby_notices(p: Player) -> list[dict[str, Any]]:
    """The one-table lobby notices a player has had (not the pages he asked for)."""
    return [f for f in p.frames if f["type"] == "lobby" and "table" in f]


async def test_only_those_looking_at_the_lobby_get_its_notices(tmp_path: Path) -> None:
    proc = ServerProc(tmp_path / "data").start()
    at_table, browsing, host = [await Player(proc).sign_in() for _ in range(3)]
    try:
        for p in (at_table, browsing, host):
            await p.connect()
        mine = (await at_table.post("/api/tables", {"game": "imperial"}))["table"]["id"]
        # both look at the lobby; then one goes to his table, as the page does
        for p in (at_table, browsing):
            await p.send({"type": "lobby"})
            await p.expect("lobby")
        await at_table.hello(mine)
        await asyncio.sleep(0.5)  # the notices of his own hello have gone out
        before = len(lobby_notices(at_table))
        opened = (await host.post("/api/tables", {"game": "emperor"}))["table"]["id"]
        while (await browsing.expect("lobby"))["table"]["id"] != opened:
            pass
        await asyncio.sleep(0.5)
        assert len(lobby_notices(at_table)) == before
        # back in the lobby: the notices come again
        await at_table.send({"type": "lobby"})
        await at_table.expect("lobby")
        again = (await host.post("/api/tables", {"game": "imperial"}))["table"]["id"]
        while (await at_table.expect("lobby"))["table"]["id"] != again:
            pass
    finally:
        for p in (at_table, browsing, host):
            await p.close()
        proc.stop()


async def test_a_commit_does_not_wait_for_a_pooled_connection(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path))
    await store.migrate()
    try:
        row = TableRow(
            id="t1", game="imperial", players=2, options={"players": 2}, seed=7,
            seats=[Seat(bot=1), Seat(bot=1)], status="playing",
        )  # fmt: skip
        await store.insert_table(row)
        # a crowd of reads (sign-ins, lobby pages) holds every pooled connection ...
        pool = store.engine.sync_engine.pool
        held = [await store.engine.connect() for _ in range(pool.size() + 4)]
        try:
            # ... and a move is still committed (it used to wait for the pool's timeout)
            await asyncio.wait_for(store.append_action("t1", 1, 0, "bot", "pass", None), 10)
        finally:
            for conn in held:
                await conn.close()
        assert [a.text for a in await store.actions("t1")] == ["pass"]
    finally:
        await store.close()
