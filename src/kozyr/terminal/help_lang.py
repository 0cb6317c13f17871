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

from kozyr.cards import Lang

# The words typer prints around a command's own help, in Russian. Its "Usage:" line and the
# text of --help itself are fixed strings in typer's copy of click, and stay English.
CHROME_RU: dict[str, str] = {
    "Options": "Параметры",
    "Arguments": "Аргументы",
    "Commands": "Команды",
    "Error": "Ошибка",
    "[default: {}]": "[по умолчанию: {}]",
    "[required]": "[обязательно]",
    "Try [blue]'{command_path} {help_option}'[/] for help.": (
        "Справка: [blue]'{command_path} {help_option}'[/]."
    ),
}


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


def help_text(en: str, ru: str) -> str:
    """``en`` or ``ru``, in the language of this run's help (:func:`help_lang` of the
    command line and the locale)."""
    import sys

    from kozyr.i18n import default_lang

    return ru if help_lang(sys.argv[1:], default_lang()) == "ru" else en


def use_russian_chrome() -> None:
    """Prints typer's panel titles and notes in Russian: typer reads them from module
    constants (translated once at import through an empty gettext catalogue)."""
    import typer.rich_utils as rich

    rich.OPTIONS_PANEL_TITLE = CHROME_RU["Options"]
    rich.ARGUMENTS_PANEL_TITLE = CHROME_RU["Arguments"]
    rich.COMMANDS_PANEL_TITLE = CHROME_RU["Commands"]
    rich.ERRORS_PANEL_TITLE = CHROME_RU["Error"]
    rich.DEFAULT_STRING = CHROME_RU["[default: {}]"]
    rich.REQUIRED_LONG_STRING = CHROME_RU["[required]"]
    rich.RICH_HELP = CHROME_RU["Try [blue]'{command_path} {help_option}'[/] for help."]
