"""The language of ``kozyr --help``: Russian when ``--lang ru`` is on the command line, or
when the locale is Russian and ``--lang en`` is not.

Help texts are fixed when the command's functions are declared, before any option is
parsed, so the language is read from the raw arguments.

>>> help_lang(["play", "imperial", "--help", "--lang", "ru"], "en")
'ru'
>>> help_lang(["play", "imperial", "--lang=en", "--help"], "ru"), help_lang(["--help"], "ru")
('en', 'ru')
"""

from __future__ import annotations

from collections.abc import Sequence

from kozyr.texts import Lang, template, text


def help_lang(argv: Sequence[str], locale_lang: Lang) -> Lang:
    """``--lang`` from the arguments if given, else the locale's language."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--lang="):
            value = arg.split("=", 1)[1]
        else:
            continue
        return "ru" if value == "ru" else "en"
    return locale_lang


def help_text(key: str) -> str:
    """The catalogue's help text ``key`` (``cli.help.*``) in the language of this run's
    help (:func:`help_lang` of the command line and the locale)."""
    import sys

    from kozyr.i18n import default_lang

    return text(key, help_lang(sys.argv[1:], default_lang()))


def use_russian_chrome() -> None:
    """Prints typer's panel titles and notes in Russian: typer reads them from module
    constants (translated once at import through an empty gettext catalogue)."""
    import typer.rich_utils as rich

    # The catalogue's cli.chrome.* are Typer's own templates: Typer fills them itself. Its
    # "Usage:" line and the text of --help are fixed strings in its copy of click.
    rich.OPTIONS_PANEL_TITLE = template("cli.chrome.options", "ru")
    rich.ARGUMENTS_PANEL_TITLE = template("cli.chrome.arguments", "ru")
    rich.COMMANDS_PANEL_TITLE = template("cli.chrome.commands", "ru")
    rich.ERRORS_PANEL_TITLE = template("cli.chrome.error", "ru")
    rich.DEFAULT_STRING = template("cli.chrome.default", "ru")
    rich.REQUIRED_LONG_STRING = template("cli.chrome.required", "ru")
    rich.RICH_HELP = template("cli.chrome.help", "ru")
