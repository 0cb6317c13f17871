"""Spectators cost one encoding per role, not one per watcher (#17, item 6): a broadcast
builds and encodes each role's frame once and hands the same text to every watcher."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from kozyr.server.storage.store import User
from kozyr.server.tables import broadcast
from kozyr.server.tables.broadcast import Broadcaster
from kozyr.server.transport.protocol import Client


def test_a_table_frame_is_encoded_once_per_role(monkeypatch: pytest.MonkeyPatch) -> None:
    encoded: list[dict[str, Any]] = []
    real = broadcast.dumps

    def counting(frame: dict[str, Any]) -> str:
        encoded.append(frame)
        return real(frame)

    monkeypatch.setattr(broadcast, "dumps", counting)
    infos: list[bool] = []

    def info(private: bool) -> dict[str, Any]:
        infos.append(private)
        return {"id": "t1", "private": private}

    seats = {Client(User(i, f"p{i}", False)): i for i in range(2)}
    spectators = {Client(User(100 + i, f"s{i}", False)): None for i in range(300)}
    presence = SimpleNamespace(watchers={**seats, **spectators})
    caster = Broadcaster(cast(Any, None), cast(Any, presence), info, lambda: None)
    caster.send_table()
    # three roles (seat 0, seat 1, spectators): three frames built and encoded, not 302
    assert len(encoded) == 3 and len(infos) == 3
    texts = [c.queue[-1] for c in spectators]
    assert all(t is texts[0] for t in texts)  # the very same string for every spectator
    assert {c.queue[-1] for c in seats} != {texts[0]}
