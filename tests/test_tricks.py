"""kozyr.games.tricks: the trick rules both engines share (I2, I7, E1, E9, E10).

Every expected value is worked out by hand in the comments.
"""

from __future__ import annotations

import pytest

from kozyr.cards import SUIT_MASKS, Suit, card_list, card_names, parse_card, parse_cards
from kozyr.games.imperial.card_tables import ABOVE as ABOVE_I2
from kozyr.games.tricks import (
    ABOVE_NATURAL,
    NO_TRUMP,
    TRUMP_MASKS,
    above_table,
    beaters,
    beats,
    follow_mask,
    legal_cards,
    must_beat_mask,
    refusal,
    shown_voids,
    suits_cards,
    trick_winner,
)

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS


def m(text: str) -> int:
    return parse_cards(text).mask


def c(text: str) -> int:
    return parse_card(text)


def names(mask: int) -> str:
    return " ".join(card_names(mask))


def test_suit_masks_and_no_trump() -> None:
    # Spades are cards 0-12, hearts 13-25; no trumps has no trump cards at all (E9).
    assert SUIT_MASKS[S] == (1 << 13) - 1
    assert SUIT_MASKS[H] == ((1 << 13) - 1) << 13
    assert TRUMP_MASKS[NO_TRUMP] == 0
    assert suits_cards(1 << H | 1 << C) == SUIT_MASKS[H] | SUIT_MASKS[C]
    assert suits_cards(0) == 0


def test_card_list_is_ascending_by_id() -> None:
    # 2S=0, AS=12, 2H=13, AC=51.
    assert card_list(m("AC 2H AS 2S")) == [0, 12, 13, 51]
    assert card_list(0) == []


def test_above_natural_is_ace_high_e1() -> None:
    # E1: A K Q J 10 ... 2. Above the 10 of hearts: J Q K A of hearts, nothing else.
    assert names(ABOVE_NATURAL[c("10H")]) == "JH QH KH AH"
    assert ABOVE_NATURAL[c("AH")] == 0


def test_above_imperial_order_i2() -> None:
    # I2: K Q J A 10 9 8 7 6. Above the ace: J Q K (the ace is only fourth).
    assert names(ABOVE_I2[c("AS")]) == "JS QS KS"
    assert names(ABOVE_I2[c("JS")]) == "QS KS"
    assert ABOVE_I2[c("KS")] == 0
    # Above the 10: the ace and the three court cards.
    assert names(ABOVE_I2[c("10D")]) == "JD QD KD AD"


def test_above_table_of_any_order() -> None:
    # A made-up order where the 2 is the highest card: every other card of its suit lies
    # below it.
    strength = [100 if i % 13 == 0 else i for i in range(52)]
    assert names(above_table(strength)[c("AS")]) == "2S"
    assert above_table(strength)[c("2S")] == 0


@pytest.mark.parametrize(
    ("hand", "led", "trump", "want"),
    [
        # Leading: any card.
        ("7H KS 8D", -1, S, "KS 7H 8D"),
        # Hearts led, holds 7H: must follow (I7, E10).
        ("7H KS 8D", H, S, "7H"),
        # Clubs led, no clubs, holds the trump KS: must trump.
        ("7H KS 8D", C, S, "KS"),
        # Clubs led, no clubs; hearts are trump and he holds 7H: only 7H.
        ("7H KS 8D", C, H, "7H"),
        # Clubs led, no clubs, no diamonds (trump): any card.
        ("7H KS", C, D, "KS 7H"),
        # No trumps (E9): with no clubs any card.
        ("7H KS 8D", C, NO_TRUMP, "KS 7H 8D"),
    ],
)
def test_follow_then_trump_then_anything(hand: str, led: int, trump: int, want: str) -> None:
    assert names(follow_mask(m(hand), led, trump)) == want
    assert card_names(sum(1 << x for x in legal_cards(m(hand), led, trump))) == want.split()
    assert legal_cards(m(hand), led, trump) == sorted(legal_cards(m(hand), led, trump))


def test_beaters_natural_e10() -> None:
    # Spades trump. Best is QH (hearts led): KH, AH and every spade beat it.
    assert beaters(c("QH"), S, ABOVE_NATURAL) == m("KH AH") | SUIT_MASKS[S]
    # Best is a trump 9S: only higher spades (10S JS QS KS AS).
    assert names(beaters(c("9S"), S, ABOVE_NATURAL)) == "10S JS QS KS AS"
    # No trumps: only higher hearts.
    assert names(beaters(c("QH"), NO_TRUMP, ABOVE_NATURAL)) == "KH AH"
    assert beats(c("2S"), c("AH"), S, ABOVE_NATURAL)  # a trump over a plain ace
    assert not beats(c("AD"), c("2H"), S, ABOVE_NATURAL)  # another plain suit never wins


