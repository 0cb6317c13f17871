"""Accounts and sessions: argon2 password hashes, guest names, the session cookie.

The session token travels only in an HttpOnly, SameSite cookie (or an
``Authorization: Bearer`` header for programs); it is never logged, and the database
keeps only its SHA-256.

argon2 is meant to be slow (tens of milliseconds of CPU and 64 MB): every hash and
verification runs in a worker thread, never on the event loop, where it would stall every
table. Names are checked as ``kozyr.server.accounts.names`` says (NFKC, one script, no look-alike
of a taken name).
"""

from __future__ import annotations

import asyncio
import re
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.requests import HTTPConnection
from starlette.responses import Response

from kozyr.server.accounts import names
from kozyr.server.runtime.config import Settings
from kozyr.server.storage.store import NameTaken, Store, User
from kozyr.server.transport.protocol import ProtocolError
from kozyr.texts import both

COOKIE = "kozyr_session"
NAME_RE = re.compile(r"[\w][\w .\-]{1,29}")

_hasher = PasswordHasher()

_RESERVED = frozenset(names.skeleton(n) for n in names.DELETED_NAMES)
"""What a deleted account shows as (``kozyr.server.account_changes``): nobody's name."""


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def _refused(code: str, key: str, status: int = 400) -> ProtocolError:
    """``code`` worded by the catalogue's ``key`` (what exactly is wrong)."""
    english, russian = both(key)
    return ProtocolError(code, english, status, message_ru=russian)


def check_name(name: object) -> str:
    """The name as it will be stored (NFKC, trimmed), or ``bad_name`` (``reserved_name``:
    one that reads as a bot, a guest or the system, ``names.reserved_word``)."""
    if not isinstance(name, str) or len(name) > 200:
        raise ProtocolError(
            "bad_name", "A name is 2-30 letters, digits, spaces, dots, dashes or underscores."
        )
    clean = names.normalise(name)
    if not NAME_RE.fullmatch(clean):
        raise ProtocolError(
            "bad_name", "A name is 2-30 letters, digits, spaces, dots, dashes or underscores."
        )
    if clean.casefold().startswith("guest-"):
        raise _refused("bad_name", "accounts.name.guest_prefix")
    if names.skeleton(clean) in _RESERVED:
        raise _refused("bad_name", "accounts.name.deleted")
    if names.reserved_word(clean) is not None:
        # bots, guests and the system: the server names those itself (guests and bots
        # never pass here), so a person's name may not read as one of them
        raise ProtocolError("reserved_name")
    if names.mixes_scripts(clean):
        raise _refused("bad_name", "accounts.name.mixed_scripts")
    return clean


def check_password(password: object) -> str:
    if not isinstance(password, str) or not 8 <= len(password) <= 200:
        raise ProtocolError("bad_password", "A password is 8-200 characters.")
    return password


async def hash_in_thread(password: str) -> str:
    return await asyncio.to_thread(hash_password, password)


async def verify_in_thread(password_hash: str, password: str) -> bool:
    return await asyncio.to_thread(verify_password, password_hash, password)


async def register(store: Store, name: object, password: object, lock: asyncio.Lock) -> User:
    """A new account; ``lock`` makes the look-alike check and the insert one step within
    this process (two processes could still race each other to look-alike names)."""
    clean = check_name(name)
    secret = check_password(password)
    skel = names.skeleton(clean)
    password_hash = await hash_in_thread(secret)
    async with lock:
        existing = await store.user_by_name(clean)
        if existing is None and await names.skeleton_taken(store, skel):
            raise ProtocolError(
                "name_confusable", "That name looks like a name that is taken.", 409
            )
        try:
            user = await store.create_user(clean, password_hash, guest=False)
        except NameTaken as e:
            raise ProtocolError("name_taken", "That name is taken.", 409) from e
        await names.set_skeleton(store, user.id, skel)
    return user


async def login(store: Store, name: object, password: object) -> User:
    if not isinstance(name, str) or not isinstance(password, str):
        raise ProtocolError("bad_login", "Wrong name or password.", 401)
    user = await store.user_by_name(names.normalise(name))
    if user is None and names.normalise(name) != name.strip():
        user = await store.user_by_name(name.strip())  # a name stored before NFKC
    if user is None or user.password_hash is None:
        # the same work whether the name exists or not, so timing does not tell
        await verify_in_thread(await asyncio.to_thread(_dummy_hash), password)
        raise ProtocolError("bad_login", "Wrong name or password.", 401)
    if not await verify_in_thread(user.password_hash, password):
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
            user = await store.create_user(f"guest-{secrets.token_hex(3)}", None, guest=True)
        except NameTaken:
            continue
        await names.set_skeleton(store, user.id, names.skeleton(user.name))
        return user
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
