"""What one seat (or a spectator) may know of an Emperor game: the frozen observation
and the public records of the exchange (E7, E8)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kozyr.cards import CARD_NAMES, card_names, suit_letters, suit_name
from kozyr.games.base import Event

from .actions import ACTION_TEXT
from .options import EmperorOptions

__all__ = ["EmperorObservation", "Offer", "SwapRecord"]


@dataclass(frozen=True, slots=True)
class SwapRecord:
    """A taker named a target this round (E7). ``result``: ``"swapped"``, ``"bought_off"``
    (E8: the target paid ``tricks``) or ``"pending"`` (bargaining goes on)."""

    taker: int
    target: int
    result: str
    tricks: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "taker": self.taker,
            "target": self.target,
            "result": self.result,
            "tricks": self.tricks,
        }


@dataclass(frozen=True, slots=True)
class Offer:
    """One offer of a bargain (E8); ``answer`` is ``"accept"``, ``"refuse"`` or None."""

    target: int
    taker: int
    tricks: int
    answer: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "taker": self.taker,
            "tricks": self.tricks,
            "answer": self.answer,
        }


_names = card_names


@dataclass(frozen=True, slots=True)
class EmperorObservation:
    """Everything ``seat`` may know now, and nothing more (``seat`` None: a spectator).

    Card sets are bit masks. ``hand``: the observer's hand, None for a spectator.
    ``trick``: the trick on the table, (seat, card) in order of play. ``known[t]``:
    cards this seat knows to be in seat ``t``'s hand now (the shown trump card of round
    1, hands given away in swaps and moved on by later public swaps, and what follows
    when every other hand but one is known); cards leave it as they are played.
    ``voids[t]``: bit ``s`` set when seat ``t`` has shown it holds no card of suit ``s``
    this round (did not follow, or did not trump).
    """

    seat: int | None
    players: int
    options: EmperorOptions
    round: int
    phase: str
    to_act: int | None
    over: bool
    legal_actions: tuple[int, ...]
    hand: int | None
    hand_sizes: tuple[int, ...]
    titles: tuple[str | None, ...]
    title_order: tuple[int, ...] | None
    totals: tuple[int, ...]
    tricks: tuple[int, ...]
    first_trick: tuple[int, ...]
    trump: int | None
    trump_named: bool
    trump_card: int | None
    first_leader: int
    trick_number: int
    trick: tuple[tuple[int, int], ...]
    played: tuple[int, ...]
    voids: tuple[int, ...]
    swaps: tuple[SwapRecord, ...]
    offers: tuple[Offer, ...]
    known: dict[int, int]
    standing: tuple[int, ...] | None
    events: tuple[Event, ...] = field(default=(), repr=False)

    def own_hand(self) -> int:
        """The observer's hand; a spectator has none (ValueError)."""
        if self.hand is None:
            raise ValueError("a spectator's observation has no hand")
        return self.hand

    @property
    def play_order(self) -> tuple[int, ...]:
        """The seats in the order they play the current trick; empty outside the play.
        Round 1: clockwise from the trick's leader (E5); later rounds: the titles, King
        first (E10)."""
        if self.phase != "play":
            return ()
        if self.round > 1 and self.title_order is not None:
            return self.title_order
        lead = self.trick[0][0] if self.trick else self.to_act
        assert lead is not None
        return tuple((lead + i) % self.players for i in range(self.players))

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": self.players,
            "options": self.options.to_json(),
            "round": self.round,
            "phase": self.phase,
            "to_act": self.to_act,
            "over": self.over,
            "legal_actions": [ACTION_TEXT[a] for a in self.legal_actions],
            "hand": None if self.hand is None else _names(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "titles": list(self.titles),
            "title_order": None if self.title_order is None else list(self.title_order),
            "totals": list(self.totals),
            "tricks": list(self.tricks),
            "first_trick": list(self.first_trick),
            "trump": None
            if not self.trump_named
            else ("NT" if self.trump is None else suit_name(self.trump)),
            "trump_card": None if self.trump_card is None else CARD_NAMES[self.trump_card],
            "first_leader": self.first_leader,
            "trick_number": self.trick_number,
            "trick": [[s, CARD_NAMES[c]] for s, c in self.trick],
            "played": [_names(m) for m in self.played],
            "voids": [suit_letters(v) for v in self.voids],
            "swaps": [s.to_json() for s in self.swaps],
            "offers": [o.to_json() for o in self.offers],
            "known": {str(t): _names(m) for t, m in sorted(self.known.items())},
            "standing": None if self.standing is None else list(self.standing),
            "events": list(self.events),
        }
