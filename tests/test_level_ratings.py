"""The bot levels on the players' rating scale (#31 item 4): the fit of arena games, its
anchor, the ratings file and what the page is sent. Expected values worked out by hand
from openskill's Plackett-Luce update (docs/ratings.md), not read off the program."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from kozyr.arena import levels
from kozyr.arena.levels import ANCHOR, LevelGame, fit, pairings, ratings_json, tasks
from kozyr.bots import level_ratings as shipped
from kozyr.bots.level_ratings import FORMAT, LevelRating
from kozyr.server.accounts.ratings import display
from kozyr.server.routes import game_facts


def test_the_arena_rates_with_the_servers_model() -> None:
    from kozyr.server.accounts import ratings

    def params(m: object) -> tuple[object, ...]:
        return tuple(getattr(m, k) for k in ("mu", "sigma", "beta", "tau", "kappa"))

    assert type(levels.MODEL) is type(ratings.MODEL)
    assert params(levels.MODEL) == params(ratings.MODEL)


def test_one_game_moves_the_two_levels_as_the_server_moves_two_new_players() -> None:
    # Two new players (mu 25, sigma 25/3), the first wins. openskill first adds its
    # dynamics tau = 25/300 (sigma^2 + tau^2); Plackett-Luce with beta 25/6:
    # c = sqrt(2 sigma^2 + 2 beta^2); each has probability 1/2 of leading, so
    # mu moves by sigma^2 / c * (1 - 1/2) for the winner, the same down for the loser;
    # the mean stays 25, so the anchor moves nothing.
    sigma2, beta = (25 / 3) ** 2 + (25 / 300) ** 2, 25 / 6
    c = math.sqrt(2 * sigma2 + 2 * beta**2)
    step = sigma2 / c / 2
    r = fit([LevelGame(0, 0, 0, (4, 5), (1, 0))])  # seat 1 (level 5) first
    assert r[5].mu == pytest.approx(25 + step)
    assert r[4].mu == pytest.approx(25 - step)
    assert (r[4].games, r[5].games, r[1].games) == (1, 1, 0)
    assert r[1].mu == pytest.approx(25) and r[1].sigma == pytest.approx(25 / 3)


def test_the_anchor_puts_the_levels_mean_at_a_new_players_mu() -> None:
    # Level 3 beats 2 ten times, level 2 beats 1 ten times: whatever the spread, the
    # five levels' mean mu is a new player's 25, and the order is 3 > 2 > 1.
    games = [LevelGame(0, 1, 0, (2, 3), (1, 0))] * 10 + [LevelGame(0, 0, 0, (1, 2), (1, 0))] * 10
    r = fit(games)
    assert sum(x.mu for x in r.values()) / 5 == pytest.approx(ANCHOR) == pytest.approx(25)
    assert r[3].mu > r[2].mu > r[1].mu


def test_the_sweeps_seat_every_level_of_a_pairing_in_every_seat() -> None:
    first = [t for _, t in zip(range(2 * 7), tasks("imperial", 2, 31, 0), strict=False)]
    lineups = [tuple(int(t.bots[b].kind) for b in t.slot.seats) for t in first]
    assert lineups[:4] == [(1, 2), (2, 1), (2, 3), (3, 2)]
    # a game's set index gives its sweep and pairing (play_level_game's divmod)
    assert [divmod(t.slot.set_index, 7) for t in first[::2]] == [(0, k) for k in range(7)]
    # a duplicate set's two games have the same cards; different sets different ones
    assert first[0].slot.deal_seed == first[1].slot.deal_seed != first[2].slot.deal_seed
    assert sorted(set(map(frozenset, lineups))) == sorted(set(map(frozenset, pairings(2))))


def test_the_file_keeps_each_player_count_and_the_page_gets_the_shown_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    two = ratings_json(None, 2, [LevelGame(0, 3, 0, (4, 5), (1, 0))])
    both = ratings_json(two, 3, [LevelGame(0, 0, 0, (1, 2, 3), (2, 1, 0))])
    assert both["format"] == FORMAT and set(both["players"]) == {"2", "3"}
    assert both["players"]["2"]["games"] == 1 and both["players"]["3"]["games"] == 1
    package = tmp_path / "kozyr" / "bots" / "imperial"
    package.mkdir(parents=True)
    (package / "level_ratings.json").write_text(json.dumps(both), encoding="utf-8")

    class Files:
        def __init__(self, name: str) -> None:
            self.path = tmp_path / Path(*name.split("."))

        def __truediv__(self, leaf: str) -> Path:
            return self.path / leaf

    monkeypatch.setattr(shipped.resources, "files", Files)
    got = shipped.level_ratings("imperial")
    # levels that played no game at that player count are not shown
    assert sorted(got) == [2, 3] and sorted(got[2]) == [4, 5] and sorted(got[3]) == [1, 2, 3]
    five = got[2][5]
    assert isinstance(five, LevelRating) and five.games == 1
    # the shown number is a person's: 1500 + 40 x (mu - 3 sigma)
    shown = game_facts.shown_levels("imperial")
    assert shown["2"]["5"]["rating"] == round(1500 + 40 * (five.mu - 3 * five.sigma))
    assert shown["2"]["5"]["rating"] == display(five.mu, five.sigma)
    # one game leaves sigma near a new player's 25/3: provisional
    assert five.sigma > 7 and shown["2"]["5"]["provisional"] is True
    assert shipped.level_ratings("emperor") == {}  # no file: nothing shown


def test_games_file_lines_are_read_by_player_count(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    rows = [
        {"sweep": 0, "pairing": 0, "rotation": 0, "levels": [1, 2], "places": [1, 0]},
        {"sweep": 0, "pairing": 0, "rotation": 0, "levels": [1, 2, 3], "places": [2, 1, 0]},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert [g.levels for g in levels.read_games(path, 2)] == [(1, 2)]
    assert [g.places for g in levels.read_games(path, 3)] == [(2, 1, 0)]
    assert levels.read_games(tmp_path / "none.jsonl", 2) == []
