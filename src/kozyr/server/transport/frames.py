"""Every WebSocket frame a client sends, parsed in one place into a typed message.

:func:`parse_frame` is the only place a frame becomes a message: the text is parsed
(``jsonsafe``), the envelope checked (an object with a text ``"type"``, ``"v"`` absent or
1, a type the protocol knows), then the fields by the type's model. The connection's
handlers get one of :data:`ClientFrame` and never read a dict; a refusal is a
:class:`FrameError`, whose error frame repeats the frame's ``table`` and ``id``
(:class:`Echo`) as the server always has.

Each message is a frozen dataclass whose fields Pydantic checks (``pydantic.dataclasses``),
as it checks the HTTP bodies (``bodies.py``): strict types (``true`` is not a number,
``"3"`` not a ``seq``), unknown keys ignored (newer clients may send more). Pydantic is a
dependency already (FastAPI's), keeps one way of checking input for HTTP and WebSocket,
and declares each field's type and bounds on the field, where a reader looks for them.
Plain dataclasses would need the hand-written type checks this module replaces; msgspec
would be a new dependency, and its own JSON decoder would have to be kept from bypassing
``jsonsafe``'s depth and surrogate checks. Dataclasses rather than ``BaseModel``: an
action frame is checked in about 2 µs instead of 5 (a move costs some hundreds,
``docs/performance.md``), and equal messages are equal whatever their :class:`Echo`.

Some fields have always been read leniently, not refused, and still are: a ``hello``'s
``last_seq`` that is not a whole number asks for a full resync (-1); a ``table`` or an
``invite`` that is not text is as if absent (the table is then not found: ``no_table``).

>>> parse_frame('{"type": "action", "table": "t1", "id": 7, "action": "QS", "seq": 3}')
ActionFrame(table='t1', id='7', action='QS', seq=3)
>>> parse_frame('{"type": "hello", "table": "t1", "last_seq": "5", "x": 1}')
HelloFrame(table='t1', last_seq=-1, invite=None)
>>> parse_frame('{"type": "dance", "id": "c1"}')
Traceback (most recent call last):
...
kozyr.server.transport.frames.FrameError: Unknown message type.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal, TypeVar, get_args

from pydantic import (
    BeforeValidator,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)
from pydantic.dataclasses import dataclass as pydantic_dataclass

from kozyr.server.transport.jsonsafe import BadJson, BadText, parse_json
from kozyr.server.transport.paging import MAX_OFFSET, MAX_PAGE, PAGE, as_number, page_error
from kozyr.server.transport.protocol import VERSION, ProtocolError

F = TypeVar("F")

ECHO_TABLE = 32
"""The longest ``table`` an error frame repeats (a table's id is 10 characters)."""
ECHO_ID = 64
"""The longest text ``id`` an error frame repeats (an action id's own bound)."""


@dataclass(frozen=True, slots=True)
class Echo:
    """What an error frame repeats of the frame it refuses, so that the client can tell
    which of its frames was refused: its ``table`` (text of at most 32 characters) and its
    ``id`` (a whole number, or text of at most 64 characters); otherwise None, left out."""

    table: str | None = None
    id: str | int | None = None

    def fields(self) -> dict[str, Any]:
        return {"table": self.table, "id": self.id}


NO_ECHO = Echo()
"""For a frame nothing of which is repeated: not JSON, not an object, or a lone
surrogate, which could be the very text that would be echoed."""


def echo_of(data: dict[str, Any]) -> Echo:
    table, cid = data.get("table"), data.get("id")
    return Echo(
        table if isinstance(table, str) and len(table) <= ECHO_TABLE else None,
        cid
        if (isinstance(cid, int) and not isinstance(cid, bool))
        or (isinstance(cid, str) and len(cid) <= ECHO_ID)
        else None,
    )


class FrameError(ProtocolError):
    """A frame refused as it is read: its error frame carries the frame's :class:`Echo`."""

    def __init__(self, code: str, message: str | None = None, echo: Echo = NO_ECHO) -> None:
        super().__init__(code, message)
        self.echo = echo

    def frame(self, **extra: Any) -> dict[str, Any]:
        return super().frame(**{**self.echo.fields(), **extra})


# -- lenient readings (the handlers' own, kept as they were) --------------------------


def _text_or_none(value: Any) -> Any:
    """A ``table`` or ``invite`` that is not text is as if it were absent."""
    return value if isinstance(value, str) else None


def _seq_or_resync(value: Any) -> Any:
    """A ``last_seq`` that is not a whole number asks for a full resync, not a refusal."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    return -1


def _id_as_text(value: Any) -> Any:
    """An action id may be sent as a whole number: it is the same id as its digits."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


Text = Annotated[StrictStr | None, BeforeValidator(_text_or_none)]
"""A ``table`` or ``invite``: text, or None when absent or not text."""


def _page_field(default: int) -> BeforeValidator:
    return BeforeValidator(lambda value: as_number(value, default))


# -- the messages ---------------------------------------------------------------------

# Unknown keys are ignored (newer clients may send more), as in HTTP bodies. The types
# are strict as there (``true`` is no number, ``"3"`` no seq), but field by field
# (StrictStr, StrictInt): a Pydantic dataclass strict as a whole takes only an instance
# of itself, not a dict.
_CONFIG = ConfigDict(extra="ignore")


@pydantic_dataclass(frozen=True, slots=True, kw_only=True, config=_CONFIG)
class Frame:
    """A client's frame, checked: a frozen dataclass, its fields checked by Pydantic."""

    TYPE: ClassVar[str]
    """The frame's ``"type"``."""
    REFUSALS: ClassVar[dict[str, tuple[str, str]]] = {}
    """A refused field's error code and English message (the catalog's Russian one goes
    with it), as the handlers gave them before there were models."""

    echo: Echo = field(default=NO_ECHO, init=False, repr=False, compare=False)
    """What an error about this frame repeats of it: set by :func:`parse_frame`, never
    read from the frame (not an argument, so not a field Pydantic fills), and no part of
    the message's value (left out of equality)."""


@pydantic_dataclass(frozen=True, slots=True, kw_only=True, config=_CONFIG)
class HelloFrame(Frame):
    """``hello``: watch a table (as its player if you hold a seat there)."""

    TYPE: ClassVar[str] = "hello"
    table: Text = None
    last_seq: Annotated[StrictInt | None, BeforeValidator(_seq_or_resync)] = None
    """The last ``seq`` the client saw (None: it saw none; -1: it sent nonsense)."""
    invite: Text = None


@pydantic_dataclass(frozen=True, slots=True, kw_only=True, config=_CONFIG)
class ActionFrame(Frame):
    """``action``: an intent for the client's own seat at ``table``."""

    TYPE: ClassVar[str] = "action"
    REFUSALS: ClassVar[dict[str, tuple[str, str]]] = {
        "id": ("bad_frame", 'An action needs an "id": a string of 1-64 characters.'),
        "action": ("bad_frame", 'An action needs "action": the move as text.'),
        "seq": ("bad_frame", "An action's \"seq\" is the table's seq you saw: a whole number."),
    }
    table: Text = None
    # Checked in this order (Pydantic reports the fields in the order they are
    # declared): the first bad one names the refusal, as it always has.
    id: Annotated[StrictStr, BeforeValidator(_id_as_text), Field(min_length=1, max_length=64)]
    """The client's action id, unique per table and seat (a number sent is its digits)."""
    action: Annotated[StrictStr, Field(min_length=1, max_length=32)]
    """The move as the engine's text (``"QS"``, ``"pass"``); the engine checks it."""
    seq: StrictInt | None = None
    """The table's ``seq`` the move was chosen at: stale once the table moved on."""


@pydantic_dataclass(frozen=True, slots=True, kw_only=True, config=_CONFIG)
class BackFrame(Frame):
    """``back``: "I am here", a bot stops playing the client's seat."""

    TYPE: ClassVar[str] = "back"
    table: Text = None


@pydantic_dataclass(frozen=True, slots=True, kw_only=True, config=_CONFIG)
class UnwatchFrame(Frame):
    """``unwatch``: stop watching ``table``."""

    TYPE: ClassVar[str] = "unwatch"
    table: Text = None


@pydantic_dataclass(frozen=True, slots=True, kw_only=True, config=_CONFIG)
class LobbyFrame(Frame):
    """``lobby``: a page of the open tables now, then their changes. ``offset`` and
    ``limit`` are read as ``GET /api/tables`` reads them (``paging.py``), digits in text
    included."""

    TYPE: ClassVar[str] = "lobby"
    REFUSALS: ClassVar[dict[str, tuple[str, str]]] = {
        "offset": ("bad_request", page_error("offset", 0, MAX_OFFSET).message),
        "limit": ("bad_request", page_error("limit", 1, MAX_PAGE).message),
    }
    offset: Annotated[StrictInt, _page_field(0), Field(ge=0, le=MAX_OFFSET)] = 0
    limit: Annotated[StrictInt, _page_field(PAGE), Field(ge=1, le=MAX_PAGE)] = PAGE


@pydantic_dataclass(frozen=True, slots=True, kw_only=True, config=_CONFIG)
class PingFrame(Frame):
    """``ping``: answered by a ``pong`` with the same ``t``, whatever JSON it is."""

    TYPE: ClassVar[str] = "ping"
    t: Any = None


Phrase = Literal["good_luck", "well_played", "thanks", "sorry", "one_more"]
TALK_PHRASES: tuple[str, ...] = get_args(Phrase)
"""The quick phrases of table talk, sent as codes and worded by the reader's page."""
TALK_RAW = 1000
"""The longest ``text`` a ``say`` may carry before it is cleaned (``server/talk``), whose
own limit (200) is on the cleaned text: this bound only keeps the cleaning's work small.
Refused as ``talk_too_long`` by the talk room, so that a text not a string is a
``bad_frame`` and a long one ``talk_too_long`` (a field has one refusal code here)."""


@pydantic_dataclass(frozen=True, slots=True, kw_only=True, config=_CONFIG)
class SayFrame(Frame):
    """``say``: a line of table talk, free ``text`` or a quick ``phrase`` (one of them;
    the talk room checks the text and who may say it where)."""

    TYPE: ClassVar[str] = "say"
    REFUSALS: ClassVar[dict[str, tuple[str, str]]] = {
        "channel": ("talk_channel", 'A say\'s "channel" is "players" or "spectators".'),
        "phrase": ("talk_phrase", "Unknown quick phrase."),
    }
    table: Text = None
    channel: Literal["players", "spectators"] | None = None
    text: StrictStr | None = None
    """Bounded by the frame's size; the talk room refuses more than ``TALK_RAW``
    characters before cleaning them, and more than 200 after."""
    phrase: Phrase | None = None


@dataclass(frozen=True, slots=True)
class BadActionFrame:
    """An ``action`` whose fields are bad. Its refusal waits for its table to be looked
    for: the server has always answered ``no_table`` first to an action for a table it
    does not have, whatever else is wrong with it, and the table is the connection's
    business, not the parser's."""

    table: str | None
    error: FrameError

    @property
    def echo(self) -> Echo:
        return self.error.echo


FrameModel = HelloFrame | ActionFrame | BackFrame | UnwatchFrame | LobbyFrame | PingFrame | SayFrame
ClientFrame = FrameModel | BadActionFrame
"""What :func:`parse_frame` gives: one message per frame type of the protocol."""

_MODELS: tuple[type[FrameModel], ...] = (
    HelloFrame,
    ActionFrame,
    BackFrame,
    UnwatchFrame,
    LobbyFrame,
    PingFrame,
    SayFrame,
)
FRAME_TYPES: dict[str, type[FrameModel]] = {kind.TYPE: kind for kind in _MODELS}
"""The frame types a client may send (``protocol.CLIENT_TYPES``), to their models."""


def _validator(kind: type[F]) -> Callable[[dict[str, Any]], F]:
    return TypeAdapter(kind).validate_python


_VALIDATE: dict[type[FrameModel], Callable[[dict[str, Any]], FrameModel]] = {
    kind: _validator(kind) for kind in _MODELS
}
"""Each model's Pydantic validator, built once."""


def _size(raw: str | bytes, limit: int) -> int:
    if isinstance(raw, bytes):
        return len(raw)
    # No text of limit // 4 characters or fewer can be over the limit in UTF-8.
    return len(raw) if len(raw) <= limit // 4 else len(raw.encode("utf-8"))


def parse_frame(raw: str | bytes | dict[str, Any], max_bytes: int | None = None) -> ClientFrame:
    """The message a client's frame holds, or a :class:`FrameError` with the code a client
    has always been given: ``too_large`` (over ``max_bytes`` in UTF-8), ``bad_json``,
    ``bad_frame`` (not an object with a text ``type``, a lone surrogate, a bad field),
    ``bad_version``, ``unknown_type``, ``bad_request`` (a lobby page's bounds).

    ``raw`` is the frame's text, or its fields already read from JSON (a frame another
    server process forwarded, ``cluster.py``): both are read by the same models.
    """
    if isinstance(raw, dict):
        data: Any = raw
    else:
        if max_bytes is not None and _size(raw, max_bytes) > max_bytes:
            raise FrameError("too_large")
        try:
            data = parse_json(raw)
        except BadText as e:
            # nothing of such a frame is echoed: its id or table may be the bad text
            problem = f"Not Unicode text (a lone surrogate): {e.where or 'a key'}."
            raise FrameError("bad_frame", problem) from e
        except BadJson as e:
            raise FrameError("bad_json") from e
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise FrameError("bad_frame", 'A frame is an object with a "type".')
    echo = echo_of(data)
    # Compared as Python compares: 1.0 and true equal 1 and have always been let through.
    if data.get("v", VERSION) != VERSION:
        raise FrameError("bad_version", echo=echo)
    kind = FRAME_TYPES.get(data["type"])
    if kind is None:
        raise FrameError("unknown_type", echo=echo)
    try:
        frame = _VALIDATE[kind](data)
    except ValidationError as e:
        error = _refusal(kind, e, echo)
        if kind is ActionFrame:
            return BadActionFrame(_text_or_none(data.get("table")), error)
        raise error from None
    object.__setattr__(frame, "echo", echo)  # frozen: set once, here
    return frame


def _refusal(kind: type[FrameModel], e: ValidationError, echo: Echo) -> FrameError:
    """The refusal of the first bad field (in the order the model declares them)."""
    first = e.errors(include_url=False, include_input=False)[0]
    name = str(first["loc"][0]) if first["loc"] else ""
    code, message = kind.REFUSALS.get(name, ("bad_frame", f"{name}: {first['msg']}"))
    return FrameError(code, message, echo)
