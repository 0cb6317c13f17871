"""The HTML pages the server writes itself (the rules of each game,
:mod:`kozyr.server.routes.rules`): their links. The web page's own texts are in its
catalogue, ``web/static/js/i18n.js``."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "pages.back_to_game": ("Back to the game", "Вернуться к игре"),
    # Each language by its own name, for the link to the page in it: a Russian reader of
    # the English page looks for "Русский".
    "pages.language": ("English", "Русский"),
}
