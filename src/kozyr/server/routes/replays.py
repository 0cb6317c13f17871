"""Replays (and checks) of records, for the web page and any client.

``GET /api/games/{id}/replay`` replays a finished table's record through the engine and
returns every step with all hands (after the game every card is public, B3).
``POST /api/replay`` does the same for a record the page uploads (a ``kozyr-record/1``
file, e.g. from ``kozyr play``). Games in progress are refused: their hands are secret.
Whether a game is finished is decided from the database's committed row, and a private
table's replay needs a seat, its creator or ``?invite=``, as its record does.

Replaying is CPU work, never on the event loop: stored games in the lobby's replay pool,
uploads in a pool of their own (``Server.uploads``, 503 ``uploads_busy`` when full), so
that neither kind can starve the other. Uploads are counted per person and per client
address (429 ``too_many_uploads``), held to the option ranges of a new table (400
``bad_options``), and bounded: ``MAX_UPLOAD`` bytes in, ``MAX_UPLOAD_ACTIONS`` actions,
``MAX_UPLOAD_DEALS`` deals and ``MAX_REPLAY_BYTES`` bytes out (413).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from kozyr.games import GAMES
from kozyr.records import RecordError, to_record, verify
from kozyr.server.accounts import auth
from kozyr.server.play.replay_frames import TooLarge, bounded_replay, encode, replay_frames
from kozyr.server.routes.common import Throttled, client_address, error_response, invite_guarded
from kozyr.server.runtime.pools import PoolFull
from kozyr.server.storage.store import TableRow
from kozyr.server.tables.lobby import check_options, replay_row
from kozyr.server.talk import kept
from kozyr.server.transport.jsonsafe import BadJson, parse_json
from kozyr.server.transport.protocol import ERRORS, ProtocolError
from kozyr.texts import TEXTS, both

MAX_UPLOAD = 512 * 1024
"""Bytes of an uploaded record (a long real game's record is well under 100 KB)."""
MAX_UPLOAD_ACTIONS = 5000
"""Actions of an uploaded record: random play of the longest game a table may be made
for (Imperial, 3 players, to 20 imperials) took at most 2,052 in 400 games, a 4-player
Emperor of 30 rounds at most 1,827 in 60."""
MAX_UPLOAD_DEALS = 100
"""Deals (Emperor: rounds) an uploaded game may reach: those same games took at most 58
(Imperial) and 30 (Emperor, its most rounds)."""
MAX_REPLAY_BYTES = 6 * 1024 * 1024
"""Bytes of an uploaded record's replay: a step is 1-1.3 KB, so the longest of those
games took 2.2 MB (Imperial) and 2.4 MB (Emperor)."""


class UploadError(Exception):
    def __init__(self, code: str, status: int, detail: str = "") -> None:
        super().__init__(code)
        self.code, self.status, self.detail = code, status, detail


def _error(code: str, status: int, detail: str = "") -> JSONResponse:
    key = f"protocol.replay.{code}"
    en, ru = both(key, detail=detail) if key in TEXTS else ERRORS[code]
    return JSONResponse(
        {"type": "error", "code": code, "message": en, "message_ru": ru},
        status_code=status,
    )


REPLAY_TALK = 2000
"""The most lines of talk a replay carries (the last ones)."""


def _stored_frames(row: TableRow, texts: list[str], talk: list[dict[str, Any]]) -> bytes:
    """A stored game's replay as JSON bytes (in a worker: replaying and encoding are the
    slow parts), with the table's talk, both channels (#44: the game is over)."""
    state = replay_row(row, texts)
    record = to_record(state, players=[s.name or "" for s in row.seats], table=row.id)
    return encode({**replay_frames(record), "talk": talk})


def _stored_verdict(row: TableRow, texts: list[str]) -> bytes:
    """``kozyr.records.verify`` of a stored finished game's record."""
    state = replay_row(row, texts)
    return encode(verify(to_record(state, table=row.id)))


def _uploaded_verdict(raw: bytes) -> bytes:
    return encode(verify(_uploaded_record(raw)))


def _uploaded_record(raw: bytes) -> dict[str, Any]:
    try:
        record = parse_json(raw)
    except BadJson as e:
        raise UploadError("bad_record", 400, str(e)) from e
    if not isinstance(record, dict):
        raise UploadError("bad_record", 400, "a record is a JSON object")
    actions = record.get("actions")
    if isinstance(actions, list) and len(actions) > MAX_UPLOAD_ACTIONS:
        raise UploadError("too_many_actions", 413)
    deals = record.get("deals")
    if isinstance(deals, list) and len(deals) > MAX_UPLOAD_DEALS:
        raise UploadError("too_many_deals", 413)
    game, options = record.get("game"), record.get("options", {})
    if isinstance(game, str) and game in GAMES and isinstance(options, dict):
        # the ranges of a new table, not the wider ones stored games keep (bad_options)
        check_options(game, None, options)
    return record


def _uploaded_frames(raw: bytes) -> bytes:
    record = _uploaded_record(raw)
    try:
        return bounded_replay(record, MAX_UPLOAD_DEALS, MAX_REPLAY_BYTES)
    except RecordError as e:
        raise UploadError("bad_record", 400, str(e)) from e
    except TooLarge as e:
        raise UploadError("too_many_deals" if e.what == "deals" else "replay_too_large", 413) from e


async def _upload(request: Request) -> bytes:
    """The request body, refused (413) past ``MAX_UPLOAD`` bytes without reading it all."""
    length = request.headers.get("content-length", "")
    if length.isascii() and length.isdigit() and int(length) > MAX_UPLOAD:
        raise UploadError("upload_too_large", 413)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_UPLOAD:
            raise UploadError("upload_too_large", 413)
        chunks.append(chunk)
    return b"".join(chunks)


async def _finished_row(request: Request, table_id: str, invite: str | None) -> TableRow:
    server = request.app.state.server
    user = await auth.user_of(server.store, request)
    row: TableRow = await invite_guarded(
        request, user, invite, lambda: server.lobby.stored(table_id, user, invite)
    )
    if row.status != "finished":  # the committed status: nothing hidden before the end
        raise UploadError("not_finished", 409)
    return row


router = APIRouter()


async def _answer_stored(
    request: Request,
    table_id: str,
    invite: str | None,
    work: Callable[[TableRow, list[str]], bytes],
) -> Any:
    """Answers with ``work`` done off the event loop on a finished game the caller may
    see (its committed row and action texts)."""
    server = request.app.state.server
    try:
        row = await _finished_row(request, table_id, invite)
        texts = [a.text for a in await server.store.actions(table_id)]
        body = await server.lobby.offload(work, row, texts)
    except Throttled as e:  # with its Retry-After
        return error_response(e)
    except ProtocolError as e:
        return _error(e.code, e.status)
    except UploadError as e:
        return _error(e.code, e.status, e.detail)
    except RecordError as e:  # a stored game always replays; this is a broken store
        return _error("bad_record", 500, str(e))
    return Response(body, media_type="application/json")


@router.get("/api/games/{table_id}/replay")
async def game_replay(table_id: str, request: Request, invite: str | None = None) -> Any:
    # read before the game is known to be over, but sent only if it is (_answer_stored)
    talk = [
        s.line()
        for s in await kept.lines(request.app.state.server.store, table_id, False, REPLAY_TALK)
    ]
    return await _answer_stored(request, table_id, invite, partial(_stored_frames, talk=talk))


@router.get("/api/games/{table_id}/verify")
async def game_verify(table_id: str, request: Request, invite: str | None = None) -> Any:
    """Checks a finished game's deals against its revealed seed and the commitment
    published when the table was made (``kozyr.records.verify``)."""
    return await _answer_stored(request, table_id, invite, _stored_verdict)


async def _count_upload(request: Request) -> None:
    """One upload more for the caller's address and, signed in, for the person (whatever
    comes of it: a refused upload cost reading too); 429 ``too_many_uploads`` past either
    limit, counted in neither."""
    server = request.app.state.server
    hits = [("upload-address", client_address(request))]
    user = await auth.user_of(server.store, request)
    if user is not None:
        hits.append(("upload-person", str(user.id)))
    wait = await server.throttles.spend(hits)
    if wait is not None:
        raise Throttled("too_many_uploads", wait)


async def _answer_upload(request: Request, work: Callable[[bytes], bytes]) -> Any:
    """Reads a bounded upload and answers with ``work`` done on it in the uploads' pool."""
    try:
        if request.app.state.server.uploads.full:  # before counting: it costs nobody
            raise PoolFull
        await _count_upload(request)
        raw = await _upload(request)
        body = await request.app.state.server.uploads.run(work, raw)
    except UploadError as e:
        return _error(e.code, e.status, e.detail)
    except PoolFull:
        return error_response(ProtocolError("uploads_busy", status=503))
    except ProtocolError as e:  # too_many_uploads, bad_options: worded with their details
        return error_response(e)
    return Response(body, media_type="application/json")


@router.post("/api/verify")
async def upload_verify(request: Request) -> Any:
    """The same check for an uploaded record (the verdict names each problem found)."""
    return await _answer_upload(request, _uploaded_verdict)


@router.post("/api/replay")
async def upload_replay(request: Request) -> Any:
    return await _answer_upload(request, _uploaded_frames)
