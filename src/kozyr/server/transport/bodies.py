"""The JSON bodies of the HTTP routes: read with a size cap and a time limit, parsed with
a nesting limit (``jsonsafe``), then checked by a Pydantic model.

FastAPI could parse bodies into the models itself, but with plain ``json.loads``: deep
nesting would escape as a RecursionError (a 500), and the whole body would be read
whatever its size. So a route takes ``Annotated[Model, Depends(json_body(Model))]``.

A field that fails its check is answered 400 with a code: the one the route always gave
for that field (``bad_seat``, ``bad_bots``, ...; see ``FIELD_CODES``), else
``bad_request``; the English message names the field and the problem, the Russian one
names the field.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr
from pydantic import ValidationError as PydanticValidationError
from starlette.requests import ClientDisconnect

from kozyr.server.transport.jsonsafe import BadJson, BadText, parse_json
from kozyr.server.transport.protocol import ProtocolError
from kozyr.texts import both

M = TypeVar("M", bound=BaseModel)

FIELD_CODES = {
    "name": "bad_name",
    "password": "bad_password",
    "game": "bad_game",
    "players": "bad_options",
    "options": "bad_options",
    "seat": "bad_seat",
    "level": "bad_bots",
    "bots": "bad_bots",
    "turn_timeout": "bad_timeout",
    "stake": "bad_stake",
}
"""Fields whose refusal keeps the code the routes gave before they had models."""


class FieldError(ProtocolError):
    """A refused field: the code of ``FIELD_CODES`` and messages naming the field."""

    def __init__(self, where: str, problem: str, code: str = "bad_request") -> None:
        english, russian = both("protocol.field", where=where, problem=problem)
        super().__init__(code, english, 400, message_ru=russian)


def field_error(errors: Sequence[Any], codes: dict[str, str] | None = None) -> FieldError:
    """The first of Pydantic's (or FastAPI's) errors as a :class:`FieldError`."""
    first = errors[0] if errors else {"loc": (), "msg": "invalid"}
    loc = [str(part) for part in first.get("loc", ()) if part not in ("body",)]
    where = ".".join(loc) or "body"
    top = loc[1] if len(loc) > 1 and loc[0] in ("query", "path", "header", "cookie") else None
    top = top or (loc[0] if loc else "")
    code = (codes if codes is not None else FIELD_CODES).get(top, "bad_request")
    return FieldError(where, str(first.get("msg", "invalid")), code)


class Body(BaseModel):
    # unknown fields are ignored (newer clients may send more), but nothing is coerced:
    # "3" is not a seat and 1.0 is not a level
    model_config = ConfigDict(extra="ignore", strict=True)


Name = Annotated[StrictStr, Field(max_length=200)]
Password = Annotated[StrictStr, Field(max_length=1000)]
Seat = Annotated[StrictInt, Field(ge=0, le=3)]
Level = Annotated[StrictInt, Field(ge=1, le=5)]
Players = Annotated[StrictInt, Field(ge=1, le=4)]
Game = Annotated[StrictStr, Field(max_length=20)]
Invite = Annotated[StrictStr, Field(max_length=64)]
Seconds = Annotated[float, Field(allow_inf_nan=False)] | StrictInt


class Credentials(Body):
    """``/api/register`` and ``/api/login``."""

    name: Name
    password: Password


class NewTable(Body):
    """``POST /api/tables``."""

    game: Game = ""
    players: Players | None = None
    options: dict[str, Any] | None = None
    bots: dict[str, Any] | list[Any] | None = None
    private: StrictBool = False
    sit: StrictBool = True
    seat: Seat = 0
    turn_timeout: Seconds | None = None
    """Absent: the server's default; null or 0: no clock."""
    rated: StrictBool = False
    stake: Any = None
    """Stake terms, checked by ``StakeTerms.from_json`` (its own error codes)."""
    hints: StrictBool = False
    """Casual tables only: the players may ask for hints (``/api/tables/{id}/hint``)."""


class Join(Body):
    """``POST /api/tables/{id}/join``."""

    seat: Seat | None = None
    invite: Invite | None = None


class NewBot(Body):
    """``POST /api/tables/{id}/bots``."""

    seat: Seat
    level: Level = 3


class QuickPlay(Body):
    """``POST /api/quickplay``."""

    game: Game = ""
    players: Players | None = None
    level: Level = 3
    rated: StrictBool | None = None
    """Absent: a table of people is rated, a table against the computer is not."""
    stake: Any = None
    """Only tables with these stake terms (null: without stakes)."""


class TopUp(Body):
    """``POST /api/wallet/top-up``."""

    key: Annotated[StrictStr, Field(min_length=1, max_length=100)]
    """The client's idempotency key: a retry with it moves nothing twice."""


async def read_body(request: Request, limit: int, timeout: float) -> bytes:
    """The raw body, refused past ``limit`` bytes (413) or ``timeout`` seconds (408)
    without reading further."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise ProtocolError("too_large", f"The body is larger than {limit // 1024} KB.", 413)
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(timeout):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise ProtocolError(
                        "too_large", f"The body is larger than {limit // 1024} KB.", 413
                    )
                chunks.append(chunk)
    except TimeoutError as e:
        raise ProtocolError("slow_request", status=408) from e
    except ClientDisconnect as e:
        # the client hung up mid-body: nobody reads the answer, but it must not be logged
        # as the server's own failure
        raise ProtocolError("bad_request", "The client closed the connection.") from e
    return b"".join(chunks)


def parse_body(raw: bytes) -> dict[str, Any]:
    """An empty body is ``{}``; anything else must be a JSON object."""
    if not raw.strip():
        return {}
    try:
        data = parse_json(raw)
    except BadText as e:
        top = str(e.path[0]) if e.path else ""
        code = FIELD_CODES.get(top, "bad_request")
        raise FieldError(e.where or "body", "not Unicode text (a lone surrogate)", code) from e
    except BadJson as e:
        raise ProtocolError("bad_json", f"The body is not valid JSON: {e}.") from e
    if not isinstance(data, dict):
        raise ProtocolError("bad_frame", "The body must be a JSON object.")
    return data


def validate(model: type[M], data: dict[str, Any]) -> M:
    try:
        return model.model_validate(data)
    except PydanticValidationError as e:
        raise field_error(e.errors(include_url=False, include_input=False)) from e


def json_body(model: type[M]) -> Callable[[Request], Awaitable[M]]:
    """A FastAPI dependency giving the request's body as a checked ``model``; the size
    and time limits are the app's settings (``app.state.server.settings``)."""

    async def dependency(request: Request) -> M:
        settings = request.app.state.server.settings
        raw = await read_body(request, settings.max_body, settings.body_timeout)
        return validate(model, parse_body(raw))

    return dependency


CredentialsBody = Annotated[Credentials, Depends(json_body(Credentials))]
NewTableBody = Annotated[NewTable, Depends(json_body(NewTable))]
JoinBody = Annotated[Join, Depends(json_body(Join))]
NewBotBody = Annotated[NewBot, Depends(json_body(NewBot))]
QuickPlayBody = Annotated[QuickPlay, Depends(json_body(QuickPlay))]
TopUpBody = Annotated[TopUp, Depends(json_body(TopUp))]
