"""Pure rules engines, one package per game (no I/O, no asyncio), and :data:`GAMES`: each
game's description (:mod:`kozyr.games.spec`), which is all code outside the engines needs."""

from kozyr.games.spec import GAMES, Game, GameResult, Options

__all__ = ["GAMES", "Game", "GameResult", "Options"]
