"""What makes a move cheap for the server keeps every frame as it was (#14): each role's
view laid over one public view, the options' flat JSON, orjson's encoding."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace
from typing import Any, cast

import pytest

from kozyr.games.base import GameState
from kozyr.games.emperor import EmperorOptions, EmperorState
from kozyr.games.imperial import ImperialOptions, ImperialState
from kozyr.server.storage.store import User
from kozyr.server.tables.broadcast import Broadcaster
from kozyr.server.tables.views import Views, view_of
from kozyr.server.transport.protocol import Client, dumps


def _std(frame: Any) -> str:
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


def _games() -> list[GameState]:
    return [
        ImperialState.new(ImperialOptions(players=2), seed=11),
        ImperialState.new(ImperialOptions(players=3, must_head=True), seed=12),
        EmperorState.new(EmperorOptions(players=3), seed=13),
        EmperorState.new(EmperorOptions(players=4), seed=14),
    ]


@pytest.mark.parametrize("index", range(4))
def test_every_roles_view_is_its_own_observation_at_every_move(index: int) -> None:
    """A seat's view is the public one with the seat's own fields laid over: at every
    move of a random game, for every role, the very text its whole observation gives
    (no card of another hand, nothing missing, the same key order)."""
    state = _games()[index]
    rng = random.Random(index)
    roles: list[int | None] = [None, *range(state.players)]
    moves = 0
    while not state.over and moves < 700:
        views = Views(state)
        for role in roles:
            assert _std(views.of(role)) == _std(view_of(state, role))
        state.apply(rng.choice(state.legal_actions()))
        moves += 1
    assert moves > 100


def test_a_broadcast_builds_one_observation_whatever_the_roles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[int | None] = []
    state = ImperialState.new(ImperialOptions(players=3), seed=5)
    state.apply(state.legal_actions()[0])
    real = ImperialState.observation

    def counting(self: ImperialState, seat: int | None) -> Any:
        built.append(seat)
        return real(self, seat)

    monkeypatch.setattr(ImperialState, "observation", counting)
    match = SimpleNamespace(
        state=state, id="t1", seq=1, entry=lambda _s: (0, "x", "person"), events=lambda _s: []
    )
    seats = {Client(User(i, f"p{i}", False)): i for i in range(3)}
    spectators = {Client(User(100 + i, f"s{i}", False)): None for i in range(50)}
    presence = SimpleNamespace(watchers={**seats, **spectators})
    caster = Broadcaster(cast(Any, match), cast(Any, presence), lambda _p: {}, lambda: None)
    caster.update(1)
    assert built == [None]  # the public observation only; the seats' parts from seat_json
    for client, seat in seats.items():
        frame = json.loads(client.queue[-1])
        assert frame["view"]["seat"] == seat
        assert frame["view"]["hand"] == view_of(state, seat)["hand"]
    assert json.loads(next(iter(spectators)).queue[-1])["view"]["hand"] is None


def test_options_json_is_every_field() -> None:
    imperial = ImperialOptions(players=3, target=7, tombe_value=2, must_head=True, stake=3)
    assert imperial.to_json() == {
        "players": 3,
        "target": 7,
        "tombe_value": 2,
        "must_head": True,
        "trick_bonus_over": 6,
        "stake": 3,
    }
    emperor = EmperorOptions(players=3, rounds=6, bargain_from=2, max_offer=2)
    assert emperor.to_json() == {"players": 3, "rounds": 6, "bargain_from": 2, "max_offer": 2}
    assert ImperialOptions.from_json(imperial.to_json()) == imperial


@pytest.mark.parametrize(
    "frame",
    [
        {"v": 1, "type": "error", "code": "x", "message": "Сейчас не ваш ход.", "n": -3},
        {"nested": [{"a": [1, 2.5, None, True, False]}, 'é ♠ \u2028 "q" \\ \n']},
        {"big": 2**200, "small": 1},  # a seed-sized integer: beyond orjson's 64 bits
        {"keys": {1: "int key"}},  # a key that is not a string
    ],
)
def test_dumps_writes_what_the_standard_library_writes(frame: dict[str, Any]) -> None:
    assert dumps(frame) == _std(frame)
