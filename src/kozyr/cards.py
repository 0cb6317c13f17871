"""Cards, decks and sets of cards.

A card is a small int, ``suit * 13 + (rank - 2)``, so the 52 cards fit in the low
52 bits of an int and a set of cards (a hand, a trick, a deck) is one int bit mask.
:class:`CardSet` wraps such a mask with a set-like API, in the spirit of
python-chess's ``SquareSet``. Rules engines work on the raw masks for speed; everything
else may use :class:`CardSet`.

>>> c = parse_card("10H")
>>> card_name(c), card_name(c, lang="ru"), rank_of(c), suit_of(c) is Suit.HEARTS
('10H', '10♥', 10, True)
>>> hand = parse_cards("KS QS 10h Д♠")
Traceback (most recent call last):
...
kozyr.cards.CardError: Q♠ is given twice
>>> hand = parse_cards("KS QS 10h 7♦")
>>> len(hand), parse_card("QS") in hand, str(hand)
(4, True, 'QS KS 10H 7D')
>>> str(hand & suit_mask(Suit.SPADES))
'QS KS'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from enum import IntEnum
from types import MappingProxyType
from typing import Any, Final, TypeAlias

from kozyr.texts import LANGS, TEXTS, Lang, text

__all__ = [
    "ACE",
    "CARD_MESSAGES",
    "CARD_NAMES",
    "DECK_32",
    "DECK_36",
    "DECK_52",
    "JACK",
    "KING",
    "QUEEN",
    "RANKS",
    "SUITS",
    "SUIT_CARDS",
    "SUIT_MASKS",
    "SUIT_OF",
    "Card",
    "CardError",
    "CardSet",
    "Lang",
    "Suit",
    "card",
    "card_list",
    "card_name",
    "card_names",
    "cards_in",
    "parse_card",
    "parse_cards",
    "parse_suit",
    "rank_name",
    "rank_of",
    "suit_letters",
    "suit_mask",
    "suit_name",
    "suit_of",
]

Card: TypeAlias = int
"""A card: ``suit * 13 + (rank - 2)``, 0..51."""

CARD_MESSAGES: dict[str, tuple[str, str]] = {
    code: TEXTS[f"rules.{code}"] for code in ("bad_card_text", "bad_suit_text", "card_twice")
}
"""The refusals this module raises, code -> (English, Russian) templates: their part of
the catalogue's refusals (:mod:`kozyr.texts.rules`), which this module renders itself
(it sits below :mod:`kozyr.messages`). Their parameters are ``text`` (shown as it is) and
``card`` (a card, in the reader's notation)."""


class CardError(ValueError):
    """A card, card list or suit could not be read, or is not allowed where it was given.

    ``code`` and ``params`` name the problem in :data:`CARD_MESSAGES` (a part of the
    catalogue's refusals); ``str(error)`` is its English message,
    ``error.message("ru")`` the Russian one.
    """

    def __init__(self, code: str, params: Mapping[str, Any] | None = None) -> None:
        self.code = code
        self.params = dict(params or {})
        super().__init__(self.message("en"))

    def message(self, lang: Lang = "en") -> str:
        return text(
            f"rules.{self.code}",
            lang,
            **{
                k: card_name(v, lang, symbols=True) if k == "card" else str(v)
                for k, v in self.params.items()
            },
        )

    def to_json(self) -> dict[str, Any]:
        """As :meth:`kozyr.games.base.IllegalAction.to_json` (no ruling: ``rule`` None)."""
        return {
            "code": self.code,
            "params": {k: CARD_NAMES[v] if k == "card" else v for k, v in self.params.items()},
            "rule": None,
            "message": self.message("en"),
            "message_ru": self.message("ru"),
        }


class Suit(IntEnum):
    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3


SUITS: tuple[Suit, ...] = tuple(Suit)
JACK, QUEEN, KING, ACE = 11, 12, 13, 14
RANKS: tuple[int, ...] = tuple(range(2, 15))

_SUIT_LETTERS = "SHDC"
_SUIT_SYMBOLS = "♠♥♦♣"
_SUIT_NAMES: dict[Lang, tuple[str, ...]] = {
    lang: tuple(text(f"cards.suit.{letter}", lang) for letter in _SUIT_LETTERS) for lang in LANGS
}
# The notation of ranks: what card_name writes is what parse_card reads (_RANK_INPUT).
_RANK_LETTERS: dict[Lang, dict[int, str]] = {
    "en": {JACK: "J", QUEEN: "Q", KING: "K", ACE: "A"},
    "ru": {JACK: "В", QUEEN: "Д", KING: "К", ACE: "Т"},
}

# What may be typed. The rank comes first and the suit is the last character, so the
# Cyrillic "Т" reads as an ace in rank position and as trefy (clubs) in suit position,
# while the Latin "T" is a ten.
_RANK_INPUT: dict[str, int] = {str(r): r for r in range(2, 11)}
_RANK_INPUT.update({"T": 10, "J": JACK, "Q": QUEEN, "K": KING, "A": ACE})
_RANK_INPUT.update({"В": JACK, "Д": QUEEN, "К": KING, "Т": ACE})
_SUIT_INPUT: dict[str, Suit] = {}
for _i, _s in enumerate(SUITS):
    _SUIT_INPUT[_SUIT_LETTERS[_i]] = _s
    _SUIT_INPUT[_SUIT_SYMBOLS[_i]] = _s
_SUIT_INPUT.update({"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS})
_SUIT_INPUT.update({"П": Suit.SPADES, "Ч": Suit.HEARTS, "Б": Suit.DIAMONDS, "Т": Suit.CLUBS})
_SUIT_INPUT["К"] = Suit.CLUBS  # "крести", the other Russian name of clubs
RANK_INPUT: Mapping[str, int] = MappingProxyType(_RANK_INPUT)
"""Every rank text a person may type (upper case), to its rank number."""
SUIT_INPUT: Mapping[str, Suit] = MappingProxyType(_SUIT_INPUT)
"""Every suit letter or symbol a person may type (upper case), to its suit."""


def card(rank: int, suit: Suit | int) -> Card:
    """The card of a rank (2..14, ace 14) and a suit.

    >>> card(ACE, Suit.SPADES), card(2, Suit.HEARTS)
    (12, 13)
    """
    if rank not in _RANK_SET or not 0 <= suit <= 3:
        raise CardError("bad_card_text", {"text": f"rank {rank!r}, suit {suit!r}"})
    return int(suit) * 13 + rank - 2


_RANK_SET = frozenset(RANKS)


def rank_of(c: Card) -> int:
    """The rank of a card: 2..10, 11 jack, 12 queen, 13 king, 14 ace."""
    return c % 13 + 2


def suit_of(c: Card) -> Suit:
    return SUITS[c // 13]


SUIT_MASKS: Final[tuple[int, ...]] = tuple(0x1FFF << (13 * s) for s in range(4))
"""The bit mask of all 13 cards of each suit, by suit number."""
SUIT_OF: Final[tuple[int, ...]] = tuple(c // 13 for c in range(52))
"""The suit number of each card (a table: the rules engines' hot paths ask it often)."""

# SUIT_CARDS[s][m]: the cards of suit s whose rank bits (13 bits) are set in m, so that a
# mask becomes a list by four look-ups instead of a loop over its bits.
_RANK_LISTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(13) if m >> r & 1) for m in range(1 << 13)
)
SUIT_CARDS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = (
    _RANK_LISTS,
    *(tuple(tuple(r + 13 * s for r in ranks) for ranks in _RANK_LISTS) for s in (1, 2, 3)),
)


def suit_mask(suit: Suit | int) -> int:
    """The bit mask of all 13 cards of a suit."""
    return SUIT_MASKS[int(suit)]


def _deck(lowest_rank: int) -> int:
    per_suit = 0
    for r in range(lowest_rank, ACE + 1):
        per_suit |= 1 << (r - 2)
    return sum(per_suit << (13 * s) for s in range(4))


DECK_52: int = _deck(2)
"""All 52 cards (Emperor, E1)."""
DECK_36: int = _deck(6)
"""6 to ace in four suits (Imperial with three players, I1)."""
DECK_32: int = _deck(7)
"""7 to ace in four suits (Imperial with two players, I1)."""


def rank_name(rank: int, lang: Lang = "en") -> str:
    return _RANK_LETTERS[lang].get(rank, str(rank))


def suit_name(suit: Suit | int, lang: Lang = "en", *, long: bool = False) -> str:
    """A suit's letter (``S``), symbol (Russian: ``♠``) or, with ``long``, its word."""
    if long:
        return _SUIT_NAMES[lang][int(suit)]
    return (_SUIT_LETTERS if lang == "en" else _SUIT_SYMBOLS)[int(suit)]


def suit_letters(suits: int) -> list[str]:
    """The letters of the suits whose bits are set in ``suits`` (bit ``s``: suit ``s``),
    as the JSON views give a seat's voids.

    >>> suit_letters(0b1001), suit_letters(0)
    (['S', 'C'], [])
    """
    return [_SUIT_LETTERS[s] for s in range(4) if suits >> s & 1]


def card_name(c: Card, lang: Lang = "en", *, symbols: bool = False) -> str:
    """A card in notation: ``10H``, ``QS``; in Russian ``10♥``, ``Д♠``.

    >>> card_name(parse_card("QS"), symbols=True)
    'Q♠'
    """
    rank = rank_name(rank_of(c), lang)
    if lang == "en" and not symbols:
        return rank + _SUIT_LETTERS[c // 13]
    return rank + _SUIT_SYMBOLS[c // 13]


CARD_NAMES: Final[tuple[str, ...]] = tuple(card_name(c) for c in range(52))
"""Every card's English name (``"10H"``), by card id: the names of events and records."""


def parse_suit(text: str) -> Suit:
    """Reads a suit: ``S H D C``, ``♠ ♥ ♦ ♣`` or Russian ``П Ч Б Т``.

    >>> parse_suit("h"), parse_suit("♣")
    (<Suit.HEARTS: 1>, <Suit.CLUBS: 3>)
    """
    s = _SUIT_INPUT.get(text.strip().upper())
    if s is None:
        raise CardError("bad_suit_text", {"text": text})
    return s


def parse_card(text: str) -> Card:
    """Reads one card: rank ``2``-``10``, ``J Q K A`` (``T`` is 10) or ``В Д К Т``,
    then suit ``S H D C``, ``♠ ♥ ♦ ♣`` or ``П Ч Б Т``; case does not matter.

    >>> [card_name(parse_card(t)) for t in ("10h", "TH", "Тп", "a♣", "кк")]
    ['10H', '10H', 'AS', 'AC', 'KC']
    >>> parse_card("1H")
    Traceback (most recent call last):
    ...
    kozyr.cards.CardError: “1H” is not a card: write a rank and a suit, like 10H or QS
    """
    t = text.strip().upper()
    if len(t) < 2:
        raise CardError("bad_card_text", {"text": text})
    rank = _RANK_INPUT.get(t[:-1])
    suit = _SUIT_INPUT.get(t[-1])
    if rank is None or suit is None:
        raise CardError("bad_card_text", {"text": text})
    return int(suit) * 13 + rank - 2


def parse_cards(text: str | Iterable[str]) -> CardSet:
    """Reads several cards, separated by spaces or commas, or given as a list.
    A card given twice is an error.

    >>> len(parse_cards(["AS", "KS"])), str(parse_cards("7C,8c"))
    (2, '7C 8C')
    """
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    mask = 0
    for part in parts:
        c = parse_card(part)
        bit = 1 << c
        if mask & bit:
            raise CardError("card_twice", {"card": c})
        mask |= bit
    return CardSet(mask)


def card_list(mask: int) -> list[Card]:
    """The cards of a bit mask as a list, lowest first (the fast form for hot loops).

    >>> card_list(0b1010 | 1 << 51)
    [1, 3, 51]
    """
    return [
        *SUIT_CARDS[0][mask & 0x1FFF],
        *SUIT_CARDS[1][mask >> 13 & 0x1FFF],
        *SUIT_CARDS[2][mask >> 26 & 0x1FFF],
        *SUIT_CARDS[3][mask >> 39 & 0x1FFF],
    ]


def cards_in(mask: int) -> Iterator[Card]:
    """The cards of a bit mask, lowest first.

    >>> list(cards_in(0b1010))
    [1, 3]
    """
    return iter(card_list(mask))


def card_names(mask: int, lang: Lang = "en", *, symbols: bool = False) -> list[str]:
    """The names of the cards of a bit mask, lowest first (events and JSON views).

    >>> card_names(parse_cards("QS 10H").mask), card_names(parse_cards("QS").mask, "ru")
    (['QS', '10H'], ['Д♠'])
    """
    if lang == "en" and not symbols:
        return [CARD_NAMES[c] for c in card_list(mask)]
    return [card_name(c, lang, symbols=symbols) for c in card_list(mask)]


class CardSet:
    """An immutable set of cards stored as one int bit mask.

    >>> s = CardSet.from_cards([parse_card("AS"), parse_card("2H")])
    >>> s | parse_cards("KD"), len(s - parse_cards("AS")), bool(CardSet())
    (CardSet('AS 2H KD'), 1, False)
    """

    __slots__ = ("mask",)

    def __init__(self, mask: int = 0) -> None:
        if mask < 0 or mask >> 52:
            raise CardError("bad_card_text", {"text": f"{mask:#x}"})
        self.mask = mask

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> CardSet:
        mask = 0
        for c in cards:
            mask |= 1 << c
        return cls(mask)

    @staticmethod
    def _mask(other: CardSet | int) -> int:
        return other.mask if isinstance(other, CardSet) else other

    def __iter__(self) -> Iterator[Card]:
        return cards_in(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, c: object) -> bool:
        return isinstance(c, int) and 0 <= c < 52 and bool(self.mask >> c & 1)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __or__(self, other: CardSet | int) -> CardSet:
        return CardSet(self.mask | self._mask(other))

    def __and__(self, other: CardSet | int) -> CardSet:
        return CardSet(self.mask & self._mask(other))

    def __sub__(self, other: CardSet | int) -> CardSet:
        return CardSet(self.mask & ~self._mask(other))

    def __xor__(self, other: CardSet | int) -> CardSet:
        return CardSet(self.mask ^ self._mask(other))

    def __le__(self, other: CardSet | int) -> bool:
        return self.mask & ~self._mask(other) == 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __int__(self) -> int:
        return self.mask

    def of_suit(self, suit: Suit | int) -> CardSet:
        return CardSet(self.mask & suit_mask(suit))

    def names(self, lang: Lang = "en", *, symbols: bool = False) -> list[str]:
        return [card_name(c, lang, symbols=symbols) for c in self]

    def __str__(self) -> str:
        return " ".join(self.names())

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"
