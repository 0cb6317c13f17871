"""HTTP routes the web page needs beyond the protocol: replay frames of finished games.

``GET /api/games/{id}/replay`` replays a finished table's record through the engine and
returns every step with all hands (after the game every card is public, B3).
``POST /api/replay`` does the same for a record the page uploads (a ``kozyr-record/1``
file, e.g. from ``kozyr play``). Games in progress are refused: their hands are secret.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from kozyr.records import RecordError, to_record
from kozyr.web.replay import replay_frames

MAX_UPLOAD = 2 * 1024 * 1024

MESSAGES: dict[str, tuple[str, str]] = {
    "no_table": ("No such table.", "Такого стола нет."),
    "not_finished": (
        "The game is not over: its hands are still secret.",
        "Партия не окончена: карты игроков ещё тайна.",
    ),
    "bad_record": ("The record does not replay: {detail}", "Запись не воспроизводится: {detail}"),
    "too_large": ("The record is larger than 2 MB.", "Запись больше 2 МБ."),
}


def _error(code: str, status: int, detail: str = "") -> JSONResponse:
    en, ru = MESSAGES[code]
    return JSONResponse(
        {
            "type": "error",
            "code": code,
            "message": en.format(detail=detail),
            "message_ru": ru.format(detail=detail),
        },
        status_code=status,
    )


router = APIRouter()


@router.get("/api/games/{table_id}/replay")
async def game_replay(table_id: str, request: Request) -> Any:
    from kozyr.server.tables import new_state

    server = request.app.state.server
    live = server.lobby.tables.get(table_id)
    row = live.row if live is not None else await server.store.table(table_id)
    if row is None:
        return _error("no_table", 404)
    if row.status not in ("playing", "finished"):
        return _error("not_finished", 409)
    state = new_state(row)
    for action in await server.store.actions(table_id):
        state.play(action.text)
    if not state.over:  # judged by the game itself: it may end before any action
        return _error("not_finished", 409)
    names = [s.name or "" for s in row.seats]
    record = to_record(state, players=names, table=row.id)
    try:
        return replay_frames(record)
    except RecordError as e:  # a stored game always replays; this is a broken store
        return _error("bad_record", 500, str(e))


@router.post("/api/replay")
async def upload_replay(request: Request) -> Any:
    raw = await request.body()
    if len(raw) > MAX_UPLOAD:
        return _error("too_large", 413)
    try:
        record = json.loads(raw)
    except ValueError as e:
        return _error("bad_record", 400, f"not JSON: {e}")
    if not isinstance(record, dict):
        return _error("bad_record", 400, "a record is a JSON object")
    try:
        return replay_frames(record)
    except RecordError as e:
        return _error("bad_record", 400, str(e))
