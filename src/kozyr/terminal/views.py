"""Which terminal view draws which game: a UI map by game name (the rules stay in the
engines; a view only draws what observations and events say)."""

from __future__ import annotations

from rich.console import Console

from kozyr.cards import Lang
from kozyr.terminal.emperor_view import EmperorView
from kozyr.terminal.imperial_view import ImperialView
from kozyr.terminal.session import View

VIEWS: dict[str, type[ImperialView] | type[EmperorView]] = {
    "imperial": ImperialView,
    "emperor": EmperorView,
}


def view_for(game: str, console: Console, names: list[str], lang: Lang) -> View:
    """The terminal view of ``game`` for players ``names``."""
    return VIEWS[game](console, names, lang)
