"""What the page knows of each game, from the Game specs (``kozyr.games.GAMES``): names,
player counts, rank order, stake kinds, score columns and panels, so that the page names
no game in its code."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from kozyr.games import GAMES

router = APIRouter()

_FACTS: dict[str, Any] = {"games": [game.facts() for game in GAMES.values()]}


@router.get("/api/game-facts")
async def game_facts() -> dict[str, Any]:
    return _FACTS
