"""The sampler keeps the deal's declarations (I6); the search value has no flat ties."""

from __future__ import annotations

import random

import pytest
from imperial_bot_helpers import cards, end_observation, random_positions

from kozyr.bots.imperial.sampler import Declared, Sampler, declared
from kozyr.bots.imperial.search import rank_in_worlds
from kozyr.bots.imperial.value import TRICK_TIE, search_value, value
from kozyr.cards import parse_card
from kozyr.games.imperial import ImperialObservation, ImperialOptions, ImperialState
from kozyr.games.tricks import suits_cards

HEARTS = suits_cards(1 << 1)
DIAMOND_IMPERIAL = cards("KD QD JD AD")


def declared_observation(with_events: bool = True) -> ImperialObservation:
    """Seat 0 (to lead) holds every club and 7-10 of diamonds; trump spades, 8S turned.

    Seat 1 (the dealer) announced a point of five hearts worth 45 (I3: e.g. 7 8 9 10 A, or
    7 8 and three of 10 J Q K), no imperial, and the honour QS. His 11 hidden cards come
    from the 18 unseen ones: hearts (8), 9S 10S AS, JD QD KD AD, and the honours KS JS 7S,
    which he did not declare, so they are in the stock (I6).
    """
    hand = cards("7C 8C 9C 10C JC QC KC AC 7D 8D 9D 10D")
    events: tuple[dict[str, object], ...] = (
        {"type": "deal", "number": 1, "trump": "S", "dealer": 1, "turnup": "8S"},
        {"type": "declare", "seat": 0, "kind": "imperials", "count": 1, "marked": True},
        {"type": "declare", "seat": 0, "kind": "point", "suit": "C", "length": 8, "value": 75},
        {"type": "declare", "seat": 1, "kind": "point", "suit": "H", "length": 5, "value": 45},
        {"type": "declare", "seat": 1, "kind": "honours", "cards": ["QS"]},
    )
    return ImperialObservation(
        seat=0,
        options=ImperialOptions(players=2),
        hand=hand,
        dealer=1,
        trump=0,
        turnup=parse_card("8S"),
        trump_card=None,
        scores=((1, 0), (0, 4)),
        to_act=0,
        legal_actions=tuple(c for c in range(52) if hand >> c & 1),
        trick=(),
        tricks=(0, 0),
        voids=(0, 0),
        played=(0, 0),
        hand_sizes=(12, 12),
        shown=(cards("7C JC QC KC AC"), cards("QS")),
        captures=(0, 0),
        deal_number=1,
        over=False,
        winner=None,
        waiting_for_deal=False,
        events=events if with_events else (),  # type: ignore[arg-type]
    )


def test_i6_declarations_are_read_from_the_deal_events() -> None:
    got = declared(declared_observation())
    assert got[1] == Declared(point=(1, 5, 45), imperials=0)
    assert got[0] == Declared(point=(3, 8, 75), imperials=1)
    # Without the events nothing is known (a hand-built observation).
    assert declared(declared_observation(with_events=False))[1] == Declared(None, None)


def test_i6_sampled_worlds_never_contradict_the_point_or_the_imperial_count() -> None:
    sampler = Sampler(declared_observation())
    rng = random.Random(5)
    for _ in range(300):
        hidden = sampler.hidden(rng)
        other = hidden[1]
        assert other.bit_count() == 12
        hearts = other & HEARTS
        assert hearts.bit_count() == 5  # the announced length
        # I3 values of the hearts held: 7 8 9 pips, 10 J Q K ten each, A eleven.
        worth = {"7H": 7, "8H": 8, "9H": 9, "10H": 10, "JH": 10, "QH": 10, "KH": 10, "AH": 11}
        assert sum(v for name, v in worth.items() if hearts & cards(name)) == 45
        # No imperial announced: never all of K Q J A of diamonds (I6.3).
        assert other & DIAMOND_IMPERIAL != DIAMOND_IMPERIAL
        # Undeclared honours are nobody's (I6.5).
        assert not other & cards("KS JS 7S")


def test_without_the_declarations_the_same_sampler_breaks_them() -> None:
    # The test above has teeth: an observation without the events deals other points.
    sampler = Sampler(declared_observation(with_events=False))
    rng = random.Random(5)
    lengths = {(sampler.hidden(rng)[1] & HEARTS).bit_count() for _ in range(100)}
    assert lengths - {5}


@pytest.mark.parametrize("players", [2, 3])
def test_i6_real_deals_fit_their_declarations(players: int) -> None:
    # The true hands always fit the announcements, and so does every sampled world.
    rng = random.Random(2)
    for state in random_positions(players, 40, seed=60 + players):
        seat = state.to_act
        assert seat is not None
        sampler = Sampler(state.observation(seat))
        assert sampler.fits_declarations(list(state.hands))
        for _ in range(5):
            assert sampler.fits_declarations(sampler.hidden(rng))


def two_card_ending() -> tuple[ImperialObservation, ImperialState]:
    """Seat 0 leads with AD 7H; seat 1 holds 8H 9C; no trumps are left (all in the stock).

    Seat 1 has 7 tricks already (it scores 4 for them either way, I10) and seat 0 has 3,
    so no card changes the score sheet: AD wins a trick (and maybe the 7H after it),
    7H loses both (8H wins, then 9C is led and AD is discarded).
    """
    obs = end_observation(
        hand="AD 7H",
        played0="9H 10H JH QH KH AH 7D 8D 9D 10D",
        played1="JD QD KD 7C 8C 10C JC QC KC AC",
        shown1="",
        scores=((0, 0), (0, 0)),
        turnup="8S",
        tricks=(3, 7),
    )
    hidden = [obs.hand or 0, cards("8H 9C")]
    return obs, ImperialState.from_observation(obs, hidden)


def test_cards_that_differ_only_in_tricks_are_not_tied() -> None:
    _obs, world = two_card_ending()
    ad, h7 = parse_card("AD"), parse_card("7H")
    # The score sheet alone ties them (the old flat tie).
    ends = {}
    for card in (ad, h7):
        child = world.clone()
        points, tricks = child.play_points[:], child.tricks_won[:]
        child.apply(card)
        while child.to_act is not None and child.deal_number == 1:
            child.apply(child.legal_actions()[0])
        ends[card] = (value(child, 0), search_value(child, 0, points, tricks))
    assert ends[ad][0] == ends[h7][0]
    assert ends[ad][1] > ends[h7][1]
    ranked = rank_in_worlds(
        [h7, ad], 0, lambda _rng: world.clone(), random.Random(0), 10.0, max_worlds=3
    )
    assert [r.action for r in ranked] == [ad, h7]
    # At least one trick apart (AD takes one or two, 7H none): a difference of 1 each side.
    assert ranked[0].value - ranked[1].value >= 2 * TRICK_TIE - 1e-12
