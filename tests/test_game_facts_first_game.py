"""A newcomer's first game (#29): each game's own rules, only shorter than a table's
default, and options the game accepts."""

from __future__ import annotations

from kozyr.games import GAMES


def test_the_first_game_is_a_shorter_game_of_the_same_rules() -> None:
    imperial = GAMES["imperial"].options_from_json(dict(GAMES["imperial"].first_game))
    assert imperial.target == 2  # type: ignore[attr-defined]  # two imperials win, not five
    assert GAMES["imperial"].options_from_json({}).target == 5  # type: ignore[attr-defined]
    emperor = GAMES["emperor"].options_from_json(dict(GAMES["emperor"].first_game))
    assert emperor.rounds == 4  # type: ignore[attr-defined]
    assert GAMES["emperor"].options_from_json({}).rounds == 10  # type: ignore[attr-defined]
    for game in GAMES.values():
        assert game.facts()["first_game"] == dict(game.first_game)
