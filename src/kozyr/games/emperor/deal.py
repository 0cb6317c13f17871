"""Emperor deals: the cards of one round, checked (E1, E2, E5), and seeded shuffles.

Dealing order (ours; the rules do not fix one): the shuffled deck is dealt one card at a
time to seats 0, 1, 2, (3), 0, 1, ... until every seat has 13 cards. With 4 players
the 52nd card, the last of the deck, therefore goes to seat 3, "the last player in the
deal" (E5). With 3 players cards 40-52 of the deck are not dealt (E2); the last of them
is the bottom card of that undealt pile.
"""

from __future__ import annotations

from dataclasses import dataclass

from kozyr.cards import DECK_52, card_name, cards_in
from kozyr.games import dealing
from kozyr.games.base import DealError

__all__ = ["HAND_SIZE", "EmperorDeal", "default_join_order", "seeded_deal"]

HAND_SIZE = 13


@dataclass(frozen=True, slots=True)
class EmperorDeal:
    """One round's cards: ``hands`` (bit masks, one per seat) and, in round 1 only, the
    shown ``trump_card`` (E5): with 4 players inside one of the hands, with 3 players
    one of the 13 undealt cards."""

    hands: tuple[int, ...]
    trump_card: int | None = None

    def __post_init__(self) -> None:
        hands = self.hands
        if not isinstance(hands, tuple):
            # Lists are accepted for convenience; the stored deal stays hashable.
            object.__setattr__(self, "hands", tuple(int(h) for h in hands))
            hands = self.hands
        if len(hands) not in (3, 4):
            raise DealError(f"a deal has 3 or 4 hands (E2), not {len(hands)}")
        seen = 0
        for seat, hand in enumerate(hands):
            if not isinstance(hand, int) or hand < 0 or hand & ~DECK_52:
                raise DealError(f"hand of seat {seat} holds a card that is not in the deck (E1)")
            if hand.bit_count() != HAND_SIZE:
                raise DealError(
                    f"hand of seat {seat} has {hand.bit_count()} cards, not {HAND_SIZE} (E2)"
                )
            twice = seen & hand
            if twice:
                c = (twice & -twice).bit_length() - 1
                raise DealError(f"card {card_name(c)} is dealt twice (E1)")
            seen |= hand
        t = self.trump_card
        if t is not None:
            if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t < 52:
                raise DealError(f"trump card {t!r} is not a card of the deck (E1)")
            in_hand = bool(seen >> t & 1)
            if len(hands) == 4 and not in_hand:
                raise DealError(
                    f"trump card {card_name(t)} must be in one of the hands with 4 players (E5)"
                )
            if len(hands) == 3 and in_hand:
                raise DealError(
                    f"trump card {card_name(t)} must be one of the undealt cards "
                    "with 3 players (E5)"
                )

    @property
    def undealt(self) -> int:
        """The cards no seat holds: the 13 face-down cards with 3 players (E2)."""
        mask = 0
        for h in self.hands:
            mask |= h
        return DECK_52 & ~mask

    def holder(self, c: int) -> int | None:
        """The seat dealt card ``c``, or None if it is undealt."""
        for seat, h in enumerate(self.hands):
            if h >> c & 1:
                return seat
        return None

    def to_json(self) -> dict[str, object]:
        return {
            "hands": [[card_name(c) for c in cards_in(h)] for h in self.hands],
            "trump_card": None if self.trump_card is None else card_name(self.trump_card),
        }


def seeded_deal(seed: int, index: int, players: int, scheme: str = dealing.SECURE) -> EmperorDeal:
    """Round ``index`` (0-based) of a seeded game: shuffle (label ``deal/<index>``, see
    :mod:`kozyr.games.dealing`), deal as the module says, and in round 1 show the last
    card of the deck as trump (E5)."""
    deck = list(range(52))
    dealing.shuffle(deck, "emperor", seed, f"deal/{index}", scheme)
    hands = dealing.deal_one_by_one(deck, players, HAND_SIZE * players)
    return EmperorDeal(tuple(hands), deck[51] if index == 0 else None)


def default_join_order(seed: int | None, players: int, scheme: str = dealing.SECURE) -> list[int]:
    """The join order when none is given (B1): drawn from the seed, else seat order."""
    if seed is None:
        return list(range(players))
    if scheme == dealing.LEGACY:
        return dealing.legacy_sample(players, "emperor", seed, "start")
    order = list(range(players))
    dealing.shuffle(order, "emperor", seed, "start", scheme)
    return order
