"""Client frames parsed into typed messages (``transport/frames.py``): every frame type of
docs/protocol.md ("Client to server"), and each bad shape refused with the code the
protocol names ("Errors"), the error repeating the frame's ``table`` and ``id`` where it
always has. Pure: no server; the last tests drive a connection's reading half with fakes.

The expected values are worked from docs/protocol.md, not taken from the parser's output.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from kozyr.server.cluster import Cluster
from kozyr.server.connection import Connection
from kozyr.server.storage.store import User
from kozyr.server.transport.frames import (
    FRAME_TYPES,
    ActionFrame,
    BackFrame,
    BadActionFrame,
    ClientFrame,
    Echo,
    FrameError,
    HelloFrame,
    LobbyFrame,
    PingFrame,
    SayFrame,
    UnwatchFrame,
    parse_frame,
)
from kozyr.server.transport.protocol import CLIENT_TYPES, Client, ProtocolError
from kozyr.server.transport.relay import Relay, Relayed

ID_MESSAGE = 'An action needs an "id": a string of 1-64 characters.'
ACTION_MESSAGE = 'An action needs "action": the move as text.'
SEQ_MESSAGE = "An action's \"seq\" is the table's seq you saw: a whole number."
OFFSET_MESSAGE = "offset must be a whole number 0-1000000000."
LIMIT_MESSAGE = "limit must be a whole number 1-100."


def parse(frame: dict[str, Any] | str | bytes) -> ClientFrame:
    """What the parser makes of a frame sent as text (dicts as JSON)."""
    raw = frame if isinstance(frame, str | bytes) else json.dumps(frame)
    return parse_frame(raw, 64 * 1024)


def refused(frame: dict[str, Any] | str | bytes) -> dict[str, Any]:
    """The error frame a refused frame gets (the parser must refuse it)."""
    with pytest.raises(FrameError) as caught:
        parse(frame)
    return caught.value.frame()


def action_refusal(frame: dict[str, Any]) -> dict[str, Any]:
    """An action with bad fields: its refusal waits until its table is found."""
    parsed = parse({"type": "action", **frame})
    assert isinstance(parsed, BadActionFrame), parsed
    return parsed.error.frame()


def test_every_type_of_the_protocol_has_a_message() -> None:
    assert tuple(FRAME_TYPES) == CLIENT_TYPES
    assert CLIENT_TYPES == ("hello", "action", "back", "unwatch", "lobby", "ping", "say")


# -- each frame type, read --------------------------------------------------------------


def test_hello() -> None:
    frame = {"type": "hello", "table": "3f2a9c01de", "last_seq": 4, "invite": "k2x9"}
    hello = HelloFrame(table="3f2a9c01de", last_seq=4, invite="k2x9")
    assert parse(frame) == hello
    assert parse({**frame, "v": 1}) == hello  # "v": 1 or no v at all
    assert parse({"type": "hello"}) == HelloFrame(table=None, last_seq=None, invite=None)


def test_hello_reads_nonsense_leniently_as_it_always_has() -> None:
    # "with no last_seq, a nonsense one, ... it sends one sync": not a refusal (-1 asks
    # for the sync, as a negative seq does)
    for nonsense in ("4", 4.0, True, [4], {"seq": 4}):
        assert parse({"type": "hello", "last_seq": nonsense}) == HelloFrame(last_seq=-1)
    assert parse({"type": "hello", "last_seq": None}) == HelloFrame(last_seq=None)
    assert parse({"type": "hello", "last_seq": -3}) == HelloFrame(last_seq=-3)
    assert parse({"type": "hello", "last_seq": 2**70}) == HelloFrame(last_seq=2**70)
    # a table or invite that is not text is as if absent (no such table: no_table later)
    assert parse({"type": "hello", "table": 5, "invite": ["k2x9"]}) == HelloFrame()


def test_action() -> None:
    frame = {"type": "action", "table": "t1", "id": "c17", "action": "QS", "seq": 12}
    assert parse(frame) == ActionFrame(table="t1", id="c17", action="QS", seq=12)
    # seq is optional (older clients), null too; any whole number is a seq
    no_seq = ActionFrame(table="t1", id="c17", action="QS", seq=None)
    assert parse({k: v for k, v in frame.items() if k != "seq"}) == no_seq
    assert parse({**frame, "seq": None}) == no_seq
    for seq in (0, -1, 2**70):
        assert parse({**frame, "seq": seq}) == ActionFrame(
            table="t1", id="c17", action="QS", seq=seq
        )


def test_action_bounds_are_inclusive_and_a_number_id_is_its_digits() -> None:
    frame = {"type": "action", "table": "t1", "action": "trump NT"}

    def action(cid: str, move: str = "trump NT") -> ActionFrame:
        return ActionFrame(table="t1", id=cid, action=move)

    assert parse({**frame, "id": "x"}) == action("x")
    assert parse({**frame, "id": "x" * 64}) == action("x" * 64)
    assert parse({**frame, "id": 17}) == action("17")
    assert parse({**frame, "id": -5}) == action("-5")
    assert parse({**frame, "id": 10**63}) == action("1" + "0" * 63)  # 64 digits
    assert parse({**frame, "id": "c", "action": "y" * 32}) == action("c", "y" * 32)


def test_back_and_unwatch() -> None:
    assert parse({"type": "back", "table": "t1"}) == BackFrame(table="t1")
    assert parse({"type": "unwatch", "table": "t1"}) == UnwatchFrame(table="t1")
    assert parse({"type": "unwatch"}) == UnwatchFrame(table=None)
    assert parse({"type": "back", "table": {"id": "t1"}}) == BackFrame(table=None)


def test_lobby_reads_a_page_as_get_api_tables_does() -> None:
    def page(**fields: Any) -> ClientFrame:
        return parse({"type": "lobby", **fields})

    assert page() == LobbyFrame(offset=0, limit=50)  # limit: default 50
    assert page(offset=20, limit=10) == LobbyFrame(offset=20, limit=10)
    # as in a query string: digits in text, empty or null for the default
    assert page(offset="20", limit="010") == LobbyFrame(offset=20, limit=10)
    assert page(offset="", limit=None) == LobbyFrame(offset=0, limit=50)
    assert page(offset=10**9, limit=100) == LobbyFrame(offset=10**9, limit=100)
    assert page(offset=0, limit=1) == LobbyFrame(offset=0, limit=1)


def test_ping_carries_any_t() -> None:
    assert parse({"type": "ping", "t": 7}) == PingFrame(t=7)
    assert parse({"type": "ping", "t": {"a": [1, None]}}) == PingFrame(t={"a": [1, None]})
    assert parse({"type": "ping"}) == PingFrame(t=None)  # answered with "t": null


def test_unknown_keys_are_ignored_not_refused() -> None:
    assert parse({"type": "ping", "t": 1, "extra": {"x": 1}, "seq": "no"}) == PingFrame(t=1)
    # "echo" is no key a client can fill: the parser sets it from "table" and "id"
    sneaky = parse({"type": "back", "table": "t1", "echo": {"table": "x"}, "id": "b1"})
    assert sneaky == BackFrame(table="t1")
    assert sneaky.echo == Echo(table="t1", id="b1")


def test_a_frame_as_bytes_is_read_as_its_utf8_text() -> None:
    assert parse('{"type": "ping", "t": "ё"}'.encode()) == PingFrame(t="ё")


def test_a_forwarded_frame_is_read_from_its_fields_by_the_same_models() -> None:
    fields = {"type": "action", "table": "t1", "id": 5, "action": "QS", "seq": True}
    assert isinstance(parse_frame(fields), BadActionFrame)  # true is not a seq
    forwarded = parse_frame({**fields, "seq": 3})
    assert forwarded == ActionFrame(table="t1", id="5", action="QS", seq=3)


def test_messages_are_frozen() -> None:
    ping = PingFrame(t=1)
    with pytest.raises(AttributeError):
        ping.t = 2  # type: ignore[misc]


# -- refusals: the envelope -------------------------------------------------------------


def _error(code: str, **extra: Any) -> dict[str, Any]:
    """The parts of an error frame a test pins: the code and what is echoed."""
    return {"v": 1, "type": "error", "code": code, **extra}


def _pinned(error: dict[str, Any]) -> dict[str, Any]:
    assert error["message"] and error["message_ru"]
    return {k: v for k, v in error.items() if k not in ("message", "message_ru")}


@pytest.mark.parametrize(
    "raw",
    ["{not json", "", '{"type": "ping",}', "{'type': 'ping'}", b"\xff\xfe{}", b'{"t": "\xc3"}'],
)
def test_not_json_or_not_utf8_is_bad_json(raw: str | bytes) -> None:
    assert _pinned(refused(raw)) == _error("bad_json")


def test_nesting_deeper_than_32_levels_is_bad_json() -> None:
    # the object is one level, so 31 lists inside it are 32: allowed; 32 are 33
    ok = '{"type": "ping", "t": ' + "[" * 31 + "]" * 31 + "}"
    assert isinstance(parse(ok), PingFrame)
    deep = '{"type": "ping", "id": "c1", "t": ' + "[" * 32 + "]" * 32 + "}"
    assert _pinned(refused(deep)) == _error("bad_json")  # nothing echoed: not read at all
    assert _pinned(refused("[" * 5000 + "]" * 5000)) == _error("bad_json")


@pytest.mark.parametrize(
    "raw",
    [
        "[1, 2]",
        "5",
        "null",
        '"hello"',
        {"t": 1, "id": "c1"},
        {"type": 5, "id": "c1"},
        {"type": None, "table": "t1"},
        {"type": ["hello"]},
        {"type": {"hello": 1}},
        {"type": True},
    ],
)
def test_not_an_object_with_a_text_type_is_bad_frame_with_nothing_echoed(
    raw: dict[str, Any] | str,
) -> None:
    error = refused(raw)
    assert _pinned(error) == _error("bad_frame")
    assert error["message"] == 'A frame is an object with a "type".'


def test_a_lone_surrogate_anywhere_is_bad_frame_naming_where_and_echoing_nothing() -> None:
    error = refused('{"type": "action", "table": "t1", "id": "c1", "action": "\\ud800"}')
    assert _pinned(error) == _error("bad_frame")
    assert "surrogate" in error["message"] and "action" in error["message"]
    key = refused('{"type": "ping", "id": "c1", "\\udfff": 1}')
    assert _pinned(key) == _error("bad_frame")


def test_too_large_counts_utf8_bytes() -> None:
    limit = 64 * 1024
    pad = '{"type": "ping", "t": "'
    exact = pad + "x" * (limit - len(pad) - 2) + '"}'
    assert len(exact.encode()) == limit and isinstance(parse(exact), PingFrame)
    over = pad + "x" * (limit - len(pad) - 1) + '"}'
    assert _pinned(refused(over)) == _error("too_large")
    # fewer characters than the limit, more bytes: "ё" is two bytes in UTF-8
    wide = pad + "ё" * (limit // 2) + '"}'
    assert len(wide) < limit and _pinned(refused(wide)) == _error("too_large")
    assert _pinned(refused(over.encode())) == _error("too_large")
    # a forwarded frame (already read) has no size to check
    assert isinstance(parse_frame({"type": "ping", "t": "x" * limit}), PingFrame)


@pytest.mark.parametrize("v", [2, 0, -1, "1", None, [1], {"v": 1}, 1.5])
def test_any_version_but_1_is_bad_version_echoing_id_and_table(v: Any) -> None:
    error = refused({"v": v, "type": "ping", "id": "c1", "table": "t1"})
    assert _pinned(error) == _error("bad_version", table="t1", id="c1")


def test_1_0_and_true_equal_1_and_pass_as_they_always_have() -> None:
    # Python's 1.0 == 1 == True: the check was an equality and is kept one (ambiguous,
    # but a client that sends them has always been answered).
    assert isinstance(parse({"v": 1.0, "type": "ping"}), PingFrame)
    assert isinstance(parse({"v": True, "type": "ping"}), PingFrame)


def test_the_version_is_checked_before_the_type() -> None:
    assert refused({"v": 2, "type": "dance"})["code"] == "bad_version"


@pytest.mark.parametrize("kind", ["dance", "Action", "HELLO", "", "act", "pong", "error"])
def test_an_unknown_type_is_unknown_type_echoing_id_and_table(kind: str) -> None:
    error = refused({"type": kind, "id": 3, "table": "t1"})
    assert _pinned(error) == _error("unknown_type", table="t1", id=3)


def test_what_an_error_echoes() -> None:
    base = {"type": "dance"}
    # a table of at most 32 characters, an id of text of at most 64 or a whole number
    assert refused({**base, "table": "t" * 32, "id": "i" * 64})["table"] == "t" * 32
    assert refused({**base, "table": "t" * 32, "id": "i" * 64})["id"] == "i" * 64
    assert refused({**base, "id": ""})["id"] == ""
    assert refused({**base, "id": 2**70})["id"] == 2**70
    for table in ("t" * 33, 5, None, ["t1"]):
        assert "table" not in refused({**base, "table": table})
    for cid in ("i" * 65, True, False, 1.5, None, ["c1"], {"id": 1}):
        assert "id" not in refused({**base, "id": cid})


# -- refusals: the fields ---------------------------------------------------------------

GOOD = {"table": "t1", "id": "c1", "action": "QS"}
MISSING = object()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"id": MISSING}, ID_MESSAGE),
        ({"id": None}, ID_MESSAGE),
        ({"id": ""}, ID_MESSAGE),
        ({"id": "i" * 65}, ID_MESSAGE),
        ({"id": 10**64}, ID_MESSAGE),  # 65 digits
        ({"id": True}, ID_MESSAGE),  # a bool is not a number, nor an id
        ({"id": 1.5}, ID_MESSAGE),
        ({"id": 1.0}, ID_MESSAGE),
        ({"id": ["c1"]}, ID_MESSAGE),
        ({"id": {"id": "c1"}}, ID_MESSAGE),
        ({"action": MISSING}, ACTION_MESSAGE),
        ({"action": None}, ACTION_MESSAGE),
        ({"action": ""}, ACTION_MESSAGE),
        ({"action": "y" * 33}, ACTION_MESSAGE),
        ({"action": 12}, ACTION_MESSAGE),
        ({"action": False}, ACTION_MESSAGE),
        ({"action": ["QS"]}, ACTION_MESSAGE),
        ({"action": {"card": "QS"}}, ACTION_MESSAGE),
        ({"seq": "1"}, SEQ_MESSAGE),
        ({"seq": 1.5}, SEQ_MESSAGE),
        ({"seq": 1.0}, SEQ_MESSAGE),
        ({"seq": True}, SEQ_MESSAGE),  # Python's True is an int; not a seq
        ({"seq": False}, SEQ_MESSAGE),
        ({"seq": [3]}, SEQ_MESSAGE),
        ({"seq": {"seq": 3}}, SEQ_MESSAGE),
    ],
)
def test_bad_action_fields_are_bad_frame(change: dict[str, Any], message: str) -> None:
    frame = {k: v for k, v in {**GOOD, **change}.items() if v is not MISSING}
    error = action_refusal(frame)
    assert error["code"] == "bad_frame" and error["message"] == message
    assert error["table"] == "t1"


def test_the_first_bad_action_field_names_the_refusal_id_action_seq() -> None:
    assert action_refusal({"table": "t1", "seq": "x"})["message"] == ID_MESSAGE
    assert action_refusal({"table": "t1", "id": "c1", "seq": "x"})["message"] == ACTION_MESSAGE
    assert action_refusal({**GOOD, "seq": "x"})["message"] == SEQ_MESSAGE


def test_a_bad_action_keeps_its_table_and_echo_for_later() -> None:
    parsed = parse({"type": "action", "table": "nope", "id": 9, "action": ""})
    assert isinstance(parsed, BadActionFrame) and parsed.table == "nope"
    assert parsed.echo.table == "nope" and parsed.echo.id == 9
    assert parsed.error.frame()["id"] == 9 and parsed.error.frame()["table"] == "nope"
    odd = parse({"type": "action", "table": ["nope"], "action": "QS"})
    assert isinstance(odd, BadActionFrame) and odd.table is None


@pytest.mark.parametrize(
    ("page", "message"),
    [
        ({"offset": -1}, OFFSET_MESSAGE),
        ({"offset": 10**9 + 1}, OFFSET_MESSAGE),
        ({"offset": 1.5}, OFFSET_MESSAGE),
        ({"offset": 2.0}, OFFSET_MESSAGE),
        ({"offset": True}, OFFSET_MESSAGE),  # a bool is not a whole number here either
        ({"offset": "abc"}, OFFSET_MESSAGE),
        ({"offset": "-1"}, OFFSET_MESSAGE),
        ({"offset": "1.5"}, OFFSET_MESSAGE),
        ({"offset": "١٢"}, OFFSET_MESSAGE),  # digits of another script
        ({"offset": "12345678901"}, OFFSET_MESSAGE),  # more than 10 digits
        ({"offset": [1]}, OFFSET_MESSAGE),
        ({"limit": 0}, LIMIT_MESSAGE),
        ({"limit": 101}, LIMIT_MESSAGE),
        ({"limit": False}, LIMIT_MESSAGE),
        ({"limit": "0"}, LIMIT_MESSAGE),
        ({"limit": {"n": 5}}, LIMIT_MESSAGE),
        ({"offset": -1, "limit": 0}, OFFSET_MESSAGE),  # offset is read first
    ],
)
def test_a_bad_lobby_page_is_bad_request(page: dict[str, Any], message: str) -> None:
    error = refused({"type": "lobby", "id": "l1", **page})
    assert _pinned(error) == _error("bad_request", id="l1")
    assert error["message"] == message


# -- a connection's reading half, with fakes ---------------------------------------------


class _Metric:
    def labels(self, code: str) -> _Metric:
        return self

    def inc(self) -> None:
        pass

    def observe(self, value: float) -> None:
        pass


class _Table:
    def __init__(self, seated: bool) -> None:
        self.seated = seated
        self.acts: list[tuple[Any, ...]] = []

    def seat_of(self, user_id: int) -> int | None:
        return 0 if self.seated else None

    async def act(self, seat: int, action: str, cid: str, by: str, **kw: Any) -> None:
        self.acts.append((seat, action, cid, by, kw["expect_seq"]))


class _Lobby:
    def __init__(self) -> None:
        self.tables = {"mine": _Table(seated=True), "theirs": _Table(seated=False)}
        self.pages: list[tuple[int, int]] = []

    def lobby_frame(self, offset: int, limit: int) -> dict[str, Any]:
        self.pages.append((offset, limit))
        return {"v": 1, "type": "lobby", "tables": []}

    def watch_lobby(self, client: Client) -> None:
        pass


class _Server:
    def __init__(self) -> None:
        class Settings:
            max_frame = 64 * 1024

        class Metrics:
            rejected = latency = _Metric()

        self.settings, self.metrics = Settings(), Metrics()
        self.lobby = _Lobby()
        self.cluster = None


def _reader() -> tuple[Connection, _Server]:
    """A Connection's reading half alone (no socket, no database)."""
    conn = object.__new__(Connection)
    server = _Server()
    conn.server = server  # type: ignore[assignment]
    conn.user = User(id=1, name="Anna", guest=False)
    conn.client = Client(conn.user)
    conn.conn_id = "c0nn"
    return conn, server