def test_beaters_imperial_order_i7() -> None:
    # Clubs trump, best AH: the jack, queen and king of hearts (I2) and every club.
    assert beaters(c("AH"), C, ABOVE_I2) == m("JH QH KH") | SUIT_MASKS[C]
    assert not beats(c("KD"), c("7H"), C, ABOVE_I2)


@pytest.mark.parametrize(
    ("cards", "trump", "above", "want"),
    [
        # Hearts led, no trump played: the highest heart, AH (natural order).
        ("10H AH 3H KH", S, ABOVE_NATURAL, 1),
        # The same cards in Imperial order: KH beats AH (I2).
        ("10H AH 7H KH", S, ABOVE_I2, 3),
        # A low trump beats the plain ace; a higher trump beats it again.
        ("AH 2S 3S KD", S, ABOVE_NATURAL, 2),
        # Off-suit cards never win without trumps (E9).
        ("5H AD AS AC", NO_TRUMP, ABOVE_NATURAL, 0),
    ],
)
def test_trick_winner(cards: str, trump: int, above: tuple[int, ...], want: int) -> None:
    assert trick_winner([c(x) for x in cards.split()], trump, above) == want


def test_must_beat_mask_i7_must_head() -> None:
    # Hearts led, best QH, trump spades, hand 7H KH 9S: must follow with a heart that
    # beats QH in I2 order: only KH.
    assert names(must_beat_mask(m("7H KH 9S"), H, c("QH"), S, ABOVE_I2)) == "KH"
    # No heart beats KH: any heart.
    assert names(must_beat_mask(m("7H QH 9S"), H, c("KH"), S, ABOVE_I2)) == "7H QH"
    # Best is a trump 10S over hearts, hand has no hearts: only trumps above 10S, the AS
    # (I2: A beats 10) and QS; the 7S does not beat it.
    assert names(must_beat_mask(m("7S QS AS 8D"), H, c("10S"), S, ABOVE_I2)) == "QS AS"
    # Leading: any card.
    assert must_beat_mask(m("7S 8D"), -1, -1, S, ABOVE_I2) == m("7S 8D")


def test_shown_voids() -> None:
    # Hearts led, trump spades. Following: nothing shown.
    assert shown_voids(c("2H"), H, S) == 0
    # Trumping: no hearts.
    assert shown_voids(c("2S"), H, S) == 1 << H
    # Neither: no hearts and no spades.
    assert shown_voids(c("2D"), H, S) == 1 << H | 1 << S
    # No trumps: no hearts only.
    assert shown_voids(c("2D"), H, NO_TRUMP) == 1 << H
    # Leading shows nothing.
    assert shown_voids(c("2D"), -1, S) == 0


def test_refusal_codes() -> None:
    hand = m("7H KS 8D")
    # Not held.
    assert refusal(c("AS"), hand, -1, -1, S, ABOVE_I2) == ("not_in_hand", {"card": c("AS")})
    # Hearts led, 8D instead of 7H: must follow hearts.
    assert refusal(c("8D"), hand, H, c("10H"), S, ABOVE_I2) == (
        "must_follow",
        {"card": c("8D"), "suit": H},
    )
    # Clubs led, 8D while holding the trump KS: must trump.
    assert refusal(c("8D"), hand, C, c("AC"), S, ABOVE_I2) == (
        "must_trump",
        {"card": c("8D"), "led": C, "trump": S},
    )
    # Legal plays: None.
    assert refusal(c("7H"), hand, H, c("10H"), S, ABOVE_I2) is None
    assert refusal(c("8D"), hand, -1, -1, S, ABOVE_I2) is None
    # must_head: hearts led, best 10H; 7H does not beat it, KH does (I2): must beat.
    assert refusal(c("7H"), m("7H KH"), H, c("10H"), S, ABOVE_I2, True) == (
        "must_beat",
        {"card": c("7H"), "best": c("10H"), "cards": [c("KH")]},
    )
    # Without must_head 7H is fine.
    assert refusal(c("7H"), m("7H KH"), H, c("10H"), S, ABOVE_I2) is None
