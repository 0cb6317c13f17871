"""The frames the server sends about challenges, typed and written here only.

A ``challenge`` frame goes to every open socket of the person it concerns, on whichever
process holds them (the bus's ``friends`` channel): the challenged person when it
arrives, or is cancelled or expires; its sender when it is accepted (with the new
table's id) or declined. It carries no card: only who, which game, options, stake and
seats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kozyr.server.friends.challenges import Challenge
from kozyr.server.transport.protocol import VERSION

CHANNEL = "friends"
"""The bus channel of these frames: ``{"user": id, "frame": {...}}``."""


@dataclass(frozen=True, slots=True)
class ChallengeFrame:
    """``{"v": 1, "type": "challenge", "challenge": {...}}``: a challenge as it now stands
    (its ``state`` says what happened; ``table`` is set once it was accepted)."""

    challenge: Challenge

    def to_json(self) -> dict[str, Any]:
        return {"v": VERSION, "type": "challenge", "challenge": self.challenge.to_json()}


def notice(user_id: int, frame: ChallengeFrame) -> dict[str, Any]:
    """The bus message that takes ``frame`` to ``user_id``'s sockets."""
    return {"user": user_id, "frame": frame.to_json()}
