"""The lessons over HTTP (#29, ``docs/lessons.md``): the list of a game's lessons with the
ones a registered player has finished, and one stateless step of a lesson
(:mod:`kozyr.server.play.lessons`). Anyone may learn, signed in or not; only a registered
account's finished lessons are kept (:mod:`kozyr.server.accounts.lessons`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import Field, StrictInt, StrictStr

from kozyr.server.accounts import auth
from kozyr.server.accounts.lessons import done_lessons, keeps_progress, record_done
from kozyr.server.play.lessons import MAX_MOVES, lesson_of, listing, play
from kozyr.server.routes.common import server_of
from kozyr.server.transport.bodies import Body, json_body

router = APIRouter()

Move = Annotated[StrictStr, Field(min_length=1, max_length=16)]


class LessonStep(Body):
    """``POST /api/lessons/{game}/{id}/play``."""

    moves: Annotated[list[Move], Field(max_length=MAX_MOVES, default_factory=list)]
    """The learner's moves the lesson accepted so far, in order."""
    move: Move | None = None
    """A move to try now: a card (``QS``) or a decision (``swap 2``, ``trump H``)."""
    answer: Annotated[StrictInt, Field(ge=0, le=15)] | None = None
    """The index of a choice of the check's question."""


LessonStepBody = Annotated[LessonStep, Depends(json_body(LessonStep))]


@router.get("/api/lessons/{game}")
async def lessons(game: str, request: Request) -> dict[str, Any]:
    found = listing(game)
    server = server_of(request)
    user = await auth.user_of(server.store, request)
    done = await done_lessons(server.store, user, game) if user and keeps_progress(user) else None
    return {"game": game, "lessons": found, "done": done}


@router.post("/api/lessons/{game}/{lesson_id}/play")
async def play_lesson(game: str, lesson_id: str, request: Request, body: LessonStepBody) -> Any:
    lesson = lesson_of(game, lesson_id)
    out = play(lesson, body.moves, body.move, body.answer)
    server = server_of(request)
    user = await auth.user_of(server.store, request)
    stored = False
    if out["done"] and out["accepted"] and user is not None and keeps_progress(user):
        await record_done(server.store, user, game, lesson.id)
        stored = True
    return {**out, "stored": stored}
