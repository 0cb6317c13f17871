"""What the page knows of each game, from the Game specs (``kozyr.games.GAMES``): names,
player counts, rank order, stake kinds, score columns and panels, so that the page names
no game in its code."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from kozyr.bots.level_ratings import level_ratings
from kozyr.games import GAMES
from kozyr.server.accounts.ratings import display

router = APIRouter()


SETTLED_SIGMA = 3.0
"""A level's number is provisional (shown "1650?") while its sigma is above this: about 60
arena games. A person's is provisional for his first 10 rated games; a level's is judged
by its sigma, as its games are many but each whole game is a weak signal (docs/ratings.md)."""


def shown_levels(game: str) -> dict[str, dict[str, dict[str, Any]]]:
    """The bot levels' ratings as the page shows them (player count -> level -> number and
    whether it is provisional), on the players' scale (a person's formula: docs/ratings.md)."""
    return {
        str(players): {
            str(level): {"rating": display(r.mu, r.sigma), "provisional": r.sigma > SETTLED_SIGMA}
            for level, r in levels.items()
        }
        for players, levels in level_ratings(game).items()
    }


_FACTS: dict[str, Any] = {
    "games": [{**game.facts(), "level_ratings": shown_levels(name)} for name, game in GAMES.items()]
}


@router.get("/api/game-facts")
async def game_facts() -> dict[str, Any]:
    return _FACTS
