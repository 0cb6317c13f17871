"""Imperial table options (the defaults are those of the rulings)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from kozyr.games.base import OptionsError, check_option, checked_options
from kozyr.games.stakes import MAX_CHIPS

__all__ = ["MAX_TARGET", "MIN_TARGET", "RANGES", "STORED_RANGES", "ImperialOptions"]

MIN_TARGET = 1
MAX_TARGET = 20
"""Marked imperials that win (I12): the rulings play to 5; nobody plays to more than 20,
and the bound keeps a ``per_imperial`` hold (stake x target) small (docs/chips.md)."""

RANGES: dict[str, tuple[int, int]] = {
    "players": (2, 3),
    "target": (MIN_TARGET, MAX_TARGET),
    "tombe_value": (1, 2),
    "trick_bonus_over": (0, 12),
    "stake": (0, MAX_CHIPS),
}
"""Every whole-number option's smallest and largest value (``must_head`` is a bool), for
a new table, game or record."""

STORED_RANGES: dict[str, tuple[int, int]] = {
    **RANGES,
    # Before the ranges above, any target >= 1 and any stake >= 0 was taken: tables and
    # records made then keep loading (a 32-bit bound still keeps sums exact and small).
    "target": (MIN_TARGET, 2**31 - 1),
    "stake": (0, 2**31 - 1),
}
"""What options read back from a store or a record may hold."""


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
    >>> ImperialOptions.from_json({"target": 21})
    Traceback (most recent call last):
    ...
    kozyr.games.base.OptionsError: target must be a whole number from 1 to 20, not 21
    """

    players: int = 2
    """2 (32 cards) or 3 (36 cards), I1."""
    target: int = 5
    """Marked imperials that win the game, 1-20, I12."""
    tombe_value: int = 1
    """Imperials marked for the imperial tombé, 1 or 2, I9."""
    must_head: bool = False
    """The French rule: a player who can beat the trick must beat it, I7."""
    trick_bonus_over: int = 6
    """A player with more tricks than this (0-12) scores 4 at the end of play, I10."""
    stake: int = 1
    """What each loser pays the winner in the ``game_over`` event, 0 to 1,000,000, I12
    (the chips a table plays for are its stake terms, :mod:`kozyr.games.stakes`)."""

    def __post_init__(self) -> None:
        for name, (low, high) in STORED_RANGES.items():
            check_option(name, getattr(self, name), low, high)
        if not isinstance(self.must_head, bool):
            raise OptionsError.of("games.option.bool", self.must_head, name="must_head")

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, stored: bool = False) -> ImperialOptions:
        """New options (``RANGES``) or, with ``stored``, options a table or record was
        given before the ranges narrowed (``STORED_RANGES``): a game in play or on file
        keeps loading after an upgrade."""
        return cls(**checked_options(data, _FIELDS, None if stored else RANGES))

    def to_json(self) -> dict[str, Any]:
        # Every field is a plain int or bool: a flat dict equals ``asdict`` at a fraction
        # of its cost (``asdict`` deep-copies field by field, and every view of every move
        # carries the options).
        return {name: getattr(self, name) for name in _FIELDS}


_FIELDS = tuple(f.name for f in fields(ImperialOptions))
