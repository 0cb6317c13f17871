"""Issue item 1: outside the engines (``kozyr/games``), each game's bots and the server
(reorganised separately), no code branches on a game's name or its state type: it asks
the Game spec (``kozyr.games.GAMES``). Maps from a game name to something drawn for
people (a terminal view) are fine: they hold no rules."""

from __future__ import annotations

import re
from pathlib import Path

import kozyr

ROOT = Path(kozyr.__file__).parent
SKIPPED = ("games", "bots/imperial", "bots/emperor", "server")
# A comparison with a game's name, either way round: == "imperial", "emperor" != x,
# in ("imperial", ...).
COMPARES = re.compile(
    r"""(==|!=|\bin)\s*[(\[{]?\s*["'](imperial|emperor)["']"""
    r"""|["'](imperial|emperor)["']\s*(==|!=)"""
)
STATE_TYPES = re.compile(r"\b(ImperialState|EmperorState)\b")
EXCEPTIONS = {
    # The OpenSpiel adapter types its engine states and draws chance deals with each
    # engine's own seeded_deal; its game description comes from the spec.
    "interop/openspiel.py": STATE_TYPES,
    # The ISMCTS bot's leaf values use each game's heuristic (the bots' area).
    "interop/ismcts.py": STATE_TYPES,
    # The bot registry picks each game's bot package; the bots' helper owns it (to become
    # a map by game name, after which this entry goes).
    "bots/registry.py": COMPARES,
}


def _sources() -> list[Path]:
    return [
        p
        for p in sorted(ROOT.rglob("*.py"))
        if not any(p.relative_to(ROOT).as_posix().startswith(s + "/") for s in SKIPPED)
    ]


def test_the_scan_sees_the_packages_it_guards() -> None:
    seen = {p.relative_to(ROOT).as_posix() for p in _sources()}
    assert {"records.py", "cli.py", "arena/match.py", "interop/pettingzoo.py"} <= seen
    assert not any(s.startswith(("games/", "server/")) for s in seen)


def test_the_patterns_catch_what_they_mean() -> None:
    assert COMPARES.search('if game == "imperial":')
    assert COMPARES.search("if 'emperor' != state.game:")
    assert COMPARES.search('game in ("imperial", "emperor")')
    assert not COMPARES.search('VIEWS = {"imperial": ImperialView}')
    assert STATE_TYPES.search("from kozyr.games.imperial import ImperialState")


def test_no_code_outside_the_games_branches_on_a_game() -> None:
    found = []
    for path in _sources():
        rel = path.relative_to(ROOT).as_posix()
        allowed = EXCEPTIONS.get(rel)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if code.lstrip().startswith(">>>"):
                continue  # doctest examples may build a state directly
            for pattern in (COMPARES, STATE_TYPES):
                if pattern is not allowed and pattern.search(code):
                    found.append(f"{rel}:{number}: {line.strip()}")
    assert found == []
