"""Every option of both games has a range a person would choose (I12 target 1-20, E4
rounds 1-30, ...), refused outside it in English and Russian; the largest stake table
fits far below the ledger's ceiling (docs/chips.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from kozyr.games import GAMES
from kozyr.games.base import OptionsError
from kozyr.games.emperor import options as emperor_options
from kozyr.games.imperial import options as imperial_options
from kozyr.games.stakes import KINDS, MAX_CHIPS, StakeTerms
from kozyr.server.money.ledger import MAX_AMOUNT

INDEX = Path(__file__).parents[1] / "src" / "kozyr" / "web" / "static" / "index.html"


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("imperial", {"target": 1}),
        ("imperial", {"target": 20}),
        ("imperial", {"trick_bonus_over": 0}),
        ("imperial", {"trick_bonus_over": 12}),
        ("imperial", {"stake": 0}),
        ("imperial", {"stake": 1_000_000}),
        ("emperor", {"rounds": 1}),
        ("emperor", {"rounds": 30}),
        ("emperor", {"bargain_from": 2}),
        ("emperor", {"bargain_from": 31}),
        ("emperor", {"max_offer": 1}),
    ],
)
def test_the_ends_of_each_range_are_taken(game: str, options: dict[str, Any]) -> None:
    got = GAMES[game].options_from_json(options).to_json()
    assert {k: got[k] for k in options} == options


@pytest.mark.parametrize(
    ("game", "options", "english", "russian"),
    [
        (
            "imperial",
            {"target": 21},
            "target must be a whole number from 1 to 20, not 21",
            "Параметр «target»: целое число от 1 до 20, а не 21",
        ),
        (
            "imperial",
            {"target": 0},
            "target must be a whole number from 1 to 20, not 0",
            "Параметр «target»: целое число от 1 до 20, а не 0",
        ),
        (
            "imperial",
            {"target": 10**30},
            # 10^30 < 2^100 = 1.27 x 10^30, and >= 2^99: a 100-bit number
            "target must be a whole number from 1 to 20, not a 100-bit number",
            "Параметр «target»: целое число от 1 до 20, а не число в 100 бит",
        ),
        (
            "imperial",
            {"target": 5.0},
            "target must be a whole number from 1 to 20, not 5.0",
            "Параметр «target»: целое число от 1 до 20, а не 5.0",
        ),
        (
            "imperial",
            {"target": "5"},
            "target must be a whole number from 1 to 20, not '5'",
            "Параметр «target»: целое число от 1 до 20, а не '5'",
        ),
        (
            "imperial",
            {"stake": 1_000_001},
            "stake must be a whole number from 0 to 1000000, not 1000001",
            "Параметр «stake»: целое число от 0 до 1000000, а не 1000001",
        ),
        (
            "imperial",
            {"tombe_value": True},
            "tombe_value must be 1 or 2, not True",
            "Параметр «tombe_value»: 1 или 2, а не True",
        ),
        (
            "imperial",
            {"must_head": 1},
            "must_head must be true or false, not 1",
            "Параметр «must_head»: true или false, а не 1",
        ),
        (
            "emperor",
            {"rounds": 31},
            "rounds must be a whole number from 1 to 30, not 31",
            "Параметр «rounds»: целое число от 1 до 30, а не 31",
        ),
        (
            "emperor",
            {"rounds": 1000},
            "rounds must be a whole number from 1 to 30, not 1000",
            "Параметр «rounds»: целое число от 1 до 30, а не 1000",
        ),
        (
            "emperor",
            {"bargain_from": 32},
            "bargain_from must be a whole number from 2 to 31, not 32",
            "Параметр «bargain_from»: целое число от 2 до 31, а не 32",
        ),
        (
            "emperor",
            {"players": 5},
            "players must be 3 or 4, not 5",
            "Параметр «players»: 3 или 4, а не 5",
        ),
    ],
)
def test_an_option_out_of_range_is_refused_in_both_languages(
    game: str, options: dict[str, Any], english: str, russian: str
) -> None:
    with pytest.raises(OptionsError) as refused:
        GAMES[game].options_from_json(options)
    assert str(refused.value) == english
    assert refused.value.message_ru == russian


def test_the_web_form_offers_the_same_ranges() -> None:
    # The form offered rounds up to 30 before the options had ranges: games of 21-30
    # rounds may be stored, so the range keeps them.
    html = INDEX.read_text(encoding="utf-8")
    ranges = {**imperial_options.RANGES, **emperor_options.RANGES}
    for name in ("target", "trick_bonus_over", "rounds", "bargain_from"):
        found = re.search(rf'name="{name}" type="number" min="(\d+)" max="(\d+)"', html)
        assert found is not None, name
        assert (int(found[1]), int(found[2])) == ranges[name], name


def test_the_largest_stake_table_fits_far_below_the_ceiling() -> None:
    """Each seat's hold at the largest stake (1,000,000) and the largest options, worked
    out by hand: Imperial per_game S = 1,000,000; per_imperial S x target 20 =
    20,000,000; Emperor per_place 3S = 3,000,000; per_trick (4 - 1) x 10 S = 30,000,000.
    The largest escrow is 4 seats x 30,000,000 = 120,000,000."""
    by_hand = {
        ("imperial", "per_game"): 1_000_000,
        ("imperial", "per_imperial"): 20_000_000,
        ("emperor", "per_place"): 3_000_000,
        ("emperor", "per_trick"): 30_000_000,
    }
    largest = {
        "imperial": {"players": 3, "target": imperial_options.MAX_TARGET},
        "emperor": {"players": 4, "rounds": emperor_options.MAX_ROUNDS},
    }
    escrows = []
    for game, kinds in KINDS.items():
        spec = GAMES[game]
        options = spec.options_from_json(largest[game])
        for kind in kinds:
            hold = spec.max_loss(StakeTerms(kind, MAX_CHIPS), options)
            assert hold == by_hand[game, kind]
            escrows.append(hold * options.players)
    assert max(escrows) == 120_000_000
    # a million such escrows at once still fit in one balance
    assert 1_000_000 * max(escrows) < MAX_AMOUNT < 2**63 // 1000


@pytest.mark.parametrize(
    ("game", "options"),
    [
        # Taken before the ranges narrowed: a table in play or a record on file from then
        # keeps loading after the upgrade (its chips are already held; its seed verifies).
        ("imperial", {"target": 50, "stake": 5_000_000}),
        ("emperor", {"rounds": 1000, "bargain_from": 1001}),
    ],
)
def test_options_stored_before_the_ranges_narrowed_still_load(
    game: str, options: dict[str, Any]
) -> None:
    with pytest.raises(OptionsError):
        GAMES[game].options_from_json(options)
    stored = GAMES[game].options_from_json(options, stored=True).to_json()
    assert {name: stored[name] for name in options} == options


def test_a_stored_table_with_a_target_past_twenty_restores_and_settles() -> None:
    # A per_imperial table of target 50 (allowed before) restores, and its loser still
    # pays S x (target - his imperials): 2 x (50 - 3) = 94, by hand.
    from kozyr.games.stakes import settle_imperial

    options = GAMES["imperial"].options_from_json({"target": 50}, stored=True)
    assert GAMES["imperial"].new_state(options, seed=1) is not None
    terms = StakeTerms("per_imperial", 2)
    assert settle_imperial(terms, 0, [50, 3], 50) == [94, -94]
