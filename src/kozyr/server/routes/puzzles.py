"""Puzzles from real deals (#29, docs/puzzles.md): the daily puzzle, the next one near the
person's puzzle rating, one by id, an answer judged, and the person's history.

Every puzzle is served as its solver seat's observation only
(:class:`kozyr.server.reviews.puzzle_book.PuzzleBook`). Answers are a signed-in person's
(a guest's too) to a puzzle served to him, and rate-limited per person and per address
(429 ``too_many_answers``, counted in Redis in cluster mode)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import Field, StrictStr
from pydantic import ValidationError as PydanticValidationError

from kozyr.server.accounts import auth
from kozyr.server.reviews.puzzle_book import HISTORY_PAGE, MAX_ID, PuzzleBook
from kozyr.server.routes.common import Throttled, client_address, need_user, server_of
from kozyr.server.transport.bodies import Body, field_error, parse_body, read_body
from kozyr.server.transport.paging import MAX_OFFSET, whole
from kozyr.server.transport.protocol import ProtocolError

router = APIRouter()


class AnswerRequest(Body):
    """``POST /api/puzzles/{id}/answer``."""

    card: Annotated[StrictStr, Field(min_length=2, max_length=3)]
    """A card as the engine writes it (``10H``, ``QS``): one of the puzzle's legal cards."""


async def answer_body(request: Request) -> AnswerRequest:
    settings = server_of(request).settings
    raw = await read_body(request, settings.max_body, settings.body_timeout)
    try:
        return AnswerRequest.model_validate(parse_body(raw))
    except PydanticValidationError as e:
        errors = e.errors(include_url=False, include_input=False)
        raise field_error(errors, {"card": "bad_puzzle_card"}) from e


def puzzle_id(text: str) -> int:
    """A puzzle's id from the path: a whole number 1 to 2**31 - 1, else 404 ``no_puzzle``."""
    if not (text.isascii() and text.isdigit() and len(text) <= 10) or not 1 <= int(text) <= MAX_ID:
        raise ProtocolError("no_puzzle", status=404)
    return int(text)


def book(request: Request) -> PuzzleBook:
    return PuzzleBook(server_of(request).store)


@router.get("/api/puzzles/daily")
async def daily(request: Request) -> Any:
    user = await auth.user_of(server_of(request).store, request)
    return await book(request).daily(user)


@router.get("/api/puzzles/next")
async def next_puzzle(request: Request, game: str | None = None) -> Any:
    user = await auth.user_of(server_of(request).store, request)
    return await book(request).next(user, game or None)


@router.get("/api/puzzles/history")
async def history(request: Request, offset: str | None = None, limit: str | None = None) -> Any:
    user = await need_user(request)
    start = whole(offset, "offset", 0, 0, MAX_OFFSET)
    size = whole(limit, "limit", 20, 1, HISTORY_PAGE)
    return await book(request).history(user, start, size)


@router.get("/api/puzzles/{pid}")
async def one(pid: str, request: Request) -> Any:
    user = await auth.user_of(server_of(request).store, request)
    return await book(request).one(puzzle_id(pid), user)


@router.post("/api/puzzles/{pid}/answer")
async def answer(
    pid: str, request: Request, body: Annotated[AnswerRequest, Depends(answer_body)]
) -> Any:
    user = await need_user(request)
    wait = await server_of(request).throttles.attempt_answer(
        f"user:{user.id}", client_address(request)
    )
    if wait is not None:
        raise Throttled("too_many_answers", wait)
    return await book(request).answer(puzzle_id(pid), user, body.card)
