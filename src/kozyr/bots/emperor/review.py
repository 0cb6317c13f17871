"""Emperor's half of the post-game review: every legal action of a decision (cards, swaps,
bargaining offers and answers, naming trump) valued by the search from the seat's
observation only, in tricks: this round's tricks plus what the title they earn is worth
(:mod:`.search`), so a loss of 1.0 is about one trick."""

from __future__ import annotations

from kozyr.bots.search import Ranked
from kozyr.games.base import GameState, Observation
from kozyr.games.emperor import EmperorObservation, EmperorState
from kozyr.texts import both

from .search import EmperorSearch

__all__ = ["BLUNDER", "MISTAKE", "UNIT", "hindsight", "hint", "rank"]

UNIT = both("review.unit.emperor")
MISTAKE = 0.5
BLUNDER = 1.5


def rank(observation: Observation, worlds: int, seconds: float, seed: int) -> list[Ranked]:
    if not isinstance(observation, EmperorObservation):
        raise TypeError("an Emperor review needs an Emperor observation")
    legal = list(observation.legal_actions)
    if len(legal) < 2:
        return [Ranked(a, 0.0, 0) for a in legal]
    # The search's work limit counts simulated card plays; about 130 a world (E2).
    bot = EmperorSearch(seed, cap=seconds, work=130 * worlds)
    return bot.rank(observation, legal, seconds)


def hindsight(state: GameState, seed: int) -> int:
    """The action the oracle, seeing every hand, takes here (for after the game only)."""
    from .oracle import EmperorOracle

    if not isinstance(state, EmperorState):
        raise TypeError("an Emperor hindsight needs an Emperor state")
    return EmperorOracle(seed).choose_state(state)


def hint(observation: Observation, seconds: float) -> list[Ranked]:
    """A hint during the game: the observer's legal actions, best first (:mod:`.hint`)."""
    from .hint import hint as search_hint

    if not isinstance(observation, EmperorObservation):
        raise TypeError("an Emperor hint needs an Emperor observation")
    return search_hint(observation, seconds, seed=None)
