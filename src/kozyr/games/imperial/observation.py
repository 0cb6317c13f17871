"""What one seat (or a spectator) may know of an Imperial game (I13)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kozyr.cards import CARD_NAMES as NAME
from kozyr.cards import card_names, suit_letters, suit_name
from kozyr.games.base import Event

from .options import ImperialOptions

__all__ = ["ImperialObservation"]


_names = card_names


@dataclass(frozen=True, slots=True)
class ImperialObservation:
    """A seat's view: its own hand and what I13 makes public, nothing else.

    Cards are ints and sets of cards bit masks, as in the engine; ``to_json`` gives text.
    Per-seat tuples are indexed by seat.
    """

    seat: int | None
    """The observer; None for a spectator."""
    options: ImperialOptions
    hand: int | None
    """The observer's hand; None for a spectator."""
    dealer: int | None
    trump: int | None
    turnup: int | None
    """Two players: the turned card (never in a hand)."""
    trump_card: int | None
    """Three players: the dealer's shown card (in his hand until he plays it)."""
    scores: tuple[tuple[int, int], ...]
    """(marked imperials, loose points) per seat."""
    to_act: int | None
    legal_actions: tuple[int, ...]
    """The observer's legal cards when it is his turn, else empty."""
    trick: tuple[tuple[int, int], ...]
    """The trick on the table: (seat, card) in order of play."""
    tricks: tuple[int, ...]
    """Tricks each seat has won in this deal."""
    voids: tuple[int, ...]
    """Per seat, the suits (bit s: suit s) it has shown it lacks in this deal: it did not
    follow suit, or did not trump either (I7)."""
    played: tuple[int, ...]
    """Cards each seat has played in this deal."""
    hand_sizes: tuple[int, ...]
    shown: tuple[int, ...]
    """Public cards still in each hand (I13): marked imperials' cards, declared honours,
    a white hand, the 3-player trump card."""
    captures: tuple[int, ...]
    """Trump J and A captured by each seat this deal (I9)."""
    deal_number: int
    over: bool
    winner: int | None
    waiting_for_deal: bool
    events: tuple[Event, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "options": self.options.to_json(),
            "hand": None if self.hand is None else _names(self.hand),
            "dealer": self.dealer,
            "trump": None if self.trump is None else suit_name(self.trump),
            "turnup": None if self.turnup is None else NAME[self.turnup],
            "trump_card": None if self.trump_card is None else NAME[self.trump_card],
            "scores": [{"imperials": i, "points": p} for i, p in self.scores],
            "to_act": self.to_act,
            "legal_actions": [NAME[c] for c in self.legal_actions],
            "trick": [[s, NAME[c]] for s, c in self.trick],
            "tricks": list(self.tricks),
            "voids": [suit_letters(v) for v in self.voids],
            "played": [_names(m) for m in self.played],
            "hand_sizes": list(self.hand_sizes),
            "shown": [_names(m) for m in self.shown],
            "captures": [_names(m) for m in self.captures],
            "deal": self.deal_number,
            "over": self.over,
            "winner": self.winner,
            "waiting_for_deal": self.waiting_for_deal,
            "events": list(self.events),
        }
