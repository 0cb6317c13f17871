"""Which bots exist and how to make one: the levels offered to players (1-5) and the
named kinds used by the arena (``random``, ``heuristic``, ``search``, ``oracle``)."""

from __future__ import annotations

from collections.abc import Callable

from kozyr.bots.base import Bot
from kozyr.bots.random_bot import RandomBot

LEVEL_NAMES: dict[int, tuple[str, str]] = {
    1: ("beginner", "новичок"),
    2: ("amateur", "любитель"),
    3: ("club player", "игрок клуба"),
    4: ("expert", "мастер спорта"),
    5: ("master", "гроссмейстер"),
}
DEFAULT_LEVEL = 3

Factory = Callable[[int | None], Bot]
_FACTORIES: dict[tuple[str, str], Factory] = {}


def register(game: str, kind: str, factory: Factory) -> None:
    """Makes ``make_bot(game, kind)`` build bots with ``factory(seed)``."""
    _FACTORIES[(game, kind)] = factory


def kinds(game: str) -> list[str]:
    _load(game)
    return [*sorted(k for g, k in _FACTORIES if g == game), "random"]


def _load(game: str) -> None:
    # Game bots register themselves when their package is imported.
    if game == "imperial":
        import kozyr.bots.imperial
    elif game == "emperor":
        import kozyr.bots.emperor  # noqa: F401
    else:
        raise ValueError(f"unknown game {game!r}: expected imperial or emperor")


def make_bot(game: str, kind: str | int, seed: int | None = None) -> Bot:
    """A bot for ``game``: a level 1-5 (``3`` or ``"3"``) or a kind name."""
    if isinstance(kind, int) or kind.isdigit():
        level = int(kind)
        if level not in LEVEL_NAMES:
            raise ValueError(f"bot level must be 1-5, not {level}")
        kind = f"level{level}"
    if kind == "random":
        return RandomBot(seed)
    _load(game)
    factory = _FACTORIES.get((game, kind))
    if factory is None:
        raise ValueError(f"unknown bot {kind!r} for {game}: expected 1-5 or {kinds(game)}")
    return factory(seed)
