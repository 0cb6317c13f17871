"""The options of an Emperor table (E2, E4, E8) and their JSON form."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from kozyr.games.base import OptionsError

__all__ = ["EmperorOptions"]


@dataclass(frozen=True, slots=True)
class EmperorOptions:
    """How an Emperor table plays; the defaults are the rulings' game.

    ``players``: 3 or 4 (E2). ``rounds``: rounds in a game (E4). ``bargain_from``: the
    first round with bargaining (E8; larger than ``rounds`` means never).
    ``max_offer``: the most tricks one offer may name (E8; the action ids leave room for 3).
    """

    players: int = 4
    rounds: int = 10
    bargain_from: int = 4
    max_offer: int = 3

    def __post_init__(self) -> None:
        _check_int("players", self.players, 3, 4)
        _check_int("rounds", self.rounds, 1, 1000)
        # Round 1 has no exchange (E5), so bargaining cannot start before round 2.
        _check_int("bargain_from", self.bargain_from, 2, 1001)
        _check_int("max_offer", self.max_offer, 1, 3)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EmperorOptions:
        if not isinstance(data, dict):
            raise OptionsError(f"options must be a JSON object, not {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise OptionsError(f"unknown option {unknown[0]!r}: Emperor has {sorted(known)}")
        return cls(**data)

    def to_json(self) -> dict[str, Any]:
        # Every field is a plain int or bool: a flat dict equals ``asdict`` at a fraction
        # of its cost (``asdict`` deep-copies field by field, and every view of every move
        # carries the options).
        return {name: getattr(self, name) for name in _FIELDS}


def _check_int(name: str, value: object, low: int, high: int) -> None:
    # bool is an int subclass, but "players": true is a mistake, not a number.
    if not isinstance(value, int) or isinstance(value, bool):
        raise OptionsError(f"option {name!r} must be a whole number, not {value!r}")
    if not low <= value <= high:
        raise OptionsError(f"option {name!r} must be between {low} and {high}, not {value}")


_FIELDS = tuple(f.name for f in fields(EmperorOptions))
