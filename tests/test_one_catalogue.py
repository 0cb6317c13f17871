"""One catalogue for everything a person reads: ``kozyr.texts``.

Outside ``src/kozyr/texts/`` no Python file holds a Cyrillic letter (code, strings,
docstrings and comments alike), the server's included, except the input vocabularies
listed in :data:`ALLOWED`, which stay with the parsers that read them. Inside, every
area's keys start with its name and no key is in two areas, and both templates of every
entry name the same parameters.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import kozyr
import kozyr.texts
from kozyr.texts import AREAS, TEXTS, both, fill, text
from kozyr.texts.render import CASES, fields

SRC = Path(kozyr.__file__).resolve().parent
CATALOGUE = SRC / "texts"
CYRILLIC = re.compile("[\u0400-\u052f]")

INPUT_VOCABULARIES: dict[str, str] = {
    "cards.py": "the Russian card notation (В Д К Т, П Ч Б Т К): what parse_card reads, and "
    "so what card_name writes",
    "terminal/commands.py": "the Russian command words the terminal reads (пас, обмен, "
    "козырь ...), shown back in the list of choices so that what is shown may be typed",
    "games/emperor/actions.py": "the Russian for no trumps (бк) that the engine's action "
    "parser takes",
    "server/accounts/names.py": "Cyrillic look-alike letters and reserved words folded out "
    "of user names (TR39 skeletons), and the deleted account's name in Russian, which no "
    "one may take",
    "server/accounts/lookalikes.py": "Cyrillic look-alike letters in the examples of how "
    "Unicode's confusables table is read",
}
"""Files that keep Russian because it is what a person types, not what a person reads."""

ALLOWED: dict[str, str] = INPUT_VOCABULARIES
"""File under ``src/kozyr`` -> why it may hold Cyrillic."""


def _with_cyrillic() -> dict[str, list[str]]:
    """Every Python file outside the catalogue with Cyrillic: its lines that have some."""
    found: dict[str, list[str]] = {}
    for path in sorted(SRC.rglob("*.py")):
        if CATALOGUE in path.parents:
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        hits = [f"{n}: {line.strip()}" for n, line in enumerate(lines, 1) if CYRILLIC.search(line)]
        if hits:
            found[path.relative_to(SRC).as_posix()] = hits
    return found


FOUND = _with_cyrillic()


def test_no_russian_outside_the_catalogue() -> None:
    stray = {path: lines for path, lines in FOUND.items() if path not in ALLOWED}
    report = "\n".join(f"{path}\n  " + "\n  ".join(lines[:5]) for path, lines in stray.items())
    assert not stray, f"Russian outside kozyr/texts/: move it into the catalogue\n{report}"


@pytest.mark.parametrize("path", sorted(ALLOWED))
def test_each_allowed_file_still_needs_it(path: str) -> None:
    # A file whose Russian has moved leaves the list: the list says what is left.
    assert (SRC / path).is_file(), f"{path}: no such file"
    assert path in FOUND, f"{path} holds no Cyrillic now: remove it from the allowlist"


def test_every_area_module_is_merged() -> None:
    modules = {
        info.name
        for info in pkgutil.iter_modules(kozyr.texts.__path__)
        if hasattr(importlib.import_module(f"kozyr.texts.{info.name}"), "TEXTS")
    }
    assert modules == set(AREAS), "list every area module in kozyr.texts.AREAS"


def test_keys_are_unique_across_areas_and_start_with_their_area() -> None:
    seen: dict[str, str] = {}
    for area, table in AREAS.items():
        for key in table:
            assert key.startswith(f"{area}."), f"{key} is in the area {area}"
            assert key not in seen, f"{key} is in both {seen[key]} and {area}"
            seen[key] = area
    # No area's entry was silently replaced by another's in the merged table.
    assert len(TEXTS) == sum(len(table) for table in AREAS.values())
    assert all(TEXTS[key] == AREAS[area][key] for key, area in seen.items())


@pytest.mark.parametrize("area", sorted(AREAS))
def test_both_languages_name_the_same_parameters(area: str) -> None:
    for key, (en, ru) in AREAS[area].items():
        assert en and ru, key
        assert fields(en) == fields(ru), f"{key}: {sorted(fields(en))} != {sorted(fields(ru))}"


def test_grammar_specs_are_known() -> None:
    """A spec is a case (``{name:gen}``), word forms (``{n:trick|tricks}``: two in English,
    three in Russian for a count; two for a name's verb) or a standard format spec."""
    spec = re.compile(r"\{(\w+)(?:![rs])?:([^{}]*)\}")
    for key, (en, ru) in TEXTS.items():
        for lang, template in (("en", en), ("ru", ru)):
            for _, form in spec.findall(template):
                if "|" in form:
                    assert len(form.split("|")) in ((2,) if lang == "en" else (2, 3)), key
                else:
                    assert form in CASES or form == ".0", f"{key}: unknown spec {form!r}"


def test_the_catalogue_renders() -> None:
    assert text("terminal.round", "ru", n=3) == "Тур 3"
    assert both("markets.imperial.tricks", deal=2, player="Маша") == (
        "Deal 2: how many tricks Маша takes",
        "Сдача 2: сколько взяток возьмёт Маша",
    )
    assert text("grammar.count.trick", "ru", n=21) == "21 взятка"
    # The Russian of a refused non-object names no type, as before the move.
    assert text("games.option.not_object", "ru", type="list") == (
        "Параметры игры должны быть объектом."
    )
    with pytest.raises(KeyError):
        text("terminal.no_such_text")


@pytest.mark.parametrize(
    ("template", "params", "filled"),
    [
        ("{n} {n:trick|tricks}", {"n": -1}, "-1 trick"),
        ("{n} {n:взятка|взятки|взяток}", {"n": 12}, "12 взяток"),
        ("{who} {who:платит|платите}", {"who": "Вы"}, "Вы платите"),
        (
            "{who} {who:pays|pay} {to:dat}",
            {"who": "Computer 1", "to": "You"},
            "Computer 1 pays you",
        ),
        ("у {who:gen}, к {who:dat}", {"who": "Игрок 2"}, "у Игрока 2, к Игроку 2"),
        ("с {who:ins}", {"who": "Компьютер x"}, "с Компьютер x"),  # not a seat number
        ("{text!r}, {x:>3}", {"text": "a", "x": 7}, "'a',   7"),  # str.format as ever
    ],
)
def test_grammar_in_templates(template: str, params: dict[str, object], filled: str) -> None:
    assert fill(template, **params) == filled


def test_forms_that_do_not_fit_are_an_error() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        fill("{n:a|b|c|d}", n=2)


def test_the_protocol_errors_are_the_catalogues() -> None:
    from kozyr.server.transport.protocol import ERRORS, ProtocolError

    codes = {key.removeprefix("protocol.error.") for key in AREAS["protocol"]}
    assert set(ERRORS) <= codes
    for code, (en, ru) in ERRORS.items():
        # A code's own message is shown as it is: it takes no parameters.
        assert not fields(TEXTS[f"protocol.error.{code}"][0]), code
        error = ProtocolError(code)
        assert (error.message, error.message_ru) == both(f"protocol.error.{code}") == (en, ru)
    # Braces written in a message come out as themselves.
    assert ERRORS["bad_stake"][0] == 'Stake terms are an object: {"kind": ..., "chips": S}.'


def test_the_catalogue_imports_nothing_else_of_kozyr() -> None:
    # Every layer may import it: it must sit below them all.
    imports = re.compile(r"^\s*(?:from|import)\s+kozyr\.(\w+)", re.M)
    for path in CATALOGUE.glob("*.py"):
        outside = set(imports.findall(path.read_text(encoding="utf-8"))) - {"texts"}
        assert not outside, f"{path.name} imports {outside}"