async def _answers(conn: Connection, frame: dict[str, Any] | str) -> list[dict[str, Any]]:
    await conn._handle(frame if isinstance(frame, str) else json.dumps(frame))
    return [json.loads(text) for text in conn.client.take()]


@pytest.mark.asyncio
async def test_an_action_for_no_table_is_no_table_whatever_else_is_wrong() -> None:
    conn, _ = _reader()
    [error] = await _answers(conn, {"type": "action", "table": "nope", "id": 3})
    assert _pinned(error) == _error("no_table", table="nope", id=3)
    [error] = await _answers(conn, {"type": "action", "id": "c1", "action": ""})
    assert _pinned(error) == _error("no_table", id="c1")
    # at a table that is there, the fields are read: the first bad one names the refusal
    [error] = await _answers(conn, {"type": "action", "table": "mine", "id": "c2", "action": 5})
    assert _pinned(error) == _error("bad_frame", table="mine", id="c2")
    assert error["message"] == ACTION_MESSAGE


@pytest.mark.asyncio
async def test_a_good_action_reaches_the_table_typed_and_refusals_echo_the_frame() -> None:
    conn, server = _reader()
    frame = {"type": "action", "table": "mine", "id": 41, "action": "QS", "seq": 2}
    assert await _answers(conn, frame) == []
    assert server.lobby.tables["mine"].acts == [(0, "QS", "41", "person", 2)]
    [error] = await _answers(conn, {**frame, "table": "theirs"})
    assert _pinned(error) == _error("not_seated", table="theirs", id=41)


