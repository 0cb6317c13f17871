"""Account changes of the signed-in user: rename, password, delete, guest upgrade
(``kozyr.server.account_changes``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from kozyr.server import account_changes
from kozyr.server.accounts import auth
from kozyr.server.routes.common import account_hold, made, need_user, server_of
from kozyr.server.storage.store import token_hash
from kozyr.server.transport.bodies import Body, Name, Password, json_body
from kozyr.server.transport.protocol import ProtocolError

router = APIRouter()


class NewName(Body):
    name: Name


class NewPassword(Body):
    old: Password
    new: Password


class Confirm(Body):
    password: Password


class Upgrade(Body):
    name: Name
    password: Password


@router.post("/api/me/name")
async def rename(
    request: Request, body: Annotated[NewName, Depends(json_body(NewName))]
) -> dict[str, Any]:
    user = await need_user(request)
    renamed = await account_changes.rename(server_of(request), user, body.name)
    return {"user": renamed.to_json()}


@router.post("/api/me/password")
async def change_password(
    request: Request, body: Annotated[NewPassword, Depends(json_body(NewPassword))]
) -> dict[str, Any]:
    user = await need_user(request)
    token = auth.token_of(request) or ""
    await account_changes.change_password(
        server_of(request), user, token_hash(token), body.old, body.new
    )
    return {"ok": True}


@router.post("/api/me/delete")
async def delete_account(
    request: Request, body: Annotated[Confirm, Depends(json_body(Confirm))]
) -> JSONResponse:
    server = server_of(request)
    user = await need_user(request)
    await account_changes.delete_account(server, user, body.password)
    response = JSONResponse({"ok": True})
    auth.clear_cookie(response, server.settings)
    return response


@router.post("/api/me/upgrade")
async def upgrade(
    request: Request, body: Annotated[Upgrade, Depends(json_body(Upgrade))]
) -> dict[str, Any]:
    server = server_of(request)
    user = await need_user(request)
    if not user.guest:
        raise ProtocolError("not_guest", status=409)
    # A guest turned into an account is a new name with a password: it takes a place
    # among the address's accounts, as a registration does (guests have their own,
    # larger allowance, which must not become a way round this one).
    hold = await account_hold(server, request)
    upgraded = await made(
        server, hold, account_changes.upgrade(server, user, body.name, body.password)
    )
    return {"user": upgraded.to_json()}
