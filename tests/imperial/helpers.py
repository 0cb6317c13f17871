"""Shared helpers for the Imperial tests: hand-built deals and state snapshots."""

from __future__ import annotations

from typing import Any

from tests.state_copies import slots

from kozyr.cards import parse_card, parse_cards
from kozyr.games.imperial import ImperialDeal, ImperialOptions, ImperialState


def deal2(seat0: str, seat1: str, turnup: str) -> ImperialDeal:
    return ImperialDeal(
        (parse_cards(seat0).mask, parse_cards(seat1).mask), turnup=parse_card(turnup)
    )


def deal3(seat0: str, seat1: str, seat2: str, trump_card: str) -> ImperialDeal:
    hands = tuple(parse_cards(h).mask for h in (seat0, seat1, seat2))
    return ImperialDeal(hands, trump_card=parse_card(trump_card))


def start(deal: ImperialDeal, dealer: int, **options: Any) -> ImperialState:
    opts = ImperialOptions(players=deal.players, **options)
    return ImperialState.new(opts, seed=None, deals=[deal], first_dealer=dealer)


def snapshot(state: ImperialState) -> dict[str, Any]:
    """Every slot of the state, lists copied, to compare before and after."""
    out: dict[str, Any] = {}
    for name in slots(ImperialState):
        value = getattr(state, name)
        out[name] = list(value) if isinstance(value, list) else value
    return out


def types(state: ImperialState) -> list[str]:
    return [e["type"] for e in state.events]


def of_type(state: ImperialState, kind: str) -> list[dict[str, Any]]:
    return [e for e in state.events if e["type"] == kind]
