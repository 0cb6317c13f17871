"""Which bots exist and how to make one: the levels offered to players (1-5) and the
named kinds used by the arena (``random``, ``heuristic``, ``search``, ``oracle``,
``ismcts``).

The map is written out here, once: importing this module imports no game's bots, and no
bot module registers itself. Each constructor imports its bot when it is called, so
asking for an Imperial bot never loads the Emperor bots (nor OpenSpiel, unless the
``ismcts`` kind is asked for).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from kozyr.bots.base import Bot
from kozyr.bots.random_bot import RandomBot
from kozyr.texts import both

__all__ = ["BOTS", "DEFAULT_LEVEL", "LEVEL_NAMES", "Factory", "kinds", "make_bot", "register"]

LEVEL_NAMES: dict[int, tuple[str, str]] = {n: both(f"bots.level.{n}") for n in range(1, 6)}
"""The levels offered to players, each with its English and Russian name."""
DEFAULT_LEVEL = 3
GAMES = ("imperial", "emperor")

Factory = Callable[[int | None], Bot]


def _imperial_level(level: int) -> Factory:
    def make(seed: int | None) -> Bot:
        from kozyr.bots.imperial.levels import level_bot

        return level_bot(level, seed)

    return make


def _imperial_heuristic(seed: int | None) -> Bot:
    from kozyr.bots.imperial.heuristic import HeuristicBot

    return HeuristicBot(seed)


def _imperial_search(seed: int | None) -> Bot:
    from kozyr.bots.imperial.search import SearchBot

    return SearchBot(seed, cap=1.0)


def _imperial_oracle(seed: int | None) -> Bot:
    from kozyr.bots.imperial.oracle import OracleBot

    return OracleBot(seed)


def _emperor_level(level: int) -> Factory:
    def make(seed: int | None) -> Bot:
        from kozyr.bots.emperor.levels import make_level

        return make_level(level, seed)

    return make


def _emperor_heuristic(seed: int | None) -> Bot:
    from kozyr.bots.emperor.heuristic import EmperorHeuristic

    return EmperorHeuristic(seed)


def _emperor_search(seed: int | None) -> Bot:
    from kozyr.bots.emperor.search import EmperorSearch

    return EmperorSearch(seed, cap=0.8)


def _emperor_oracle(seed: int | None) -> Bot:
    from kozyr.bots.emperor.oracle import EmperorOracle

    return EmperorOracle(seed)


def _ismcts(seed: int | None) -> Bot:
    # OpenSpiel is an optional extra (kozyr[openspiel]): a missing one is a bad kind here.
    try:
        from kozyr.interop.ismcts import ISMCTSKozyrBot
    except ImportError as e:
        raise ValueError(f"the ismcts bot is not available: {e}") from e
    return ISMCTSKozyrBot(seed)


def _random(seed: int | None) -> Bot:
    return RandomBot(seed)


BOTS: Mapping[tuple[str, str], Factory] = MappingProxyType(
    {
        **{("imperial", f"level{n}"): _imperial_level(n) for n in LEVEL_NAMES},
        ("imperial", "heuristic"): _imperial_heuristic,
        ("imperial", "search"): _imperial_search,
        ("imperial", "oracle"): _imperial_oracle,
        ("imperial", "ismcts"): _ismcts,
        ("imperial", "random"): _random,
        **{("emperor", f"level{n}"): _emperor_level(n) for n in LEVEL_NAMES},
        ("emperor", "heuristic"): _emperor_heuristic,
        ("emperor", "search"): _emperor_search,
        ("emperor", "oracle"): _emperor_oracle,
        ("emperor", "ismcts"): _ismcts,
        ("emperor", "random"): _random,
    }
)
"""(game, kind) -> constructor taking the seed; the levels are the kinds ``level1``.."""

_EXTRA: dict[tuple[str, str], Factory] = {}


def register(game: str, kind: str, factory: Factory) -> None:
    """Adds a kind at run time, for tests and experiments; kozyr's own bots are all in
    :data:`BOTS` and never call this."""
    _check_game(game)
    _EXTRA[(game, kind)] = factory


def _check_game(game: str) -> None:
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}: expected imperial or emperor")


def _factory(game: str, kind: str) -> Factory | None:
    return _EXTRA.get((game, kind)) or BOTS.get((game, kind))


def kinds(game: str) -> list[str]:
    """Every kind name of ``game``, ``random`` last."""
    _check_game(game)
    names = {k for g, k in (*BOTS, *_EXTRA) if g == game and k != "random"}
    return [*sorted(names), "random"]


def make_bot(game: str, kind: str | int, seed: int | None = None) -> Bot:
    """A bot for ``game``: a level 1-5 (``3`` or ``"3"``) or a kind name."""
    _check_game(game)
    if isinstance(kind, int) or kind.isdigit():
        level = int(kind)
        if level not in LEVEL_NAMES:
            raise ValueError(f"bot level must be 1-5, not {level}")
        kind = f"level{level}"
    factory = _factory(game, kind)
    if factory is None:
        raise ValueError(f"unknown bot {kind!r} for {game}: expected 1-5 or {kinds(game)}")
    return factory(seed)
