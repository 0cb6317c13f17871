"""Imperial's half of the post-game review: every legal card of a decision valued in play
points, from the seat's observation only (I13).

The value of a card is the mean, over deals of the hidden cards consistent with what the
seat knew, of the seat's points at the end of the deal minus its opponents' (their mean
with three players) after the card and a heuristic finish, counting an imperial as 24
points (the game's own measure, I6) and loose points at face value. A deal that decides
the game counts the whole game, ``24 * target`` points for the winner, plus the points
scored in the play from the card on (so that the moves of a game lost whatever one plays
are still told apart). With two players the last :data:`SOLVE_WITHIN` tricks of each
finish are played double dummy (:mod:`.solver`): the heuristic misjudges some endings by a
whole honour or more, and a review must not call the right card a mistake there. The
search bots weigh loose points lower (:mod:`.value`); a review reports what the game
counts.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from kozyr.bots.search import Ranked, pimc
from kozyr.games.base import GameState, Observation
from kozyr.games.imperial import IMPERIAL_POINTS, ImperialObservation, ImperialState
from kozyr.texts import both

from .heuristic import playout
from .sampler import Sampler
from .search import solve_out
from .solver import Solver
from .value import play_record

__all__ = ["BLUNDER", "MISTAKE", "SOLVE_WITHIN", "UNIT", "hindsight", "hint", "points", "rank"]

UNIT = both("review.unit.imperial")
MISTAKE = 2.0
"""Half an honour or more lost: a mistake."""
BLUNDER = 8.0
"""A third of an imperial or more lost: a blunder."""
SOLVE_WITHIN = 6
"""Tricks left from which a two-player finish is played double dummy. Level 5 plays its
own from 8 (:data:`.levels.SOLVE_WITHIN`); the review keeps 6, which gives it more worlds
for the many decisions of a whole game."""


def points(state: ImperialState, seat: int, since: int = 0) -> float:
    """The seat's play points minus its opponents' mean. A game over counts
    ``24 * target`` for the winner (minus its share for each loser), plus the points
    scored in card play since ``state.events[since]`` (I8-I10, a tombé as 24): when every
    move loses the game, the one that gives away less in the play is still the better."""
    n = state.players
    if state.winner is not None:
        game = float(IMPERIAL_POINTS * state.options.target)
        play, _ = play_record(state.events[since:], n)
        mine = play[seat] - sum(play[s] for s in range(n) if s != seat) / (n - 1)
        return (game if state.winner == seat else -game / (n - 1)) + mine
    worth = [IMPERIAL_POINTS * state.imperials[s] + state.loose[s] for s in range(n)]
    return worth[seat] - sum(worth[s] for s in range(n) if s != seat) / (n - 1)


def rank(observation: Observation, worlds: int | None, seconds: float, seed: int) -> list[Ranked]:
    """Every legal card of the observer, best first, valued in play points."""
    obs = observation
    if not isinstance(obs, ImperialObservation) or obs.seat is None:
        raise TypeError("an Imperial review needs a seat's Imperial observation")
    legal = list(obs.legal_actions)
    if len(legal) < 2:
        return [Ranked(a, 0.0, 0) for a in legal]
    return rank_in(legal, obs.seat, Sampler(obs).world, worlds, seconds, seed)


def rank_in(
    legal: list[int],
    seat: int,
    world: Callable[[random.Random], ImperialState],
    worlds: int | None,
    seconds: float,
    seed: int,
) -> list[Ranked]:
    """:func:`rank` over the deals ``world`` draws (the true one alone, in the tests)."""
    solvers: dict[int, Solver] = {}

    def evaluate(w: ImperialState, card: int, _rng: random.Random) -> float:
        child = w.clone()
        since = len(child.events)
        child.apply(card)
        trump = child.trump
        if child.players != 2 or trump is None:
            playout(child)
        else:
            playout(child, stop_at=12 - SOLVE_WITHIN)
            solve_out(
                child, solvers.get(trump) or solvers.setdefault(trump, Solver(trump, child.options))
            )
        return points(child, seat, since)

    tally = pimc(legal, world, evaluate, random.Random(seed), seconds=seconds, work=worlds)
    ranked = [Ranked(a, tally.mean(a), tally.worlds) for a in legal]
    ranked.sort(key=lambda r: (-r.value, r.action))
    return ranked


def hindsight(state: GameState, seed: int) -> int:
    """The card the oracle, seeing every hand, plays here (for after the game only): with
    two players the best card of double-dummy play to the end of the deal (the exact
    oracle), with three its search of the true deal with heuristic finishes."""
    from .oracle import OracleBot

    if not isinstance(state, ImperialState):
        raise TypeError("an Imperial hindsight needs an Imperial state")
    # one world, the true one: the budget is only a guard
    return OracleBot(seed, exact=True).choose_state(state, budget=5.0)


def hint(observation: Observation, seconds: float) -> list[Ranked]:
    """A hint during the game: the observer's legal cards, best first, valued in play
    points as the review's lines are (:func:`rank`). The level search's own value counts
    a won game as 1000 (:mod:`.hint`): shown to a player, "expected points: -726" said
    nothing he could use."""
    if not isinstance(observation, ImperialObservation):
        raise TypeError("an Imperial hint needs an Imperial observation")
    return rank(observation, None, seconds, 0)
