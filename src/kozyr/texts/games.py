"""What the rules engines say besides refusals: the games' names and why a game's
options were refused (:class:`kozyr.games.base.OptionsError`). ``{value}`` is the value
as sent, quoted for its language (:func:`kozyr.games.base.shown_option`)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "games.title.imperial": ("Imperial", "Империал"),
    "games.title.emperor": ("Emperor", "Император"),
    "games.option.pair": (
        "{name} must be {low} or {high}, not {value}",
        "Параметр «{name}»: {low} или {high}, а не {value}",
    ),
    "games.option.range": (
        "{name} must be a whole number from {low} to {high}, not {value}",
        "Параметр «{name}»: целое число от {low} до {high}, а не {value}",
    ),
    "games.option.bool": (
        "{name} must be true or false, not {value}",
        "Параметр «{name}»: true или false, а не {value}",
    ),
    "games.option.unknown": (
        "unknown option {value}: known are {known}",
        "Неизвестный параметр {value}; известны: {known}",
    ),
    # The Russian names no type: ".0" takes the parameter and prints nothing of it.
    "games.option.not_object": (
        "options must be an object, not {type}",
        "Параметры игры должны быть объектом.{type:.0}",
    ),
    # An int too long to quote (over 64 bits).
    "games.option.bits": ("a {bits}-bit number", "число в {bits} бит"),
}
