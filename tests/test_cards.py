"""kozyr.cards: notation in both languages, decks (I1, E1) and the bit-mask card set."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kozyr.cards import (
    ACE,
    DECK_32,
    DECK_36,
    DECK_52,
    JACK,
    KING,
    QUEEN,
    CardError,
    CardSet,
    Suit,
    card,
    card_name,
    parse_card,
    parse_cards,
    parse_suit,
    rank_of,
    suit_of,
)


def test_card_ids_are_suit_major() -> None:
    # 2S is the lowest card, AC the highest: suit * 13 + rank - 2.
    assert card(2, Suit.SPADES) == 0
    assert card(ACE, Suit.SPADES) == 12
    assert card(2, Suit.HEARTS) == 13
    assert card(ACE, Suit.CLUBS) == 51


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("10H", 10, Suit.HEARTS),
        ("TH", 10, Suit.HEARTS),
        ("th", 10, Suit.HEARTS),
        ("QS", QUEEN, Suit.SPADES),
        ("Q♠", QUEEN, Suit.SPADES),
        ("J♦", JACK, Suit.DIAMONDS),
        ("KC", KING, Suit.CLUBS),
        ("AC", ACE, Suit.CLUBS),
        ("7♣", 7, Suit.CLUBS),
        ("2d", 2, Suit.DIAMONDS),
        # Russian rank letters: В валет, Д дама, К король, Т туз.
        ("В♥", JACK, Suit.HEARTS),
        ("Д♠", QUEEN, Suit.SPADES),
        ("К♦", KING, Suit.DIAMONDS),
        ("Т♣", ACE, Suit.CLUBS),
        # Russian suit letters in suit position: П пики, Ч черви, Б бубны, Т трефы.
        ("ТТ", ACE, Suit.CLUBS),
        ("10П", 10, Suit.SPADES),
        ("дч", QUEEN, Suit.HEARTS),
        (" 9б ", 9, Suit.DIAMONDS),
    ],
)
def test_parse_card(text: str, rank: int, suit: Suit) -> None:
    c = parse_card(text)
    assert rank_of(c) == rank
    assert suit_of(c) is suit


@pytest.mark.parametrize("text", ["", "H", "1H", "11H", "ZZ", "10X", "QQ", "10", "AS AS", "Ж♠"])
def test_malformed_card_is_a_value_error_naming_the_text(text: str) -> None:
    with pytest.raises(CardError) as err:
        parse_card(text)
    assert isinstance(err.value, ValueError)
    assert err.value.code == "bad_card_text" and err.value.params == {"text": text}
    assert f"“{text}” is not a card" in str(err.value)
    assert f"«{text}» — не карта" in err.value.message("ru")


def test_names_in_both_languages() -> None:
    c = card(QUEEN, Suit.SPADES)
    assert card_name(c) == "QS"
    assert card_name(c, symbols=True) == "Q♠"
    assert card_name(c, "ru") == "Д♠"
    assert card_name(card(10, Suit.HEARTS), "ru") == "10♥"
    assert card_name(card(ACE, Suit.CLUBS), "ru") == "Т♣"


def test_parse_suit() -> None:
    assert parse_suit("S") is Suit.SPADES
    assert parse_suit("♥") is Suit.HEARTS
    assert parse_suit("б") is Suit.DIAMONDS
    with pytest.raises(CardError, match="“X” is not a suit") as err:
        parse_suit("X")
    assert err.value.code == "bad_suit_text" and err.value.message("ru").startswith(
        "«X» — не масть"
    )


def test_i1_e1_decks() -> None:
    # I1: 32 cards 7..A and 36 cards 6..A in four suits; E1: 52 cards.
    assert len(CardSet(DECK_32)) == 4 * 8
    assert len(CardSet(DECK_36)) == 4 * 9
    assert len(CardSet(DECK_52)) == 52
    assert {rank_of(c) for c in CardSet(DECK_32)} == {7, 8, 9, 10, JACK, QUEEN, KING, ACE}
    assert {rank_of(c) for c in CardSet(DECK_36)} == {6, 7, 8, 9, 10, JACK, QUEEN, KING, ACE}
    assert DECK_32 & ~DECK_36 == 0


def test_cardset_is_set_like() -> None:
    a = parse_cards("AS KS 7H")
    b = parse_cards("KS 8D")
    assert len(a) == 3
    assert parse_card("KS") in a
    assert parse_card("8D") not in a
    assert "KS" not in a  # only card ids are members
    assert a | b == parse_cards("AS KS 7H 8D")
    assert a & b == parse_cards("KS")
    assert a - b == parse_cards("AS 7H")
    assert a ^ b == parse_cards("AS 7H 8D")
    assert parse_cards("KS") <= a
    assert a.of_suit(Suit.SPADES) == parse_cards("KS AS")
    assert sorted(a) == list(a)
    assert a.names("ru") == ["К♠", "Т♠", "7♥"]
    assert CardSet(a.mask) == a and hash(CardSet(a.mask)) == hash(a)


def test_card_given_twice_is_refused() -> None:
    with pytest.raises(CardError, match="Q♠ is given twice") as err:
        parse_cards("QS 10H Д♠")
    assert err.value.to_json() == {
        "code": "card_twice",
        "params": {"card": "QS"},
        "rule": None,
        "message": "Q♠ is given twice",
        "message_ru": "Д♠ указана дважды",
    }


def test_mask_outside_the_deck_is_refused() -> None:
    with pytest.raises(CardError):
        CardSet(1 << 52)


@given(st.integers(min_value=0, max_value=51))
def test_name_and_parse_round_trip(c: int) -> None:
    assert parse_card(card_name(c)) == c
    assert parse_card(card_name(c, "ru")) == c
    assert parse_card(card_name(c, symbols=True)) == c


@given(st.integers(min_value=0, max_value=(1 << 52) - 1))
def test_iteration_matches_mask(mask: int) -> None:
    s = CardSet(mask)
    assert CardSet.from_cards(s) == s
    assert len(list(s)) == len(s) == bin(mask).count("1")
