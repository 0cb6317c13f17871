"""Replay frames: a finished game told step by step with every hand shown.

The page has no rules engine, so the server steps a record through the engine
(:func:`kozyr.records.start`, then one action at a time) and hands out, for each prefix
of the actions, the public observation, every seat's hand and the scores. Events are sent
once for the whole game; each step says how many of them had happened by then (the
engine's event list only grows, so a step's events are a prefix of the final list).

>>> from kozyr.games.imperial import ImperialOptions, ImperialState
>>> from kozyr.records import to_record
>>> state = ImperialState.new(ImperialOptions(players=2, target=1), seed=3)
>>> first = state.to_act
>>> for _ in range(3):
...     state.apply(state.legal_actions()[0])
>>> frames = replay_frames(to_record(state, players=["Ann", "Bob"]))
>>> len(frames["steps"]), len(frames["steps"][0]["hands"][0])
(4, 12)
>>> frames["steps"][1]["action"] == {"seat": first, "action": state.actions[0]}
True
>>> len(frames["steps"][1]["hands"][first])
11
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from kozyr.games.base import GameState
from kozyr.records import RecordError, replay_steps

MAX_ACTIONS = 20_000
"""A record longer than this is refused (a real game has at most a few thousand)."""


def _step(state: GameState, action: dict[str, Any] | None, events: int) -> dict[str, Any]:
    public = state.observation(None).to_json()
    public.pop("events", None)
    hands = [state.observation(s).to_json()["hand"] or [] for s in range(state.players)]
    return {
        "action": action,
        "view": public,
        "hands": hands,
        "events": events,
        "summary": state.summary(),
    }


class TooLarge(Exception):
    """A replay past one of its bounds (:func:`bounded_replay`): ``what`` is ``deals``
    or ``bytes``."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def encode(data: Any) -> bytes:
    """JSON as the replay routes send it: UTF-8, no spaces."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def _steps(record: dict[str, Any]) -> Iterator[tuple[GameState, dict[str, Any]]]:
    actions = record.get("actions")
    if isinstance(actions, list) and len(actions) > MAX_ACTIONS:
        raise RecordError(f"actions: more than {MAX_ACTIONS}")
    for state, seat in replay_steps(record):
        action = None if seat is None else {"seat": seat, "action": state.actions[-1]}
        yield state, _step(state, action, len(state.events))


def _head(record: dict[str, Any], state: GameState) -> dict[str, Any]:
    """Everything but the steps, from the game where the record ends."""
    players = record.get("players")
    names = (
        [str(p) for p in players]
        if isinstance(players, list) and len(players) == state.players
        else None
    )
    return {
        "game": state.game,
        "players": names,
        "options": record.get("options", {}),
        "table": record.get("table"),
        "events": list(state.events),
    }


def replay_frames(record: dict[str, Any]) -> dict[str, Any]:
    """Every step of a recorded game: step 0 is the start, step i follows action i.

    Raises :class:`kozyr.records.RecordError` for a record that does not replay.
    """
    walked = list(_steps(record))  # never empty: replay_steps always yields the start
    # the same state object moves on with every step: the last one's is the game's end
    return {**_head(record, walked[-1][0]), "steps": [step for _, step in walked]}


def bounded_replay(record: dict[str, Any], max_deals: int, max_bytes: int) -> bytes:
    """:func:`replay_frames` encoded (:func:`encode`), stopped with :class:`TooLarge` as
    soon as the game has dealt more than ``max_deals`` deals (Emperor: rounds) or the
    answer would pass ``max_bytes``: an uploaded record costs no more than that.

    >>> from kozyr.games.imperial import ImperialOptions, ImperialState
    >>> from kozyr.records import to_record
    >>> state = ImperialState.new(ImperialOptions(players=2, target=1), seed=3)
    >>> record = to_record(state)
    >>> bounded_replay(record, 1, 100_000) == encode(replay_frames(record))
    True
    >>> bounded_replay(record, 0, 100_000)
    Traceback (most recent call last):
    ...
    kozyr.server.play.replay_frames.TooLarge: deals
    """
    chunks: list[bytes] = []
    size = deals = seen = 0
    state: GameState | None = None
    for state, step in _steps(record):
        # the engine's event list only grows: only its new events can be new deals
        deals += sum(1 for event in state.events[seen:] if event["type"] == "deal")
        seen = len(state.events)
        if deals > max_deals:
            raise TooLarge("deals")
        chunk = encode(step)
        size += len(chunk) + 1
        if size > max_bytes:
            raise TooLarge("bytes")
        chunks.append(chunk)
    assert state is not None  # replay_steps always yields the start
    head = encode(_head(record, state))
    body = b"".join((head[:-1], b',"steps":[', b",".join(chunks), b"]}"))
    if len(body) > max_bytes:
        raise TooLarge("bytes")
    return body
