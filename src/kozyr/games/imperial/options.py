"""Imperial table options (the defaults are those of the rulings)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from kozyr.games.base import OptionsError

__all__ = ["ImperialOptions"]


def _is_int(value: object) -> bool:
    # bool is an int subclass, but `True` as a player count is a mistake, not a 1.
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class ImperialOptions:
    """Options of an Imperial table.

    >>> ImperialOptions().to_json()  # doctest: +NORMALIZE_WHITESPACE
    {'players': 2, 'target': 5, 'tombe_value': 1, 'must_head': False,
     'trick_bonus_over': 6, 'stake': 1}
    >>> ImperialOptions.from_json({"players": 4})
    Traceback (most recent call last):
    ...
    kozyr.games.base.OptionsError: players must be 2 or 3, not 4
    """

    players: int = 2
    """2 (32 cards) or 3 (36 cards), I1."""
    target: int = 5
    """Marked imperials that win the game, I12."""
    tombe_value: int = 1
    """Imperials marked for the imperial tombé, 1 or 2, I9."""
    must_head: bool = False
    """The French rule: a player who can beat the trick must beat it, I7."""
    trick_bonus_over: int = 6
    """A player with more tricks than this scores 4 at the end of play, I10."""
    stake: int = 1
    """What each loser pays the winner, I12."""

    def __post_init__(self) -> None:
        if not _is_int(self.players) or self.players not in (2, 3):
            raise OptionsError(f"players must be 2 or 3, not {self.players!r}")
        if not _is_int(self.target) or self.target < 1:
            raise OptionsError(f"target must be a whole number >= 1, not {self.target!r}")
        if not _is_int(self.tombe_value) or self.tombe_value not in (1, 2):
            raise OptionsError(f"tombe_value must be 1 or 2, not {self.tombe_value!r}")
        if not isinstance(self.must_head, bool):
            raise OptionsError(f"must_head must be true or false, not {self.must_head!r}")
        if not _is_int(self.trick_bonus_over) or not 0 <= self.trick_bonus_over <= 12:
            raise OptionsError(
                f"trick_bonus_over must be a whole number 0-12, not {self.trick_bonus_over!r}"
            )
        if not _is_int(self.stake) or self.stake < 0:
            raise OptionsError(f"stake must be a whole number >= 0, not {self.stake!r}")

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ImperialOptions:
        if not isinstance(data, dict):
            raise OptionsError(f"options must be an object, not {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            known_text = ", ".join(sorted(known))
            raise OptionsError(f"unknown option {unknown[0]!r}: known are {known_text}")
        return cls(**data)

    def to_json(self) -> dict[str, Any]:
        # Every field is a plain int or bool: a flat dict equals ``asdict`` at a fraction
        # of its cost (``asdict`` deep-copies field by field, and every view of every move
        # carries the options).
        return {name: getattr(self, name) for name in _FIELDS}


_FIELDS = tuple(f.name for f in fields(ImperialOptions))
