"""The ``said`` frame, the one way a line of talk is written to a client (live, on a
``hello`` and in a finished game's replay). The server's other frames are dicts built
where they are sent; this one is a typed class so that every place writes the same
fields."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from kozyr.server.transport.protocol import VERSION

Channel = Literal["players", "spectators"]
PLAYERS: Channel = "players"
SPECTATORS: Channel = "spectators"


@dataclass(frozen=True, slots=True)
class Said:
    """One line of talk: free ``text`` (typed by a person, cleaned) or a quick ``phrase``
    (a code the page words in its reader's language), never both."""

    table: str
    channel: Channel
    id: int
    user_id: int
    name: str
    at_ms: int
    text: str | None = None
    phrase: str | None = None

    def line(self) -> dict[str, Any]:
        """The line as a replay lists it (no envelope)."""
        out: dict[str, Any] = {
            "id": self.id,
            "channel": self.channel,
            "from": {"name": self.name, "user_id": self.user_id},
            "at_ms": self.at_ms,
        }
        if self.phrase is not None:
            out["phrase"] = self.phrase
        else:
            out["text"] = self.text
        return out

    def to_json(self) -> dict[str, Any]:
        """The ``said`` frame."""
        return {"v": VERSION, "type": "said", "table": self.table, **self.line()}
