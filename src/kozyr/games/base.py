"""What every rules engine offers: the shape shared by Imperial and Emperor.

An engine is pure: no I/O, no clocks, no global randomness. A game is fixed by its
options, its seed or explicit deals, and its list of actions (B2). Actions are small
ints (OpenSpiel style) with a text form (``"QS"``, ``"swap 3"``, ``"trump NT"``) used by
the terminal, the records and the server.

Every entry of ``state.events`` is public (I13, B3): it may be shown to any player or
spectator. What only one seat may know lives in ``state.observation(seat)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, Self, TypeAlias

from kozyr.messages import json_params, message
from kozyr.texts import LANGS, Lang, text

Event: TypeAlias = dict[str, Any]
"""One public event, JSON-ready, always with a ``"type"`` key."""


class GameError(ValueError):
    """Something asked of a game that cannot be done."""


class IllegalAction(GameError):
    """An action that the rules forbid here: ``code`` and ``params`` name the problem in
    the catalog of :mod:`kozyr.messages` (``"must_follow"``, ``{"suit": 0}``), ``rule``
    the ruling it breaks (``"I7"``). ``str(error)`` is the English message and the rule;
    ``error.message("ru")`` the Russian message.

    The state is left exactly as it was.
    """

    def __init__(self, code: str, params: Mapping[str, Any] | None = None, rule: str = "") -> None:
        self.code = code
        self.params = dict(params or {})
        self.rule = rule
        super().__init__(f"{self.message('en')} ({rule})" if rule else self.message("en"))

    def message(self, lang: Lang = "en") -> str:
        return message(self.code, lang, **self.params)

    def to_json(self) -> dict[str, Any]:
        """The refusal for a client: code, parameters (cards and suits as text), ruling and
        both messages."""
        return {
            "code": self.code,
            "params": json_params(self.params),
            "rule": self.rule,
            "message": self.message("en"),
            "message_ru": self.message("ru"),
        }


class DealError(GameError):
    """Given cards that do not make a valid deal (wrong hand size, a card twice, ...)."""


class OptionsError(GameError):
    """A game option with a value the game does not allow: ``str(error)`` is the English
    message, ``message_ru`` the Russian one (None: only the English is known)."""

    def __init__(self, message: str, message_ru: str | None = None) -> None:
        super().__init__(message)
        self.message_ru = message_ru

    @classmethod
    def of(cls, key: str, value: object = None, **params: object) -> OptionsError:
        """The catalogue's ``key`` (``games.option.*``) in both languages, with ``value``
        quoted for each (:func:`shown_option`)."""
        en, ru = (text(key, lang, value=shown_option(value, lang), **params) for lang in LANGS)
        return cls(en, ru)


def shown_option(value: object, lang: Lang) -> str:
    """An option's value as a message quotes it: short, whatever was sent (an int too
    long for ``repr`` raises ValueError past 4300 digits)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        bits = value.bit_length()
        return text("games.option.bits", lang, bits=bits)
    quoted = repr(value)
    return quoted if len(quoted) <= 40 else quoted[:37] + "..."


def check_option(name: str, value: object, low: int, high: int) -> int:
    """``value`` if it is a whole number ``low``-``high``; else :class:`OptionsError`
    naming the option and its range in English and Russian. A bool is not a number
    (``"players": true`` is a mistake, not a 1).

    >>> check_option("target", 21, 1, 20)
    Traceback (most recent call last):
    ...
    kozyr.games.base.OptionsError: target must be a whole number from 1 to 20, not 21
    >>> check_option("players", 4, 2, 3)
    Traceback (most recent call last):
    ...
    kozyr.games.base.OptionsError: players must be 2 or 3, not 4
    """
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    key = "games.option.pair" if high == low + 1 else "games.option.range"
    raise OptionsError.of(key, value, name=name, low=low, high=high)


def checked_options(
    data: Mapping[str, Any],
    known: tuple[str, ...],
    ranges: Mapping[str, tuple[int, int]] | None,
) -> dict[str, Any]:
    """``data`` as keyword arguments of a game's options, once every key is one of
    ``known`` and every whole-number option in ``ranges`` (None: a stored table's or
    record's options, which the options' own wider bounds check) is in its range.

    >>> checked_options({"target": 5}, ("target",), {"target": (1, 20)})
    {'target': 5}
    >>> checked_options({"foo": 1}, ("target", "players"), None)
    Traceback (most recent call last):
    ...
    kozyr.games.base.OptionsError: unknown option 'foo': known are players, target
    """
    if not isinstance(data, Mapping):
        raise OptionsError.of("games.option.not_object", type=type(data).__name__)
    unknown = sorted(set(data) - set(known), key=str)
    if unknown:
        raise OptionsError.of("games.option.unknown", unknown[0], known=", ".join(sorted(known)))
    for name, (low, high) in (ranges or {}).items():
        if name in data:
            check_option(name, data[name], low, high)
    return dict(data)


class Observation(Protocol):
    """What one seat (or a spectator, seat None) may know; JSON-ready via ``to_json``."""

    @property
    def seat(self) -> int | None: ...

    def to_json(self) -> dict[str, Any]: ...


class GameState(Protocol):
    """The interface that records, bots, the terminal and the server rely on."""

    @property
    def game(self) -> str:
        """The game's name in :data:`kozyr.games.spec.GAMES` (read only)."""
        ...

    players: int
    seed: int | None
    dealing: str
    """The seed's dealing scheme (:mod:`kozyr.games.dealing`)."""
    events: list[Event]
    actions: list[str]

    @property
    def waiting_for_deal(self) -> bool:
        """True when the next deal is neither listed nor seeded (see ``add_deal``)."""
        ...

    def summary(self) -> dict[str, Any]:
        """Scores and standing, JSON-ready (what ``kozyr replay --json`` prints)."""
        ...

    @property
    def to_act(self) -> int | None:
        """The seat that must act now; None when the game is over or waits for a deal."""
        ...

    @property
    def over(self) -> bool: ...

    def legal_actions(self) -> list[int]: ...

    def apply(self, action: int) -> None: ...

    def action_text(self, action: int) -> str: ...

    def parse_action(self, text: str) -> int: ...

    def play(self, text: str) -> None:
        """Parse and apply the text form of an action."""
        ...

    def observation(self, seat: int | None) -> Observation: ...

    def clone(self) -> Self: ...
