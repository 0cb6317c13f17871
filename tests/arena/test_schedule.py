"""The duplicate schedule: every bot in every seat, the same cards in every game of a set."""

from __future__ import annotations

from collections import Counter

import pytest

from kozyr.arena.duplicate import derive_seed, schedule, seatings
from kozyr.arena.match import ArenaError, BotSpec, Task, make_options, parse_bot, parse_bots, play
from kozyr.games.emperor import EmperorState
from kozyr.games.imperial import ImperialState


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mode", ["rotations", "permutations"])
def test_every_bot_sits_in_every_seat(players: int, mode: str) -> None:
    slots = schedule(players, 50, seed=7, mode=mode)  # type: ignore[arg-type]
    per_set = len(seatings(players, mode))  # type: ignore[arg-type]
    assert len(slots) % per_set == 0 and len(slots) >= 50
    assert [s.index for s in slots] == list(range(len(slots)))
    by_set: dict[int, list[tuple[int, ...]]] = {}
    for s in slots:
        assert sorted(s.seats) == list(range(players))
        by_set.setdefault(s.set_index, []).append(s.seats)
    for k, orders in by_set.items():
        assert len(orders) == per_set
        for seat in range(players):
            counts = Counter(order[seat] for order in orders)
            # each bot the same number of times in each seat of the set
            assert set(counts) == set(range(players)), (k, seat)
            assert len(set(counts.values())) == 1
        assert len({s.deal_seed for s in slots if s.set_index == k}) == 1
    assert len({s.deal_seed for s in slots}) == len(by_set)


def test_rotations_swap_two_players() -> None:
    assert seatings(2) == [(0, 1), (1, 0)]
    assert seatings(4) == [(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]


def test_games_round_up_to_whole_sets_and_seeds_are_stable() -> None:
    assert len(schedule(3, 4, seed=1)) == 6
    assert len(schedule(2, 4, seed=1)) == 4
    assert schedule(3, 9, seed=1) == schedule(3, 9, seed=1)
    assert schedule(3, 9, seed=1) != schedule(3, 9, seed=2)
    a = schedule(2, 2, seed=1)
    assert a[0].bot_seeds != a[1].bot_seeds
    assert derive_seed(1, "deal", 0) == derive_seed(1, "deal", 0)
    with pytest.raises(ValueError):
        schedule(2, 0, seed=1)


def _set_states(game: str, bots: str, options: dict[str, object]) -> list[object]:
    specs = tuple(parse_bots(bots))
    opts = make_options(game, len(specs), options).to_json()
    slots = [s for s in schedule(len(specs), 1, seed=11) if s.set_index == 0]
    return [play(Task(game, opts, s, specs, 0.0))[1] for s in slots]


@pytest.mark.parametrize("bots", ["random,random", "random,random,random"])
def test_imperial_duplicate_set_deals_the_same_cards(bots: str) -> None:
    states = _set_states("imperial", bots, {"target": 2})
    imperial = [s for s in states if isinstance(s, ImperialState)]
    assert len(imperial) == len(states) == bots.count(",") + 1
    assert len({s.first_dealer for s in imperial}) == 1
    common = min(len(s.dealt) for s in imperial)
    assert common >= 1
    for k in range(common):
        assert len({s.dealt[k] for s in imperial}) == 1, f"deal {k} differs"
    # the bots really moved: the same seed, different players in the seats
    assert len({tuple(s.actions) for s in imperial}) > 1


def test_emperor_duplicate_set_deals_the_same_cards() -> None:
    states = _set_states("emperor", "random,random,random", {"rounds": 3, "bargain_from": 2})
    emperor = [s for s in states if isinstance(s, EmperorState)]
    assert len(emperor) == 3
    assert len({s.join_order for s in emperor}) == 1
    for k in range(3):
        assert len({s.dealt[k] for s in emperor}) == 1, f"round {k + 1} differs"


def test_bot_names() -> None:
    assert parse_bot("search@0.1") == BotSpec("search", 0.1, "search@0.1")
    assert parse_bot("Level3").kind == "3"
    assert [b.label for b in parse_bots("1,1,random")] == ["1#1", "1#2", "random"]
    for bad in ["", "search@x", "search@-1", "7"]:
        with pytest.raises(ArenaError):
            parse_bot(bad)
    with pytest.raises(ArenaError, match="2 or 3 bots"):
        make_options("imperial", 4, {})
    with pytest.raises(ArenaError, match="players=3"):
        make_options("imperial", 2, {"players": 3})
    with pytest.raises(ArenaError, match="bad option"):
        make_options("emperor", 4, {"nonsense": 1})
