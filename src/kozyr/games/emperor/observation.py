"""What one seat (or a spectator) may know of an Emperor game: the frozen observation
and the public records of the exchange (E7, E8)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kozyr.cards import CARD_NAMES, card_names, suit_name
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

    Card sets are bit masks. ``known[t]``: cards this seat knows to be in seat ``t``'s
    hand now (the shown trump card of round 1, hands given away in swaps and moved on by
    later public swaps, and what follows when every other hand but one is known);
    cards leave it as they are played. ``voids[t]``: bit ``s`` set when seat ``t`` has
    shown it holds no card of suit ``s`` this round (did not follow, or did not trump).
    """

    seat: int | None
    players: int
    options: EmperorOptions
    round: int
    phase: str
    to_act: int | None
    legal_actions: tuple[int, ...]
    hand: int
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
    trick_order: tuple[int, ...]
    current_trick: tuple[int | None, ...]
    played: tuple[int, ...]
    voids: tuple[int, ...]
    swaps: tuple[SwapRecord, ...]
    offers: tuple[Offer, ...]
    known: dict[int, int]
    standing: tuple[int, ...] | None
    events: tuple[Event, ...] = field(default=(), repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": self.players,
            "options": self.options.to_json(),
            "round": self.round,
            "phase": self.phase,
            "to_act": self.to_act,
            "legal_actions": [ACTION_TEXT[a] for a in self.legal_actions],
            "hand": _names(self.hand),
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
            "trick_order": list(self.trick_order),
            "current_trick": [None if c is None else CARD_NAMES[c] for c in self.current_trick],
            "played": [_names(m) for m in self.played],
            "voids": [[suit_name(s) for s in range(4) if v >> s & 1] for v in self.voids],
            "swaps": [s.to_json() for s in self.swaps],
            "offers": [o.to_json() for o in self.offers],
            "known": {str(t): _names(m) for t, m in sorted(self.known.items())},
            "standing": None if self.standing is None else list(self.standing),
            "events": list(self.events),
        }
