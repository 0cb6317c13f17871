"""The rating maths: openskill's Plackett-Luce update of hand-made 2, 3 and 4 player
results (a tie among them), the shown number, and who is rated how."""

from __future__ import annotations

import math

import pytest
from openskill.models import PlackettLuce

from kozyr.server.accounts.ratings import (
    DEFAULT,
    VARIANTS,
    Skill,
    display,
    game_update,
    player_of,
    ranks_of,
    rate,
)
from kozyr.server.storage.store import Seat


def openskill(priors: list[Skill], ranks: list[int]) -> list[tuple[float, float]]:
    """openskill's own function, called the way its documentation shows."""
    model = PlackettLuce()
    teams = [[model.rating(mu=s.mu, sigma=s.sigma)] for s in priors]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=ranks)]


def test_two_new_players_by_hand() -> None:
    # Plackett-Luce, defaults mu 25, sigma 25/3, beta 25/6, tau 25/300. With tau the
    # variance is s2 = 625/9 + 625/90000 = 69.45139; c^2 = 2 (s2 + beta^2) = 173.625.
    # Equal mus: the winner's share of exp(mu/c) is 1/2, so omega = +-1/2 * s2 / c and
    # delta = 1/4 * s2 / c^2 * sqrt(s2) / c for both.
    s2 = 625 / 9 + 625 / 90000
    c = math.sqrt(2 * (s2 + (25 / 6) ** 2))
    step = 0.5 * s2 / c  # 2.63539
    delta = 0.25 * s2 / c**2 * math.sqrt(s2) / c
    sigma = math.sqrt(s2) * math.sqrt(1 - delta)  # 8.06594
    winner, loser = rate([DEFAULT, DEFAULT], [1, 2])
    assert winner.mu == pytest.approx(25 + step, abs=1e-9)
    assert loser.mu == pytest.approx(25 - step, abs=1e-9)
    assert winner.sigma == pytest.approx(sigma, abs=1e-9)
    assert loser.sigma == pytest.approx(sigma, abs=1e-9)
    assert winner.mu == pytest.approx(27.635, abs=1e-3) and sigma == pytest.approx(8.066, abs=1e-3)


@pytest.mark.parametrize(
    ("priors", "ranks"),
    [
        ([Skill(25, 25 / 3), Skill(31.5, 4.2)], [2, 1]),
        ([Skill(25, 25 / 3), Skill(28, 6), Skill(20, 7)], [3, 1, 2]),
        ([Skill(25, 25 / 3), Skill(28, 6), Skill(20, 7)], [1, 1, 2]),  # a tie for first
        ([Skill(30, 3), Skill(22, 8), Skill(26, 5), Skill(25, 25 / 3)], [4, 2, 1, 3]),
        ([Skill(30, 3), Skill(22, 8), Skill(26, 5), Skill(25, 25 / 3)], [1, 2, 2, 4]),
    ],
)
def test_updates_are_openskills_own(priors: list[Skill], ranks: list[int]) -> None:
    got = rate(priors, ranks)
    assert [(s.mu, s.sigma) for s in got] == openskill(priors, ranks)  # exactly


def test_a_tie_moves_the_tied_players_alike_and_past_the_last() -> None:
    first, second, third = rate([DEFAULT, DEFAULT, DEFAULT], [1, 1, 2])
    assert first == second
    assert first.mu > 25 > third.mu


def test_the_shown_rating() -> None:
    # 1500 + 40 (mu - 3 sigma)
    assert display(25, 25 / 3) == 1500
    assert display(30, 5) == 1500 + 40 * 15
    assert display(20, 8) == 1500 + 40 * -4
    assert display(25.01, 3) == 2140  # 1500 + 40 * 16.01 = 2140.4


def test_places_become_ranks_and_seats_become_players() -> None:
    # seats in finishing order: seat 2 won, then seat 0, then seat 1
    assert ranks_of([2, 0, 1], 3) == [2, 3, 1]
    assert player_of(Seat(user_id=7, name="Ann")) == "user:7"
    assert player_of(Seat(bot=3, name="bot 3")) == "bot:3"
    assert player_of(Seat()) is None
    assert VARIANTS == ("imperial-2p", "imperial-3p", "emperor-3p", "emperor-4p")


def test_one_bot_level_in_two_seats_keeps_the_mean_of_its_two_results() -> None:
    before = {"bot:3": Skill(27, 6)}
    moved = game_update(["user:1", "bot:3", "bot:3"], [2, 1, 3], before)
    each = rate([DEFAULT, Skill(27, 6), Skill(27, 6)], [2, 1, 3])
    assert moved["bot:3"] == (
        Skill(27, 6),
        Skill((each[1].mu + each[2].mu) / 2, (each[1].sigma + each[2].sigma) / 2),
    )
    assert moved["user:1"] == (DEFAULT, each[0])
