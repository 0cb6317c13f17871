"""Stake terms and settlement (B5), worked by hand; and for random results: every
settlement sums to zero and no seat pays more than its escrowed maximum loss."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kozyr.games.stakes import StakeError, StakeTerms, max_loss, settle_emperor, settle_imperial


def test_imperial_per_game_each_loser_pays_the_winner_s() -> None:
    # B5: 3 players, S = 7, seat 2 wins: seats 0 and 1 pay 7 each, seat 2 gets 14
    assert settle_imperial(StakeTerms("per_game", 7), 2, [4, 1, 5], 5) == [-7, -7, 14]
    assert max_loss(StakeTerms("per_game", 7), 3, 5) == 7


def test_imperial_per_imperial_pays_for_each_missing_imperial() -> None:
    # target 5, S = 3: seat 0 marked 4 -> pays 3 x 1; seat 1 marked 0 -> pays 3 x 5
    assert settle_imperial(StakeTerms("per_imperial", 3), 2, [4, 0, 5], 5) == [-3, -15, 18]
    assert max_loss(StakeTerms("per_imperial", 3), 2, 5) == 15


def test_emperor_per_place_four_players() -> None:
    # +3S +1S -1S -3S by final total, S = 2
    assert settle_emperor(StakeTerms("per_place", 2), [20, 44, 31, 9]) == [-2, 6, 2, -6]
    assert max_loss(StakeTerms("per_place", 2), 4, None) == 6


def test_emperor_per_place_three_players_and_ties() -> None:
    # 3 players: +2S 0 -2S; seats 0 and 2 tie for first: (2 + 0) / 2 = 1 S each
    assert settle_emperor(StakeTerms("per_place", 5), [30, 10, 30]) == [5, -10, 5]
    # all tied: everyone's share of +2 + 0 - 2 is 0
    assert settle_emperor(StakeTerms("per_place", 5), [12, 12, 12]) == [0, 0, 0]
    # 4 players, three tied last: (1 - 1 - 3) / 3 = -1 S each
    assert settle_emperor(StakeTerms("per_place", 4), [50, 8, 8, 8]) == [12, -4, -4, -4]


def test_emperor_per_trick_caps_each_pair_at_ten_s() -> None:
    # S = 1; pairs: 0>1 by 10, 0>2 by 5, 0>3 by 15 (cap 10), 2>1 by 5, 1>3 by 5, 2>3 by 10
    got = settle_emperor(StakeTerms("per_trick", 1), [40, 30, 35, 25])
    assert got == [10 + 5 + 10, -10 - 5 + 5, -5 + 5 + 10, -10 - 5 - 10]
    assert max_loss(StakeTerms("per_trick", 1), 4, None) == 30


@pytest.mark.parametrize(
    ("data", "game", "code"),
    [
        ({"kind": "per_game", "chips": 0}, "imperial", "bad_stake_chips"),
        ({"kind": "per_game", "chips": -5}, "imperial", "bad_stake_chips"),
        ({"kind": "per_game", "chips": 2.5}, "imperial", "bad_stake_chips"),
        ({"kind": "per_game", "chips": "10"}, "imperial", "bad_stake_chips"),
        ({"kind": "per_game", "chips": True}, "imperial", "bad_stake_chips"),
        ({"kind": "per_game", "chips": 1_000_001}, "imperial", "bad_stake_chips"),
        ({"kind": "per_hand", "chips": 5}, "imperial", "bad_stake_kind"),
        ({"kind": "per_place", "chips": 5}, "imperial", "stake_wrong_game"),
        ({"kind": "per_imperial", "chips": 5}, "emperor", "stake_wrong_game"),
        ({"kind": "per_game", "chips": 5, "x": 1}, "imperial", "bad_stake"),
        ([5], "imperial", "bad_stake"),
    ],
)
def test_bad_terms_are_refused_with_a_code(data: object, game: str, code: str) -> None:
    with pytest.raises(StakeError) as refused:
        StakeTerms.from_json(data, game)
    assert refused.value.code == code


def test_the_largest_stake_is_accepted() -> None:
    assert StakeTerms.from_json({"kind": "per_trick", "chips": 1_000_000}, "emperor").chips == (
        1_000_000
    )


@given(
    st.sampled_from(["per_game", "per_imperial"]),
    st.integers(1, 1000),
    st.integers(2, 3),
    st.integers(1, 10),
    st.data(),
)
def test_imperial_settlements_sum_to_zero_within_escrow(
    kind: str, s: int, n: int, target: int, data: st.DataObject
) -> None:
    winner = data.draw(st.integers(0, n - 1))
    imperials = [
        target if seat == winner else data.draw(st.integers(0, target - 1)) for seat in range(n)
    ]
    terms = StakeTerms(kind, s)
    got = settle_imperial(terms, winner, imperials, target)
    assert sum(got) == 0
    assert min(got) >= -max_loss(terms, n, target)


@given(
    st.sampled_from(["per_place", "per_trick"]),
    st.integers(1, 1000),
    st.integers(3, 4).flatmap(lambda n: st.lists(st.integers(0, 130), min_size=n, max_size=n)),
)
def test_emperor_settlements_sum_to_zero_within_escrow(
    kind: str, s: int, totals: list[int]
) -> None:
    terms = StakeTerms(kind, s)
    got = settle_emperor(terms, totals)
    assert sum(got) == 0
    assert min(got) >= -max_loss(terms, len(totals), None)
    # a higher total never receives less than a lower one
    for a in range(len(totals)):
        for b in range(len(totals)):
            if totals[a] > totals[b]:
                assert got[a] >= got[b]
