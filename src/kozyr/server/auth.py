"""Accounts and sessions: argon2 password hashes, guest names, the session cookie.

The session token travels only in an HttpOnly, SameSite cookie (or an
``Authorization: Bearer`` header for programs); it is never logged, and the database
keeps only its SHA-256.
"""

from __future__ import annotations

import re
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.requests import HTTPConnection
from starlette.responses import Response

from kozyr.server.config import Settings
from kozyr.server.protocol import ProtocolError
from kozyr.server.store import NameTaken, Store, User

COOKIE = "kozyr_session"
NAME_RE = re.compile(r"^[\w][\w .\-]{1,29}$")

_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def check_name(name: object) -> str:
    if not isinstance(name, str) or not NAME_RE.match(name.strip()):
        raise ProtocolError(
            "bad_name", "A name is 2-30 letters, digits, spaces, dots, dashes or underscores."
        )
    name = name.strip()
    if name.casefold().startswith("guest-"):
        raise ProtocolError("bad_name", "Names starting with guest- are for guests.")
    return name


def check_password(password: object) -> str:
    if not isinstance(password, str) or not 8 <= len(password) <= 200:
        raise ProtocolError("bad_password", "A password is 8-200 characters.")
    return password


async def register(store: Store, name: object, password: object) -> User:
    clean = check_name(name)
    secret = check_password(password)
    try:
        return await store.create_user(clean, hash_password(secret), guest=False)
    except NameTaken as e:
        raise ProtocolError("name_taken", "That name is taken.", 409) from e


async def login(store: Store, name: object, password: object) -> User:
    if not isinstance(name, str) or not isinstance(password, str):
        raise ProtocolError("bad_login", "Wrong name or password.", 401)
    user = await store.user_by_name(name.strip())
    if user is None or user.password_hash is None:
        verify_password(_dummy_hash(), password)  # same time whether the name exists or not
        raise ProtocolError("bad_login", "Wrong name or password.", 401)
    if not verify_password(user.password_hash, password):
        raise ProtocolError("bad_login", "Wrong name or password.", 401)
    return user


_DUMMY: list[str] = []


def _dummy_hash() -> str:
    if not _DUMMY:
        _DUMMY.append(hash_password(secrets.token_hex(8)))
    return _DUMMY[0]


async def guest(store: Store) -> User:
    for _ in range(20):
        try:
            return await store.create_user(f"guest-{secrets.token_hex(3)}", None, guest=True)
        except NameTaken:
            continue
    raise ProtocolError("busy", "Could not make a guest name; try again.", 503)


def set_cookie(response: Response, token: str, settings: Settings) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=settings.session_days * 86_400,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
        path="/",
    )


def clear_cookie(response: Response, settings: Settings) -> None:
    response.delete_cookie(
        COOKIE, httponly=True, samesite="lax", secure=settings.secure_cookies, path="/"
    )


def token_of(conn: HTTPConnection) -> str | None:
    token = conn.cookies.get(COOKIE)
    if token:
        return token
    header = conn.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return None


async def user_of(store: Store, conn: HTTPConnection) -> User | None:
    token = token_of(conn)
    if not token or len(token) > 200:
        return None
    return await store.user_for_token(token)
