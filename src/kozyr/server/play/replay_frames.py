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


def replay_frames(record: dict[str, Any]) -> dict[str, Any]:
    """Every step of a recorded game: step 0 is the start, step i follows action i.

    Raises :class:`kozyr.records.RecordError` for a record that does not replay.
    """
    actions = record.get("actions")
    if isinstance(actions, list) and len(actions) > MAX_ACTIONS:
        raise RecordError(f"actions: more than {MAX_ACTIONS}")
    steps = []
    state: GameState | None = None
    for state, seat in replay_steps(record):
        action = None if seat is None else {"seat": seat, "action": state.actions[-1]}
        steps.append(_step(state, action, len(state.events)))
    assert state is not None  # replay_steps always yields the start
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
        "steps": steps,
    }
