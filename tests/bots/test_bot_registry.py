"""The bot registry is a static map: importing it (or a game's bots) registers nothing."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kozyr.bots.emperor.search import EmperorSearch
from kozyr.bots.imperial.heuristic import HeuristicBot
from kozyr.bots.random_bot import RandomBot
from kozyr.bots.registry import BOTS, kinds, make_bot


def _loaded_after(code: str, modules: list[str]) -> dict[str, bool]:
    """Which of ``modules`` a fresh interpreter has imported after running ``code``."""
    probe = f"{code}\nimport sys\nprint(*[m in sys.modules for m in {modules!r}])"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    return dict(zip(modules, [w == "True" for w in out], strict=True))


def test_importing_the_registry_imports_no_game_bots() -> None:
    names = ["kozyr.bots.registry", "kozyr.bots.imperial", "kozyr.bots.emperor"]
    names.append("kozyr.interop.ismcts")
    loaded = _loaded_after("import kozyr.bots.registry", names)
    assert loaded == {
        "kozyr.bots.registry": True,
        "kozyr.bots.imperial": False,
        "kozyr.bots.emperor": False,
        "kozyr.interop.ismcts": False,
    }


def test_the_game_bot_packages_do_not_import_the_registry() -> None:
    loaded = _loaded_after(
        "import kozyr.bots.imperial, kozyr.bots.emperor", ["kozyr.bots.registry"]
    )
    assert loaded == {"kozyr.bots.registry": False}


def test_making_an_imperial_bot_loads_only_the_imperial_bots() -> None:
    loaded = _loaded_after(
        "from kozyr.bots.registry import make_bot\nmake_bot('imperial', 3, seed=1)",
        ["kozyr.bots.imperial", "kozyr.bots.emperor"],
    )
    assert loaded == {"kozyr.bots.imperial": True, "kozyr.bots.emperor": False}


def test_every_kind_is_in_the_static_map() -> None:
    levels = [f"level{n}" for n in range(1, 6)]
    expected = sorted([*levels, "heuristic", "search", "oracle", "ismcts"])
    for game in ("imperial", "emperor"):
        assert {k for g, k in BOTS if g == game} == {*expected, "random"}
        assert kinds(game)[-1] == "random"
        assert set(expected) <= set(kinds(game))


def test_make_bot_builds_the_listed_kind() -> None:
    assert isinstance(make_bot("imperial", "heuristic", 1), HeuristicBot)
    assert isinstance(make_bot("emperor", "search", 1), EmperorSearch)
    assert isinstance(make_bot("emperor", "random", 1), RandomBot)
    assert make_bot("emperor", "4", 1).name == "level4"


@pytest.mark.parametrize(
    ("game", "kind", "words"),
    [
        ("imperial", "nonsense", "unknown bot 'nonsense' for imperial"),
        ("imperial", 7, "bot level must be 1-5, not 7"),
        ("chess", "random", "unknown game 'chess'"),
    ],
)
def test_bad_requests_name_the_problem(game: str, kind: str | int, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        make_bot(game, kind)