@pytest.mark.asyncio
async def test_lobby_and_ping_answers() -> None:
    conn, server = _reader()
    assert await _answers(conn, {"type": "lobby", "offset": "3"}) == [
        {"v": 1, "type": "lobby", "tables": []}
    ]
    assert server.lobby.pages == [(3, 50)]
    assert await _answers(conn, {"type": "ping", "t": [1, "a"]}) == [
        {"v": 1, "type": "pong", "t": [1, "a"]}
    ]
    assert await _answers(conn, {"type": "ping"}) == [{"v": 1, "type": "pong", "t": None}]
    [error] = await _answers(conn, "{")
    assert _pinned(error) == _error("bad_json")


def test_frame_error_is_a_protocol_error() -> None:
    # the connection's one `except ProtocolError` answers both the parser's and the
    # handlers' refusals
    assert issubclass(FrameError, ProtocolError)


# -- a frame forwarded to the table's owner (cluster mode), with bare clusters -----------


class _OwnersTable(_Table):
    def __init__(self) -> None:
        super().__init__(seated=True)
        self.row = type("Row", (), {"private": False})()
        self.watchers: dict[Any, int | None] = {}
        self.watched: list[int | None] = []

    async def act(self, seat: int, action: str, cid: str, by: str, **kw: Any) -> tuple[int, bool]:
        await super().act(seat, action, cid, by, **kw)
        return 3, False

    async def watch(self, client: Any, last_seq: int | None) -> None:
        self.watched.append(last_seq)
        self.watchers[client] = 0


