"""The public events both games share, with one shape (``state.events``; I13, B3).

A market, a rating or a review can read these without knowing which game made them:
who played what, who won each trick, how the scores moved, who finished where. Each
game adds its own events (Imperial's declarations, Emperor's exchange and bargaining)
and may add keys to the shared ones (listed under each); ``docs/engine-api.md`` lists
them all. Cards are names (``"10H"``), suits letters (``"S"``), seats ints.

These ``TypedDict`` s are the contract: the engines build plain dicts of these shapes
(``Event``), and ``tests/test_events.py`` checks every event of whole games of both
against them.
"""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = [
    "SHARED_EVENTS",
    "DealEndEvent",
    "DealEvent",
    "GameOverEvent",
    "PlayEvent",
    "ScoreEvent",
    "TrickEvent",
]


class DealEvent(TypedDict):
    """A deal (an Emperor round) begins: its cards are dealt.

    Imperial adds ``dealer``, ``turnup`` (2 players) or ``trump_card`` (3 players).
    Emperor adds ``leader``, ``trump_card`` and ``trump_card_holder`` in round 1 and
    ``titles``, ``order``, ``bargaining`` in later rounds.
    """

    type: Literal["deal"]
    number: int
    """The deal's number, 1 for the first (Emperor: the round)."""
    trump: str | None
    """The trump suit's letter; None while it is not named yet (Emperor rounds 2-10,
    E9: a later ``trump`` event names it, ``"NT"`` for no trumps)."""


class PlayEvent(TypedDict):
    """A card is played to the trick."""

    type: Literal["play"]
    seat: int
    card: str


class TrickEvent(TypedDict):
    """A trick is complete (I7, E10)."""

    type: Literal["trick"]
    deal: int
    number: int
    """The trick's number in its deal, from 1."""
    cards: list[tuple[int, str]]
    """(seat, card) in order of play (JSON: two-item lists)."""
    winner: int


class ScoreEvent(TypedDict):
    """A seat's points change.

    Imperial: loose points (I6, I8, I10); a mark of imperials is a ``mark`` event and
    the loss of loose points a ``wipe``. Emperor: the game total (E11: the round's
    tricks at its end; E8: a bargain's tricks from the target to the taker).
    """

    type: Literal["score"]
    seat: int
    points: int
    """The change (negative for a loss)."""
    total: int
    """The seat's points right after it."""
    reason: str
    rule: str
    """The ruling that scores (``"I8"``, ``"E11"``)."""


class DealEndEvent(TypedDict):
    """A deal (round) is over; Emperor adds ``first_trick``, ``totals``, ``titles``,
    ``order`` and ``why`` (E6)."""

    type: Literal["deal_end"]
    number: int
    tricks: list[int] | None
    """Tricks each seat won; None for a deal with no play (Imperial's white deal, I11)."""


class GameOverEvent(TypedDict):
    """The game is over (I12, E12). Imperial adds ``imperials`` and ``rule``; Emperor
    ``totals``, ``ranks`` and ``why``."""

    type: Literal["game_over"]
    places: list[int]
    """Seats from first place to last."""
    winner: int
    """``places[0]``."""
    stakes: list[int]
    """What each seat wins (negative: pays), summing to 0. Imperial: the table's stake
    from each loser to the winner (I12). Emperor (no stakes in the rules): ``n - 1 - 2r``
    for the seat in place ``r``, i.e. 3, 1, -1, -3 with four players and 2, 0, -2 with
    three."""


SHARED_EVENTS: dict[str, type] = {
    "deal": DealEvent,
    "play": PlayEvent,
    "trick": TrickEvent,
    "score": ScoreEvent,
    "deal_end": DealEndEvent,
    "game_over": GameOverEvent,
}
"""The shared event types by their ``type``."""
