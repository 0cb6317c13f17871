"""Properties over many random games of 3 and 4 players (B2, E4, E6, E8, E11)."""

from __future__ import annotations

import random

import pytest

from kozyr.cards import parse_card
from kozyr.games.base import IllegalAction
from kozyr.games.emperor import (
    ACTION_TEXT,
    NUM_ACTIONS,
    TITLE_NAMES,
    EmperorOptions,
    EmperorState,
)

GAMES = 1000  # per player count; the whole file stays under ~30 s


def random_game(players: int, seed: int) -> EmperorState:
    rng = random.Random(seed)
    state = EmperorState.new(EmperorOptions(players=players), seed=seed)
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("players", [3, 4])
def test_e4_e11_random_games_end_after_10_rounds_and_totals_add_up(players: int) -> None:
    for seed in range(GAMES):
        state = random_game(players, seed)
        assert state.over and state.round == 10 and state.to_act is None
        # Transfers move tricks, never create them: 13 tricks x 10 rounds.
        assert sum(state.totals) == 130
        ends = [e for e in state.events if e["type"] == "deal_end"]
        assert len(ends) == 10
        names = set(TITLE_NAMES[players])
        for e in ends:
            assert sum(e["tricks"]) == 13
            assert set(e["titles"]) == names  # a permutation every round
            # E6: most tricks first.
            t = [e["tricks"][s] for s in e["order"]]
            assert t == sorted(t, reverse=True)
        assert sorted(state.standing or []) == list(range(players))
        totals = state.totals
        assert [totals[s] for s in state.standing or []] == sorted(totals, reverse=True)


@pytest.mark.parametrize("players", [3, 4])
def test_b2_replay_from_deals_and_actions_reproduces_events(players: int) -> None:
    for seed in range(0, GAMES, 10):
        state = random_game(players, seed)
        again = EmperorState.new(
            EmperorOptions(players=players), deals=state.dealt, join_order=state.join_order
        )
        for text in state.actions:
            again.play(text)
        assert again.events == state.events and again.summary() == state.summary()
        _check_events_are_public(state)


CARD_KEYS = {"card", "cards", "trump_card"}


def _check_events_are_public(state: EmperorState) -> None:
    """Cards appear in events only as they are played, plus round 1's shown card."""
    played = 0
    for ev in state.events:
        if ev["type"] == "deal":
            played = 0
            if "trump_card" in ev:
                tc = parse_card(ev["trump_card"])
                assert tc == state.dealt[0].trump_card
        elif ev["type"] == "play":
            c = parse_card(ev["card"])
            assert not played >> c & 1
            played |= 1 << c
        elif ev["type"] == "trick":
            for _, name in ev["cards"]:
                assert played >> parse_card(name) & 1
        else:
            assert not CARD_KEYS & set(ev), ev


@pytest.mark.parametrize("players", [3, 4])
def test_b3_observations_never_show_what_a_seat_may_not_know(players: int) -> None:
    for seed in range(0, GAMES, 5):
        rng = random.Random(seed)
        state = EmperorState.new(EmperorOptions(players=players), seed=seed)
        while not state.over:
            if rng.random() < 0.1:
                hands = state.hands
                for seat in [None, *range(players)]:
                    obs = state.observation(seat)
                    assert obs.hand == (None if seat is None else hands[seat])
                    for t, m in obs.known.items():
                        assert m & ~hands[t] == 0  # never wrong
                    if seat is None:
                        # The public only ever knows the shown trump card's holder.
                        tc = obs.trump_card
                        assert all(
                            m in (0, 1 << (tc if tc is not None else 0)) for m in obs.known.values()
                        )
                    if seat is not None and state.phase != "play" and not obs.swaps:
                        assert all(m == 0 for m in obs.known.values()) or state.round == 1
                    assert obs.legal_actions == (
                        tuple(state.legal_actions()) if seat == state.to_act else ()
                    )
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("players", [3, 4])
def test_clone_is_independent_and_from_observation_continues_identically(players: int) -> None:
    for seed in range(0, GAMES, 6):
        rng = random.Random(seed)
        state = EmperorState.new(EmperorOptions(players=players), seed=seed)
        stop = rng.randrange(1, 600)
        i = 0
        while not state.over and i < stop:
            state.apply(rng.choice(state.legal_actions()))
            i += 1
        if state.over:
            continue
        before = (state.summary(), state.hands, len(state.events), state.phase)
        twin = state.clone()
        seat = rng.choice([None, *range(players)])
        rebuilt = EmperorState.from_observation(
            state.observation(seat), state.hands, seed=state.seed
        )
        assert rebuilt.hands == state.hands
        for s in range(players):
            a, b = state.observation(s), rebuilt.observation(s)
            assert a.known == b.known and a.legal_actions == b.legal_actions
            assert a.to_json() | {"events": []} == b.to_json() | {"events": []}
        n0 = len(state.events)
        moves = random.Random(seed + 1)
        while not twin.over:
            a = moves.choice(twin.legal_actions())
            twin.apply(a)
            rebuilt.apply(a)
        assert (state.summary(), state.hands, len(state.events), state.phase) == before
        assert rebuilt.events == twin.events[n0:]
        assert rebuilt.summary() == twin.summary()


def test_illegal_actions_leave_the_state_unchanged() -> None:
    rng = random.Random(9)
    state = EmperorState.new(EmperorOptions(), seed=9)
    while not state.over:
        legal = set(state.legal_actions())
        illegal = [a for a in range(NUM_ACTIONS) if a not in legal]
        snap = (state.summary(), state.hands, len(state.events), len(state.actions), state.phase)
        for a in rng.sample(illegal, min(5, len(illegal))):
            with pytest.raises(IllegalAction) as info:
                state.apply(a)
            assert info.value.rule.startswith("E")
            assert (
                state.summary(),
                state.hands,
                len(state.events),
                len(state.actions),
                state.phase,
            ) == snap
        state.apply(rng.choice(sorted(legal)))


def test_action_texts_round_trip() -> None:
    state = EmperorState.new(EmperorOptions(), seed=1)
    for a in range(NUM_ACTIONS):
        assert state.parse_action(ACTION_TEXT[a]) == a
        assert state.action_text(a) == ACTION_TEXT[a]
    assert state.parse_action("  Swap   3 ") == 55
    assert state.parse_action("TRUMP nt") == 67
    assert state.parse_action("trump ♣") == 66
    assert state.parse_action("Тп") == parse_card("AS")
    with pytest.raises(IllegalAction):
        state.parse_action("offer 4")
    with pytest.raises(IllegalAction):
        state.parse_action("swap 4")
