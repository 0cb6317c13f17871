"""Reading the cards of a deal from JSON (a record's ``deals[i]``), saying where each fault is.

Every problem raises :class:`~kozyr.games.base.DealError` whose text starts with the place
(``deals[0].hands[1][3]: card QS is dealt twice (also at deals[0].hands[0][1])``), so a
record reader can pass it on as it is.

>>> read_hands({"hands": [["QS", "KS"], ["QS"]]}, "d", {})
Traceback (most recent call last):
...
kozyr.games.base.DealError: d.hands[1][0]: card QS is dealt twice (also at d.hands[0][0])
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from kozyr.cards import CardError, card_name, cards_in, parse_card
from kozyr.games.base import DealError

__all__ = ["card_names", "claim", "optional_card", "read_card", "read_hands", "require_object"]


def card_names(mask: int) -> list[str]:
    return [card_name(c) for c in cards_in(mask)]


def require_object(raw: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise DealError(f'{where}: expected an object with "hands"')
    return raw


def read_card(value: Any, where: str) -> int:
    if not isinstance(value, str):
        raise DealError(f'{where}: expected a card like "QS", got {json.dumps(value)}')
    try:
        return parse_card(value)
    except CardError as e:
        raise DealError(f"{where}: {e}") from e


def claim(c: int, place: str, seen: dict[int, str]) -> None:
    """Notes that card ``c`` is dealt at ``place``; refuses a card dealt twice."""
    if c in seen:
        raise DealError(f"{place}: card {card_name(c)} is dealt twice (also at {seen[c]})")
    seen[c] = place


def read_hands(raw: Mapping[str, Any], where: str, seen: dict[int, str]) -> tuple[int, ...]:
    """The hands as bit masks; ``seen`` collects where each card was dealt."""
    hands = raw.get("hands")
    if not isinstance(hands, list):
        raise DealError(f"{where}.hands: expected a list, got {json.dumps(hands)}")
    masks = []
    for j, hand in enumerate(hands):
        if not isinstance(hand, list):
            raise DealError(f"{where}.hands[{j}]: expected a list of cards")
        mask = 0
        for k, text in enumerate(hand):
            place = f"{where}.hands[{j}][{k}]"
            c = read_card(text, place)
            claim(c, place, seen)
            mask |= 1 << c
        masks.append(mask)
    return tuple(masks)


def optional_card(raw: Mapping[str, Any], key: str, where: str) -> int | None:
    if raw.get(key) is None:
        return None
    return read_card(raw[key], f"{where}.{key}")