def _bare_process() -> tuple[Cluster, _OwnersTable]:
    """A Cluster without its store, bus or ownership: a lobby of one table, ``t1``."""
    cluster = object.__new__(Cluster)
    table = _OwnersTable()
    cluster.me = "node-b"
    cluster.lobby = type("Lobby", (), {"tables": {"t1": table}})()  # type: ignore[assignment]
    cluster.bus = type("Bus", (), {"post": lambda *_: None})()  # type: ignore[assignment]
    cluster._remote = {}
    cluster._tasks = set()

    async def no_talk(*_: Any) -> None:
        return None

    cluster.talk = type("Talk", (), {"history": staticmethod(no_talk)})()  # type: ignore[assignment]
    return cluster, table


@pytest.mark.asyncio
async def test_a_relayed_action_reaches_the_owner_as_the_same_typed_message() -> None:
    user = User(id=1, name="Anna", guest=False)
    relay = Relay("c0nn", Client(user), user, tables={"t1": Relayed("node-b")})
    frame = parse({"type": "action", "table": "t1", "id": 41, "action": "QS", "seq": 2})
    assert isinstance(frame, ActionFrame)
    relaying, _ = _bare_process()
    calls: list[tuple[str, str, str, dict[str, Any]]] = []

    async def call(node: str, op: str, table_id: str, who: User, args: Any) -> dict[str, Any]:
        calls.append((node, op, table_id, args))
        return {"acked": True, "seq": 3}

    relaying.call = call  # type: ignore[method-assign]
    assert await relaying.act(relay, "t1", frame) is None
    # the request keeps the names processes of other versions read ("cid", not "id")
    [(node, op, table_id, args)] = calls
    assert (node, op, table_id) == ("node-b", "act", "t1")
    assert args == {"conn": "c0nn", "action": "QS", "cid": "41", "seq": 2}
    owner, table = _bare_process()
    answer = await owner._run("act", "t1", user, args, "node-a")
    assert answer == {"seq": 3, "duplicate": False, "acked": False}
    assert table.acts == [(0, "QS", "41", "person", 2)]
    # the owner reads it with the same models: what a client may not send, a peer may not
    with pytest.raises(ProtocolError) as refusal:
        await owner._run("act", "t1", user, {**args, "seq": True}, "node-a")
    assert refusal.value.code == "bad_frame" and refusal.value.message == SEQ_MESSAGE
    assert len(table.acts) == 1


