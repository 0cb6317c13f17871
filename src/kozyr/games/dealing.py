"""Where the cards come from: the seeded shuffles of both games, fair and checkable.

A game is fixed by its options, its seed (or explicit deals) and its actions (B2). The
seed drives every shuffle through one of two schemes:

``hmac-sha256`` (:data:`SECURE`, every new game)
    The seed is a 256-bit number. Each shuffle reads a keyed stream: block ``i`` is
    HMAC-SHA-256 with the seed (32 bytes, big-endian) as key and
    ``kozyr/<game>/<label>/<i>`` as message; the blocks are cut into 32-bit words, and an
    unbiased Fisher-Yates shuffle draws each index by rejection sampling. Without the
    seed nobody can tell the next card from the cards already seen: that is what HMAC
    guarantees. A server draws the seed with :mod:`secrets` and publishes its
    :func:`commitment` (``sha256`` of the seed) when the table starts; the finished record
    reveals the seed, so anyone can recompute every deal (``kozyr verify``).

``mt19937`` (:data:`LEGACY`, records written before commitments existed)
    Python's Mersenne Twister seeded with ``kozyr:<game>:<seed>:<label>``. With small
    seeds this is predictable from one's own hand (a 2**31 search); it is kept only so
    that old records still replay exactly.

A small seed typed for reproducibility (``kozyr play --seed 7``) uses the secure scheme
too, but is not secret: whoever knows it knows every deal.

>>> deck = list(range(8))
>>> shuffle(deck, "imperial", 7, "deal/0", SECURE)
>>> sorted(deck) == list(range(8))
True
>>> a, b = list(range(32)), list(range(32))
>>> shuffle(a, "imperial", 7, "deal/0", SECURE); shuffle(b, "imperial", 7, "deal/0", SECURE)
>>> a == b
True
"""

from __future__ import annotations

import hashlib
import random
import struct
from typing import Final

__all__ = [
    "LEGACY",
    "SCHEMES",
    "SECURE",
    "SEED_BITS",
    "KeyedStream",
    "check_optional_seed",
    "check_seed",
    "commitment",
    "deal_one_by_one",
    "parse_seed_hex",
    "randbelow",
    "seed_hex",
    "shuffle",
]

SECURE: Final = "hmac-sha256"
LEGACY: Final = "mt19937"
SCHEMES: Final = (SECURE, LEGACY)
SEED_BITS: Final = 256
_SEED_BYTES: Final = SEED_BITS // 8
_WORD: Final = 1 << 32


