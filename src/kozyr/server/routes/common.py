"""What the routes have in common: the shared server, the signed-in user, errors."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from fastapi import Request
from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection

from kozyr.server.accounts import auth
from kozyr.server.accounts.throttle import AccountHold, Kind, invite_keys, retry_header
from kozyr.server.services import Server
from kozyr.server.storage.store import User
from kozyr.server.transport.addresses import address_key
from kozyr.server.transport.protocol import ProtocolError

T = TypeVar("T")


def server_of(conn: HTTPConnection) -> Server:
    server: Server = conn.app.state.server
    return server


class Throttled(ProtocolError):
    """429 with a ``Retry-After``."""

    def __init__(self, code: str, wait: float) -> None:
        super().__init__(code, status=429)
        self.retry_after = wait


def error_response(e: ProtocolError) -> JSONResponse:
    response = JSONResponse(e.to_json(), status_code=e.status)
    if isinstance(e, Throttled):
        response.headers["retry-after"] = retry_header(e.retry_after)
    return response


def client_address(request: Request) -> str:
    """The address the throttles count by: the peer's, or the one a trusted proxy names
    (uvicorn rewrites it only for ``KOZYR_FORWARDED_ALLOW_IPS``), as ``address_key``
    counts it (an IPv6 address by its /64)."""
    return peer_address(request) or "unknown"


def peer_address(request: Request) -> str | None:
    """:func:`client_address`, or None when the request has no peer."""
    return address_key(request.client.host) if request.client is not None else None


async def need_user(request: Request) -> User:
    user = await auth.user_of(server_of(request).store, request)
    if user is None:
        raise ProtocolError("unauthorized", "Sign in or play as a guest first.", 401)
    return user


async def account_hold(server: Server, request: Request, kind: Kind = "account") -> AccountHold:
    """A place among the accounts (or the guests: ``kind``) ``request``'s address may make,
    taken before the account is made (two requests at once cannot both take the last one),
    or 429: ``too_many_accounts``, ``too_many_guests``."""
    wait, hold = await server.throttles.reserve_account(client_address(request), kind)
    if hold is None:
        code = "too_many_guests" if kind == "guest" else "too_many_accounts"
        raise Throttled(code, wait or 0.0)
    return hold


async def made(server: Server, hold: AccountHold, make: Awaitable[T]) -> T:
    """The account, or the place given back when it could not be made (a name taken)."""
    try:
        return await make
    except BaseException:
        await server.throttles.release_account(hold)
        raise


async def invite_guarded(
    request: Request, user: User | None, invite: object, call: Callable[[], Awaitable[T]]
) -> T:
    """``call``, which reads a table with ``invite``: refused with 429
    ``too_many_invite_guesses`` while the address or the person has guessed wrong too
    often (``throttle.INVITE_GUESSES``), and counted against both when it answers 404
    ``no_table`` to a request that gave an invite (a wrong code, or no such table)."""
    if invite is None:
        return await call()
    throttles = server_of(request).throttles
    keys = invite_keys(client_address(request), None if user is None else user.id)
    wait = throttles.invite_wait(keys)
    if wait is not None:
        raise Throttled("too_many_invite_guesses", wait)
    try:
        return await call()
    except ProtocolError as e:
        if e.code == "no_table":
            throttles.invite_missed(keys)
        raise