@pytest.mark.asyncio
async def test_a_relayed_hello_reaches_the_owner_read_as_a_clients_is() -> None:
    user = User(id=1, name="Anna", guest=False)
    owner, table = _bare_process()
    args = {"conn": "c0nn", "last_seq": 5, "invite": None}
    assert await owner._run("hello", "t1", user, args, "node-a") == {"you": 0}
    await owner._run("hello", "t1", user, {**args, "conn": "c1", "last_seq": "5"}, "node-a")
    await owner._run("hello", "t1", user, {"conn": "c2"}, "node-a")
    assert table.watched == [5, -1, None]  # nonsense asks for a sync, as from a client


def test_a_say_is_read_as_a_typed_message_and_its_bad_fields_named() -> None:
    """#44: a line of table talk; the channel and the phrase from their closed lists."""
    frame = parse({"type": "say", "table": "t1", "id": "s1", "phrase": "thanks"})
    assert frame == SayFrame(table="t1", channel=None, text=None, phrase="thanks")
    assert parse({"type": "say", "table": "t1", "text": "QS!"}) == SayFrame(table="t1", text="QS!")
    for fields, code in (
        ({"channel": "everyone"}, "talk_channel"),
        ({"phrase": "gg"}, "talk_phrase"),
        ({"text": 5}, "bad_frame"),
        ({"text": ["hi"]}, "bad_frame"),
    ):
        with pytest.raises(FrameError) as refused:
            parse({"type": "say", "table": "t1", "id": "s2", **fields})
        assert refused.value.code == code, fields
        assert refused.value.echo == Echo("t1", "s2")
