"""kozyr.records: the kozyr-record/1 format, replay (B2), and refusal of broken records."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from kozyr.games.base import GameState
from kozyr.games.emperor import EmperorOptions, EmperorState
from kozyr.games.imperial import ImperialOptions, ImperialState
from kozyr.records import FORMAT, RecordError, load, replay, replay_file, save, to_record


def _random_game(state: GameState, seed: int, limit: int | None = None) -> GameState:
    rng = random.Random(seed)
    steps = 0
    while not state.over and (limit is None or steps < limit):
        state.apply(rng.choice(state.legal_actions()))
        steps += 1
    return state


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", range(5))
def test_b2_imperial_record_replays_event_for_event(
    players: int, seed: int, tmp_path: Path
) -> None:
    state = _random_game(ImperialState.new(ImperialOptions(players=players), seed=seed), seed)
    path = save(state, tmp_path / "game.json", players=["a", "b", "c"][:players])
    again = replay_file(path)
    assert again.events == state.events
    assert again.summary() == state.summary()
    data = load(path)
    assert data["format"] == FORMAT and data["game"] == "imperial"
    assert data["options"]["players"] == players
    # Every deal is written out, with the turnup (2p) or trump card (3p).
    assert len(data["deals"]) == len(state.dealt)
    key = "turnup" if players == 2 else "trump_card"
    assert all(key in d and len(d["hands"]) == players for d in data["deals"])


@pytest.mark.parametrize("players", [3, 4])
def test_b2_emperor_record_replays_event_for_event(players: int, tmp_path: Path) -> None:
    state = _random_game(EmperorState.new(EmperorOptions(players=players), seed=11), 11)
    path = save(state, tmp_path / "game.json")
    again = replay_file(path)
    assert again.events == state.events
    assert again.summary() == state.summary()
    data = load(path)
    assert data["game"] == "emperor" and len(data["deals"]) == 10
    assert "trump_card" in data["deals"][0] and sorted(data["join_order"]) == list(range(players))


def test_b2_seed_alone_fixes_the_deals() -> None:
    # A record with no deals listed: every deal comes from the seed.
    state = _random_game(ImperialState.new(ImperialOptions(), seed=99), 5)
    record = to_record(state)
    record["deals"] = []
    assert replay(record).events == state.events


def test_b2_listed_deals_then_seed() -> None:
    # The first deal is listed; later ones come from the seed, the same as if none were listed.
    state = _random_game(ImperialState.new(ImperialOptions(), seed=4), 4)
    record = to_record(state)
    record["deals"] = record["deals"][:1]
    assert replay(record).events == state.events


def _imperial_example() -> dict[str, Any]:
    # The hand-written example of the record format, completed to a valid deal:
    # seat 0 holds the spade imperial K-Q-J-A and 7S; the turn-up is 7C (clubs trump).
    return {
        "format": "kozyr-record/1",
        "game": "imperial",
        "options": {"players": 2},
        "first_dealer": 0,
        "seed": 12345,
        "deals": [
            {
                "hands": [
                    ["KS", "QS", "JS", "AS", "7S", "8H", "9H", "10H", "JD", "QD", "KD", "AD"],
                    ["8S", "9S", "10S", "7H", "JH", "QH", "KH", "AH", "7D", "8D", "9D", "10D"],
                ],
                "turnup": "7C",
            }
        ],
        "actions": ["8S", "QS"],
    }


def test_example_record_replays_and_reports() -> None:
    state = replay(_imperial_example())
    summary = state.summary()
    assert summary["over"] is False and summary["winner"] is None
    # Dealer 0, so seat 1 leads (I7); 8S then QS: the queen wins, seat 0 leads next.
    assert state.to_act == 0
    types = [e["type"] for e in state.events]
    assert types[0] == "deal" and "trick" in types
    assert all(isinstance(s, dict) and set(s) >= {"imperials", "points"} for s in summary["scores"])


def test_replay_stops_where_a_deal_is_missing() -> None:
    # No seed and one listed deal: replay plays that deal and then waits for the next one.
    state = _random_game(ImperialState.new(ImperialOptions(), seed=8), 8)
    record = to_record(state)
    record["seed"] = None
    record["deals"] = record["deals"][:1]
    again = replay(record)
    assert again.waiting_for_deal and again.to_act is None
    assert len(again.dealt) == 1


def _broken(change: str) -> dict[str, Any]:
    record = _imperial_example()
    hands = record["deals"][0]["hands"]
    if change == "unknown card":
        hands[0][3] = "ZS"
    elif change == "dealt twice":
        hands[1][0] = "QS"
    elif change == "short hand":
        hands[1].pop()
    elif change == "turnup in a hand":
        record["deals"][0]["turnup"] = "8S"
    elif change == "illegal action":
        record["actions"] = ["8S", "8H"]  # seat 0 holds spades and must follow (I7)
    elif change == "bad format":
        record["format"] = "kozyr-record/2"
    elif change == "bad game":
        record["game"] = "durak"
    elif change == "bad option":
        record["options"] = {"players": 5}
    elif change == "hands not a list":
        record["deals"][0]["hands"] = "KS QS"
    elif change == "action not text":
        record["actions"] = [12]
    return record


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ("unknown card", "deals[0].hands[0][3]"),
        ("dealt twice", "deals[0].hands[1][0]"),
        ("short hand", "deals[0]"),
        ("turnup in a hand", "deals[0].turnup"),
        ("illegal action", "actions[1] '8H'"),
        ("bad format", "format"),
        ("bad game", "game"),
        ("bad option", "players"),
        ("hands not a list", "deals[0].hands"),
        ("action not text", "actions[0]"),
    ],
)
def test_broken_record_is_refused_saying_where(change: str, where: str) -> None:
    with pytest.raises(RecordError) as err:
        replay(_broken(change))
    assert where in str(err.value)


def test_a_refused_action_carries_the_engines_refusal() -> None:
    # Seat 1 leads 8S; seat 0 holds spades (QS ...) and must follow, not play 8H (I7).
    with pytest.raises(RecordError) as err:
        replay(_broken("illegal action"))
    e = err.value
    assert (e.code, e.rule, e.action_index) == ("must_follow", "I7", 1)
    assert e.to_json() == {
        "code": "must_follow",
        "rule": "I7",
        "message": "You hold spades, the suit led, so you must follow suit",
        "message_ru": "Масть хода — пики, и она у вас есть, значит, нужно ходить в масть",
        "action_index": 1,
    }


def test_a_broken_record_has_the_code_bad_record() -> None:
    with pytest.raises(RecordError) as err:
        replay(_broken("bad game"))
    e = err.value
    assert e.code == "bad_record" and e.rule is None and e.action_index is None
    assert e.message("ru").startswith("Запись игры не воспроизводится: game: ")


def test_actions_after_the_end_are_refused() -> None:
    state = _random_game(ImperialState.new(ImperialOptions(), seed=2), 2)
    record = to_record(state)
    record["actions"].append("AS")
    with pytest.raises(RecordError, match=r"actions\[\d+\] 'AS': the game is already over") as err:
        replay(record)
    assert err.value.code == "game_over" and err.value.action_index == len(record["actions"]) - 1


def test_replay_does_not_change_the_record() -> None:
    record = _imperial_example()
    before = copy.deepcopy(record)
    replay(record)
    assert record == before


@pytest.mark.parametrize(
    ("content", "message"),
    [("{not json", "not JSON"), ("[1, 2]", "JSON object"), ("", "not JSON")],
)
def test_unreadable_file(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(content)
    with pytest.raises(RecordError, match=message):
        replay_file(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        replay_file(tmp_path / "nope.json")


def test_saved_record_is_plain_json(tmp_path: Path) -> None:
    state = _random_game(ImperialState.new(ImperialOptions(players=3), seed=1), 1, limit=10)
    path = save(state, tmp_path / "sub" / "r.json", players=["Аня", "b", "c"])
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["players"][0] == "Аня"
    assert data["actions"] == state.actions
    assert not list(tmp_path.glob("sub/*.tmp"))
