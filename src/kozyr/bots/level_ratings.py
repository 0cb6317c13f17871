"""The bot levels' ratings on the players' scale, as last computed from arena games
between the levels (``kozyr ratings levels``, :mod:`kozyr.arena.levels`): one file per
game, ``bots/<game>/level_ratings.json``, with an entry per player count.

They are what the page shows beside a level ("Level 3 ≈ 1650"). They are not the levels'
live ratings on a server (the ``bot:N`` players of its leaderboard), which move with the
rated games people play against them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

__all__ = ["FORMAT", "LEVELS", "LevelRating", "level_ratings"]

FORMAT = "kozyr-level-ratings/1"
LEVELS = (1, 2, 3, 4, 5)


@dataclass(frozen=True, slots=True)
class LevelRating:
    """A level's openskill skill (mu, sigma) and the arena games it was fitted from."""

    mu: float
    sigma: float
    games: int

    def to_json(self) -> dict[str, Any]:
        return {"mu": round(self.mu, 4), "sigma": round(self.sigma, 4), "games": self.games}


def level_ratings(game: str) -> dict[int, dict[int, LevelRating]]:
    """player count -> level -> rating, for the player counts computed so far (none when
    the game's package has no file, or one of another format)."""
    try:
        text = (resources.files(f"kozyr.bots.{game}") / "level_ratings.json").read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return {}
    data = json.loads(text)
    if data.get("format") != FORMAT:
        return {}
    out: dict[int, dict[int, LevelRating]] = {}
    for players, entry in data.get("players", {}).items():
        out[int(players)] = {
            int(level): LevelRating(float(r["mu"]), float(r["sigma"]), int(r["games"]))
            for level, r in entry["levels"].items()
            if r["games"] > 0
        }
    return out
