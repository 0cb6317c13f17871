"""A finished game's post-game review (started in the background, polled) and hints at
casual tables (docs/review.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import Field, StrictInt
from pydantic import ValidationError as PydanticValidationError

from kozyr.server.accounts import auth
from kozyr.server.reviews.jobs import DEFAULT_LEVEL
from kozyr.server.routes.common import Throttled, invite_guarded, need_user, server_of
from kozyr.server.tables.lobby import may_see
from kozyr.server.transport.bodies import Body, field_error, parse_body, read_body
from kozyr.server.transport.protocol import ProtocolError

router = APIRouter()


class ReviewRequest(Body):
    """``POST /api/games/{id}/review``."""

    level: Annotated[StrictInt, Field(ge=1, le=5)] = DEFAULT_LEVEL
    """How hard the review looks: 1 quick to 5 thorough (``LEVEL_WORLDS``)."""


async def review_body(request: Request) -> ReviewRequest:
    # not bodies.json_body: there a bad "level" is a bot's level (bad_bots)
    settings = request.app.state.server.settings
    raw = await read_body(request, settings.max_body, settings.body_timeout)
    try:
        return ReviewRequest.model_validate(parse_body(raw))
    except PydanticValidationError as e:
        errors = e.errors(include_url=False, include_input=False)
        raise field_error(errors, {"level": "bad_level"}) from e


@router.post("/api/games/{table_id}/review")
async def start_review(
    table_id: str,
    request: Request,
    body: Annotated[ReviewRequest, Depends(review_body)],
    invite: str | None = None,
) -> JSONResponse:
    user = await need_user(request)
    reviews = server_of(request).reviews
    code, status = await invite_guarded(
        request, user, invite, lambda: reviews.request(table_id, user, invite, body.level)
    )
    return JSONResponse(status, status_code=code)


@router.get("/api/games/{table_id}/review")
async def review_status(table_id: str, request: Request, invite: str | None = None) -> Any:
    server = server_of(request)
    user = await auth.user_of(server.store, request)
    return await invite_guarded(
        request, user, invite, lambda: server.reviews.status(table_id, user, invite)
    )


@router.post("/api/tables/{table_id}/hint")
async def hint(table_id: str, request: Request) -> Any:
    user = await need_user(request)
    server = server_of(request)
    table = server.lobby.get(table_id)
    if not may_see(table.row, user, None):
        raise ProtocolError("no_table", status=404)

    async def spend() -> None:
        # a person's hints a minute, over every process in cluster mode
        wait = await server.throttles.spend([("hint-person", str(user.id))])
        if wait is not None:
            raise Throttled("too_many_hints", wait)

    return await server.hints.hint(table, user, spend)
