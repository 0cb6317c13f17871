"""Issue item 1 (and issue 28, "one place per game"): outside the engines (``kozyr/games``)
and each game's bots, no code branches on a game's name or its state type: it asks the Game
spec (``kozyr.games.GAMES``). The server included. The web page's scripts likewise: outside
their per-game modules (``static/js/games/``) they ask ``gameOf(name)``, which joins the
server's facts (``GET /api/game-facts``) with those modules. Maps from a game name to
something drawn for people (a terminal view) are fine: they hold no rules."""

from __future__ import annotations

import re
from pathlib import Path

import kozyr

ROOT = Path(kozyr.__file__).parent
SKIPPED = ("games", "bots/imperial", "bots/emperor")
SCRIPTS = ROOT / "web" / "static" / "js"
SCRIPTS_SKIPPED = ("games",)
# A comparison with a game's name, either way round: == "imperial", "emperor" != x,
# in ("imperial", ...); in the scripts also === and !== (caught by the same == and !=),
# `case "imperial":` and names in backquotes.
COMPARES = re.compile(
    r"""(==|!=|\bin|\bcase)\s*[(\[{]?\s*["'`](imperial|emperor)["'`]"""
    r"""|["'`](imperial|emperor)["'`]\s*(==|!=)"""
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


def _scripts() -> list[Path]:
    return [
        p
        for p in sorted(SCRIPTS.rglob("*.js"))
        if not any(p.relative_to(SCRIPTS).as_posix().startswith(s + "/") for s in SCRIPTS_SKIPPED)
    ]


def test_the_scan_sees_the_packages_it_guards() -> None:
    seen = {p.relative_to(ROOT).as_posix() for p in _sources()}
    assert {"records.py", "cli.py", "arena/match.py", "interop/pettingzoo.py"} <= seen
    assert {"server/play/games.py", "server/tables/lobby.py", "server/routes/tables.py"} <= seen
    assert not any(s.startswith("games/") for s in seen)
    scripts = {p.relative_to(SCRIPTS).as_posix() for p in _scripts()}
    assert {"app.js", "table.js", "scoresheet.js", "summary.js", "review.js"} <= scripts
    assert not any(s.startswith("games/") for s in scripts)
    # The per-game modules exist and are where the names may be compared.
    assert (SCRIPTS / "games" / "imperial.js").is_file()
    assert (SCRIPTS / "games" / "emperor.js").is_file()


def test_the_patterns_catch_what_they_mean() -> None:
    assert COMPARES.search('if game == "imperial":')
    assert COMPARES.search("if 'emperor' != state.game:")
    assert COMPARES.search('game in ("imperial", "emperor")')
    assert not COMPARES.search('VIEWS = {"imperial": ImperialView}')
    assert COMPARES.search('    if row.game == "emperor":')
    # The scripts' comparisons.
    assert COMPARES.search('const imperial = game === "imperial";')
    assert COMPARES.search("if ('emperor' !== m.game) return;")
    assert COMPARES.search('return t(game === "imperial" ? "game_imperial" : "game_emperor");')
    assert COMPARES.search('    case "emperor":')
    assert COMPARES.search("if (m.game === `imperial`) x();")
    assert not COMPARES.search("const MODULES = { imperial, emperor };")
    assert not COMPARES.search('if (ev.reason === "imperial tombé") x();')
    assert not COMPARES.search('if (kind === "per_imperial") return s;')
    assert not COMPARES.search('t("game_imperial")')
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


def _script_comparisons(path: Path, name: str) -> list[str]:
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith(("//", "*", "/*")):
            continue  # a comment may name a game
        if COMPARES.search(line):
            found.append(f"{name}:{number}: {line.strip()}")
    return found


def test_no_script_outside_the_game_modules_branches_on_a_game() -> None:
    found = []
    for path in _scripts():
        found += _script_comparisons(path, f"js/{path.relative_to(SCRIPTS).as_posix()}")
    assert found == []


def test_the_scan_of_the_scripts_fails_on_a_comparison(tmp_path: Path) -> None:
    sample = tmp_path / "sample.js"
    sample.write_text(
        "// a comment: game === 'imperial' is what the page must not do\n"
        'export const f = (m) => (m.game === "imperial" ? 1 : 2);\n'
        "export const g = (row) => row.game !== 'emperor';\n"
    )
    assert _script_comparisons(sample, "sample.js") == [
        'sample.js:2: export const f = (m) => (m.game === "imperial" ? 1 : 2);',
        "sample.js:3: export const g = (row) => row.game !== 'emperor';",
    ]
