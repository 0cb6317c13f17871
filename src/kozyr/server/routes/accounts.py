"""Accounts: register, sign in (or play as a guest), sign out, who am I."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from kozyr.server.accounts import auth, names
from kozyr.server.money import wallets
from kozyr.server.routes.common import (
    Throttled,
    account_hold,
    client_address,
    made,
    need_user,
    server_of,
)
from kozyr.server.services import Server
from kozyr.server.storage.store import User, token_hash
from kozyr.server.transport.bodies import CredentialsBody
from kozyr.server.transport.close_codes import SIGNED_OUT

router = APIRouter()


async def _signed_in(server: Server, user: User, response: JSONResponse) -> JSONResponse:
    token = await server.store.create_session(user.id, server.settings.session_days)
    auth.set_cookie(response, token, server.settings)
    return response


@router.post("/api/register")
async def register(request: Request, body: CredentialsBody) -> JSONResponse:
    server = server_of(request)
    hold = await account_hold(server, request)
    user = await made(
        server, hold, auth.register(server.store, body.name, body.password, server.names_lock)
    )
    return await _signed_in(server, user, JSONResponse({"user": user.to_json()}, status_code=201))


@router.post("/api/login")
async def login(request: Request, body: CredentialsBody) -> JSONResponse:
    server = server_of(request)
    # every attempt counts, right or wrong: a guesser learns nothing from which
    # attempts were refused
    name_key = names.normalise(body.name).casefold()
    wait = await server.throttles.attempt_login(name_key, client_address(request))
    if wait is not None:
        raise Throttled("too_many_attempts", wait)
    user = await auth.login(server.store, body.name, body.password)
    return await _signed_in(server, user, JSONResponse({"user": user.to_json()}))


@router.post("/api/guest")
async def guest(request: Request) -> JSONResponse:
    server = server_of(request)
    # guests have an allowance of their own, larger than the accounts' (a café's room)
    hold = await account_hold(server, request, "guest")
    user = await made(server, hold, auth.guest(server.store))
    return await _signed_in(server, user, JSONResponse({"user": user.to_json()}, status_code=201))


@router.post("/api/logout")
async def logout(request: Request) -> JSONResponse:
    server = server_of(request)
    token = auth.token_of(request)
    if token and len(token) <= 200:
        user = await auth.user_of(server.store, request)
        await server.store.delete_session(token)
        if user is not None:
            # Sockets opened with this session stop acting for the user too.
            await server.close_user(user.id, SIGNED_OUT, token_hash(token))
    response = JSONResponse({"ok": True})
    auth.clear_cookie(response, server.settings)
    return response


@router.get("/api/me")
async def me(request: Request, optional: bool = False) -> dict[str, Any]:
    # The page asks with ?optional=1 when it opens: nobody signed in yet is no error
    # there, and a 401 would be logged in the browser's console.
    if optional:
        found = await auth.user_of(server_of(request).store, request)
        return {"user": found.to_json() if found else None}
    user = await need_user(request)
    balance = await wallets.balance_of(server_of(request).store, user.id)
    return {"user": user.to_json(), "balance": balance}
