"""``GET /api/game-facts``: what the page learns of each game from the Game specs, checked
against values worked out by hand from the rules (docs/rules-imperial.md, rules-emperor.md)."""

from __future__ import annotations

from pathlib import Path

import httpx
from tests.server.inprocess import inprocess_server

from kozyr.games import GAMES
from kozyr.games.stakes import StakeTerms


def test_the_page_learns_each_game_from_the_specs(tmp_path: Path) -> None:
    with inprocess_server(tmp_path / "data") as srv:
        # No account needed: the sign-in screen shows the games too.
        r = httpx.get(srv.base + "/api/game-facts", timeout=30)
    assert r.status_code == 200
    games = {g["name"]: g for g in r.json()["games"]}
    assert list(games) == ["imperial", "emperor"]
    imperial, emperor = games["imperial"], games["emperor"]
    assert imperial["title"] == {"en": "Imperial", "ru": "Империал"}
    assert emperor["title"] == {"en": "Emperor", "ru": "Император"}
    assert (imperial["players"], imperial["default_players"]) == ([2, 3], 2)
    assert (emperor["players"], emperor["default_players"]) == ([3, 4], 4)
    # I2: K Q J A 10 9 8 7 6; E1: ace high, A K Q ... 2.
    assert imperial["rank_order"] == [13, 12, 11, 14, 10, 9, 8, 7, 6]
    assert emperor["rank_order"] == [14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]
    assert imperial["stake_kinds"] == ["per_game", "per_imperial"]
    assert emperor["stake_kinds"] == ["per_place", "per_trick"]
    assert (imperial["unit"], emperor["unit"]) == ("deal", "round")
    assert imperial["decision_kinds"] == []
    assert emperor["decision_kinds"] == ["exchange", "bargain", "trump"]
    assert imperial["score_columns"] == ["imperials", "points", "tricks"]
    assert emperor["score_columns"] == ["title", "this_round", "total"]
    assert "turnup" in imperial["panels"] and "decision" in emperor["panels"]
    assert "decision" not in imperial["panels"] and "turnup" not in emperor["panels"]


def test_settling_from_a_summary_is_the_specs_settlement() -> None:
    # Imperial per_game, three players: each loser pays the winner one stake unit (B5).
    imperial = GAMES["imperial"]
    terms = StakeTerms.from_json({"kind": "per_game", "chips": 10}, "imperial")
    options = imperial.options_from_json({"players": 3, "target": 5})
    summary = {
        "winner": 0,
        "scores": [{"imperials": 5, "points": 3}, {"imperials": 2}, {"imperials": 0}],
    }
    assert imperial.settle_summary(terms, options, summary) == [20, -10, -10]
    # Emperor per_place, 4 players: 3, 1, -1, -3 stake units by place (ties share).
    emperor = GAMES["emperor"]
    terms = StakeTerms.from_json({"kind": "per_place", "chips": 5}, "emperor")
    options = emperor.options_from_json({"players": 4})
    assert emperor.settle_summary(terms, options, {"totals": [30, 41, 12, 41]}) == [-5, 10, -15, 10]