def check_seed(seed: object, scheme: str) -> None:
    """Refuses a seed the scheme cannot use (ValueError naming it). The seed is taken as
    any object: a compiled ``int`` parameter would turn ``True`` into 1 before the check."""
    if scheme not in SCHEMES:
        raise ValueError(f"unknown dealing scheme {scheme!r}; known: {', '.join(SCHEMES)}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"a seed is a whole number, not {seed!r}")
    if scheme == SECURE and not 0 <= seed < 1 << SEED_BITS:
        raise ValueError(f"a {SECURE} seed is a whole number from 0 to 2**256 - 1, not {seed}")


def check_optional_seed(seed: object, scheme: str) -> None:
    """:func:`check_seed` for a seed that may be None (no seed): called with the argument
    as given, so that a compiled caller has not yet narrowed it to an ``int``."""
    if seed is not None:
        check_seed(seed, scheme)


def seed_hex(seed: int) -> str:
    """The seed as the 64 hex digits records carry.

    >>> seed_hex(255)[-4:], len(seed_hex(255))
    ('00ff', 64)
    """
    check_seed(seed, SECURE)
    return seed.to_bytes(_SEED_BYTES, "big").hex()


def parse_seed_hex(text: str) -> int:
    """The seed from its 64 hex digits (ValueError naming what is wrong).

    >>> parse_seed_hex("00" * 31 + "ff")
    255
    """
    if not isinstance(text, str) or len(text) != 2 * _SEED_BYTES:
        raise ValueError(f"a seed is {2 * _SEED_BYTES} hex digits, not {text!r}")
    try:
        return int.from_bytes(bytes.fromhex(text), "big")
    except ValueError:
        raise ValueError(f"a seed is {2 * _SEED_BYTES} hex digits, not {text!r}") from None


def commitment(seed: int) -> str:
    """``sha256`` of the seed's 32 bytes, in hex: published before the first deal, it
    binds the dealer to the seed without revealing it.

    >>> commitment(0) == hashlib.sha256(bytes(32)).hexdigest()
    True
    """
    check_seed(seed, SECURE)
    return hashlib.sha256(seed.to_bytes(_SEED_BYTES, "big")).hexdigest()


class KeyedStream:
    """Uniform integers from HMAC-SHA-256(seed, ``domain``/block number), in 32-bit words."""

    __slots__ = ("_block", "_domain", "_key", "_words")

    def __init__(self, seed: int, domain: str) -> None:
        check_seed(seed, SECURE)
        self._key = seed.to_bytes(_SEED_BYTES, "big")
        self._domain = domain
        self._block = 0
        self._words: list[int] = []

    def _word(self) -> int:
        if not self._words:
            words = _words(self._key, f"{self._domain}/", self._block, self._block + 1)
            self._block += 1
            # popped from the end: reversed so that words are used in stream order
            self._words = words[::-1]
        return self._words.pop()

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (1 <= n <= 2**32), without modulo bias:
        words at or above the largest multiple of ``n`` are drawn again."""
        if not 1 <= n <= _WORD:
            raise ValueError(f"n must be 1 to 2**32, not {n}")
        limit = _WORD - _WORD % n
        while True:
            w = self._word()
            if w < limit:
                return w % n


def shuffle(cards: list[int], game: str, seed: int, label: str, scheme: str) -> None:
    """Shuffles ``cards`` in place, fixed by game, seed and ``label`` (``deal/3``, ``start``)."""
    check_seed(seed, scheme)
    if scheme == LEGACY:
        random.Random(_legacy_key(game, seed, label)).shuffle(cards)
        return
    # The same stream as KeyedStream, read in bulk: every shuffle of a deck needs about one
    # word per card, so the blocks for that are made at once and unpacked in one call.
    key = seed.to_bytes(_SEED_BYTES, "big")
    domain = f"kozyr/{game}/{label}/"
    n = len(cards)
    blocks = max(1, (n + 6) // 8)  # n - 1 draws: one word each unless one is redrawn
    words = _words(key, domain, 0, blocks)
    k = 0
    for i in range(n - 1, 0, -1):  # Fisher-Yates, from the top
        m = i + 1
        limit = _WORD - _WORD % m
        while True:
            if k == len(words):  # rejections used up the words: the next blocks
                words += _words(key, domain, blocks, blocks + 2)
                blocks += 2
            w = words[k]
            k += 1
            if w < limit:
                break
        j = w % m
        cards[i], cards[j] = cards[j], cards[i]


_IPAD: Final = int.from_bytes(b"\x36" * 64, "big")
_OPAD: Final = int.from_bytes(b"\x5c" * 64, "big")


def _words(key: bytes, domain: str, first: int, end: int) -> list[int]:
    """The 32-bit words of blocks ``first`` to ``end`` - 1: HMAC-SHA-256(key, domain +
    block number) each, the very bytes of ``hmac.digest``. HMAC (RFC 2104) is written out
    so that the key's two padded hashes are made once for all the blocks of a shuffle, not
    once a block: a deal's shuffle took 8 of its 17 µs in ``hmac.digest``."""
    k = int.from_bytes(key.ljust(64, b"\0"), "big")  # keys are 32 bytes: below the block
    inner = hashlib.sha256((k ^ _IPAD).to_bytes(64, "big"))
    outer = hashlib.sha256((k ^ _OPAD).to_bytes(64, "big"))
    raw = bytearray()
    for b in range(first, end):
        h = inner.copy()
        h.update(f"{domain}{b}".encode())
        o = outer.copy()
        o.update(h.digest())
        raw += o.digest()
    return list(struct.unpack(f">{len(raw) // 4}I", raw))


def deal_one_by_one(deck: list[int], players: int, cards: int) -> list[int]:
    """The hands (bit masks) of dealing the first ``cards`` cards of ``deck`` one at a
    time: card ``i`` to seat ``i % players``.

    >>> deal_one_by_one([0, 1, 2, 3, 4], 2, 4) == [0b0101, 0b1010]
    True
    """
    hands = [0] * players
    for seat in range(players):
        m = 0
        for c in deck[seat:cards:players]:
            m |= 1 << c
        hands[seat] = m
    return hands


def randbelow(n: int, game: str, seed: int, label: str, scheme: str) -> int:
    """One uniform draw from ``range(n)``, fixed by game, seed and ``label``."""
    check_seed(seed, scheme)
    if scheme == LEGACY:
        return random.Random(_legacy_key(game, seed, label)).randrange(n)
    return KeyedStream(seed, f"kozyr/{game}/{label}").below(n)


def legacy_sample(n: int, game: str, seed: int, label: str) -> list[int]:
    """The old join-order draw (``Random.sample``), kept for old records."""
    return random.Random(_legacy_key(game, seed, label)).sample(range(n), n)


def _legacy_key(game: str, seed: int, label: str) -> str:
    # The old streams were named "kozyr:<game>:<seed>:<index>" with a bare deal index.
    return f"kozyr:{game}:{seed}:{label.removeprefix('deal/')}"
