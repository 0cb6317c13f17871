"""Finding puzzles in a finished game's record (#29, docs/puzzles.md): CPU work with no
database and no server, run by ``kozyr puzzles build`` in worker processes (or a thread).

A position is a puzzle when the seat to act chooses a card (not a swap, an offer or a
trump), has at least two legal cards, and the review's ranker (:func:`kozyr.review.ranker`,
which sees only that seat's observation, I13) finds the best card worth at least
``margin`` of the game's mistakes more than the second best. A position that passes the
quick screen (``worlds`` deals of the hidden cards) is valued again with three times as
many worlds and another seed, and is kept only if the same card is best there by the same
margin: those second values are the ones stored and shown.

A puzzle keeps its position as a record cut at the position (:func:`position_of`): the
options, the start, the deals dealt so far and the actions before it, so that it is
rebuilt by replay (B2); the page is served only the solver seat's observation of it
(:func:`solver_view`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from kozyr.bots.registry import make_bot
from kozyr.cards import CardError, card_name, parse_card
from kozyr.games import GAMES
from kozyr.games.base import GameState
from kozyr.records import replay, replay_steps, to_record
from kozyr.review import ranker

__all__ = [
    "BOT_KIND",
    "Found",
    "Read",
    "Settings",
    "bot_game",
    "bot_source",
    "find",
    "is_card_choice",
    "position_of",
    "read_bot_game",
    "read_record",
    "solver_view",
]

CONFIRM = 3
"""The second look searches this many times the screen's worlds."""
CONFIRM_SEED = 1_000_003
"""Added to a decision's seed for the second look: other worlds than the screen's."""
SECONDS = 20.0
"""The clock guard of one valuation (the search stops on its number of worlds)."""
BOT_KIND = "heuristic"
"""The bots of the seeding games: fast, and they leave positions worth a puzzle."""
MAX_ACTIONS = 20_000
"""A bot game that has not ended after this many actions is given up (never seen)."""


@dataclass(frozen=True, slots=True)
class Settings:
    worlds: int = 8
    margin: float = 1.5
    """In mistakes of the game's review (``MISTAKE``: 2 points in Imperial, half a trick
    in Emperor)."""
    per_game: int = 3
    seed: int = 0


@dataclass(frozen=True, slots=True)
class Found:
    """One puzzle found: the position before ``index`` of the record's actions."""

    index: int
    seat: int
    best: str
    played: str
    values: tuple[tuple[str, float], ...]
    """Every legal card and its value in the game's review unit, best first."""
    margin: float
    worlds: int
    position: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Read:
    """What reading one game gave: the card choices valued and the puzzles found."""

    positions: int
    found: tuple[Found, ...]


def is_card_choice(state: GameState) -> bool:
    """The seat to act chooses among two or more cards (every legal action a card)."""
    if state.to_act is None:
        return False
    legal = state.legal_actions()
    if len(legal) < 2:
        return False
    for action in legal:
        name = state.action_text(action)
        try:
            if card_name(parse_card(name)) != name:
                return False
        except CardError:
            return False
    return True


def position_of(record: dict[str, Any], index: int, state: GameState) -> dict[str, Any]:
    """``record`` cut before action ``index`` (``state`` is the game there): no seed and no
    deal beyond those dealt so far, so that nothing later is stored with the puzzle."""
    keep = ("format", "game", "options", "first_dealer", "join_order", "dealing")
    position = {k: record[k] for k in keep if k in record}
    dealt = len(cast(Any, state).dealt)
    position["seed"] = None
    position["deals"] = list(record["deals"][:dealt])
    position["actions"] = list(record["actions"][:index])
    return position


def solver_view(position: dict[str, Any], seat: int) -> tuple[dict[str, Any], list[str]]:
    """The solver seat's observation of a puzzle's position (what the page is shown, and
    nothing else) and its legal cards."""
    state = replay(position)
    legal = [state.action_text(a) for a in state.legal_actions()]
    return state.observation(seat).to_json(), legal


def _values(ranked: list[Any], state: GameState) -> tuple[tuple[str, float], ...]:
    return tuple((state.action_text(r.action), round(float(r.value), 2)) for r in ranked)


def find(
    record: dict[str, Any],
    settings: Settings,
    progress: Callable[[int], None] | None = None,
) -> Read:
    """The puzzles of one finished game's record, at most ``settings.per_game`` of them
    (the widest margins), in the order they come in the game."""
    game = record["game"]
    rk = ranker(game)
    cut = settings.margin * rk.MISTAKE
    actions = record.get("actions") or []
    steps = replay_steps(record)
    state, _ = next(steps)
    positions = 0
    found: list[Found] = []
    for i, played in enumerate(actions):
        seat = state.to_act
        if seat is not None and is_card_choice(state):
            obs = state.observation(seat)
            first = rk.rank(obs, settings.worlds, SECONDS, settings.seed + i)
            positions += 1
            if progress is not None:
                progress(positions)
            if first[0].value - first[1].value >= cut:
                worlds = settings.worlds * CONFIRM
                seed = settings.seed + i + CONFIRM_SEED
                again = rk.rank(obs, worlds, SECONDS * CONFIRM, seed)
                values = _values(again, state)
                margin = round(values[0][1] - values[1][1], 2)
                if again[0].action == first[0].action and margin >= cut:
                    found.append(
                        Found(
                            i,
                            seat,
                            values[0][0],
                            played,
                            values,
                            margin,
                            again[0].visits,
                            position_of(record, i, state),
                        )
                    )
        try:
            state, _ = next(steps)
        except StopIteration:
            break
    kept = sorted(found, key=lambda f: (-f.margin, f.index))[: settings.per_game]
    return Read(positions, tuple(sorted(kept, key=lambda f: f.index)))


def bot_source(game: str, seed: int) -> str:
    """The key of a seeding bot game: ``bot:<game>-<players>p:<seed>``."""
    return f"bot:{game}-{GAMES[game].default_players}p:{seed}"


def bot_game(game: str, seed: int) -> dict[str, Any]:
    """The record of a seeded game of bots (:data:`BOT_KIND`) at the game's default number
    of players: the same ``seed`` plays the same game."""
    spec = GAMES[game]
    players = spec.default_players
    digest = hashlib.sha256(f"kozyr-puzzles:{game}:{seed}".encode()).digest()
    state = spec.new_state(
        spec.options_from_json({"players": players}), seed=int.from_bytes(digest)
    )
    bots = [make_bot(game, BOT_KIND, seed * 10 + s) for s in range(players)]
    for _ in range(MAX_ACTIONS):
        seat = state.to_act
        if state.over or seat is None:
            break
        state.apply(bots[seat].choose(state.observation(seat), state.legal_actions(), 1.0))
    return to_record(state)


def read_record(record: dict[str, Any], settings: Settings) -> Read:
    """:func:`find` for a worker process."""
    return find(record, settings)


def read_bot_game(game: str, seed: int, settings: Settings) -> tuple[dict[str, Any], Read]:
    """Plays a seeding bot game and reads it (in a worker process)."""
    record = bot_game(game, seed)
    return record, find(record, settings)
