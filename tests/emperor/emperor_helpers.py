"""Shared helpers for the Emperor tests: hand-built deals and scripted play."""

from __future__ import annotations

from typing import Any

from kozyr.cards import parse_card, parse_cards
from kozyr.games.emperor import EmperorDeal, EmperorState

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def cards(text: str) -> int:
    return parse_cards(text).mask


def suit(letter: str, ranks: str = " ".join(RANKS)) -> int:
    """All cards of one suit with the given ranks, e.g. suit("S", "2 3 4")."""
    return cards(" ".join(r + letter for r in ranks.split()))


# Round 1 deal: every seat holds one whole suit; clubs are trumps (2C shown, in seat 3's
# hand). Whoever leads, seat 3 wins every trick: he leads clubs nobody can follow and
# trumps anything else (E10), so he takes all 13.
SUITS_DEAL = EmperorDeal((suit("S"), suit("H"), suit("D"), suit("C")), parse_card("2C"))
SUITS_DEAL_LATER = EmperorDeal((suit("S"), suit("H"), suit("D"), suit("C")))

# Round 2 deal for the title order King 3, Prince 0, Soldier 1, Jester 2 (see test_e6).
ROUND2_DEAL = EmperorDeal(
    (
        suit("S", "9 10 J Q K A") | suit("D", "2 3 4 5 6 7 8"),  # seat 0, Prince
        suit("H", "8 9 10 J Q K A") | suit("D", "9 10 J Q K A"),  # seat 1, Soldier
        suit("C"),  # seat 2, Jester
        suit("S", "2 3 4 5 6 7 8") | suit("H", "2 3 4 5 6 7"),  # seat 3, King
    )
)


def play_max(state: EmperorState, n: int) -> None:
    """Apply the highest legal action n times."""
    for _ in range(n):
        state.apply(max(state.legal_actions()))


def trick(state: EmperorState, lead: str) -> None:
    """The leader plays ``lead``; every follower plays his highest legal card."""
    state.play(lead)
    play_max(state, state.players - 1)


def snapshot(state: EmperorState) -> Any:
    return (
        state.summary(),
        state.hands,
        state.phase,
        list(state.events),
        list(state.actions),
        [state.observation(s).to_json() for s in [None, *range(state.players)]],
    )


def after_round1_suits(**opts: Any) -> EmperorState:
    """Round 1 on SUITS_DEAL with join order 0,1,2,3: seat 3 leads and takes all 13;
    titles King 3, Prince 0, Soldier 1, Jester 2 (the others keep their order of play
    from the first leader: 3, 0, 1, 2). Round 2 is then dealt ROUND2_DEAL."""
    from kozyr.games.emperor import EmperorOptions

    state = EmperorState.new(EmperorOptions(**opts), deals=[SUITS_DEAL])
    play_max(state, 52)
    state.add_deal(ROUND2_DEAL)
    return state
