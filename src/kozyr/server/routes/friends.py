"""Friends, blocks and challenges over HTTP (#44; docs/protocol.md, "Friends and
challenges"). One name per request: a list grows one person at a time, up to its bound."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import Field, StrictBool, StrictStr

from kozyr.server.friends import challenges, lists
from kozyr.server.routes.common import need_user, server_of
from kozyr.server.transport.bodies import Body, Game, Level, Players, json_body

router = APIRouter()


class NewChallenge(Body):
    """``POST /api/challenges``."""

    to: Annotated[StrictStr, Field(min_length=1, max_length=40)]
    game: Game = ""
    players: Players | None = None
    options: dict[str, Any] | None = None
    stake: Any = None
    """Stake terms as a table's (null: none)."""
    bots: Annotated[list[Level], Field(max_length=2)] | None = None
    """Levels of the bots in the seats after the two people's; the rest stay open."""
    private: StrictBool = False


NewChallengeBody = Annotated[NewChallenge, Depends(json_body(NewChallenge))]


@router.get("/api/friends")
async def friends(request: Request) -> dict[str, Any]:
    user = await need_user(request)
    return {"friends": await server_of(request).social.friends(user)}


@router.post("/api/friends/{name}")
async def follow(name: str, request: Request) -> dict[str, Any]:
    user = await need_user(request)
    other = await lists.add(server_of(request).store, "follows", user, name)
    return {"name": other.name}


@router.delete("/api/friends/{name}")
async def unfollow(name: str, request: Request) -> dict[str, Any]:
    user = await need_user(request)
    await lists.remove(server_of(request).store, "follows", user, name)
    return {"ok": True}


@router.get("/api/blocks")
async def blocked(request: Request) -> dict[str, Any]:
    user = await need_user(request)
    names = await lists.listed(server_of(request).store, "blocks", user)
    return {"blocks": [{"name": name} for _id, name in names]}


@router.post("/api/blocks/{name}")
async def block(name: str, request: Request) -> dict[str, Any]:
    user = await need_user(request)
    other = await lists.add(server_of(request).store, "blocks", user, name)
    return {"name": other.name}


@router.delete("/api/blocks/{name}")
async def unblock(name: str, request: Request) -> dict[str, Any]:
    user = await need_user(request)
    await lists.remove(server_of(request).store, "blocks", user, name)
    return {"ok": True}


@router.get("/api/challenges")
async def my_challenges(request: Request) -> dict[str, Any]:
    user = await need_user(request)
    lists.need_account(user)
    found = await challenges.open_of(server_of(request).store, user)
    return {
        "incoming": [c.to_json() for c in found if c.to_id == user.id],
        "outgoing": [c.to_json() for c in found if c.from_id == user.id],
    }


@router.post("/api/challenges")
async def new_challenge(request: Request, body: NewChallengeBody) -> JSONResponse:
    user = await need_user(request)
    made = await server_of(request).social.challenge(
        user,
        body.to,
        body.game,
        body.players,
        body.options,
        body.stake,
        body.bots,
        body.private,
    )
    return JSONResponse({"challenge": made.to_json()}, status_code=201)


@router.post("/api/challenges/{challenge_id}/accept")
async def accept(challenge_id: str, request: Request) -> dict[str, Any]:
    user = await need_user(request)
    done = await server_of(request).social.accept(user, challenge_id)
    return {"challenge": done.to_json(), "table": done.table_id}


@router.post("/api/challenges/{challenge_id}/decline")
async def decline(challenge_id: str, request: Request) -> dict[str, Any]:
    user = await need_user(request)
    done = await server_of(request).social.answer(user, challenge_id, "declined")
    return {"challenge": done.to_json()}


@router.post("/api/challenges/{challenge_id}/cancel")
async def cancel(challenge_id: str, request: Request) -> dict[str, Any]:
    user = await need_user(request)
    done = await server_of(request).social.answer(user, challenge_id, "cancelled")
    return {"challenge": done.to_json()}
