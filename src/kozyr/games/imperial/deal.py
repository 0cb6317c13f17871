"""The cards of one deal, their validation, and the seeded shuffle (I1, I5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kozyr.cards import CARD_NAMES as NAME
from kozyr.cards import CardError, card_list, card_names, parse_card, parse_cards
from kozyr.games import dealing
from kozyr.games.base import DealError

from .card_tables import deck_for

__all__ = ["HAND_SIZE", "ImperialDeal", "draw_first_dealer", "seeded_deal"]

HAND_SIZE = 12
"""I5: twelve cards each."""


_names = card_names


@dataclass(frozen=True, slots=True)
class ImperialDeal:
    """The cards of one deal: a bit mask per seat, and the card that fixes trump.

    With two players ``turnup`` is the turned card (in no hand); the seven other
    stock cards are implied (deck minus hands minus turn-up) and never used. With
    three players ``trump_card`` is the dealer's shown card, which stays in his hand.

    >>> from kozyr.cards import DECK_32, parse_cards
    >>> a = parse_cards("7S 8S 9S 10S AS JS QS KS 7H 8H 9H 10H").mask
    >>> b = parse_cards("7D 8D 9D 10D AD JD QD KD 7C 8C 9C 10C").mask
    >>> d = ImperialDeal((a, b), turnup=parse_card("AH"))
    >>> d.players, d.trump
    (2, 1)
    >>> ImperialDeal((a, a), turnup=parse_card("AH"))
    Traceback (most recent call last):
    ...
    kozyr.games.base.DealError: 7S is in the hands of seat 0 and seat 1
    """

    hands: tuple[int, ...]
    turnup: int | None = None
    trump_card: int | None = None

    def __post_init__(self) -> None:
        # Accept CardSet or any int-like mask, and lists, so hand-built deals read well.
        object.__setattr__(self, "hands", tuple(int(h) for h in self.hands))
        n = len(self.hands)
        if n not in (2, 3):
            raise DealError(f"a deal has 2 or 3 hands, not {n}")
        deck = deck_for(n)
        seen = 0
        for seat, hand in enumerate(self.hands):
            if hand < 0 or hand >> 52:
                raise DealError(f"hand of seat {seat} has bits outside the 52 cards")
            size = hand.bit_count()
            if size != HAND_SIZE:
                raise DealError(f"hand of seat {seat} has {size} cards, not {HAND_SIZE}")
            outside = hand & ~deck
            if outside:
                raise DealError(
                    f"{' '.join(_names(outside))} (seat {seat}) not in the "
                    f"{deck.bit_count()}-card deck for {n} players"
                )
            twice = hand & seen
            if twice:
                c = card_list(twice)[0]
                other = next(s for s in range(seat) if self.hands[s] >> c & 1)
                raise DealError(f"{NAME[c]} is in the hands of seat {other} and seat {seat}")
            seen |= hand
        if n == 2:
            if self.trump_card is not None:
                raise DealError("with 2 players trump is the turn-up: give turnup, not trump_card")
            if self.turnup is None:
                raise DealError("with 2 players the deal needs the turned card (turnup)")
            if not isinstance(self.turnup, int) or not 0 <= self.turnup < 52:
                raise DealError(f"turnup {self.turnup!r} is not a card")
            if not deck >> self.turnup & 1:
                raise DealError(f"turnup {NAME[self.turnup]} is not in the 32-card deck")
            if seen >> self.turnup & 1:
                raise DealError(f"turnup {NAME[self.turnup]} is also in a hand")
        else:
            if self.turnup is not None:
                raise DealError("with 3 players nothing is turned up: give trump_card, not turnup")
            if self.trump_card is None:
                raise DealError("with 3 players the deal needs the dealer's card (trump_card)")
            if not isinstance(self.trump_card, int) or not 0 <= self.trump_card < 52:
                raise DealError(f"trump_card {self.trump_card!r} is not a card")

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def trump(self) -> int:
        """The trump suit (0 spades, 1 hearts, 2 diamonds, 3 clubs)."""
        c = self.turnup if self.turnup is not None else self.trump_card
        assert c is not None
        return c // 13

    @property
    def stock(self) -> int:
        """With two players the seven unused cards (never shown during the game, I13)."""
        if self.turnup is None:
            return 0
        used = 1 << self.turnup
        for h in self.hands:
            used |= h
        return deck_for(2) & ~used

    def check_dealer(self, dealer: int) -> None:
        """I5: with three players the trump card is the dealer's, and stays in his hand."""
        if self.trump_card is not None and not self.hands[dealer] >> self.trump_card & 1:
            raise DealError(
                f"trump_card {NAME[self.trump_card]} is not in the dealer's hand (seat {dealer})"
            )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hands": [_names(h) for h in self.hands]}
        if self.turnup is not None:
            out["turnup"] = NAME[self.turnup]
        if self.trump_card is not None:
            out["trump_card"] = NAME[self.trump_card]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ImperialDeal:
        try:
            hands = tuple(parse_cards(h).mask for h in data["hands"])
            turnup = data.get("turnup")
            trump_card = data.get("trump_card")
            return cls(
                hands,
                turnup=None if turnup is None else parse_card(turnup),
                trump_card=None if trump_card is None else parse_card(trump_card),
            )
        except (CardError, KeyError, TypeError) as e:
            raise DealError(f"bad deal: {e}") from e


_DECK_ORDER = {n: card_list(deck_for(n)) for n in (2, 3)}


def seeded_deal(
    players: int, seed: int, index: int, dealer: int, scheme: str = dealing.SECURE
) -> ImperialDeal:
    """Deal number ``index`` (0-based) of a seeded game.

    The deck in ascending card order is shuffled by ``scheme`` with the label
    ``deal/<index>`` (see :mod:`kozyr.games.dealing`);
    cards are then dealt one at a time, starting with the player left of the dealer
    (``dealer + 1``) and going clockwise, 12 rounds. With two players the next card
    (the 25th) is the turn-up; with three the 36th and last card, which is the dealer's
    last card, is the trump card (I5).
    """
    cards = list(_DECK_ORDER[players])
    dealing.shuffle(cards, "imperial", seed, f"deal/{index}", scheme)
    # dealt one by one from the dealer's left: the first card to seat dealer + 1
    dealt = dealing.deal_one_by_one(cards, players, HAND_SIZE * players)
    hands = [dealt[(s - dealer - 1) % players] for s in range(players)]
    if players == 2:
        return ImperialDeal(tuple(hands), turnup=cards[2 * HAND_SIZE])
    return ImperialDeal(tuple(hands), trump_card=cards[3 * HAND_SIZE - 1])


def draw_first_dealer(players: int, seed: int | None, scheme: str = dealing.SECURE) -> int:
    """I5: the first dealer is drawn from the seed; seat 0 without a seed."""
    if seed is None:
        return 0
    return dealing.randbelow(players, "imperial", seed, "start", scheme)
