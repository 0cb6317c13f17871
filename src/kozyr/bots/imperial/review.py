"""Imperial's half of the post-game review: every legal card of a decision valued in play
points, from the seat's observation only (I13).

The value of a card is the mean, over deals of the hidden cards consistent with what the
seat knew, of the seat's points at the end of the deal minus its opponents' (their mean
with three players) after the card and a heuristic finish, counting an imperial as 24
points (the game's own measure, I6) and loose points at face value. A deal that decides
the game counts the whole game: ``24 * target`` points for the winner. The search bots
weigh loose points lower (:mod:`.value`); a review reports what the game counts.
"""

from __future__ import annotations

import random

from kozyr.bots.search import Ranked, pimc
from kozyr.games.base import GameState, Observation
from kozyr.games.imperial import IMPERIAL_POINTS, ImperialObservation, ImperialState

from .heuristic import playout
from .sampler import Sampler

__all__ = ["BLUNDER", "MISTAKE", "UNIT", "hindsight", "hint", "points", "rank"]

UNIT = ("points", "очков")
MISTAKE = 2.0
"""Half an honour or more lost: a mistake."""
BLUNDER = 8.0
"""A third of an imperial or more lost: a blunder."""


def points(state: ImperialState, seat: int) -> float:
    """The seat's play points minus its opponents' mean."""
    n = state.players
    if state.winner is not None:
        game = float(IMPERIAL_POINTS * state.options.target)
        return game if state.winner == seat else -game / (n - 1)
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
    seat = obs.seat
    sampler = Sampler(obs)

    def evaluate(world: ImperialState, card: int, _rng: random.Random) -> float:
        child = world.clone()
        child.apply(card)
        playout(child)
        return points(child, seat)

    tally = pimc(legal, sampler.world, evaluate, random.Random(seed), seconds=seconds, work=worlds)
    ranked = [Ranked(a, tally.mean(a), tally.worlds) for a in legal]
    ranked.sort(key=lambda r: (-r.value, r.action))
    return ranked


def hindsight(state: GameState, seed: int) -> int:
    """The card the oracle, seeing every hand, plays here (for after the game only)."""
    from .oracle import OracleBot

    if not isinstance(state, ImperialState):
        raise TypeError("an Imperial hindsight needs an Imperial state")
    # one world, the true one: the budget is only a guard
    return OracleBot(seed).choose_state(state, budget=5.0)


def hint(observation: Observation, seconds: float) -> list[Ranked]:
    """A hint during the game: the observer's legal cards, best first, valued in play
    points as the review's lines are (:func:`rank`). The level search's own value counts
    a won game as 1000 (:mod:`.hint`): shown to a player, "expected points: -726" said
    nothing he could use."""
    if not isinstance(observation, ImperialObservation):
        raise TypeError("an Imperial hint needs an Imperial observation")
    return rank(observation, None, seconds, 0)
