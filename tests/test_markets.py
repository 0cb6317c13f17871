"""Spectators' markets (B4): the catalogues of both games, the one timing rule (a market
closes at the deal event that deals what it is about), the outcomes read from events,
and the pari-mutuel share-out. Expected values are worked out by hand in each test."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kozyr.games.emperor import EmperorOptions
from kozyr.games.markets import VOID, Bet, Book, Change, payouts
from kozyr.games.spec import GAMES


def ids(changes: list[Change], what: str) -> list[str]:
    return [c.market.id for c in changes if c.what == what]


def settled(changes: list[Change]) -> dict[str, str | None]:
    return {c.market.id: c.outcome for c in changes if c.what == "settle"}


# -- pari-mutuel -------------------------------------------------------------------------


def test_winners_share_the_whole_pool_floors_then_the_largest_stake() -> None:
    # pool 100, winning stakes 75: 50 -> 100*50/75 = 66.67, 25 -> 33.33; floors 66 + 33 = 99,
    # the one chip left goes to the largest winning stake (50).
    bets = [Bet(1, "x", 50), Bet(2, "x", 25), Bet(3, "y", 25)]
    assert payouts(bets, "x") == [67, 33, 0]


def test_leftover_chips_go_to_equal_stakes_in_the_order_they_were_bet() -> None:
    # pool 5, three winning stakes of 1: floor(5/3) = 1 each, 2 chips left: the bets
    # taken first (orders 4 and 6, not 9) get one each.
    bets = [Bet(9, "yes", 1), Bet(4, "yes", 1), Bet(6, "yes", 1), Bet(7, "no", 2)]
    assert payouts(bets, "yes") == [1, 2, 2, 0]


def test_nobody_on_the_outcome_or_a_void_market_refunds_every_bet() -> None:
    bets = [Bet(1, "seat:0", 7), Bet(2, "seat:1", 3)]
    assert payouts(bets, "seat:2") == [7, 3]
    assert payouts(bets, VOID) == [7, 3]
    assert payouts([], "seat:0") == []


@given(
    st.lists(
        st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(min_value=1, max_value=10**6)),
        max_size=30,
    ),
    st.sampled_from(["a", "b", "c", VOID]),
)
def test_payouts_always_sum_to_the_pool_and_never_pay_a_loser(
    raw: list[tuple[str, int]], outcome: str
) -> None:
    bets = [Bet(i, o, c) for i, (o, c) in enumerate(raw)]
    out = payouts(bets, outcome)
    pool = sum(b.chips for b in bets)
    assert sum(out) == pool
    winning = sum(b.chips for b in bets if b.outcome == outcome)
    for b, p in zip(bets, out, strict=True):
        if outcome == VOID or winning == 0:
            assert p == b.chips
        elif b.outcome != outcome:
            assert p == 0
        else:
            share = pool * b.chips // winning
            assert share <= p <= share + 1


# -- Imperial ------------------------------------------------------------------------------


def test_imperial_markets_open_close_and_settle_from_the_events() -> None:
    book = Book(GAMES["imperial"].markets, 2, None)
    first = book.start()
    assert ids(first, "open") == [
        "game.winner",
        "game.first_mark",
        "deal.1.first_mark",
        "deal.1.tricks.0",
        "deal.1.tricks.1",
        "deal.1.capot",
    ]
    # Deal 1: closes the game's and deal 1's markets before anything else, opens deal 2's.
    ch = book.feed({"type": "deal", "number": 1, "dealer": 0, "trump": "S"})
    assert [c.what for c in ch] == ["close"] * 6 + ["open"] * 4
    assert ids(ch, "open")[0] == "deal.2.first_mark"
    # A declared imperial of seat 1 is the first mark of the game and of deal 1.
    ch = book.feed({"type": "mark", "seat": 1, "imperials": 1})
    assert settled(ch) == {"game.first_mark": "seat:1", "deal.1.first_mark": "seat:1"}
    assert book.feed({"type": "mark", "seat": 0, "imperials": 1}) == []
    # Tricks 7 and 5: buckets 7-11 and 4-6, no capot (I10).
    ch = book.feed({"type": "deal_end", "number": 1, "tricks": [7, 5]})
    assert settled(ch) == {
        "deal.1.tricks.0": "7-11",
        "deal.1.tricks.1": "4-6",
        "deal.1.capot": "no",
    }
    # Deal 2 is a white deal (I11): nobody marks in it, its play markets are void.
    book.feed({"type": "deal", "number": 2, "dealer": 1, "trump": "H"})
    ch = book.feed({"type": "deal_end", "number": 2, "tricks": None})
    assert settled(ch) == {
        "deal.2.first_mark": "nobody",
        "deal.2.tricks.0": VOID,
        "deal.2.tricks.1": VOID,
        "deal.2.capot": VOID,
    }
    # Deal 3: seat 0 marks the winning imperial before play; the game ends mid-deal.
    book.feed({"type": "deal", "number": 3, "dealer": 0, "trump": "D"})
    ch = book.feed({"type": "mark", "seat": 0, "imperials": 2})
    assert settled(ch) == {"deal.3.first_mark": "seat:0"}
    ch = book.feed({"type": "game_over", "places": [0, 1], "winner": 0, "stakes": [1, -1]})
    assert settled(ch) == {
        "game.winner": "seat:0",
        "deal.3.tricks.0": VOID,
        "deal.3.tricks.1": VOID,
        "deal.3.capot": VOID,
        # deal 4's markets were open; deal 4 never came
        "deal.4.first_mark": VOID,
        "deal.4.tricks.0": VOID,
        "deal.4.tricks.1": VOID,
        "deal.4.capot": VOID,
    }
    assert not book.open and not book.closed


def test_a_capot_is_twelve_tricks_of_one_player() -> None:
    book = Book(GAMES["imperial"].markets, 3, None)
    book.start()
    book.feed({"type": "deal", "number": 1, "dealer": 2, "trump": "C"})
    ch = book.feed({"type": "deal_end", "number": 1, "tricks": [0, 12, 0]})
    assert settled(ch) == {
        "deal.1.first_mark": "nobody",
        "deal.1.tricks.0": "0-3",
        "deal.1.tricks.1": "12",
        "deal.1.tricks.2": "0-3",
        "deal.1.capot": "yes",
    }


# -- Emperor -------------------------------------------------------------------------------


def test_emperor_markets_king_bargain_and_emperor() -> None:
    opts = EmperorOptions(players=4, rounds=3, bargain_from=2)
    book = Book(GAMES["emperor"].markets, 4, opts)
    assert ids(book.start(), "open") == ["game.emperor", "round.1.king_after"]
    ch = book.feed({"type": "deal", "number": 1, "trump": "H"})
    assert ids(ch, "close") == ["game.emperor", "round.1.king_after"]
    assert ids(ch, "open") == ["round.2.king_after", "round.2.king_tricks", "round.2.bargain"]
    titles = ["prince", "king", "soldier", "jester"]
    ch = book.feed({"type": "deal_end", "number": 1, "tricks": [4, 5, 3, 1], "titles": titles})
    assert settled(ch) == {"round.1.king_after": "seat:1"}
    book.feed({"type": "deal", "number": 2, "trump": None, "titles": titles})
    # A bargain: the King (seat 1) accepts seat 3's offer.
    ch = book.feed({"type": "accept", "seat": 1, "target": 3, "tricks": 2})
    assert settled(ch) == {"round.2.bargain": "yes"}
    # The King of round 2 (seat 1) takes 7 of 13 tricks: over 6.5. Seat 0 is King next.
    after = ["king", "prince", "soldier", "jester"]
    ch = book.feed({"type": "deal_end", "number": 2, "tricks": [5, 7, 1, 0], "titles": after})
    assert settled(ch) == {"round.2.king_after": "seat:0", "round.2.king_tricks": "over"}
    book.feed({"type": "deal", "number": 3, "trump": None, "titles": after})
    # The King of round 3 is seat 0: 6 tricks is under; no accept in round 3: no bargain.
    ch = book.feed({"type": "deal_end", "number": 3, "tricks": [6, 3, 2, 2], "titles": after})
    assert settled(ch) == {
        "round.3.king_after": "seat:0",
        "round.3.king_tricks": "under",
        "round.3.bargain": "no",
    }
    ch = book.feed({"type": "game_over", "places": [1, 0, 2, 3], "winner": 1, "stakes": []})
    assert settled(ch) == {"game.emperor": "seat:1"}
    assert not book.open and not book.closed


def test_no_bargain_market_before_bargaining_starts() -> None:
    markets = GAMES["emperor"].markets
    kinds = [m.kind for m in markets.markets(3, 4, EmperorOptions())]
    assert kinds == ["king_after", "king_tricks"]  # bargaining from round 4 (E8)
    assert markets.markets(1, 3, EmperorOptions(players=3))[0].outcomes == (
        "seat:0",
        "seat:1",
        "seat:2",
    )


# -- whole games ---------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), [("imperial", 2), ("imperial", 3), ("emperor", 4)])
def test_every_market_of_random_games_settles_once_after_it_closed(game: str, players: int) -> None:
    spec = GAMES[game]
    for seed in range(8):
        options = spec.options_from_json({"players": players})
        state = spec.new_state(options, seed=seed)
        rng = random.Random(seed)
        while not state.over:
            state.apply(rng.choice(state.legal_actions()))
        book = Book(spec.markets, players, options)
        log: list[tuple[int, Change]] = [(-1, c) for c in book.start()]
        for i, e in enumerate(state.events):
            log += [(i, c) for c in book.feed(e)]
        life: dict[str, list[str]] = {}
        for _, c in log:
            life.setdefault(c.market.id, []).append(c.what)
        for mid, steps in life.items():
            assert steps in (["open", "close", "settle"], ["open", "settle"]), (mid, steps)
            if steps == ["open", "settle"]:
                # only a market whose deal never came settles without closing: void
                assert book.settled[mid] == VOID
        deal_at = {e["number"]: i for i, e in enumerate(state.events) if e["type"] == "deal"}
        for i, c in log:
            if c.what == "close":
                scope = c.market.scope
                assert i == deal_at[max(scope, 1)], c.market.id
            if c.what == "settle" and c.outcome != VOID:
                assert i > deal_at[max(c.market.scope, 1)]


def test_a_book_rebuilt_from_the_events_makes_the_same_changes() -> None:
    spec = GAMES["imperial"]
    options: Any = spec.options_from_json({"players": 2})
    state = spec.new_state(options, seed=3)
    rng = random.Random(3)
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))
    one, two = Book(spec.markets, 2, options), Book(spec.markets, 2, options)
    assert one.start() + one.feed_all(state.events) == two.start() + two.feed_all(state.events)
