"""The exact fallback shared by both samplers: hidden cards to hands by matching."""

from __future__ import annotations

import random

import pytest

from kozyr.bots.matching import SampleError, match_hands
from kozyr.cards import parse_cards


def _mask(text: str) -> int:
    return parse_cards(text).mask


def test_the_only_fit_is_found_whatever_the_random_order() -> None:
    # Holder 0 may take only AS; holder 1 takes two of AS KS QS; JS may stay over.
    # The only fit: AS to holder 0, KS QS to holder 1.
    pool = _mask("AS KS QS")
    allowed = [_mask("AS"), _mask("AS KS QS")]
    for seed in range(20):
        got = match_hands([1, 0], [1, 2], allowed, pool, random.Random(seed))
        assert got == [_mask("AS"), _mask("KS QS")]


def test_spare_cards_may_be_left_over() -> None:
    pool = _mask("AS KS QS JS")
    got = match_hands([0], [2], [_mask("AS KS")], pool, random.Random(0))
    assert got == [_mask("AS KS")]


def test_no_fit_is_an_error() -> None:
    # Both holders want the same single card.
    with pytest.raises(SampleError, match="no hands fit"):
        match_hands([0, 1], [1, 1], [_mask("AS"), _mask("AS")], _mask("AS KS"), random.Random(0))
