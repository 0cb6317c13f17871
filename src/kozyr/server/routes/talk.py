"""Table talk over HTTP: a person's report of a line (#44); the lines themselves travel on
the socket (``say``/``said``) and with a finished game's replay."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import Field, StrictStr

from kozyr.server.routes.common import need_user, server_of
from kozyr.server.talk import kept
from kozyr.server.talk.words import clean
from kozyr.server.transport.bodies import Body, json_body
from kozyr.server.transport.protocol import ProtocolError

router = APIRouter()

MAX_LINE_ID = 2**31 - 1
"""A line's id is a 32-bit integer column: anything larger names no line."""


class Report(Body):
    """``POST /api/talk/{id}/report``."""

    reason: Annotated[StrictStr, Field(max_length=200)] | None = None


ReportBody = Annotated[Report, Depends(json_body(Report))]


@router.post("/api/talk/{message_id}/report", status_code=201)
async def report(message_id: str, request: Request, body: ReportBody) -> dict[str, Any]:
    user = await need_user(request)
    if not message_id.isascii() or not message_id.isdigit() or int(message_id) > MAX_LINE_ID:
        raise ProtocolError("no_message", status=404)
    reason = clean(body.reason) if body.reason else None
    found = await kept.report(server_of(request).store, int(message_id), user.id, reason or None)
    return {"report": found}
